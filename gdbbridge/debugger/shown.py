"""What the panes on the screen show, so that a stop asks gdb only for that.

Two parts of a stop's batch serve one pane each and cost the most on the H200 (bench.stop_queries
over kernels/recordings): the registers (``-data-list-register-values``, 3-55 ms of cuda-gdb's
time and the largest answer to parse; the Registers and SASS panes) and the kernels' thread
table (``-cuda-info-threads``, 217-234 ms on a grid of 2379 blocks; it names each warp's PC as a
line in the Warps pane). The UI says which of them a pane on the screen shows
(:meth:`Shown.set`, called by the Debugger's ``show_parts``); a stop leaves out the others and
names them in ``StopState.unasked``. When a pane that shows a part left out comes on the screen,
the Debugger asks for it at once and shows the same stop again with it (a new generation): a
hidden pane gets its data when it is shown. Until the UI says anything every part is asked (a
Debugger without a screen: tests, benches); a recorded session asks every part at
every stop (``LaunchConfig.record_every_part``): its replays and followers may show any pane.

The parts beyond the batch (:mod:`~cudatui.gdbbridge.debugger.on_demand`: the SASS around pc, the
members of the variables opened in the Locals tree, the shared arrays' pages, the warp watch ...)
are said and filled in the same way; so are a line opened or closed in the Locals tree and a new
warp-watch expression.

Asked anyway: the registers at a CUDA exception (its errorpc marks the faulting instruction in
the advice and the SASS pane), the thread table at a breakpoint hit (the threads sitting there).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from cudatui.gdbbridge.cuda.tables import parse_threads
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.state import info_at_frame
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.cuda import ThreadRange
from cudatui.gdbbridge.models.members import Path
from cudatui.gdbbridge.models.shared import SharedWindow
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError

PARTS = frozenset({"registers", "threads"})
"""The parts of a stop asked only while a pane on the screen shows them."""


class Shown:
    """The parts of a stop the screen shows (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, refresh: StopRefresh) -> None:
        self.ctx = ctx
        self.refresh = refresh

    def set(self, *, registers: bool, threads: bool, sass: int = 0, members: bool = False, lanes: bool = False,
            blocks: bool = False) -> None:
        """The screen shows the registers (the Registers or SASS pane), the kernels' thread table
        (the Warps pane's lines, the Focus pane's open block ranges), ``sass`` bytes of SASS after
        pc (the SASS pane; 0: none), the members of the variables opened (the Locals pane), the
        warp watch (``lanes``: the Warps pane) and the block ranges (the Focus pane's open
        kernels), or not; a part the stop shown lacks and shown now is asked at once."""
        everything = self._records_every_part()
        shown = {part for part, on in (("registers", registers), ("threads", threads)) if on or everything}
        self.ctx.leave_out = PARTS - shown
        self.refresh.on_demand.sass.after = sass
        self.refresh.on_demand.members.shown = members
        self.refresh.on_demand.lane_watch.shown = lanes or everything
        self.refresh.on_demand.blocks.shown = blocks
        state = self.ctx.state
        if state is not None and (state.unasked - self.ctx.leave_out or self.refresh.on_demand.missing(state)):
            self.ctx.spawn(self._fill(state), "fill")

    def set_shared(self, windows: tuple[SharedWindow, ...], on_screen: bool) -> None:
        """The pages of shared arrays the Shared pane shows, read while it is on the screen (or a
        recording asks every part); one the stop shown lacks is read at once."""
        self.refresh.on_demand.shared.windows = windows if on_screen or self._records_every_part() else ()
        state = self.ctx.state
        if state is not None and self.refresh.on_demand.missing(state):
            self.ctx.spawn(self._fill(state), "fill")

    def _records_every_part(self) -> bool:
        """Whether this session is recorded asking every part: its replays may show any pane."""
        config = self.ctx.config
        return bool(config.record) and config.record_every_part

    def open_variables(self, paths: Collection[Path]) -> None:
        """The Locals tree shows ``paths`` opened at the stop shown: the children of those it
        lacks are read at once and the stop shown again with them (and without those closed)."""
        state = self.ctx.state
        if state is None:
            return
        members = self.refresh.on_demand.members
        members.open(state, paths)
        if members.wanted(state):
            self.ctx.spawn(self._fill(None), "fill")

    def watch_lanes(self, expression: str) -> None:
        """The warp watch's expression is ``expression`` ("" none): the stop shown again with its
        values (asked at once while the Warps pane is on the screen), or without a watch."""
        self.refresh.on_demand.lane_watch.expression = expression
        state = self.ctx.state
        if state is None:
            return
        if not expression and state.lane_watch is not None:
            self.refresh.publish_again(lane_watch=None)
        elif self.refresh.on_demand.missing(state):
            self.ctx.spawn(self._fill(state), "fill")

    async def _fill(self, asked_at: StopState | None) -> None:
        """Ask for what the stop ``asked_at`` (None: the state shown then) left out and the screen
        now shows, and show the stop again with it, unless the program moved, or another state
        came, meanwhile (a later state was built with the parts the screen shows then)."""
        ctx = self.ctx
        async with ctx.lock:
            state, session = ctx.state, ctx.session
            if state is None or state is not (asked_at or state):
                return
            wanted = state.unasked - ctx.leave_out
            on_demand = self.refresh.on_demand
            if session is None or ctx.phase is not Phase.STOPPED or ctx.builder is None \
                    or not (wanted or on_demand.missing(state)):
                return
            changes: dict[str, Any] = {"unasked": state.unasked - wanted}
            errors = list(state.errors)
            try:
                if "registers" in wanted:
                    changes["registers"], failed = await ctx.builder.registers(state.focus is not None)
                    errors += failed
                if "threads" in wanted:
                    changes["threads"], changes["threads_error"] = await self._threads(state)
                changes.update(await on_demand.gather(replace(state, **changes)))
            except DebuggerGone:
                return
            if ctx.state is state:
                self.refresh.publish_again(**changes, errors=tuple(errors))

    async def _threads(self, state: StopState) -> tuple[tuple[ThreadRange, ...], str]:
        """The kernels' thread ranges, and why there are none if gdb refused them; a refusal is no
        failure of the stop (as in its batch): its lines are left out. cuda-gdb's tables select
        frame 0: the frame shown is selected again."""
        assert self.ctx.session is not None
        try:
            return parse_threads(await info_at_frame(self.ctx.session, "threads", state.selected_frame)), ""
        except MIError as exc:
            return (), exc.message
