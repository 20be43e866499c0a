"""The source pane: which file it shows for a stop (the search directories, a recording's
paths), and against a real GNU gdb on tests/fixtures/c/app/steps.c: the stop line and the file
in the title, breakpoints set and cleared from the gutter, the cursor keys, the exit."""

from __future__ import annotations

from pathlib import Path

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.breakpoints import BreakpointsPane
from cudatui.gdbbridge import find_source
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.widgets.source_view import SourceView
from tests.support.app import gdb_config, phase, rows, status, stopped_at
from tests.support.paths import TOURS, TRANSCRIPTS
from tests.support.programs import BREAK_LINE, STEPS, marked_line, needs_gdb
from tests.support.replay import replay_config
from tests.support.wait import wait_for

SQUARE_BODY = marked_line(STEPS, "int y = x * x;")
"""The first line of square() in steps.c, where a step into it stops."""


def test_a_recorded_path_prefers_the_search_directories_a_live_path_itself(tmp_path) -> None:
    here, elsewhere = tmp_path / "checkout", tmp_path / "recorded-on"
    here.mkdir()
    elsewhere.mkdir()
    (here / "k.cu").write_text("// this checkout\n")
    (elsewhere / "k.cu").write_text("// the recording machine's copy\n")
    recorded_path = str(elsewhere / "k.cu")
    assert find_source(recorded_path, (str(here),), recorded=True) == here / "k.cu"
    assert find_source(recorded_path, (str(here),)) == elsewhere / "k.cu"
    assert find_source(str(tmp_path / "gone" / "k.cu"), (str(here),)) == here / "k.cu"
    assert find_source(str(tmp_path / "gone" / "k.cu"), (str(tmp_path),), recorded=True) is None
    assert replay_config(TOURS / "tile.jsonl").replayed and not LaunchConfig(("gdb",), ("a.out",)).replayed


async def test_recorded_path_missing_maps_to_same_name_or_says_not_available(tmp_path) -> None:
    found = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    async with found.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, found, 9)
        source = found.query_one(SourcePane)
        assert source.shown is not None and source.shown.local == TRANSCRIPTS / "bugs.cu"
        assert "int tid = threadIdx.x" in source.view.lines[8].plain
    missing = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(tmp_path),)))
    async with missing.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: missing.query_one(SourcePane).shown is not None)
        source = missing.query_one(SourcePane)
        assert source.shown is not None and source.shown.local is None
        message = str(source.query_one("#source-missing").render())
        assert message.startswith("source not available: /home/user/lesson/bugs.cu")
        assert "--source-dir DIR (cudatui replay FILE --source-dir DIR)" in message  # how to point at it
        assert not source.view.display


def title(app: DebuggerApp) -> str:
    return str(app.query_one(SourcePane).query_one("#source-title").render())


def visible(view: SourceView, line: int) -> bool:
    top = int(view.scroll_offset.y)
    return top <= line - 1 < top + view.size.height


async def click(pilot, view: SourceView, line: int, column: int = 1) -> None:
    """Click ``line`` (shown on the screen) at ``column``: the breakpoint gutter by default."""
    assert visible(view, line)
    await pilot.click(SourceView, offset=(column, line - 1 - int(view.scroll_offset.y)))


@needs_gdb
async def test_the_stop_line_is_marked_and_the_title_names_file_and_line(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        source = app.query_one(SourcePane)
        assert source.shown is not None and source.shown.local == STEPS
        assert source.view.lines[BREAK_LINE - 1].plain.strip() == "total = square(3); /* BREAK */"
        assert title(app).endswith(f"steps.c:{BREAK_LINE} · main") and visible(source.view, BREAK_LINE)
        await pilot.press("s")
        await stopped_at(pilot, app, SQUARE_BODY)
        assert title(app).endswith(f"steps.c:{SQUARE_BODY} · square") and source.view.cursor == SQUARE_BODY
        assert source.view.marks == {BREAK_LINE: True}  # the breakpoint stays marked


@needs_gdb
async def test_a_click_on_the_gutter_sets_a_breakpoint_in_gdb_and_a_second_clears_it(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        view = app.query_one(SourcePane).view
        target = BREAK_LINE + 2  # printf("total=%d\n", total);
        await click(pilot, view, target)
        await wait_for(pilot, lambda: view.marks == {BREAK_LINE: True, target: True}, why="the new mark")
        assert [row[3] for row in rows(app, BreakpointsPane).values()] == [f"steps.c:{BREAK_LINE}", f"steps.c:{target}"]
        await pilot.press("c")
        await stopped_at(pilot, app, target)
        assert status(app) == ("stopped", "breakpoint 2")
        await click(pilot, view, target)
        await wait_for(pilot, lambda: view.marks == {BREAK_LINE: True}, why="the mark to go")
        assert list(rows(app, BreakpointsPane)) == ["1"]
        await click(pilot, view, 2, column=view.gutter_width + 2)  # on the text: the cursor moves, nothing else
        await wait_for(pilot, lambda: view.cursor == 2, why="the cursor on the clicked line")
        await app.workers.wait_for_complete()
        assert view.marks == {BREAK_LINE: True} and list(rows(app, BreakpointsPane)) == ["1"]


@needs_gdb
async def test_the_cursor_keys_move_the_cursor_and_the_view_keeps_it_shown(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        view = app.query_one(SourcePane).view
        view.focus()
        last = len(view.lines)
        await pilot.press("home")
        assert view.cursor == 1 and int(view.scroll_offset.y) == 0
        await pilot.press("down", "down")
        assert view.cursor == 3
        await pilot.press("end")
        await wait_for(pilot, lambda: visible(view, last), why="the last line in view")
        assert view.cursor == last
        await pilot.press("up")
        assert view.cursor == last - 1
        await pilot.press("pageup")
        assert view.cursor == max(1, last - 1 - (view.size.height - 1))
        await wait_for(pilot, lambda: visible(view, view.cursor), why="the cursor in view")
        assert view.current == BREAK_LINE  # moving the cursor leaves the stop line where it is


@needs_gdb
async def test_after_the_exit_the_pane_says_so_and_r_shows_the_stop_again(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        source = app.query_one(SourcePane)
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        missing = source.query_one("#source-missing")
        await wait_for(pilot, lambda: missing.display, why="the exit message")
        assert str(missing.render()) == "the program exited with code 0; r runs it again"
        assert not source.view.display
        await pilot.press("r")
        await stopped_at(pilot, app, BREAK_LINE)
        assert source.view.display and not missing.display
