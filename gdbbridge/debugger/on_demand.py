"""The parts of a stop that a pane on the screen shows beyond the stop's batch, gathered with it.

The UI says which of them a pane on the screen shows (the Debugger's ``show_parts``); a stop's
refresh gathers them after its batch (:meth:`OnDemand.gather`), into the same one snapshot; one
that comes on the screen while the stop shown lacks it is asked at once and the stop is shown
again with it (:class:`~cudatui.gdbbridge.debugger.shown.Shown`). No pane asks gdb for them: the
panes render what the snapshot holds.

Each part is a module of :mod:`cudatui.gdbbridge.debugger.parts` with one class: its ``field``
(the StopState field it fills), ``wanted(state)`` (whether the screen shows it and ``state``
lacks it) and ``gather(session, state)`` (its value, asked under the Debugger's lock):

- :mod:`~cudatui.gdbbridge.debugger.parts.sass`: the SASS around pc (the SASS pane).
- :mod:`~cudatui.gdbbridge.debugger.parts.members`: the members of the variables opened (the Locals pane).
- :mod:`~cudatui.gdbbridge.debugger.parts.shared`: the pages of shared arrays (the Shared pane).
- :mod:`~cudatui.gdbbridge.debugger.parts.lane_watch`: the warp watch in every lane (the Warps pane).
- :mod:`~cudatui.gdbbridge.debugger.parts.blocks`: the block ranges (the Focus pane's open kernels).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.parts.blocks import Blocks
from cudatui.gdbbridge.debugger.parts.members import OpenedMembers
from cudatui.gdbbridge.debugger.parts.lane_watch import LaneWatch
from cudatui.gdbbridge.debugger.parts.sass import Sass
from cudatui.gdbbridge.debugger.parts.shared import Shared
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.session.gdb import GdbSession


class Part(Protocol):
    """One on-demand part (see the module docstring)."""

    field: str

    def wanted(self, state: StopState) -> bool: ...

    async def gather(self, session: GdbSession, state: StopState) -> Any: ...


class OnDemand:
    """The on-demand parts the screen shows and their gathering (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext) -> None:
        self.ctx = ctx
        self.sass = Sass()
        self.members = OpenedMembers(lambda: ctx.variables)
        self.shared = Shared()
        self.blocks = Blocks()
        self.lane_watch = LaneWatch()
        self._parts: tuple[Part, ...] = (
            self.sass,
            self.members,
            self.shared,
            self.blocks,
            self.lane_watch,  # last: its walk switches the focus lane by lane (and back, to frame 0)
        )

    def missing(self, state: StopState) -> bool:
        """Whether ``state`` lacks a part the screen shows."""
        return any(part.wanted(state) for part in self._parts)

    async def gather(self, state: StopState) -> dict[str, Any]:
        """The parts the screen shows that ``state`` lacks, by StopState field (the lock is held)."""
        changes: dict[str, Any] = {}
        session = self.ctx.session
        for part in self._parts:
            if session is not None and part.wanted(state):
                changes[part.field] = await part.gather(session, state)
        return changes

    async def filled(self, state: StopState) -> StopState:
        """``state`` with the parts the screen shows that it lacks (the lock is held)."""
        changes = await self.gather(state)
        return replace(state, **changes) if changes else state
