"""Source navigation against a real GNU gdb on a program of two source files and four frames
(tests/fixtures/c/nav): search with n/N and its wrap, go to line, the file finder and a
breakpoint in the file it opened, frames moved from the console (``up 2``, an empty Enter
repeating it), from the keys (u/d, </>) and followed by Stack, Locals and Source; at 80x24 and
160x48."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, OptionList

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.widgets.file_finder import FileFinder
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.stack import StackPane
from tests.support.app import gdb_config, messages, no_internal_errors, phase, stopped_at
from tests.support.programs import NAV_MAIN, NAV_WALK, compile_nav, marked_line, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb

LEAF = marked_line(NAV_WALK, "/* LEAF */")
WALK = marked_line(NAV_WALK, "/* WALK */")
OUTER = marked_line(NAV_MAIN, "/* OUTER */")
MAIN = marked_line(NAV_MAIN, "/* MAIN */")
ACC = [i for i, line in enumerate(NAV_WALK.read_text().splitlines(), 1) if "acc" in line]
"""The lines of nav_walk.c where ``acc`` is (one match each)."""

SIZES = pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])


@pytest.fixture(scope="module")
def nav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_nav(tmp_path_factory.mktemp("nav") / "nav")


def title(app: DebuggerApp) -> str:
    return str(app.query_one(SourcePane).query_one("#source-title").render())


def shown_file(app: DebuggerApp) -> str:
    shown = app.query_one(SourcePane).shown
    return Path(shown.debugger_path).name if shown else ""


def selected(app: DebuggerApp) -> int | None:
    return app.debugger.state.selected_frame if app.debugger.state else None


def stack_mark(app: DebuggerApp) -> str:
    """The level the Stack pane marks as selected."""
    table = app.query_one(StackPane).query_one("#stack-table", DataTable)
    return next(str(table.get_cell(row.key, "level")) for row in table.ordered_rows
                if str(table.get_cell(row.key, "mark")) == "▶")


def at_frame(app: DebuggerApp, level: int, file: str, line: int) -> bool:
    view = app.query_one(SourcePane).view
    return selected(app) == level and stack_mark(app) == str(level) and shown_file(app) == file and view.current == line


@SIZES
async def test_search_next_previous_wrap_goto_line_and_n_steps_again(nav: Path, size: tuple[int, int]) -> None:
    app = DebuggerApp(gdb_config(nav, "leaf"))
    async with app.run_test(size=size) as pilot:
        await stopped_at(pilot, app, LEAF)
        assert title(app).endswith(f"nav_walk.c:{LEAF} · leaf")
        source = app.query_one(SourcePane)
        view = source.view
        view.focus()
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        await pilot.press(*"acc", "enter")
        await wait_for(pilot, lambda: view.search is not None and app.focused is view)
        assert [m.line for m in view.search.matches] == ACC and view.cursor == ACC[0]
        assert f"/acc 1/{len(ACC)}" in title(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: view.cursor == ACC[1])
        await pilot.press("n", "n")
        await wait_for(pilot, lambda: view.cursor == ACC[0])
        assert "wrapped to the top" in title(app) and any("wrapped to the top" in m for m in messages(app))
        await pilot.press("N")
        await wait_for(pilot, lambda: view.cursor == ACC[-1])
        assert "wrapped to the bottom" in title(app)
        assert phase(app) == "stopped" and view.current == LEAF  # n and N moved the cursor, not the program

        await pilot.press("slash", *"no such text", "enter")
        await wait_for(pilot, lambda: view.search is not None and view.search.pattern == "no such text")
        assert "/no such text: not found" in title(app) and view.cursor == ACC[-1]

        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        await pilot.press("3", "enter")
        await wait_for(pilot, lambda: view.cursor == 3 and app.focused is view)
        await pilot.press("ctrl+g", *"99", "enter")
        await wait_for(pilot, lambda: any("not a line of this file: '99'" in m for m in messages(app)))
        assert view.cursor == 3

        await pilot.press("escape")  # ends the search: n is the debugger's next again
        await wait_for(pilot, lambda: view.search is None)
        await pilot.press("n")
        await stopped_at(pilot, app, LEAF + 1)
        assert no_internal_errors(app)


@SIZES
async def test_frames_follow_the_console_and_the_frame_keys(nav: Path, size: tuple[int, int]) -> None:
    app = DebuggerApp(gdb_config(nav, "leaf"))
    async with app.run_test(size=size) as pilot:
        await stopped_at(pilot, app, LEAF)
        view = app.query_one(SourcePane).view
        view.focus()
        await pilot.press("colon")
        await wait_for(pilot, lambda: app.focused is app.query_one("#console-input"))
        await pilot.press(*"up 2", "enter")
        await wait_for(pilot, lambda: at_frame(app, 2, "nav_main.c", OUTER))
        assert app.focused is app.query_one("#console-input")
        assert [v.name for v in app.debugger.state.variables] == ["n", "total"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.focused is view)

        await pilot.press("d")
        await wait_for(pilot, lambda: at_frame(app, 1, "nav_walk.c", WALK))
        await pilot.press("less_than_sign")
        await wait_for(pilot, lambda: at_frame(app, 2, "nav_main.c", OUTER))
        await pilot.press("u")
        await wait_for(pilot, lambda: at_frame(app, 3, "nav_main.c", MAIN))
        await pilot.press("u")
        await wait_for(pilot, lambda: any("already at the outermost" in m for m in messages(app)))
        await pilot.press("greater_than_sign", "greater_than_sign", "greater_than_sign")
        await wait_for(pilot, lambda: at_frame(app, 0, "nav_walk.c", LEAF))

        await pilot.press("colon", *"up", "enter")
        await wait_for(pilot, lambda: at_frame(app, 1, "nav_walk.c", WALK))
        await pilot.press("enter")  # an empty line runs `up` again
        await wait_for(pilot, lambda: at_frame(app, 2, "nav_main.c", OUTER))
        await pilot.press("escape", "n")  # escape left the console: n steps the program
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(SourcePane).view.current == LEAF + 1)
        assert selected(app) == 0 and no_internal_errors(app)


@SIZES
async def test_the_file_finder_opens_a_file_and_b_sets_a_breakpoint_there(nav: Path, size: tuple[int, int]) -> None:
    app = DebuggerApp(gdb_config(nav, "leaf"))
    async with app.run_test(size=size) as pilot:
        await stopped_at(pilot, app, LEAF)
        view = app.query_one(SourcePane).view
        view.focus()
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, FileFinder))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, FileFinder))
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, FileFinder))
        finder = app.screen
        assert str(NAV_MAIN.resolve()) in finder.files and str(NAV_WALK.resolve()) in finder.files
        await pilot.press(*"nvmain")
        options = finder.query_one(OptionList)
        await wait_for(pilot, lambda: options.option_count and options.get_option_at_index(0).id == str(NAV_MAIN.resolve()))
        await pilot.press("enter")
        await wait_for(pilot, lambda: shown_file(app) == "nav_main.c" and app.focused is view)
        assert view.current is None and "nav_main.c" in title(app)

        await pilot.press("ctrl+g", *str(MAIN), "enter")
        await wait_for(pilot, lambda: view.cursor == MAIN)
        await pilot.press("b")
        await wait_for(pilot, lambda: view.marks.get(MAIN) is True)
        bps = app.debugger.state.breakpoints
        assert any(bp.file and bp.file.endswith("nav_main.c") and bp.line == MAIN for bp in bps)
        assert no_internal_errors(app)
