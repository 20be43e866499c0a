"""The stop a GPU coredump holds, from what cuda-gdb prints when it opens one.

cuda-gdb 13.0 prints no ``*stopped`` for ``target cudacore PATH``, only console text: the focus
("[Current focus set to CUDA kernel 0, ..., lane 5]"), and either the signal that ended the program
("Program terminated with signal SIGTRAP, ...") or, for the driver's dump of a fault, the
exception alone ("CUDA Exception: Warp Illegal Address", batch 27 on the H200).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cudatui.gdbbridge.models import StopEvent
from cudatui.gdbbridge.models.cuda import CudaException, CudaFocus
from cudatui.gdbbridge.session.errors import MIError

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession

_TERMINATED = re.compile(r"Program terminated with signal (?P<name>\S+), (?P<meaning>[^.\n]+)")
"""How gdb says which signal ended the program a core file holds."""
_CUDA_EXCEPTION = re.compile(r"CUDA Exception: *(?P<name>[^\n]+)")
"""How cuda-gdb names the exception a GPU coredump holds (the driver's dump of a fault: no signal)."""


def core_stop(text: str) -> StopEvent:
    """The stop (reason ``core``) that the console ``text`` of opening a coredump describes."""
    ended, raised = _TERMINATED.search(text), _CUDA_EXCEPTION.search(text)
    exception = CudaException.from_name(raised["name"]) if raised else None
    return StopEvent(reason="core", focus=CudaFocus.from_console(text),
                     signal=ended["name"] if ended else exception.signal_name if exception else None,
                     signal_meaning=ended["meaning"] if ended else exception.name if exception else None,
                     exception=exception)


async def open_core(session: GdbSession, path: str) -> StopEvent:
    """Open a GPU coredump (``target cudacore PATH``) in ``session`` and return the stop it holds
    (made from cuda-gdb's console text: :func:`core_stop`). MIError when cuda-gdb cannot open the file."""
    if "\n" in path or "\r" in path:
        raise MIError("a coredump path cannot contain a line break", "target cudacore")
    before = session.last_stop
    text = await session.console(f"target cudacore {path}")
    if session.last_stop is not before and session.last_stop is not None:
        return session.last_stop
    session.last_stop = core_stop(text)
    session.state = "stopped"
    return session.last_stop
