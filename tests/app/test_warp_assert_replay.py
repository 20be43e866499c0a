"""At a Warp Assert (CUDA_EXCEPTION_12) cudatui asks cuda-gdb for no warp or lane table: cuda-gdb
13.0 aborted inside ``-cuda-info-warps``/``-cuda-info-lanes`` at that stop in five of seven H200
runs of the assert lesson, and took the session with it. Over the assert lesson's real recording
(kernels/recordings/assert.jsonl.gz), replayed along its path to the assert stop: the state has no
warps or lanes, the Warps pane says why, and the warp watch and the culprit search (the stop's
``lane_watch`` and ``culprit``) say it too instead of asking."""

from __future__ import annotations

from cudatui.gdbbridge import WARP_TABLES_UNASKED
from cudatui.gdbbridge.debugger.state import WARP_ASSERT
from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, plan_demo
from cudatui.tui.panes.locals import STALE_REGISTERS, LocalsPane
from cudatui.tui.panes.warps import WarpsPane
from tests.support.app import phase
from tests.support.recorded_path import path_of, walk_path
from tests.support.wait import wait_for
from tests.support.sent import commands_sent

RECORDING = RECORDINGS_DIR / "assert.jsonl.gz"


async def test_at_the_warp_assert_no_warp_table_is_asked_and_the_warps_pane_says_why() -> None:
    at_assert = next(s.number for s in path_of(RECORDING) if s.state is not None and s.state.exception == "CUDA_EXCEPTION_12")
    app = DemoApp(plan_demo("assert", "replay"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await walk_path(app, pilot, RECORDING, at_assert)
        state = app.debugger.state
        assert state is not None and state.stop.exception is not None and state.stop.exception.code == WARP_ASSERT
        assert state.warps == () and state.lanes == ()
        assert state.focus is not None and state.focus.lane is not None  # from the stop itself
        pane = app.show_pane("warps")
        assert isinstance(pane, WarpsPane)
        await wait_for(pilot, lambda: WARP_TABLES_UNASKED in str(pane.query_one("#warps-title").render()),
                       why="the Warps pane's reason")
        sent = commands_sent(app.debugger)
        pane.action_edit_watch()  # w
        await wait_for(pilot, lambda: pane.query_one("#watch-input").has_focus, why="the watch's input")
        await pilot.press(*"threadIdx.x", "enter")
        await wait_for(pilot, lambda: pane.watch_error == WARP_TABLES_UNASKED, why="the warp watch's reason")
        assert "Warp Assert" in str(pane.query_one("#watch-title").render())
        assert app.debugger.state.lane_watch is not None and app.debugger.state.lane_watch.error == WARP_TABLES_UNASKED
        pane.action_culprit()  # C
        line = pane.query_one("#culprit-line")
        await wait_for(pilot, lambda: str(line.render()) == f"culprit: {WARP_TABLES_UNASKED}", why="the culprit's reason")
        culprit = app.debugger.state.culprit
        assert culprit is not None and culprit.lane is None and culprit.reason == WARP_TABLES_UNASKED
        assert line.shown.style == "red"  # a search that could not run is said as an error, as before
        walked = [line for line in sent if any(c in line for c in ("-cuda-info-lanes", "-cuda-focus-switch", "-data-evaluate"))]
        assert not walked, walked  # neither listed the lanes nor walked them
        await pilot.press("ctrl+q")


async def test_an_outer_kernel_frames_register_locals_carry_a_note() -> None:
    """At frame 1 of the Warp Assert (one_hot_buggy above __assert_fail) cuda-gdb 13.0 listed
    thread 67's ``i`` and ``column`` as 0 (they are 67 and 10): the Locals pane says under them
    that an outer frame's @register values may be stale."""
    at_frame_1 = next(s.number for s in path_of(RECORDING) if s.kind == "frame" and s.arg == "1")
    app = DemoApp(plan_demo("assert", "replay"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await walk_path(app, pilot, RECORDING, at_frame_1)
        state = app.debugger.state
        assert state is not None and state.selected_frame == 1
        assert {v.name: v.value for v in state.variables if "@register" in v.type}.get("i") == "0"
        pane = app.query_one(LocalsPane)
        await wait_for(pilot, lambda: ("stale",) in pane.rows("frame"), why="the note")
        assert pane.rows("frame")[("stale",)].value == STALE_REGISTERS
        assert list(pane.rows("local"))[:2] == [("i",), ("column",)]  # the note is under the locals
        await pilot.press("ctrl+q")
