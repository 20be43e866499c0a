"""Waiting on a condition, never on time: generous bounds, checked often.

A test waits for what it needs to see (a phase, a row, a line of output) and fails with a
clear message only when the bound passes; the bounds are far above what a loaded 2-core CI
machine needs, so no test depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from textual.pilot import Pilot

WAIT = 30.0
"""The default bound, in seconds."""


async def wait_for(pilot: Pilot, what: Callable[[], object], timeout: float = WAIT, why: str = "the app") -> None:
    """Let the app run until ``what()`` is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {why}"
        await pilot.pause(0.05)


async def until(what: Callable[[], object], timeout: float = WAIT, why: str = "the condition") -> None:
    """:func:`wait_for` without an app: let the event loop run until ``what()`` is true."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {why}"
        await asyncio.sleep(0.01)


def wait_until(what: Callable[[], object], timeout: float = WAIT, why: str = "the condition") -> None:
    """:func:`wait_for` for synchronous tests (a process in a pseudo-terminal, files on disk)."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {why}"
        time.sleep(0.05)
