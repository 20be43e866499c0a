"""The stack pane against a real GNU gdb on tests/fixtures/c/app/panes.c (``depth(3)`` recurses
to ``depth(0)``): one row per frame, innermost first, the selected frame marked; enter selects a
frame and the locals and source follow; the rows follow the stack as frames return."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.stack import StackPane
from tests.support.app import gdb_config, phase, rows, stopped_at, tree_rows, value
from tests.support.programs import PANES, marked_line, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb

BOTTOM = marked_line(PANES, "/* BOTTOM */")
RECURSE = marked_line(PANES, "/* RECURSE */")
CALL = marked_line(PANES, "/* CALL */")


def stack(app: DebuggerApp) -> dict[str, list[str]]:
    return rows(app, StackPane)


def selected(app: DebuggerApp) -> list[str]:
    """The levels marked as the selected frame."""
    return [level for level, row in stack(app).items() if row[0] == "▶"]


async def test_each_frame_is_a_row_innermost_first_with_the_selected_one_marked(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{BOTTOM}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BOTTOM)
        assert {level: row[1:] for level, row in stack(app).items()} == {
            "0": ["0", "depth", f"panes.c:{BOTTOM}"],
            "1": ["1", "depth", f"panes.c:{RECURSE}"],
            "2": ["2", "depth", f"panes.c:{RECURSE}"],
            "3": ["3", "depth", f"panes.c:{RECURSE}"],
            "4": ["4", "main", f"panes.c:{CALL}"],
        }
        assert selected(app) == ["0"]


async def test_enter_on_a_frame_selects_it_and_locals_and_source_follow(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{BOTTOM}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BOTTOM)
        assert value(app, "n") == "0"
        table = app.query_one(StackPane).query_one(DataTable)
        table.focus()
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: selected(app) == ["2"], why="frame 2 to be selected")
        source = app.query_one(SourcePane)
        await wait_for(pilot, lambda: value(app, "n") == "2" and source.view.current == RECURSE)
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: selected(app) == ["4"], why="main's frame to be selected")
        await wait_for(pilot, lambda: source.view.current == CALL and "levels" in tree_rows(app))
        assert value(app, "sum") == "10"
        assert "n" not in tree_rows(app)
        assert len(stack(app)) == 5  # selecting a frame leaves the stack as it is


async def test_the_rows_follow_the_stack_as_frames_return_and_empty_at_the_exit(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{BOTTOM}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BOTTOM)
        assert len(stack(app)) == 5
        await pilot.press("f")
        await wait_for(pilot, lambda: phase(app) == "stopped" and len(stack(app)) == 4, why="finish to return a frame")
        assert stack(app)["0"][1:] == ["0", "depth", f"panes.c:{RECURSE}"] and stack(app)["3"][2] == "main"
        assert selected(app) == ["0"] and value(app, "n") == "1"
        await pilot.press("f")
        await wait_for(pilot, lambda: phase(app) == "stopped" and len(stack(app)) == 3, why="finish to return a frame")
        assert value(app, "n") == "2"
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        await wait_for(pilot, lambda: stack(app) == {}, why="the stack to empty after the exit")
