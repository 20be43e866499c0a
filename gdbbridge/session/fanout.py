"""Listeners called in order on the event loop; one that raises is reported, never re-raised."""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar
from collections.abc import Callable

T = TypeVar("T")


class Fanout(Generic[T]):
    """A list of ``listener(item)`` callbacks: ``subscribe`` adds one, ``emit`` calls them all.

    A broken listener must not stop the MI reader, so its exception goes to the loop's
    exception handler. ``bool(fanout)`` is False without listeners, so callers can skip
    building an item nobody wants.
    """

    def __init__(self, what: str) -> None:
        self._what = what
        self._listeners: list[Callable[[T], None]] = []

    def __bool__(self) -> bool:
        return bool(self._listeners)

    def subscribe(self, listener: Callable[[T], None]) -> Callable[[], None]:
        """Add ``listener``; returns a function that removes it (safe to call twice)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def emit(self, item: T) -> None:
        """Call every listener with ``item``, in subscription order."""
        for listener in list(self._listeners):
            try:
                listener(item)
            except Exception as exc:
                asyncio.get_running_loop().call_exception_handler(
                    {"message": f"{self._what} failed on {type(item).__name__}", "exception": exc}
                )
