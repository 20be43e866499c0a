"""The console pane against a real GNU gdb on tests/fixtures/c/app/steps.c: a typed command and
what gdb printed for it, gdb's errors in red, the command history on up/down, a command that
changes the program shown in the other panes, and the MI record log on ctrl+t."""

from __future__ import annotations

from pathlib import Path

from textual.strip import Strip
from textual.widgets import Input, RichLog

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.panes.console import ConsolePane
from tests.support.app import gdb_config, stopped_at, tree_changed, value
from tests.support.programs import BREAK_LINE, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb


def log_lines(app: DebuggerApp, log: str = "#console-log") -> list[Strip]:
    return list(app.query_one(ConsolePane).query_one(log, RichLog).lines)


def shown(app: DebuggerApp, log: str = "#console-log") -> list[str]:
    return [line.text.rstrip() for line in log_lines(app, log)]


async def run(pilot, app: DebuggerApp, command: str) -> None:
    """``:``, type ``command``, enter."""
    await pilot.press("colon")
    field = app.query_one(ConsolePane).query_one(InlineInput)
    await wait_for(pilot, lambda: app.focused is field, why="the console input")
    field.value = command
    await pilot.press("enter")


def red(line: Strip) -> bool:
    """Whether ``line`` is shown in bold red (gdb's errors)."""
    return any(seg.style is not None and seg.style.bold and seg.style.color is not None
               and seg.style.color.name == "red" for seg in line if seg.text.strip())


async def test_a_command_is_shown_with_what_gdb_printed_and_errors_in_red(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        await run(pilot, app, "print total + 41")
        await wait_for(pilot, lambda: "$1 = 41" in shown(app), why="gdb's answer")
        assert shown(app).index("(gdb) print total + 41") < shown(app).index("$1 = 41")
        await run(pilot, app, "print nosuchvar")
        error = 'No symbol "nosuchvar" in current context.'
        await wait_for(pilot, lambda: error in shown(app), why="gdb's error")
        await app.workers.wait_for_complete()
        assert any(red(line) for line in log_lines(app) if line.text.rstrip() == error)
        assert not red(log_lines(app)[shown(app).index("$1 = 41")])


async def test_up_and_down_recall_the_commands_typed(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        for command in ("print 1", "print 2", "print 2"):
            await run(pilot, app, command)
        await wait_for(pilot, lambda: shown(app).count("(gdb) print 2") == 2 and "$3 = 2" in shown(app))
        field = app.query_one(ConsolePane).query_one(InlineInput)
        assert field.history == ["print 1", "print 2"]  # the same command twice in a row is kept once
        assert field.value == ""
        await pilot.press("up")
        assert field.value == "print 2"
        await pilot.press("up")
        assert field.value == "print 1"
        await pilot.press("up")
        assert field.value == "print 1"
        await pilot.press("down")
        assert field.value == "print 2"
        await pilot.press("down")
        assert field.value == ""


async def test_a_command_that_changes_the_program_is_shown_in_the_locals(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        assert value(app, "total") == "0"
        await run(pilot, app, "set var total = 41")
        await wait_for(pilot, lambda: value(app, "total") == "41", why="the locals to show the new value")
        assert tree_changed(app, "total")
        app.query_one("#source-view").focus()
        await pilot.press("n")
        await stopped_at(pilot, app, BREAK_LINE + 1)
        assert value(app, "total") == "9"  # total = square(3) ran after the change


async def test_ctrl_t_switches_to_the_mi_records_and_back(steps: Path) -> None:
    app = DebuggerApp(gdb_config(steps, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        await run(pilot, app, "print 6 * 7")
        await wait_for(pilot, lambda: "$1 = 42" in shown(app), why="gdb's answer")
        pane = app.query_one(ConsolePane)
        mode = pane.query_one("#console-mode")
        assert str(mode.render()) == "console · ctrl+t: MI log"
        await pilot.press("ctrl+t")
        assert pane.show_mi and str(mode.render()) == "MI records · ctrl+t: console"
        assert pane.query_one("#mi-log", RichLog).display and not pane.query_one("#console-log", RichLog).display
        sent = [line for line in shown(app, "#mi-log") if '-interpreter-exec console "print 6 * 7"' in line]
        assert len(sent) == 1 and sent[0].split("-", 1)[0].isdigit()  # the command with its token
        assert any(line.startswith('~"$1 = 42') for line in shown(app, "#mi-log"))  # gdb's record, as printed
        await pilot.press("ctrl+t")
        assert not pane.show_mi and str(mode.render()) == "console · ctrl+t: MI log"
        assert isinstance(app.focused, Input)  # the input kept the focus throughout
