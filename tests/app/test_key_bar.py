"""The key bar (tui/widgets/footer.py) shows its keys as one line of text: the keys of the focused
widget replace the others on that line without a layout pass, and a click on a key presses it."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Button

from cudatui.tui.widgets.footer import KeyBar, KeyLine
from tests.app.test_one_paint import Passes


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
