"""Pilot tests of the debugger app driving a real GNU gdb on a small C program."""

from __future__ import annotations

import os
import signal
from dataclasses import replace
from pathlib import Path

from textual.widgets import DataTable, Input

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.screens.help import HelpScreen
from cudatui.tui.messages import FrameSelected
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.panes.breakpoints import BreakpointsPane
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.stack import StackPane
from tests.support.app import gdb_config, phase, stopped_at, tree_changed, tree_rows, value
from tests.support.programs import BREAK_LINE, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb


async def test_break_next_step_finish_continue_to_exit(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        assert app.debugger.status.detail == "breakpoint 1"
        assert value(app, "total") == "0"
        assert app.query_one(SourcePane).view.marks == {BREAK_LINE: True}
        assert str(app.query_one(BreakpointsPane).query_one(DataTable).get_cell("1", "hits")) == "1"
        await wait_for(pilot, lambda: "red  bell^G" in app.query_one(OutputPane).text)
        assert "\x1b" not in app.query_one(OutputPane).text and "evil title" not in app.query_one(OutputPane).text

        await pilot.press("s")
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(SourcePane).view.current == 6)
        stack = app.query_one(StackPane).query_one(DataTable)
        assert [str(stack.get_cell(k, "function")) for k in ("0", "1")] == ["square", "main"]
        await pilot.press("f")
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.debugger.status.detail == "finish")
        assert app.query_one(SourcePane).view.current == BREAK_LINE

        await pilot.press("n")
        await stopped_at(pilot, app, BREAK_LINE + 1)
        assert value(app, "total") == "9"
        assert tree_changed(app, "total")

        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        assert app.debugger.status.detail == "0"
        await wait_for(pilot, lambda: "total=10" in app.query_one(OutputPane).text)
        await pilot.press("q")
    assert app.debugger.debugger_pid is not None and not app.debugger.alive


async def test_toggle_breakpoint_at_cursor_select_frame_and_restart(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, "square"))
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, 6)
        source = app.query_one(SourcePane)
        source.view.focus()
        source.view.cursor = BREAK_LINE + 1
        await pilot.press("b")
        await wait_for(pilot, lambda: BREAK_LINE + 1 in source.view.marks)
        app.post_message(FrameSelected(1))
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.selected_frame == 1)
        assert source.view.current == BREAK_LINE and "total" in tree_rows(app)

        await pilot.press("c")
        await stopped_at(pilot, app, BREAK_LINE + 1)
        assert app.debugger.status.detail == "breakpoint 2"
        await pilot.press("f9")
        await wait_for(pilot, lambda: BREAK_LINE + 1 not in source.view.marks)

        await pilot.press("r")
        await stopped_at(pilot, app, 6)
        assert str(app.query_one(BreakpointsPane).query_one(DataTable).get_cell("1", "hits")) == "1"


async def test_bad_breakpoint_is_a_warning_and_r_runs_the_program_anyway(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, "nosuchfile.c:3"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "ready")  # pending in a native program: not run
        await wait_for(pilot, lambda: any("nosuchfile.c:3 is pending (No source file named nosuchfile.c.)" in n.message
                                          for n in app.notices.entries if n.severity == "warning"),
                       why="the warning (the status can be shown before the notification is)")
        await pilot.press("r")
        await wait_for(pilot, lambda: phase(app) == "exited")
        await pilot.press("n")
        await wait_for(pilot, lambda: any("not running" in n.message for n in app.notices.entries), why="'not running'")
        assert any("not running" in n.message for n in app.notices.entries)
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code == 0)


async def test_debug_finding_after_the_program_exited_breaks_there_and_runs_again(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited")
        await app.debugger.debug_finding(BreakpointSpec("steps.c:6", "x == 3"))
        await stopped_at(pilot, app, 6)
        assert value(app, "x") == "3" and app.debugger.status.detail == "breakpoint 1"
        (bp,) = app.debugger.state.breakpoints
        assert (bp.line, bp.condition) == (6, "x == 3")


async def test_a_coredump_gdb_cannot_open_is_an_error_not_a_spinner(steps: Path, tmp_path: Path) -> None:
    core = tmp_path / "not a core.nvcudmp"
    core.write_bytes(b"\x7fELF fake coredump")
    app = DebuggerApp(replace(gdb_config(steps), core=str(core)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "dead")
        errors = [n.message for n in app.notices.entries if n.severity == "error"]
        assert any(e.startswith("gdb: ") and "cudacore" in e for e in errors), errors
        assert app.debugger.status.detail.startswith("coredump not opened:")
        assert app.debugger.alive


async def test_after_the_debugger_died_the_new_sessions_stops_reach_every_pane(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, "square"))
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, 6)
        for key, line in (("n", 7), ("f", BREAK_LINE), ("n", BREAK_LINE + 1), ("n", BREAK_LINE + 2)):
            await pilot.press(key)
            await stopped_at(pilot, app, line)
        old = app.debugger.state
        os.kill(app.debugger.debugger_pid, signal.SIGKILL)
        await wait_for(pilot, lambda: phase(app) == "dead")
        await pilot.press("r")
        await wait_for(pilot, lambda: app.debugger.state is not old and phase(app) == "stopped")
        new = app.debugger.state
        assert new.generation > old.generation
        await stopped_at(pilot, app, 6)
        assert app.query_one(StackPane).state is new and app.query_one(LocalsPane).state is new


async def test_debugger_death_restart_help_palette_and_quit_from_a_dialog(steps: Path) -> None:
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(steps),), run=False, cwd=str(steps.parent)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.debugger.status.detail.startswith("loaded, not started"))
        first = app.debugger.debugger_pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        await wait_for(pilot, lambda: phase(app) == "dead")
        assert any("Press r to restart" in n.message for n in app.notices.entries)
        await pilot.press("r")
        await wait_for(pilot, lambda: phase(app) == "exited")
        assert app.debugger.debugger_pid not in (first, None) and app.debugger.status.detail == "0"

        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {"Continue to the next stop", "Next: step over a line", "Step into a call",
                "Finish: run until the frame returns", "Breakpoint on or off at the source cursor",
                "Go to a CUDA focus (block, thread, warp, lane)", "Sanitize", "Explain error"} <= set(titles)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code == 0)
    assert app.debugger.debugger_pid is not None and not app.debugger.alive
