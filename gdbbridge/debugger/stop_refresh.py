"""A ``*stopped`` becomes ONE published :class:`~cudatui.gdbbridge.models.StopState`.

:class:`StopRefresh` is the part of a Debugger that gathers everything shown at a stop (the
refresh batch of :class:`~cudatui.gdbbridge.debugger.state.StateBuilder`, the variables opened
in the Locals tree, the watches' values, the parts the panes on the screen show beyond the batch
(:mod:`~cudatui.gdbbridge.debugger.on_demand`) and, for a new stop, the host stack behind it; at a
post-mortem's warp-wide exception, the culprit lane, focused) into one
frozen state with a new generation, publishes it as one ``StateChanged``, then says the phase.
Later changes of the same stop (breakpoints, watches, notes read from output that arrived after
it) are bumps: the same snapshot again with a new generation. Nothing else publishes a state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cudatui.gdbbridge.cuda.culprit import culprit_of
from cudatui.gdbbridge.cuda.evaluation import evaluation
from cudatui.gdbbridge.cuda.focus import switch_focus
from cudatui.gdbbridge.cuda.tables import focused_in
from cudatui.gdbbridge.cuda.warp_watch import WarpWatchError
from cudatui.gdbbridge.debugger.breakpoints import pending_text
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.events import ProgramText, QueriesFailed, StateChanged
from cudatui.gdbbridge.debugger.on_demand import OnDemand
from cudatui.gdbbridge.debugger.state import WARP_TABLES_UNASKED, warp_tables_unsafe
from cudatui.gdbbridge.debugger.host import LiveRead, debuggee_env, host_held, read_host_stack, start_live_read
from cudatui.gdbbridge.debugger.status import Phase, focused_kernel, stop_detail
from cudatui.gdbbridge.debugger.steps import STEPS, Step
from cudatui.gdbbridge.host.view import sync_point
from cudatui.gdbbridge.jobs.ranks import exit_status
from cudatui.gdbbridge.i18n import tr
from cudatui.gdbbridge.models import StopEvent, StopState, Variable
from cudatui.gdbbridge.models.culprit import Culprit
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.models.host import HostStack
from cudatui.gdbbridge.outcome import StopNotes, device_assert, notes_at_exit
from cudatui.gdbbridge.record import stop_state
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.text import clean


class StopRefresh:
    """The stop's snapshot, gathered and published once (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext) -> None:
        self.ctx = ctx
        self.on_demand = OnDemand(ctx)
        """The parts beyond the batch that the panes on the screen show, gathered with each stop."""
        self.pending: StopEvent | None = None
        """The last ``*stopped`` not refreshed yet (None once a ``*running`` followed it)."""
        self.refreshing = False
        self.attaching = False
        """Set once gdb attached (``config.attach``), until the stop where it did is shown."""
        self.unresolved: dict[int, tuple[str, str]] = {}
        """The ``-b`` breakpoints pending when the program was started (by number: location, what
        gdb said); those still pending when it exits are told then, in one warning."""

    def stopped(self, stop: StopEvent) -> None:
        """gdb said ``*stopped``: refresh it in a task of its own (under the lock)."""
        self.pending = stop
        self.ctx.spawn(self._on_stop(stop), "refresh")

    def running(self) -> None:
        """gdb said ``*running``: a stop not refreshed yet is stale."""
        self.pending = None

    async def _on_stop(self, stop: StopEvent) -> None:
        """The refresh of a ``*stopped`` (unless a later ``*running`` or stop made it stale)."""
        ctx = self.ctx
        async with ctx.lock:
            if self.pending is not stop:
                return
            assert ctx.breakpoints is not None
            try:
                if not stop.exited and await ctx.breakpoints.should_skip(stop):
                    await ctx.go(STEPS[Step.CONTINUE])
                    return
            except DebuggerGone:
                return
            except MIError as exc:
                ctx.notice(f"breakpoint condition: {exc.message}", "warning", exc)
            previous = ctx.state
            state = await self.refresh(stop, new_stop=True)
            if state is None:
                return
            if stop.exception is not None:
                ctx.notice(f"{stop.exception.signal_name}: {stop.exception.name}", "error")
            elif previous is not None and previous.focus and state.focus and not stop.exited and (
                (previous.focus.block, previous.focus.thread) != (state.focus.block, state.focus.thread)
            ):
                ctx.notice(f"cuda-gdb moved the focus to {state.focus.software}", "information")

    async def refresh(
        self, stop: StopEvent, *, selected_frame: int = 0, focus: CudaFocus | None = None, requery_focus: bool = False,
        select: bool | None = None, new_stop: bool = False, viewpoint: bool = False, switch: str | None = None,
        built: StopState | None = None,
    ) -> StopState | None:
        """Gather everything shown at ``stop`` (the refresh batch, the watches, and for a
        ``new_stop`` the host stack; a focus or frame change keeps the stop's host stack), then
        publish it as ONE state and announce it (the lock is held); ``select`` as
        :meth:`StateBuilder.refresh` takes it; ``viewpoint``: only the frame or the focus changed
        (what cannot change with them is kept from the state shown, not asked again); ``switch``: a
        focus switch sent in the batch's write (:meth:`StateBuilder.refresh`; MIError if refused);
        ``built``: the batch was run already (at the culprit lane :meth:`find_culprit` moved to)."""
        ctx = self.ctx
        assert ctx.builder is not None
        previous = ctx.state
        if self.pending is stop:
            self.pending = None
        self.refreshing = True
        assert ctx.session is not None
        held = new_stop and host_held(previous, stop, debuggee_env(ctx.config, ctx.launch_blocking),
                                      ctx.session.inferior_pid)
        live = (start_live_read(ctx.session, ctx.config, previous.host if previous is not None else None)
                if new_stop and not stop.exited and not held else None)
        try:
            shown = previous if viewpoint and previous is not None and previous.stop is stop else None
            state = built or await ctx.builder.refresh(stop, selected_frame=selected_frame, focus=focus, shown=shown,
                                                       requery_focus=requery_focus, select=select, threads=new_stop,
                                                       leave_out=ctx.leave_out, switch=switch)
            if not new_stop and previous is not None and previous.stop is stop:  # no thread moved since
                threads = previous.threads if state.focus == previous.focus else focused_in(previous.threads, state.focus)
                state = replace(state, threads=threads, threads_error=previous.threads_error,
                                breakpoint_threads=previous.breakpoint_threads,
                                culprit=state.culprit or previous.culprit, unasked=state.unasked | (previous.unasked & {"threads"}))
            elif new_stop and stop.reason == "core":
                state = await self._at_culprit(state)
            if ctx.variables is not None:
                await ctx.variables.follow(state)
            watches = await self._watch_values(state)
            state = await self.on_demand.filled(replace(state, watches=watches))
            if new_stop and not held:
                host, note = await self._host_behind(state, live)
            elif previous is not None and (held or previous.stop is stop):  # the host cannot have moved
                host, note = previous.host, previous.host_note
            else:
                host, note = None, None
        except DebuggerGone:
            return None
        finally:
            self.refreshing = False
            if live is not None and not live.done():  # the refresh failed before it was awaited
                live.cancel()
        ctx.uses_cuda = ctx.uses_cuda or state.focus is not None
        state = clean(replace(state, notes=self._notes(state), watches=watches, host=host, host_note=note))
        if ctx.session is not None and not ctx.config.replayed:
            stop_state.record(ctx.session.record, state)
        self._publish(state)
        self._announce_stop(state)
        if state.errors:
            ctx.emit(QueriesFailed(state.errors))
        return state

    def _publish(self, state: StopState) -> None:
        """The one place a state becomes the Debugger's and is told."""
        self.ctx.state = state
        self.ctx.emit(StateChanged(state))

    def _announce_stop(self, state: StopState) -> None:
        ctx, stop = self.ctx, state.stop
        if stop.exited:
            detail = stop.signal or "?" if stop.exit_code is None else str(stop.exit_code)
            ctx.set_status(Phase.EXITED, detail, focus="", kernel="")
            self._tell_unresolved()
            if ctx.job is not None:
                ctx.job.finished(exit_status(stop.exit_code, stop.signal))
            return
        focus = state.focus.software if state.focus else ""
        detail, self.attaching = "attached" if self.attaching else stop_detail(stop), False
        ctx.set_status(Phase.STOPPED, detail, focus=focus, kernel=focused_kernel(state))

    def _tell_unresolved(self) -> None:
        """At the program's exit: the ``-b`` breakpoints pending at its start that no library or
        kernel it loaded defined (a mistyped location, most likely), in one warning. Those that
        were set meanwhile are not told: a kernel's breakpoint is pending until its module loads."""
        breakpoints = self.ctx.breakpoints
        still = {bp.number for bp in breakpoints.listed if bp.pending} if breakpoints else set()
        told = {number: where for number, where in self.unresolved.items() if number in still}
        self.unresolved = {}
        if not told:
            return
        self.ctx.notice(f"{pending_text(told)}: the program ended and loaded no library or kernel that defines "
                        f"{'them' if len(told) > 1 else 'it'}; check the location", "warning")

    # -- bumps: the same stop again --------------------------------------------------------

    def program_said(self, text: str) -> None:
        """Show the program's ``text``; output that arrives after the stop it explains (the pty
        is read apart from gdb's records) updates that stop's notes."""
        ctx = self.ctx
        ctx.emit(ProgramText(text))
        ctx.output_tail.feed(text)
        state = ctx.state
        if state is None or ctx.builder is None or self.refreshing or ctx.phase not in (Phase.STOPPED, Phase.EXITED):
            return
        notes = self._notes(state)
        if notes != state.notes:
            self._publish(clean(ctx.builder.bump(state, notes=notes)))

    def _notes(self, state: StopState) -> StopNotes:
        """What the program's output says about ``state`` (see :mod:`cudatui.gdbbridge.outcome`)."""
        stop, tail = state.stop, self.ctx.output_tail.text
        if stop.exited:
            return notes_at_exit(tail, stop.exit_code, self.ctx.uses_cuda)
        focus = state.focus or stop.focus
        if stop.exception is None or focus is None:
            return StopNotes()
        return StopNotes(device_assert=device_assert(tail, focus.block, focus.thread))

    def publish_breakpoints(self) -> None:
        """Show changed breakpoints now, unless a refresh in flight will show them."""
        if self.ctx.breakpoints is not None:
            self.publish_again(breakpoints=self.ctx.breakpoints.listed)

    def publish_again(self, **changes: Any) -> None:
        """Something behind the stop's painting changed (the breakpoints, the source folders): the
        stop shown again with ``changes`` (a new generation), unless a refresh in flight will show
        it."""
        ctx = self.ctx
        if ctx.state is not None and ctx.builder is not None and not self.refreshing:
            self._publish(clean(ctx.builder.bump(ctx.state, **changes)))

    async def publish_watches(self) -> None:
        """The watches changed: the state shown again with their values (a new generation)."""
        ctx = self.ctx
        if ctx.state is None or ctx.builder is None or self.refreshing:
            return
        if ctx.phase is not Phase.STOPPED:
            watches = tuple(Variable(w, "<not stopped>") for w in ctx.watches)
        else:
            watches = await self._watch_values(ctx.state)
        state = ctx.builder.bump(ctx.state, watches=watches)
        self._publish(clean(await self.on_demand.filled(state) if ctx.phase is Phase.STOPPED else state))

    # -- what a stop gathers beside the batch ----------------------------------------------

    async def _host_behind(self, state: StopState, live: LiveRead | None,
                           ) -> tuple[HostStack | None, str | None]:
        """The host stack behind a new stop (``live``: its read, started with the batch), when the
        program is Python (or the recording has it), and the note saying when its line is a sync
        point rather than the launch."""
        ctx = self.ctx
        assert ctx.session is not None
        if state.stop.exited:
            return None, None
        stack = await read_host_stack(ctx.session, ctx.config, live)
        in_kernel = stack is not None and state.focus is not None
        env = debuggee_env(ctx.config, ctx.launch_blocking)
        note = sync_point(stack, env, can_rerun=ctx.config.attach is None) if stack is not None and in_kernel else None
        return stack, note

    async def find_culprit(self) -> None:
        """The Warps pane's ``C`` at the stop shown (the lock is held): its culprit lane found
        (:meth:`_at_culprit`), the focus moved there and the culprit's expression made the warp
        watch, shown as ONE state (the refresh of a focus switch, the warp watch walked at that
        lane); where the focus stays, the stop shown again with its culprit. At a Warp Assert no
        lane is listed: the culprit says why."""
        ctx = self.ctx
        state = ctx.state
        if state is None or ctx.session is None or ctx.phase is not Phase.STOPPED:
            ctx.notice(tr("culprit: the program is not stopped"), "warning")
            return
        if warp_tables_unsafe(state.stop):
            self.publish_again(culprit=Culprit((), reason=WARP_TABLES_UNASKED))
            return
        try:
            there = await self._at_culprit(state, shown=state)
            if there.generation == state.generation:  # no batch ran: the focus stays
                self.publish_again(culprit=there.culprit, **await self.on_demand.gather(there))
            else:
                await self.refresh(state.stop, viewpoint=True, built=there)
        except DebuggerGone:
            return

    async def _at_culprit(self, state: StopState, shown: StopState | None = None) -> StopState:
        """A post-mortem's stop (a coredump opened) at a warp-wide exception: its culprit lane,
        found by the search behind the Warps pane's ``C`` (:func:`culprit_of`), and the focus moved
        there, so that the stop is shown once, at that lane (a batch more, as a focus switch asks);
        the values the search read are its warp watch. ``shown``: the state shown, where ``C`` asks
        (the search runs whatever lanes faulted; the batch at that lane is a focus switch's, and the
        culprit's expression is walked there as a warp watch); ``state`` itself with its culprit
        where the focus stays."""
        ctx = self.ctx
        assert ctx.session is not None and ctx.builder is not None
        if shown is None and not any(lane.exception for lane in state.lanes):
            return state
        try:
            culprit = await culprit_of(ctx.session, state, ctx.config.source_dirs, ctx.config.replayed)
        except MIError as exc:
            return replace(state, culprit=Culprit((), reason=tr("not found: {why}").format(why=exc.message)))
        except WarpWatchError as exc:
            return replace(state, culprit=Culprit((), reason=tr("not found: {why}").format(why=exc)))
        watch = self.on_demand.lane_watch
        if shown is None:  # a post-mortem: the values the search read are the warp watch's
            state = replace(state, lane_watch=watch.of_culprit(culprit))
        elif culprit.expression:  # C: the culprit's expression is walked as the warp watch where the focus lands
            watch.expression = culprit.expression
        focus = state.focus
        if culprit.lane is None or focus is None or culprit.lane == focus.lane:
            return replace(state, culprit=culprit)
        try:
            moved = await switch_focus(ctx.session, f"lane {culprit.lane}")
        except MIError as exc:
            unmoved = tr("{reason} (the focus could not move there: {why})").format(reason=culprit.reason, why=exc.message)
            return replace(state, culprit=replace(culprit, reason=unmoved))
        there = await ctx.builder.refresh(state.stop, focus=moved.focus, shown=shown,
                                          leave_out=ctx.leave_out if shown is not None else frozenset())
        return replace(there, threads=state.threads, breakpoint_threads=state.breakpoint_threads, culprit=culprit,
                       lane_watch=state.lane_watch if shown is None else None)

    async def _watch_values(self, state: StopState) -> tuple[Variable, ...]:
        """The watch expressions' values at ``state`` (``<not stopped>`` once the program ended)."""
        ctx = self.ctx
        if state.stop.exited or ctx.session is None:
            return tuple(Variable(w, "<not stopped>") for w in ctx.watches)
        return tuple([(await evaluation(ctx.session, w, typed=True)).variable for w in ctx.watches])
