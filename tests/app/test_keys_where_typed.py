"""A key is bound where it was typed when a click overtook it (tui/textual_compat.py,
``KeysWhereTyped``): a busy app takes a key and the click after it in one turn, and Textual looked
the key's binding up only once the key had bubbled back, from the widget the click had focused
meanwhile. The keys and the click go in as the terminal driver posts them, in one turn."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from cudatui.tui.apps.toasts import ToastingApp

PRESSED: list[str] = []


class Pane(Static, can_focus=True):
    """A focusable box whose space says which pane took it."""

    BINDINGS = [Binding("space", "press", "Press")]

    DEFAULT_CSS = "Pane { height: 5; }"

    def action_press(self) -> None:
        PRESSED.append(str(self.id))


class TwoPanes(ToastingApp[None]):
    def compose(self) -> ComposeResult:
        yield Pane("first", id="first")
        yield Pane("second", id="second")


def driver_click(app: TwoPanes, widget: Pane) -> None:
    """A press and release on ``widget`` as the terminal driver posts them (App.on_event makes the click)."""
    x, y = widget.region.x + 1, widget.region.y + 1
    for kind in (events.MouseDown, events.MouseUp):
        app.post_message(kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))


def driver_key(app: TwoPanes, key: str, character: str) -> None:
    app.post_message(events.Key(key, character))


async def test_a_key_that_a_click_overtook_is_bound_where_it_was_typed() -> None:
    PRESSED.clear()
    app = TwoPanes()
    async with app.run_test(size=(40, 12)) as pilot:
        first, second = app.query_one("#first", Pane), app.query_one("#second", Pane)
        first.focus()
        await pilot.pause()
        driver_key(app, "space", " ")
        driver_click(app, second)  # in the same turn: taken before the key has bubbled back
        await pilot.pause()
        assert app.focused is second, "the click focused the second pane"
        assert PRESSED == ["first"], "space was typed in the first pane"
        driver_key(app, "space", " ")
        await pilot.pause()
        assert PRESSED == ["first", "second"]

