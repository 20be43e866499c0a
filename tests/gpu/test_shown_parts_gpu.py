"""What a stop asks cuda-gdb when no pane shows the registers nor the warps' lines (tier 3).

On a GPU box (``gpu`` marker), not recorded (a recorded session asks every part): the race lesson
stops at its breakpoint (a hit: the thread table is asked, for the threads there), then a ``next``
inside the kernel asks for neither the registers nor the thread table nor the breakpoint table;
shown again, the same stop gets its registers (``pc`` is the frame's address) and its thread
table from cuda-gdb, the frame and focus unchanged, with no failed query.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys

import pytest

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger, Step
from cudatui.gdbbridge.debugger.status import Phase
from tests.support.debugger_watch import Watcher
from tests.support.paths import ROOT
from tests.support.wait import until

OPERATIONS = ("-data-list-register-values", "-cuda-info-threads", "-break-list")


@pytest.mark.gpu
async def test_a_step_asks_only_what_is_shown_and_the_rest_when_shown() -> None:
    if shutil.which("cuda-gdb") is None:
        pytest.skip("cuda-gdb is not on PATH")
    from cudatui.kernels.lessons import get_lesson

    subprocess.run([sys.executable, "-m", "cudatui.kernels.build", "--all"], cwd=ROOT, check=True, capture_output=True)
    lesson = get_lesson("race")
    spec = BreakpointSpec(*lesson.breakpoint_specs()[0])
    debugger = Debugger(LaunchConfig(debugger=("cuda-gdb",), target=(sys.executable, str(lesson.demo_path)),
                                     breakpoints=(str(spec),), cwd=str(lesson.source.parent)))
    watcher = Watcher(debugger)
    debugger.show_parts(registers=False, threads=False)

    def asked() -> dict[str, int]:
        return {op: sum(1 for line in watcher.sent if line.split(" ", 1)[0] == op) for op in OPERATIONS}

    try:
        await asyncio.wait_for(debugger.start(), 60)
        first = await until(lambda: debugger.state if debugger.phase is Phase.STOPPED else None, 180)
        assert first.stop.reason == "breakpoint-hit" and first.focus is not None and first.threads
        at_hit = asked()
        assert at_hit["-data-list-register-values"] == 0 and at_hit["-cuda-info-threads"] >= 1 and at_hit["-break-list"] >= 1

        await asyncio.wait_for(debugger.resume(Step.NEXT), 120)
        stepped = await until(lambda: debugger.state if debugger.state is not None and debugger.state.stop is not first.stop
                              and debugger.phase is Phase.STOPPED else None, 120)
        assert stepped.stop.reason == "end-stepping-range" and stepped.warps and stepped.lanes and not stepped.errors
        assert stepped.unasked == {"registers", "threads"} and stepped.breakpoints == first.breakpoints
        assert asked() == at_hit

        debugger.show_parts(registers=True, threads=True)
        full = await until(lambda: debugger.state if debugger.state is not None and not debugger.state.unasked
                           and not debugger.busy else None, 60)
        assert full.stop is stepped.stop and full.focus == stepped.focus and full.frame == stepped.frame
        assert full.threads and not full.errors, full.errors
        registers = {r.name: r for r in full.registers}
        assert "R0" in registers and full.frame is not None and registers["pc"].int_value == full.frame.addr
        assert asked() == {**at_hit, "-data-list-register-values": 1, "-cuda-info-threads": at_hit["-cuda-info-threads"] + 1}
    finally:
        await debugger.close()
