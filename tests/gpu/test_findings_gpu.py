"""From a compute-sanitizer finding to cuda-gdb stopped on its thread, on a real GPU.

- Lessons (Python programs): the finding of the lesson's tool becomes ``-b 'FILE:LINE if
  blockIdx... && threadIdx...'`` for the debugger UI (what ``cudatui sanitize`` hands over on
  ``d``); the first stop must be that block/thread at that line.
- A native binary, inside one debugger UI: run to its CUDA exception, run memcheck from the
  sanitizer pane, "Debug this finding" (the breakpoint goes in, the program restarts), then
  "Post-mortem" (memcheck writes a GPU coredump, the UI opens it with ``target cudacore``).

Each session is recorded to $CUDATUI_RECORD_DIR (if set) for replay tests; the time from start
to the culprit's stop is printed (run with ``-s``).
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.sanitizer.culprit_stop import debug_breakpoint_for
from cudatui.gdbbridge.sanitizer.findings import Dim3, FindingGroup
from cudatui.gdbbridge.sanitizer.run import SanitizerRequest, run_sanitizer
from cudatui.kernels.lessons import get_lesson
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.launch import debug_config
from cudatui.tui.panes.sanitizer import SanitizerPane
from tests.support.paths import FIXTURES, ROOT, record_to
from tests.support.wait import wait_for

pytestmark = pytest.mark.gpu

NATIVE = FIXTURES / "c" / "findings" / "t.cu"
BAD_LINE = next(i for i, text in enumerate(NATIVE.read_text().splitlines(), 1) if "// BAD" in text)


def dims(d: Dim3 | None) -> tuple[int, int, int] | None:
    return None if d is None else (d.x, d.y, d.z)


def culprit(groups: tuple[FindingGroup, ...] | list[FindingGroup]) -> FindingGroup:
    return next(g for g in groups if g.first.block is not None and g.first.thread is not None
                and g.first.file and g.first.line)


@pytest.mark.parametrize(("name", "tool"), [("uninit", "initcheck"), ("assert", "memcheck"), ("oob", "memcheck")])
async def test_debug_this_finding_stops_a_lesson_on_the_culprit_thread(
        built_lessons, name, tool, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    lesson = get_lesson(name)
    result = await run_sanitizer(SanitizerRequest(program=str(lesson.demo_path), tool=tool, cwd=str(ROOT)))
    group = culprit(result.report.groups)
    spec = BreakpointSpec(*debug_breakpoint_for(group))
    print(f"{name}: {group.count} finding(s), first {group.first.kind} at {spec}")
    config = replace(debug_config(str(lesson.demo_path), breakpoints=(str(spec),)),
                     record=record_to(f"finding_{name}", tmp_path))
    app = DebuggerApp(config)
    started = time.monotonic()
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None or app.debugger.status.phase in ("exited", "dead"),
                       150, "the first stop")
        state = app.debugger.state
        print(f"{name}: first stop after {time.monotonic() - started:.1f} s: {app.debugger.status}")
        assert state is not None and state.focus is not None, app.debugger.status
        assert (state.focus.block, state.focus.thread) == (dims(group.first.block), dims(group.first.thread))
        assert state.frame is not None and state.frame.line == group.first.line
        assert state.stop.reason == "breakpoint-hit"


def build_native(tmp_path: Path) -> Path:
    source = tmp_path / "t.cu"
    source.write_text(NATIVE.read_text())
    exe = tmp_path / "t"
    subprocess.run(["nvcc", "-g", "-G", "-arch=sm_90", "-o", str(exe), str(source)], cwd=tmp_path, check=True)
    return exe


async def test_native_handoff_condition_holds_from_the_first_hit(built_lessons, tmp_path) -> None:
    """What `cudatui sanitize` hands over on d for a native binary: cuda-gdb refuses the
    threadIdx condition before the kernel is loaded, so it is applied at the launch stop."""
    exe = build_native(tmp_path)
    spec = BreakpointSpec(f"t.cu:{BAD_LINE}", "blockIdx.x == 1 && threadIdx.x == 5")
    config = replace(debug_config(str(exe), breakpoints=(str(spec),)), cwd=str(tmp_path),
                     record=record_to("finding_native_handoff", tmp_path))
    app = DebuggerApp(config)
    async with app.run_test(size=(160, 48)) as pilot:
        debugger = app.debugger
        await wait_for(pilot, lambda: debugger.state is not None or debugger.status.phase in ("exited", "dead"),
                       120, "the first stop")
        state = debugger.state
        assert state is not None and state.stop.reason == "breakpoint-hit", debugger.status
        assert (state.focus.block, state.focus.thread, state.frame.line) == ((1, 0, 0), (5, 0, 0), BAD_LINE)
        assert debugger.breakpoints is not None and not debugger.breakpoints.deferred and not debugger.breakpoints.launch_armed
        (bp,) = state.breakpoints
        assert bp.condition == "blockIdx.x == 1 && threadIdx.x == 5" and bp.hits == 1


async def test_native_exception_then_debug_this_finding_then_post_mortem(built_lessons, tmp_path) -> None:
    exe = build_native(tmp_path)
    config = replace(debug_config(str(exe)), cwd=str(tmp_path), record=record_to("finding_native_exception", tmp_path))
    app = DebuggerApp(config)
    async with app.run_test(size=(160, 48)) as pilot:
        debugger = app.debugger
        await wait_for(pilot, lambda: debugger.state is not None, 120, "the CUDA exception")
        assert debugger.state.stop.exception is not None, debugger.state.stop
        print(f"native: {debugger.state.stop.exception.signal_name} at block {debugger.state.focus.block}")

        pane = app.query_one(SanitizerPane)
        app.action_sanitize()
        await wait_for(pilot, lambda: pane.groups and not pane.running, 120, "memcheck in the sanitizer pane")
        group = culprit(pane.groups)
        assert pane.selected_group() is group
        assert (dims(group.first.block), dims(group.first.thread), group.first.line) == ((1, 0, 0), (5, 0, 0), BAD_LINE)

        debugger._ctx.config = replace(debugger.config, record=record_to("finding_native_debug", tmp_path))  # white-box: the next run records apart
        first = debugger.state
        started = time.monotonic()
        pane.action_debug()
        await wait_for(pilot, lambda: debugger.state is not first and debugger.state is not None
                       and debugger.state.stop.reason == "breakpoint-hit", 120, "the finding's breakpoint")
        state = debugger.state
        print(f"native: debug-this-finding stop after {time.monotonic() - started:.1f} s: {debugger.status}")
        assert (state.focus.block, state.focus.thread, state.frame.line) == ((1, 0, 0), (5, 0, 0), BAD_LINE)

        debugger._ctx.config = replace(debugger.config, record=record_to("finding_native_core", tmp_path))  # white-box: as above
        started = time.monotonic()
        pane.action_post_mortem()
        await wait_for(pilot, lambda: debugger.config.core is not None and (
            debugger.status.phase == "dead" or debugger.state is not None and debugger.state.stop.reason != "breakpoint-hit"
        ), 180, "the coredump to open")
        state = debugger.state
        print(f"native: coredump {debugger.config.core} opened after {time.monotonic() - started:.1f} s: "
              f"{debugger.status} stop={state.stop.reason if state else None}")
        assert debugger.status.phase == "stopped", debugger.status
        assert state.focus is not None, state.errors
        assert (state.focus.block, state.focus.thread) == ((1, 0, 0), (5, 0, 0))
        assert state.frame is not None and state.frame.line == BAD_LINE
