"""Python's cyclic garbage collector kept out of a stop's way to the screen.

A full collection (generation 2) walks every object the process holds: 90-290 ms on the 2-core
box with one app (``python -m bench.stop_to_screen`` counts them), a third of the slowest steps'
UI part when one fell between a key and its paint. Textual pauses the collector during smooth
scrolls (``App.PAUSE_GC_ON_SCROLL``); cudatui pauses it from a key that asks the Debugger for
something, or a new state given to the panes, until the screen has been quiet for
:data:`QUIET` seconds (the visible panes' answers painted), at most :data:`MOST` seconds at a
time (then the app must be quiet again before it pauses the collector once more: a busy app
still collects). The collections put off run then, while the
user reads the screen. The objects alive once the first stop is painted (modules, the widget
tree, the Debugger) are moved out of the collector's sight (``gc.freeze``), so a full collection
walks only what came after; they are given back when the app ends.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from textual.app import App
from textual.timer import Timer

QUIET = 0.3
"""Seconds without a new state or a Debugger call after which the collector runs again."""
MOST = 2.0
"""Seconds the collector stays paused at most, however busy the app."""


class CollectorHold:
    """Pauses the cyclic garbage collector while ``app`` shows a stop (see the module docstring)."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._since: float | None = None
        """When the pause began (None: not paused by this hold)."""
        self._timer: Timer | None = None
        self._asked = float("-inf")
        """When :meth:`hold` was last called."""
        self._spent = False
        """Set when a pause lasted :data:`MOST` seconds: no other begins until the app has been quiet."""
        self.frozen = False
        """Whether this hold moved the objects alive at the first stop out of the collector's sight."""

    @property
    def held(self) -> bool:
        return self._since is not None

    def hold(self) -> None:
        """Pause the collector (if it runs) until the app has been quiet for :data:`QUIET` seconds."""
        if not self._app.is_running:
            return
        now = time.monotonic()
        quiet, self._asked = now - self._asked >= QUIET, now
        if self._spent and not quiet:
            return
        self._spent = False
        if self._since is None:
            if not gc.isenabled():  # paused by someone else (Textual's scroll): theirs to resume
                return
            gc.disable()
            self._since = now
        elif now - self._since >= MOST:
            return  # the timer set before ends it
        if self._timer is not None:
            self._timer.stop()
        self._timer = self._app.set_timer(min(QUIET, MOST - (now - self._since)), self._ended)

    def _ended(self) -> None:
        if self._since is not None and time.monotonic() - self._since >= MOST:
            self._spent = True
        self.release()

    def release(self) -> None:
        """Let the collector run again (the collections put off run at its next allocations)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._since is None:
            return
        self._since = None
        if not self.frozen and self._app.is_running:
            self.frozen = True
            gc.freeze()  # with what garbage the start-up left (no full collection now: 20-100 ms per app
            # started, in the tests too); it is collected once given back
        gc.enable()

    def close(self) -> None:
        """Resume the collector and give it back the objects frozen (the app ends)."""
        self.release()
        if self.frozen:
            self.frozen = False
            gc.unfreeze()
