"""A debugger that has gone silent is said, with what it was asked.

Commands have no timeout once gdb has started (a kernel may run for hours, a query of a big
kernel's tables takes seconds), so a gdb that stops answering (stopped with SIGSTOP, hung in
the driver, deadlocked) used to leave the UI waiting with nothing said (issue 36).
:class:`SilenceWatch` looks once a second while a request is in flight: when the oldest has
waited :data:`SILENT_AFTER` seconds and the debugger wrote nothing meanwhile, the session tells
:class:`~cudatui.gdbbridge.session.events.Silent` (once for that request), and
:class:`~cudatui.gdbbridge.session.events.Answered` if it answers after all. A busy gdb that
prints (console text, a big answer arriving) is not silent. The stand-ins are not watched: a
replay answers from its file, a follower waits on its instructor by design.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any
from collections.abc import Callable

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.text import one_line

SILENT_AFTER = 5.0
"""Seconds without an answer, and without a word from the debugger, before it is said silent."""

LOOK_EVERY = 1.0
"""Seconds between two looks while a request is in flight."""

_TOKEN = re.compile(r"^\d+")


def asked(line: str, limit: int = 80) -> str:
    """What an MI command line asks, without its token, as one harmless line of at most
    ``limit`` characters (a console command the user typed may hold anything)."""
    return one_line(_TOKEN.sub("", line, count=1), limit)


class SilenceWatch:
    """Watches the requests in flight of one session (``pending``: token -> (future, line,
    sent at), in the order sent) and tells ``emit`` when the debugger has gone silent."""

    def __init__(self, pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, float]],
                 emit: Callable[[ev.Event], None], after: float = SILENT_AFTER) -> None:
        self._pending = pending
        self._emit = emit
        self.after = after
        self._heard = time.monotonic()
        self._look: asyncio.TimerHandle | None = None
        self._said: int | None = None
        """The token of the request said silent, until it is answered."""

    def heard(self) -> None:
        """The debugger wrote a line."""
        self._heard = time.monotonic()

    def sent(self) -> None:
        """A request went out: look from now on, while one is in flight."""
        if self._look is None:
            self._look = asyncio.get_running_loop().call_later(LOOK_EVERY, self._looks)

    def answered(self, token: int | None, line: str, started: float) -> None:
        """The request ``token`` (sent as ``line`` at ``started``) got its answer."""
        if token is not None and token == self._said:
            self._said = None
            self._emit(ev.Answered(asked(line), time.monotonic() - started))

    def stop(self) -> None:
        """The session ends: no more looks."""
        if self._look is not None:
            self._look.cancel()
            self._look = None

    def _looks(self) -> None:
        self._look = None
        if not self._pending:
            return
        token, (_, line, started) = next(iter(self._pending.items()))  # gdb answers in order
        now = time.monotonic()
        waited = now - started
        if token != self._said and waited >= self.after and now - self._heard >= self.after:
            self._said = token
            self._emit(ev.Silent(asked(line), waited))
        self._look = asyncio.get_running_loop().call_later(LOOK_EVERY, self._looks)
