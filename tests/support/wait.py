"""Waiting on a condition, never on time: generous bounds, checked often.

A test waits for what it needs to see (a phase, a row, a line of output) and fails with a
clear message only when the bound passes; the bounds are far above what a loaded 2-core CI
machine needs, so no test depends on how fast the machine is.

There is one bounded loop here (:func:`_polls`); the helpers only differ in how they let time
pass between two looks (an app's pilot, the event loop, or a sleeping thread) and in what they
do when the bound passes (fail, or say so with ``None``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from textual.pilot import Pilot

WAIT = 30.0
"""The default bound, in seconds."""

T = TypeVar("T")


class _Polls:
    """The one bounded loop: iterating it yields once per look at ``what()`` that found it false
    (the caller lets time pass), and ends when it is true (``value``) or the bound has passed
    (``value`` is None; with ``fail``, an AssertionError that says what was awaited)."""

    def __init__(self, what: Callable[[], T], timeout: float, why: str | Callable[[], str], fail: bool) -> None:
        self.what, self.timeout, self.why, self.fail = what, timeout, why, fail
        self.value: T | None = None

    def __iter__(self) -> Iterator[None]:
        deadline = time.monotonic() + self.timeout
        while True:
            value = self.what()
            if value:
                self.value = value
                return
            if time.monotonic() >= deadline:
                if self.fail:
                    why = self.why() if callable(self.why) else self.why
                    raise AssertionError(f"timed out after {self.timeout:g} s waiting for {why}")
                return
            yield


async def wait_for(pilot: Pilot, what: Callable[[], T], timeout: float = WAIT, why: str | Callable[[], str] = "the app") -> T:
    """Let the app run until ``what()`` is true (its value); fail after ``timeout`` seconds.

    Between two looks the test only sleeps (the app runs on the same event loop); once ``what()``
    is true, one ``pilot.pause(0.05)`` lets every widget take what was posted to it and the screen
    paint before the test goes on (unless the app has closed): the settling the former loop ended
    with (after ``pause(0)``, a table's cursor moved next was not scrolled into view in 3 runs of
    12). A ``pilot.pause`` between looks had every widget of the screen take a callback 20 times a
    second: a test waiting on gdb's print of a million ints sent 119,130 of them, most of a core
    that the app and gdb needed."""
    polls = _Polls(what, timeout, why, fail=True)
    for _ in polls:
        await asyncio.sleep(0.05)
    if pilot.app.is_running:  # an app that has closed has no screen to sync
        await pilot.pause(0.05)
    return polls.value  # type: ignore[return-value]


async def until(what: Callable[[], T], timeout: float = WAIT, why: str | Callable[[], str] = "the condition") -> T:
    """:func:`wait_for` without an app: let the event loop run until ``what()`` is true."""
    polls = _Polls(what, timeout, why, fail=True)
    for _ in polls:
        await asyncio.sleep(0.01)
    return polls.value  # type: ignore[return-value]


def wait_until(what: Callable[[], T], timeout: float = WAIT, why: str | Callable[[], str] = "the condition",
               every: float = 0.05, pause: Callable[[float], object] = time.sleep) -> T:
    """:func:`wait_for` for synchronous tests (a process in a pseudo-terminal, files on disk, a
    tmux screen): ``what()`` is looked at every ``every`` seconds; its true value is returned.
    ``why`` may be a function (called only on failure: the screen as it was, say). ``pause(every)``
    lets the time pass: a sleep, or a wait that something wakes sooner (a tmux pane's output:
    :meth:`tests.support.tmux.TmuxServer.pause`)."""
    polls = _Polls(what, timeout, why, fail=True)
    for _ in polls:
        pause(every)
    return polls.value  # type: ignore[return-value]


def within(what: Callable[[], T], timeout: float, every: float = 0.05,
           pause: Callable[[float], object] = time.sleep) -> T | None:
    """:func:`wait_until` that does not fail: ``what()``'s true value, or None once ``timeout``
    has passed. Only for a step that is tried again (a click the busy app may have dropped is
    clicked again), never to decide a test's outcome."""
    polls = _Polls(what, timeout, "", fail=False)
    for _ in polls:
        pause(every)
    return polls.value
