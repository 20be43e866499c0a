"""The Shared pane's part of a stop: the pages of shared arrays it shows.

The pane says which windows it shows (an array, the elements of its page: the Debugger's
``show_shared``); each is read through typed evaluation (``name[start]@count``, in chunks where
gdb cuts the answer: :func:`~cudatui.gdbbridge.cuda.evaluation.read_shared`), then the address of
the array's first element (``&name[0]``, ``&name[0][0]`` for a 2-D array, else ``&name``), asked
once per stop and array. A window read at a place (the stop, its focus, frame and locals) is kept
for that place: a page turned back to, or the stop shown again after a bump, asks nothing; the
values read at the place before are the page's ``before`` (what changed is highlighted).
"""

from __future__ import annotations

import re
from typing import Any

from cudatui.gdbbridge.cuda.evaluation import evaluate, read_shared, shared_slice_expression
from cudatui.gdbbridge.models import StopEvent, StopState
from cudatui.gdbbridge.models.answers import Answer
from cudatui.gdbbridge.models.shared import SharedPage, SharedWindow, page_of
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import clean

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def place_of(state: StopState) -> tuple[Any, ...]:
    """What a read at ``state`` holds for: its stop, frames and locals (the objects a refresh
    builds anew; a bump keeps them), focus and selected frame."""
    return state.stop, state.frames, state.variables, state.focus, state.selected_frame


def same_place(a: tuple[Any, ...] | None, b: tuple[Any, ...]) -> bool:
    return a is not None and all(x is y for x, y in zip(a[:3], b[:3])) and a[3:] == b[3:]


class Shared:
    """The shared-memory part (see the module docstring)."""

    field = "shared"

    def __init__(self) -> None:
        self.windows: tuple[SharedWindow, ...] = ()
        """The windows the Shared pane on the screen shows (none: no Shared pane on the screen)."""
        self._place: tuple[Any, ...] | None = None
        self._here: dict[SharedWindow, Answer[SharedPage]] = {}
        """What was read at ``_place``, by window."""
        self._earlier: dict[SharedWindow, tuple[str, ...]] = {}
        """Each window's values where it was read before ``_place``."""
        self._address_stop: StopEvent | None = None
        self._addresses: dict[str, int | None] = {}
        """The address of each array's first element at the stop ``_address_stop``."""

    def wanted(self, state: StopState) -> bool:
        return not state.stop.exited and any(page_of(state.shared, w) is None for w in self.windows)

    async def gather(self, session: GdbSession, state: StopState) -> tuple[Answer[SharedPage], ...]:
        place = place_of(state)
        if not same_place(self._place, place):
            self._earlier.update({w: a.value.values for w, a in self._here.items()})
            self._place, self._here = place, {}
        if state.stop is not self._address_stop:
            self._address_stop, self._addresses = state.stop, {}
        answers = []
        for window in self.windows:
            answer = page_of(state.shared, window) or self._here.get(window)
            if answer is None:
                answer = self._here[window] = await self._read(session, window)
            answers.append(answer)
        return tuple(answers)

    async def _read(self, session: GdbSession, window: SharedWindow) -> Answer[SharedPage]:
        """The window's values, then (once per stop) its array's address."""
        asked = shared_slice_expression(window.name, window.start, window.count)
        error, not_recorded = "", False
        try:
            values = clean(await read_shared(session, window.name, window.start, window.count))
        except DebuggerGone:
            raise
        except MIError as exc:
            values, error, not_recorded = (), exc.message, exc.not_recorded
        if window.name not in self._addresses:
            self._addresses[window.name] = await self._address(session, window)
        page = SharedPage(window, values, self._earlier.get(window, ()), self._addresses[window.name])
        return Answer(asked, page, error, not_recorded)

    @staticmethod
    async def _address(session: GdbSession, window: SharedWindow) -> int | None:
        """The address of the array's first element: ``&a[0]`` (``&a[0][0]``), else ``&a``."""
        name = window.name
        for expression in (f"&{name}[0][0]" if window.grid else f"&{name}[0]", f"&{name}"):
            try:
                found = _ADDRESS.search(await evaluate(session, expression))
            except DebuggerGone:
                raise
            except MIError:
                continue
            if found:
                return int(found.group(0), 16)
        return None
