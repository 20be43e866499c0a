"""A toast leaves nothing behind: once its time is up, every row of the screen is painted again
(tui/toasts.py says what a terminal showed without it). What would reach the terminal is read
from the app's compositor updates, rendered as the driver writes them."""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.widgets import Static
from textual.widgets._toast import Toast

from cudatui.tui.app import DebuggerApp
from cudatui.tui.picker_app import PickerApp
from cudatui.tui.sanitize_app import SanitizeApp
from cudatui.tui.stats_app import StatsApp
from cudatui.tui.toasts import EXPIRING_S, SETTLE_S, ToastingApp

SIZE = (40, 12)


class Filled(ToastingApp[None]):
    def compose(self) -> ComposeResult:
        yield Static("x" * (SIZE[0] * SIZE[1]))


def painted_rows(update: str) -> set[int]:
    """The screen rows (1-based) an update moves the cursor to and paints."""
    return {int(row) for row in re.findall(r"\x1b\[(\d+);\d+H", update)}


def watched(app: Filled) -> list[str]:
    """What the app's driver is given to write from now on, one string per update."""
    updates: list[str] = []
    display = app._display

    def spy(screen, renderable) -> None:
        if renderable is not None:
            updates.append(renderable.render_segments(app.console))
        display(screen, renderable)

    app._display = spy  # type: ignore[method-assign]
    return updates


def full(updates: list[str]) -> int:
    """How many of ``updates`` paint every row of the screen."""
    return sum(painted_rows(update) == set(range(1, SIZE[1] + 1)) for update in updates)


async def test_every_row_is_painted_again_once_a_toast_has_expired() -> None:
    app = Filled()
    updates = watched(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.notify("a toast", timeout=0.2)
        await pilot.pause(0.1)
        updates.clear()
        await pilot.pause(0.1 + 2 * SETTLE_S + 0.4)
        assert not app._notifications
        assert full(updates) == 1, [sorted(painted_rows(update)) for update in updates]


async def test_a_flood_of_toasts_shares_its_repaints() -> None:
    """Toasts that expire together are followed by one repaint, not one each."""
    app = Filled()
    updates = watched(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        for n in range(200):
            app.notify(f"toast {n}", timeout=0.2)
        assert len(app._repaint_slots) <= 2
        await pilot.pause(0.1)
        updates.clear()
        await pilot.pause(0.1 + 2 * SETTLE_S + 0.4)
        assert not app._notifications and not app._repaint_slots
        assert 1 <= full(updates) <= 2


def test_every_app_of_cudatui_repaints_after_its_toasts() -> None:
    assert all(issubclass(app, ToastingApp) for app in (DebuggerApp, PickerApp, SanitizeApp, StatsApp))


async def test_a_notification_about_to_expire_is_not_shown() -> None:
    """A toast whose notification has (almost) no time left would start a timer with a negative
    interval, and Textual's Timer loops for ever on one: it is dropped instead."""
    app = Filled()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.notify("gone at once", timeout=EXPIRING_S / 2)
        await pilot.pause()
        assert not app.screen.query(Toast) and not app._notifications
        app.notify("shown", timeout=5)
        await pilot.pause()
        assert len(app.screen.query(Toast)) == 1
