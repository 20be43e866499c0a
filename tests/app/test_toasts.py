"""A toast leaves nothing behind: once its time is up, every row of the screen is painted again
(tui/apps/toasts.py says what a terminal showed without it). What would reach the terminal is read
from the app's compositor updates, rendered as the driver writes them."""

from __future__ import annotations

import re
import time

from textual import events
from textual.app import ComposeResult
from textual.widgets import Static
from textual.widgets._toast import Toast

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.picker_app import PickerApp
from cudatui.tui.apps.sanitize_app import SanitizeApp
from cudatui.tui.apps.stats_app import StatsApp
from cudatui.tui.apps.toasts import SHORTEST_TIMER_S, TimedNotification, ToastingApp
from tests.support.wait import wait_for

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


def repaints(app: Filled, updates: list[str]) -> list[int]:
    """For each repaint after a toast, how many updates the driver had been given before it."""
    marks: list[int] = []
    repaint = app._repaint_after_toast

    def spy(slot: int) -> None:
        marks.append(len(updates))
        repaint(slot)

    app._repaint_after_toast = spy  # type: ignore[method-assign]
    return marks


async def settled(app: Filled, pilot) -> None:
    """Wait (however slow the machine) until every toast and every due repaint is gone and painted,
    with never more than two repaints due."""

    def gone() -> bool:
        assert len(app._repaint_slots) <= 2
        return not (app._notifications or app._repaint_slots or app.screen.query(Toast))

    await wait_for(pilot, gone, 60, "the toasts and their repaints")
    await pilot.pause()


async def test_every_row_is_painted_again_once_a_toast_has_expired() -> None:
    app = Filled()
    updates = watched(app)
    marks = repaints(app, updates)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.notify("a toast", timeout=0.2)
        await settled(app, pilot)
        assert marks
        assert full(updates[marks[-1]:]) == 1, [sorted(painted_rows(update)) for update in updates]


async def test_a_flood_of_toasts_shares_its_repaints() -> None:
    """Toasts that expire together share their repaints (at most two due at any time, not one
    each), and the last repaint comes after the last toast has gone."""
    app = Filled()
    updates = watched(app)
    marks = repaints(app, updates)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        for n in range(200):
            app.notify(f"toast {n}", timeout=0.2)
        assert len(app._repaint_slots) <= 2
        await settled(app, pilot)
        assert marks
        assert 1 <= full(updates[marks[-1]:]) <= 2


async def test_the_repaint_waits_while_an_expired_toast_is_still_on_the_screen(monkeypatch) -> None:
    """A machine so busy that the toast outlives its repaint (held here: its own timer does
    nothing): the repaint is put off, slot after slot, and comes once the toast has gone."""
    expire = Toast._expire
    monkeypatch.setattr(Toast, "_expire", lambda toast: None)
    app = Filled()
    updates = watched(app)
    marks = repaints(app, updates)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.notify("a toast", timeout=0.1)
        await wait_for(pilot, lambda: len(marks) >= 3, 60, "the repaint put off twice")
        await pilot.pause()
        assert app._repaint_slots and full(updates[marks[0]:]) == 0
        toast = app.screen.query_one(Toast)
        assert toast._notification.has_expired
        expire(toast)
        await settled(app, pilot)
        assert full(updates[marks[-1]:]) == 1


def test_every_app_of_cudatui_repaints_after_its_toasts() -> None:
    assert all(issubclass(app, ToastingApp) for app in (DebuggerApp, PickerApp, SanitizeApp, StatsApp))


def test_a_toast_whose_notification_expired_after_the_check_still_gets_a_positive_timer() -> None:
    """Textual's toast rack checks ``has_expired``, then the toast reads ``time_left`` for its timer:
    expired in between, a plain Notification gives a negative interval, on which Textual's Timer
    loops for ever (the app froze). The notification's expiry is still told truly."""
    expired = TimedNotification("late", timeout=1, raised_at=time.time() - 5)
    assert expired.has_expired
    assert Toast(expired)._timeout == SHORTEST_TIMER_S
    fresh = TimedNotification("fresh", timeout=5)
    assert not fresh.has_expired and 4 < Toast(fresh)._timeout <= 5


async def test_a_notification_with_almost_no_time_goes_away_and_the_app_stays_live() -> None:
    app = Filled()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        for n in range(20):
            app.notify(f"gone at once {n}", timeout=SHORTEST_TIMER_S / 10)
        await pilot.pause(SHORTEST_TIMER_S + 0.2)
        assert not app._notifications and not app.screen.query(Toast)
        app.notify("shown", timeout=5)
        await pilot.pause()
        assert [toast._notification.message for toast in app.screen.query(Toast)] == ["shown"]
        assert all(isinstance(notification, TimedNotification) for notification in app._notifications)


async def test_a_click_on_a_toast_while_it_is_removed_is_harmless() -> None:
    """A click that reaches a toast its timeout has just removed, before the screen is laid out
    again (a user clicking a toast as it goes; seen in a tmux walk): Textual 8.2.8 started a text
    selection in it and read its parent, None by then (``AttributeError: 'NoneType' object has no
    attribute 'region'`` in ``Screen._forward_event``: the app crashed). Toasts take no selection
    (tui/textual_compat.py); the click is dropped, the app goes on."""
    app = Filled()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify("a toast to click", timeout=30)
        await wait_for(pilot, lambda: any(toast.region.width for toast in app.screen.query(Toast)), why="the toast")
        toast = app.screen.query_one(Toast)
        x, y = toast.region.x + 2, toast.region.y + 1
        await toast.parent.remove()  # what its timeout does (Toast._expire); the screen is not laid out yet
        assert toast.parent is None
        for kind in (events.MouseDown, events.MouseUp, events.Click):
            app.post_message(kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))
        # queued after the clicks, so handled once they are: the notification goes without its
        # 30 s timeout (which only keeps the toast from expiring on its own before the clicks)
        # (its repaint stays due at 30 s: this test is about the click, not the repaint)
        app.call_later(app.clear_notifications)
        await wait_for(pilot, lambda: not (app._notifications or app.screen.query(Toast)), 60, "the toast gone from the screen")
        assert app.is_running and app.return_code is None
