"""The key contract: no pane rebinds a debugger key, and the help screen lists every pane's keys."""

from __future__ import annotations

from textual.binding import Binding

from cudatui.tui.app import SIDE_PANES, DebuggerApp
from cudatui.tui.help import HelpScreen
from cudatui.tui.panes.source import SourcePane, SourceView
from tests.support.paths import TRANSCRIPTS
from tests.support.replay import replay_config

CONTRACT = {"r", "c", "f5", "n", "f10", "s", "f11", "f", "shift+f11", "b", "f9", "ctrl+c", "g", "colon",
            "tab", "shift+tab", "question_mark", "q", "ctrl+q"}
"""r run/restart, c/F5 continue, n/F10 next, s/F11 step, f/shift+F11 finish, b/F9 breakpoint,
ctrl+c interrupt, g go to focus, : console, tab/shift+tab panes, ? help, q/ctrl+q quit."""

APP_EXTRA = {"E", "L"}
"""Keys the app adds beyond the contract: E explains the CUDA error of the last stop or exit, L runs
the program again with CUDA_LAUNCH_BLOCKING=1."""

SAME_MEANING = {("FocusNavigator", "g")}
"""Pane keys that do what the debugger key does (the navigator's own go-to line)."""


def keys(bindings) -> set[str]:
    return {key.strip() for b in bindings if isinstance(b, Binding) for key in b.key.split(",")}


def test_the_app_binds_the_whole_contract():
    assert keys(DebuggerApp.BINDINGS) == CONTRACT | APP_EXTRA


def test_no_pane_takes_a_debugger_key():
    panes = [spec.cls for spec in SIDE_PANES] + [SourcePane, SourceView]
    clashes = {(cls.__name__, key) for cls in panes for key in keys(getattr(cls, "BINDINGS", []))
               if key in CONTRACT | APP_EXTRA} - SAME_MEANING
    assert clashes == set()


async def test_help_lists_the_keys_of_every_side_pane():
    app = DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        titles = [title for title, _ in screen.sections]
        assert titles == ["Debugger", "Layout"] + [spec.title for spec in SIDE_PANES]
        regs = dict(screen.sections)["Regs"]
        assert ("v", "Group") in [(b.key, b.description) for b in regs]
