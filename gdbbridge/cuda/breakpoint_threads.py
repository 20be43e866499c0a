"""The threads sitting at a breakpoint's line.

cuda-gdb reports one hit of a breakpoint even when threads of several resident blocks reached it
at once (measured on an H200: a condition true in three blocks, one stop). cuda-gdb 13.0 has no
filter that lists them: ``info cuda threads breakpoint 1``, ``... breakpoint all`` and ``...
breakpoint`` all answer ``Incorrect filter`` (H200, batches 12 and 13, docs/gpu-runs/batch13.md).
So the threads at a breakpoint are the coalesced ranges of ``-cuda-info-threads`` whose file and
line are one of the breakpoint's locations. The condition is not evaluated thread by thread:
every thread of a resident block that sits at the line is listed (on the H200 at
``threadIdx.x == 5 && blockIdx.x < 3``: one range, blocks 0 to 3, 256 threads).
"""

from __future__ import annotations

import os

from cudatui.gdbbridge.models.cuda import ThreadRange
from cudatui.gdbbridge.models import Breakpoint


def places(bp: Breakpoint) -> set[tuple[str, int]]:
    """(file base name, line) of each location of ``bp``."""
    found = {(os.path.basename(bp.file), bp.line)} if bp.file and bp.line is not None else set()
    found |= {(os.path.basename(loc.file), loc.line) for loc in bp.locations if loc.file and loc.line is not None}
    return found


def at_breakpoint(ranges: tuple[ThreadRange, ...], bp: Breakpoint) -> tuple[ThreadRange, ...]:
    """The ranges of ``ranges`` (``-cuda-info-threads``) that sit at one of ``bp``'s lines."""
    lines = places(bp)
    return tuple(r for r in ranges if r.file and r.line is not None and (os.path.basename(r.file), r.line) in lines)
