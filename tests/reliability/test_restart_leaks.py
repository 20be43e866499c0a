"""Issue 36, what held: 30 restarts without descriptor or memory growth.

A Debugger (the UI's façade) on real GNU gdb and tests/fixtures/c/app/steps.c with a
breakpoint; after a few restarts to warm up (first imports, caches), 30 more restarts (``r``),
each waited for until its stop is published: the process holds the same descriptors as before
them, and Python's allocations grew by less than 1 MiB (tracemalloc, the objects alive).
"""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.status import Phase
from tests.support.programs import BREAK_LINE, needs_gdb
from tests.support.wait import until

pytestmark = needs_gdb
WAIT = 60.0
WARM_UP, RESTARTS = 5, 30


def descriptors() -> list[str]:
    """What this process's open descriptors point at, sorted (a pty, a socket, a file...)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.append(os.readlink(f"/proc/self/fd/{fd}").split("[")[0])
        except OSError:
            continue
    return sorted(found)


async def restart(debugger: Debugger) -> None:
    """``r``, then until the new run's stop is published and nothing is in flight."""
    before = debugger.state.generation if debugger.state is not None else -1
    await debugger.restart()
    await until(lambda: debugger.phase is Phase.STOPPED and debugger.state is not None
                and debugger.state.generation > before and not debugger.busy, WAIT, "the restarted run's stop")


async def test_thirty_restarts_leave_no_descriptor_and_no_memory_behind(steps: Path) -> None:
    debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(steps),), breakpoints=(f"steps.c:{BREAK_LINE}",),
                                     cwd=str(steps.parent)))
    try:
        await debugger.start()
        await until(lambda: debugger.phase is Phase.STOPPED and not debugger.busy, WAIT, "the first stop")
        for _ in range(WARM_UP):
            await restart(debugger)
        held = descriptors()
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            for _ in range(RESTARTS):
                await restart(debugger)
            grown = tracemalloc.get_traced_memory()[0] - base
        finally:
            tracemalloc.stop()
        assert descriptors() == held
        assert grown < 1 << 20, f"{grown} bytes more after {RESTARTS} restarts"
        assert debugger.state is not None and debugger.state.frame is not None and debugger.state.frame.line == BREAK_LINE
    finally:
        await debugger.close()
