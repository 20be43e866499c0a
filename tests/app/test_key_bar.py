"""The key bar (tui/widgets/footer.py) shows its keys as one line of text: the keys of the focused
widget replace the others on that line without a layout pass, and a click on a key presses it."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Button

from cudatui.tui.widgets.footer import KeyBar, KeyLine
from tests.app.test_one_paint import Passes
from tests.support.wait import wait_for


class Keyed(Button):
    BINDINGS = [Binding("x", "extra", "Extra key")]

    def action_extra(self) -> None:
        self.app.pressed.append("x")  # type: ignore[attr-defined]


class Host(App[None]):
    BINDINGS = [Binding("n", "noop", "Next")]

    def __init__(self) -> None:
        super().__init__()
        self.pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield Button("plain", id="plain")
        yield Keyed("keyed", id="keyed")
        yield KeyBar(compact=True, show_command_palette=False)

    def action_noop(self) -> None:
        self.pressed.append("n")


def line(app: Host) -> str:
    """The key bar's line as the screen shows it."""
    return app.query_one(KeyLine).render_line(0).text.rstrip()


async def test_the_keys_change_in_place_without_a_layout_and_a_click_presses_one() -> None:
    app = Host()
    async with app.run_test(size=(60, 6)) as pilot:
        app.query_one("#plain").focus()
        await pilot.pause()
        assert line(app) == "n Next"
        passes = Passes(app.screen)
        app.query_one("#keyed").focus()
        await pilot.pause()
        assert line(app) in ("x Extra key n Next", "n Next x Extra key")
        app.query_one("#plain").focus()
        await pilot.pause()
        assert line(app) == "n Next"
        assert passes.count == 0
        app.query_one("#keyed").focus()
        await pilot.pause()
        start = line(app).index("x Extra key")
        await pilot.click(KeyLine, offset=(start + 3, 0))
        await pilot.click(KeyLine, offset=(line(app).index("n Next"), 0))
        assert app.pressed == ["x", "n"]


class WithHelpAndQuit(Host):
    BINDINGS = [Binding("n", "noop", "Next"), Binding("question_mark", "noop_help", "Help", key_display="?"),
                Binding("q", "noop_quit", "Quit")]

    def action_noop_help(self) -> None:
        self.pressed.append("?")

    def action_noop_quit(self) -> None:
        self.pressed.append("q")


@pytest.mark.parametrize(("width", "shown"), [(34, "x Extra key n Next ? Help q Quit"),
                                               (27, "x Extra key ? Help q Quit"),
                                               (18, "? Help q Quit")])
async def test_keys_that_do_not_fit_are_left_out_whole_and_help_and_quit_stay(width: int, shown: str) -> None:
    """Keys are shown whole or not at all (the attach screen at 80x24 read "... : Co"); where not
    all fit, ? and q stay and the others are taken in order. (The line is the screen's width less
    the bar's two columns of padding.)"""
    app = WithHelpAndQuit()
    async with app.run_test(size=(width, 6)) as pilot:
        app.query_one("#keyed").focus()
        await wait_for(pilot, lambda: line(app) == shown, why=lambda: f"{shown!r}, not {line(app)!r}")
        assert app.query_one(KeyLine).spans[-1][1] <= width - 2
