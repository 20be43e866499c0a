"""The one inline input (tui/widgets/inline_input.py): the same keys in every pane that edits inline, escape
leaves and gives the focus back, and an input left never keeps a key the pane or the app binds."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, RichLog

from cudatui.gdbbridge.models import Breakpoint, StopEvent, StopState
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.screens.help import HelpScreen
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import Command, Condition, Delete, WatchAdded
from cudatui.tui.panes.breakpoints import BreakpointsPane
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.source import SourcePane
from tests.support.app import stopped_at
from tests.support.paths import TRANSCRIPTS
from tests.support.replay import replay_config

STATE = StopState(1, StopEvent("breakpoint-hit"), breakpoints=(
    Breakpoint(1, "breakpoint", True, "k.cu:9", False, 1, condition="i > 3", file="k.cu", line=9),
))


class Host(App[None]):
    """One pane alone; records the intents it posts, and ``n`` (a key of the app) as "app: n"."""

    BINDINGS = [Binding("n", "next", "Next")]

    def __init__(self, pane: Widget) -> None:
        super().__init__()
        self.pane = pane
        self.posted: list[Message | str] = []

    def compose(self) -> ComposeResult:
        yield self.pane

    def action_next(self) -> None:
        self.posted.append("app: n")

    def on_breakpoints_pane_condition(self, message: Condition) -> None:
        self.posted.append(message)

    def on_breakpoints_pane_delete(self, message: Delete) -> None:
        self.posted.append(message)

    def on_locals_pane_watch_added(self, message: WatchAdded) -> None:
        self.posted.append(message)

    def on_console_pane_command(self, message: Command) -> None:
        self.posted.append(message)


async def test_the_condition_is_edited_inline_and_escape_keeps_it() -> None:
    pane = BreakpointsPane()
    app = Host(pane)
    async with app.run_test(size=(80, 24)) as pilot:
        pane.show_state(STATE)
        table = pane.query_one(DataTable)
        table.focus()
        field = pane.query_one("#condition-input", InlineInput)
        await pilot.pause()
        assert not field.display and field not in app.screen.focus_chain
        await pilot.press("e")
        assert field.display and app.focused is field and field.value == "i > 3"
        assert field.border_title == "Condition of breakpoint 1 (empty: none)"
        await pilot.press("escape")
        assert not field.display and app.focused is table and app.posted == []
        await pilot.press("e", "ctrl+u", *"j == 2", "enter")
        await pilot.pause()
        assert app.posted == [Condition(1, "j == 2")]
        assert not field.display and app.focused is table and field.value == ""
        await pilot.press("e", "ctrl+u", "enter")
        await pilot.pause()
        assert app.posted[-1] == Condition(1, "")
        # closed, the input keeps no key: the pane's and the app's keys work at once
        await pilot.press("d", "n")
        await pilot.pause()
        assert app.posted[-2:] == [Delete(1), "app: n"]


async def test_the_watch_line_submits_remembers_and_escape_gives_the_focus_back() -> None:
    pane = LocalsPane()
    app = Host(pane)
    async with app.run_test(size=(80, 24)) as pilot:
        table = pane.query_one("#locals-tree")
        table.focus()
        field = pane.query_one("#watch-input", InlineInput)
        await pilot.press("w", *"abc", "escape")
        assert app.focused is table and field.value == "" and field.display
        await pilot.press("w", *"sdata[0]@8", "enter")
        await pilot.pause()
        assert app.posted == [WatchAdded("sdata[0]@8")]
        # the submit left the input: the next w opens it again instead of being typed into it
        assert app.focused is table and field.value == ""
        await pilot.press("w", "up")
        assert app.focused is field and field.value == "sdata[0]@8"
        await pilot.press("down")
        assert field.value == ""
        await pilot.press("escape", "n")
        await pilot.pause()
        assert app.focused is table and app.posted[-1] == "app: n"
        await pilot.press("w", *"i * 2", "left", "right", "enter")  # space, left, right: the line's, not the tree's
        await pilot.pause()
        assert app.posted[-1] == WatchAdded("i * 2")


async def test_the_console_line_keeps_its_history_and_escape_leaves_it() -> None:
    pane = ConsolePane()
    app = Host(pane)
    async with app.run_test(size=(80, 24)) as pilot:
        log = pane.query_one("#console-log", RichLog)
        log.focus()
        await pilot.pause()
        pane.focus_input()
        await pilot.pause()
        field = pane.query_one("#console-input", InlineInput)
        assert app.focused is field
        await pilot.press(*"info frame", "enter", *"bt", "enter")
        await pilot.pause()
        assert app.posted == [Command("info frame"), Command("bt")] and app.focused is field
        await pilot.press("enter")
        await pilot.pause()
        assert app.posted[-1] == Command("bt") and field.history == ["info frame", "bt"]
        await pilot.press("up", "up")
        assert field.value == "info frame"
        await pilot.press("escape")
        assert app.focused is log and field.value == ""


async def test_every_inline_edit_of_the_app_is_the_one_input_and_escape_returns_to_the_source() -> None:
    app = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, 9)
        inputs = list(app.query("#main Input"))
        assert sorted((w.parent.id, w.id) for w in inputs if isinstance(w, InlineInput)) == sorted([
            ("source", "source-input"), ("breakpoints", "condition-input"), ("shared", "shared-add"),
            ("console", "console-input"), ("locals", "watch-input"), ("focus", "focus-goto"), ("warps", "watch-input")])
        assert all(isinstance(w, InlineInput) for w in inputs)
        view = app.query_one(SourcePane).view
        view.focus()
        await pilot.press("colon")
        await pilot.pause()
        assert app.focused is app.query_one("#console-input")
        await pilot.press(*"info", "escape")
        assert app.focused is view
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
