"""The threads sitting at a breakpoint: ``info cuda threads breakpoint N``.

cuda-gdb reports one hit of a breakpoint even when threads of several resident blocks reached
it at once (measured on an H200: a condition true in three blocks, one stop). Its
``info cuda threads breakpoint N`` lists them all; it has no MI form, so it is run through the
console and its table is parsed here. The console table has the columns of
``-cuda-info-threads`` (``CoalescedInfoCudaThreadsTable``), one ``Kernel K`` line above each
kernel's rows, ``*`` on the focused range::

      BlockIdx ThreadIdx To BlockIdx To ThreadIdx Count         Virtual PC Filename Line
    Kernel 0
    *  (0,0,0)   (0,0,0)     (0,0,0)    (31,0,0)    32 0x00007ffd037a2560  bugs.cu    9
       (1,0,0)   (0,0,0)     (2,0,0)   (255,0,0)   512 0x00007ffd037a2560  bugs.cu    9
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cudatui.gdbbridge.convert import to_dim3, to_int
from cudatui.gdbbridge.cuda.models import ThreadRange

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession

_DIM3 = r"\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*\)"
_ROW = re.compile(rf"^\s*(\*?)\s*({_DIM3})\s+({_DIM3})\s+({_DIM3})\s+({_DIM3})\s+(\d+)\s+(0x[0-9a-fA-F]+)"
                  r"(?:\s+(.+?)\s+(\d+))?\s*$")
_KERNEL = re.compile(r"^\s*Kernel\s+(\d+)\s*$")


def parse_breakpoint_threads(text: str) -> tuple[ThreadRange, ...]:
    """The thread ranges of ``info cuda threads`` console text (any filter), in its order."""
    kernel = 0
    out = []
    for line in text.splitlines():
        heading = _KERNEL.match(line)
        if heading:
            kernel = int(heading.group(1))
            continue
        m = _ROW.match(line)
        if m is None:
            continue
        out.append(ThreadRange(
            kernel=kernel,
            first_block=to_dim3(m.group(2)),
            first_thread=to_dim3(m.group(3)),
            last_block=to_dim3(m.group(4)),
            last_thread=to_dim3(m.group(5)),
            count=int(m.group(6)),
            pc=to_int(m.group(7)),
            file=m.group(8),
            line=to_int(m.group(9)),
            current=m.group(1) == "*",
        ))
    return tuple(out)


def console_command(number: int) -> str:
    """The console command listing the threads at breakpoint ``number``."""
    return f"info cuda threads breakpoint {int(number)}"


async def threads_at_breakpoint(session: "GdbSession", number: int) -> tuple[ThreadRange, ...]:
    """The thread ranges sitting at breakpoint ``number`` (MIError when cuda-gdb refuses)."""
    return parse_breakpoint_threads(await session.console(console_command(number)))
