"""Toasts that leave nothing behind: once a notification's time is up the whole screen is
painted again.

Seen in a terminal (tmux, 160x48, a loaded machine): when the oldest of several stacked toasts
expired, Textual 8.2.8 repainted only the widgets that changed at that moment, and the cells the
toast had covered kept its text for as long as nothing else repainted them (a pane's title stayed
hidden under "REPLAY — recorded on ..." for a minute). One full repaint per toast costs one
screen's worth of output and puts every cell right again.
"""

from __future__ import annotations

import math
import os
import time
from functools import partial
from typing import Any, Generic, TypeVar

from textual.app import App
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen

from cudatui.tui.textual_compat import KeysWhereTyped, ScreensGoQuietly, Toast, toast_notification, toasts_take_no_selection

from cudatui.tui.exit_signals import QuitsOnSignals
from cudatui.tui.screens.app_screen import AppScreen

ReturnType = TypeVar("ReturnType")

SHORTEST_TIMER_S = 0.05
"""The least time a toast's timer is given (see :class:`TimedNotification`)."""

ANIMATIONS_ENV = "TEXTUAL_ANIMATIONS"
"""Textual's own setting of its animations (``none``, ``basic``, ``full``): cudatui's apps do not
animate unless it is set. An animation is a repaint per frame (a tab's underline: about 25 frames
per click, each written to the terminal, over SSH too) for a screen that should change once per
key: a profiled lesson walk in tmux spent a fifth of the app's time painting them."""

SETTLE_S = 0.5
"""Seconds after a toast's time is up before the screen is painted again (its removal is in: a
busy app mounts a toast, and starts its clock, a little after notify)."""


class TimedNotification(Notification):
    """A notification whose toast always gets a timer of at least :data:`SHORTEST_TIMER_S`.

    Textual 8.2.8 (pinned) checks that a notification has not expired, then reads its time left
    again for the new toast's timer. Expired in between (a busy machine; the clock is the wall
    clock, which may also jump), the interval is negative, and Textual's Timer then loops for ever
    without yielding: the app freezes (a test's worker spun at 100 % CPU in it, count -1485, and a
    CI run never ended). Whether it has expired is still told by the true time left."""

    @property
    def time_left(self) -> float:
        return max(super().time_left, SHORTEST_TIMER_S)

    @property
    def has_expired(self) -> bool:
        return super().time_left <= 0


class ToastingApp(QuitsOnSignals, KeysWhereTyped, ScreensGoQuietly, App[ReturnType], Generic[ReturnType]):
    """An app whose every notification, once expired, is followed by a full repaint. Toasts that
    expire within the same :data:`SETTLE_S` share one repaint, so a flood of notifications keeps a
    bounded number of timers (at most the longest timeout over SETTLE_S). On a machine so busy
    that an expired toast is still on the screen when its repaint is due, the repaint waits one
    more slot, so it always comes after the toast has gone (Textual's Toast widget is private
    API; the version is pinned). SIGTERM and SIGHUP quit it as ctrl+q does
    (:class:`~cudatui.tui.exit_signals.QuitsOnSignals`). A key that a click overtook (a busy app
    takes both in one turn) is bound where it was typed
    (:class:`~cudatui.tui.textual_compat.KeysWhereTyped`); a dialog that closes does not lay the
    screen below out again (:class:`~cudatui.tui.textual_compat.ScreensGoQuietly`). Its default screen is an
    :class:`~cudatui.tui.screens.app_screen.AppScreen`: a hidden pane lays nothing out. It does
    not animate unless :data:`ANIMATIONS_ENV` says so. Every cudatui app is one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if ANIMATIONS_ENV not in os.environ:
            self.animation_level = "none"
        toasts_take_no_selection()  # a click on a toast as it goes crashed Textual 8.2.8
        self._repaint_slots: set[int] = set()
        """The SETTLE_S-long slots in which a repaint is due (in ``time.monotonic`` / SETTLE_S)."""

    def get_default_screen(self) -> Screen:
        return AppScreen(id="_default")

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        seconds = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self.post_message(Notify(TimedNotification(message, title, severity, seconds, markup=markup)))
        self._repaint_after(seconds)

    def _repaint_after(self, seconds: float) -> None:
        now = time.monotonic()
        slot = math.ceil((now + seconds) / SETTLE_S)
        if slot not in self._repaint_slots:
            self._repaint_slots.add(slot)
            self.set_timer((slot + 1) * SETTLE_S - now, partial(self._repaint_after_toast, slot),
                           name="repaint-after-toast")

    def _repaint_after_toast(self, slot: int) -> None:
        self._repaint_slots.discard(slot)
        if not self.screen_stack:
            return
        if any(toast_notification(toast).has_expired for toast in self.screen.query(Toast)):
            self._repaint_after(0)
            return
        self.screen.refresh()
