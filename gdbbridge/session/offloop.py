"""Parsing a big MI line in a thread of its own, off the event loop, and abandoning it.

Not ``asyncio.to_thread``: its executor is waited for when the loop ends, and a 64 MiB line
takes half a minute to parse, so a quit would wait that long. Here the thread is a daemon and
cancelling the future stops it: a parse in pure Python holds the GIL in turns with the event
loop, so a parse left running would slow every step of the app's own shutdown. It is stopped
by an exception raised in it (``PyThreadState_SetAsyncExc``), only while it is still parsing:
the parse touches nothing but the line and what it builds, so nothing is left half done.
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
from typing import TypeVar
from collections.abc import Callable

T = TypeVar("T")

THREAD_NAME = "cudatui-mi-parse"


class _Abandoned(BaseException):
    """Raised in a parse thread whose result nobody waits for any more."""


def in_thread(parse: Callable[[str], T], line: str) -> asyncio.Future[T]:
    """A future of ``parse(line)``, run in a daemon thread; cancelling it stops the thread."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    lock = threading.Lock()
    parsing = [True]

    def settle(result: T | None, error: Exception | None) -> None:
        if not future.done():
            future.set_exception(error) if error is not None else future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            try:
                result, error = parse(line), None
            except Exception as exc:  # MemoryError on a line near the limit
                result, error = None, exc
            with lock:
                parsing[0] = False
            loop.call_soon_threadsafe(settle, result, error)
        except _Abandoned:
            pass
        except RuntimeError:  # the loop has closed: nobody waits for it any more
            pass

    def abandon(done: asyncio.Future[T]) -> None:
        if done.cancelled():
            with lock:
                if parsing[0] and thread.ident is not None:
                    ident, error = ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned)
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ident, error)

    thread = threading.Thread(target=run, name=THREAD_NAME, daemon=True)
    thread.start()
    future.add_done_callback(abandon)
    return future
