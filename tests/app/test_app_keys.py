"""The key contract: no pane rebinds a debugger key; the help screen lists every key the app, its
widgets and its dialogs bind, and the command palette has a command for each key of the app and panes."""

from __future__ import annotations

import io

from rich.console import Console
from textual.binding import Binding
from textual.widgets import Static

from cudatui.tui.apps.debugger_app import SIDE_PANES, DebuggerApp
from cudatui.tui.widgets.explain_view import ExplainPanel
from cudatui.tui.widgets.file_finder import FileFinder
from cudatui.tui.screens.goto_focus import GotoFocusScreen
from cudatui.tui.widgets.race_side import RaceSideScreen
from cudatui.tui.screens.help import HelpScreen, key_label
from cudatui.tui.apps.navigation import NavigatingApp
from cudatui.tui.apps.noticing import NoticesApp
from cudatui.tui.apps.pane_keys import PaneKeysApp
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.widgets.source_view import SourceView
from tests.support.paths import TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.wait import wait_for

DIALOGS = (FileFinder, GotoFocusScreen, RaceSideScreen, ExplainPanel, HelpScreen)
"""The dialogs and their keys, listed in help too."""

CONTRACT = {"r", "c", "f5", "n", "f10", "s", "f11", "f", "shift+f11", "b", "f9", "ctrl+c", "g", "colon",
            "tab", "shift+tab", "question_mark", "q", "ctrl+q"}
"""r run/restart, c/F5 continue, n/F10 next, s/F11 step, f/shift+F11 finish, b/F9 breakpoint,
ctrl+c interrupt, g go to focus, : console, tab/shift+tab panes, ? help, q/ctrl+q quit."""

APP_EXTRA = {"E", "L", "D"}
"""Keys the app adds beyond the contract: E explains the CUDA error of the last stop or exit, L runs
the program again with CUDA_LAUNCH_BLOCKING=1, D chooses the folder of the sources."""

NAVIGATION = {"less_than_sign", "greater_than_sign", "T"}
"""The navigation keys every screen has (tui/apps/navigation.py): < and > the frame up (the caller) and
down, T the next thread at the breakpoint."""

SAME_MEANING = {("FocusNavigator", "g"), ("SourcePane", "n")}
"""Pane keys that do what the debugger key does (the navigator's own go-to line), or do it unless
a search is shown (the source pane's n is its next match while one is, as in less)."""


def keys(bindings) -> set[str]:
    return {key.strip() for b in bindings if isinstance(b, Binding) for key in b.key.split(",")}


def test_the_app_binds_the_whole_contract():
    assert keys(DebuggerApp.BINDINGS) == CONTRACT | APP_EXTRA
    assert keys(NavigatingApp.BINDINGS) == NAVIGATION and issubclass(DebuggerApp, NavigatingApp)


def test_no_pane_takes_a_pane_key_or_the_notices_key():
    """The pane keys (1-9, O, G, M) and ! are no pane's own key, so they work from every pane."""
    panes = [spec.cls for spec in SIDE_PANES] + [SourcePane, SourceView]
    taken = keys(PaneKeysApp.BINDINGS) | keys(NoticesApp.BINDINGS)
    assert keys(PaneKeysApp.BINDINGS) == {*"123456789", "O", "G", "M"}
    assert {(cls.__name__, key) for cls in panes for key in keys(getattr(cls, "BINDINGS", [])) if key in taken} == set()
    assert not taken & (CONTRACT | APP_EXTRA | NAVIGATION)


def test_no_pane_takes_a_debugger_key():
    panes = [spec.cls for spec in SIDE_PANES] + [SourcePane, SourceView]
    clashes = {(cls.__name__, key) for cls in panes for key in keys(getattr(cls, "BINDINGS", []))
               if key in CONTRACT | APP_EXTRA | NAVIGATION} - SAME_MEANING
    assert clashes == set()


def every_binding(app: DebuggerApp) -> list[tuple[str, Binding]]:
    """(class name, binding) for every key the app, each cudatui widget on screen and the dialogs bind."""
    bases = [cls for cls in DebuggerApp.__mro__ if cls.__module__.startswith("cudatui.") and "BINDINGS" in cls.__dict__]
    found = [(cls.__name__, b) for cls in bases for b in cls.__dict__["BINDINGS"]]
    classes = {type(w) for w in app.screen_stack[0].walk_children() if type(w).__module__.startswith("cudatui.")}
    for cls in sorted(classes | set(DIALOGS), key=lambda c: c.__name__):
        found += [(cls.__name__, b) for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding)]
    return found


async def test_help_lists_every_binding_of_the_app_its_panes_and_dialogs():
    app = DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        bindings = every_binding(app)
        owners = {name for name, _ in bindings}
        assert {"NavigatingApp", "SourcePane", "SourceView", "StackPane", "ConsolePane", "InlineInput",
                "FileFinder"} <= owners
        assert {spec.cls.__name__ for spec in SIDE_PANES if spec.cls.__dict__.get("BINDINGS")} <= owners
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        screen = app.screen
        listed = {(title, key_label(b), b.description) for title, section in screen.sections for b in section}
        console = Console(width=120, record=True, file=io.StringIO())
        for static in screen.query(Static):
            console.print(static.content)
        text = console.export_text()
        missing = []
        for owner, binding in bindings:
            if binding.description and not any((key_label(binding), binding.description) == (k, d)
                                               for _, k, d in listed):
                missing.append((owner, binding.key, binding.description))
        assert missing == []
        undescribed = {(owner, b.key) for owner, b in bindings if not b.description}
        assert undescribed == {("HelpScreen", "q"), ("VariablesTree", "right"), ("VariablesTree", "left")}
        regs = dict(screen.sections)["Regs"]
        assert ("v", "Group") in [(b.key, b.description) for b in regs]
        assert "Search" in text and "Go to line" in text and "Up frame" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))


async def test_the_palette_has_a_command_for_every_key_of_the_app_and_the_panes():
    app = DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl"))
    async with app.run_test(size=(120, 40)):
        commands = {(c.title, c.help) for c in app.get_system_commands(app.screen)}
        helps = {h for _, h in commands}
        for owner, binding in every_binding(app):
            if owner in {cls.__name__ for cls in DIALOGS} or owner == "InlineInput" or binding.action == "quit":
                continue
            assert f"key: {key_label(binding)}" in helps, (owner, binding.key)
        assert ("Source pane: Search", "key: /") in commands or any(t.endswith(": Search") for t, _ in commands)
