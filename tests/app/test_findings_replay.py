"""From a sanitizer finding to its thread, over real cuda-gdb 13.0 sessions recorded on an H200
by tests/gpu/test_findings_gpu.py (tests/fixtures/recorded/findings/, docs/gpu-runs batches 5-6).

- native_handoff: ``-b 't.cu:4 if blockIdx.x == 1 && threadIdx.x == 5'`` on a native binary:
  cuda-gdb refuses the condition before the kernel is loaded, so it goes in at the kernel launch
  stop and the first hit is the culprit thread.
- native_exception: run to the Warp Illegal Address, then "Debug this finding": the breakpoint
  goes in, the program is killed and run again, and stops on the culprit.
- native_core: post-mortem, ``target cudacore`` on the coredump memcheck wrote.
- uninit / assert / oob: the lessons' findings as ``-b`` breakpoints (Python programs).
"""

from __future__ import annotations

import gzip
import json
import re

import pytest

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.panes.source import SourcePane
from tests.support.app import value
from tests.support.paths import FIXTURES, ROOT
from tests.support.wait import wait_for

FINDINGS = FIXTURES / "recorded" / "findings"
NATIVE_SOURCE = FIXTURES / "c" / "findings"
BAD_LINE = 4


def sent(name: str, pattern: str) -> re.Match[str]:
    """The first command the recording sent that matches ``pattern``."""
    with gzip.open(FINDINGS / name, "rt") as lines:
        for line in lines:
            entry = json.loads(line)
            if entry["dir"] == "in" and (m := re.search(pattern, entry["line"])):
                return m
    raise AssertionError(f"{name} sent nothing like {pattern}")


def replay(name: str, **config: object) -> LaunchConfig:
    return LaunchConfig.replay(FINDINGS / name, cwd=str(ROOT), **config)


async def test_post_mortem_opens_the_coredump_on_the_faulting_thread() -> None:
    core = sent("finding_native_core.jsonl.gz", r'target cudacore (\S+)"$')[1]
    app = DebuggerApp(replay("finding_native_core.jsonl.gz", core=core, source_dirs=(str(NATIVE_SOURCE),)))
    async with app.run_test(size=(160, 48)) as pilot:
        debugger = app.debugger
        await wait_for(pilot, lambda: debugger.status.phase == "stopped")
        state = debugger.state
        assert state is not None and state.stop.reason == "core" and state.stop.signal == "SIGTRAP"
        assert (state.focus.block, state.focus.thread, state.focus.sm, state.focus.lane) == ((1, 0, 0), (5, 0, 0), 126, 5)
        assert debugger.status.detail == "post-mortem (GPU coredump)" and "block (1,0,0) thread (5,0,0)" in str(
            debugger.status.focus)
        source = app.query_one(SourcePane)
        await wait_for(pilot, lambda: source.view.current == BAD_LINE)
        assert source.shown is not None and source.shown.local == NATIVE_SOURCE / "t.cu"
        assert value(app, "t") == "5" and value(app, "v") == "10"


async def test_native_handoff_applies_the_condition_at_the_launch_stop() -> None:
    spec = f"t.cu:{BAD_LINE} if blockIdx.x == 1 && threadIdx.x == 5"
    app = DebuggerApp(replay("finding_native_handoff.jsonl.gz", breakpoints=(spec,),
                             source_dirs=(str(NATIVE_SOURCE),)))
    async with app.run_test(size=(160, 48)) as pilot:
        debugger = app.debugger
        await wait_for(pilot, lambda: debugger.status.phase == "stopped")
        state = debugger.state
        assert state.stop.reason == "breakpoint-hit" and state.stop.breakpoint == 1
        assert (state.focus.block, state.focus.thread, state.frame.line) == ((1, 0, 0), (5, 0, 0), BAD_LINE)
        assert debugger.breakpoints is not None and not debugger.breakpoints.deferred and not debugger.breakpoints.launch_armed
        (bp,) = state.breakpoints
        assert bp.condition == "blockIdx.x == 1 && threadIdx.x == 5" and bp.hits == 1
        assert value(app, "t") == "5"


async def test_debug_this_finding_after_the_cuda_exception_reruns_onto_the_culprit() -> None:
    location = sent("finding_native_exception.jsonl.gz", r'-break-insert -f -c "[^"]*" "([^"]+)"')[1]
    app = DebuggerApp(replay("finding_native_exception.jsonl.gz", source_dirs=(str(NATIVE_SOURCE),)))
    async with app.run_test(size=(160, 48)) as pilot:
        debugger = app.debugger
        await wait_for(pilot, lambda: debugger.status.phase == "stopped")
        crash = debugger.state
        assert crash.stop.exception is not None and crash.stop.exception.signal_name == "CUDA_EXCEPTION_14"
        assert crash.focus.block == (1, 0, 0)
        await debugger.debug_finding(BreakpointSpec(location, "blockIdx.x == 1 && threadIdx.x == 5"))
        await wait_for(pilot, lambda: debugger.state is not crash and debugger.status.phase == "stopped"
                       and debugger.state.stop.reason == "breakpoint-hit")
        state = debugger.state
        assert (state.focus.block, state.focus.thread, state.frame.line) == ((1, 0, 0), (5, 0, 0), BAD_LINE)
        assert state.stop.exception is None and debugger.status.detail == "breakpoint 1"


@pytest.mark.parametrize("lesson", ["uninit", "assert", "oob"])
async def test_a_lessons_finding_as_a_breakpoint_stops_on_its_thread(lesson: str) -> None:
    name = f"finding_{lesson}.jsonl.gz"
    m = sent(name, r'-break-insert -f -c "blockIdx\.x == (\d+) && threadIdx\.x == (\d+)" "([^"]+):(\d+)"')
    block, thread, path, line = int(m[1]), int(m[2]), m[3], int(m[4])
    spec = f"{path}:{line} if blockIdx.x == {block} && threadIdx.x == {thread}"
    app = DebuggerApp(replay(name, breakpoints=(spec,), source_dirs=(str(ROOT / "kernels"),)))
    async with app.run_test(size=(160, 48)) as pilot:
        debugger = app.debugger
        await wait_for(pilot, lambda: debugger.status.phase == "stopped")
        state = debugger.state
        assert (state.focus.block, state.focus.thread) == ((block, 0, 0), (thread, 0, 0))
        assert state.frame.line == line and state.stop.reason == "breakpoint-hit"
        source = app.query_one(SourcePane)
        await wait_for(pilot, lambda: source.view.current == line)
        assert source.shown.local == ROOT / "kernels" / f"{lesson}.cu"
