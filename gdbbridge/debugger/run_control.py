"""The Debugger's part that runs the session: start it (a program, a coredump, an attach, a
job's rank), resume, interrupt, restart, open a coredump post mortem, and close.

A start makes a new :class:`~cudatui.gdbbridge.session.gdb.GdbSession` with its StateBuilder,
Breakpoints and variable objects (the generation goes on from the last one: the panes drop
states older than the one they show) and hands its events to
:class:`~cudatui.gdbbridge.debugger.session_events.SessionEvents`. Each operation but
:meth:`interrupt` and :meth:`close` holds the lock.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import replace
from typing import Any
from collections.abc import Callable

from cudatui.gdbbridge.debugger.breakpoint_edits import BreakpointEdits
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints, BreakpointSpec, pending_text
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.recorded_path import as_followed
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.events import Notice, PhaseChanged, StartupFailed
from cudatui.gdbbridge.debugger.host import is_native, jit_env, read_output
from cudatui.gdbbridge.debugger.session_events import SessionEvents
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.steps import RUN, STEPS, Step
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.debugger.targets import Targets
from cudatui.gdbbridge.debugger.varobj import VariableObjects
from cudatui.gdbbridge.jobs.attach import release_abandoned
from cudatui.gdbbridge.i18n import tr
from cudatui.gdbbridge.outcome import OutputTail
from cudatui.gdbbridge.record.audience import AudienceWatch
from cudatui.gdbbridge.session.core_stop import open_core
from cudatui.gdbbridge.session.errors import DebuggerGone, DebuggerNotFound, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.recorder import PRIVATE, SHARED
from cudatui.gdbbridge.text import TerminalFilter


class RunControl:
    """Start, resume, interrupt, restart and close one Debugger's session (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, refresh: StopRefresh, edits: BreakpointEdits, targets: Targets,
                 events: SessionEvents) -> None:
        self.ctx = ctx
        self.refresh = refresh
        self.edits = edits
        self.targets = targets
        self.events = events
        self._resuming: set[asyncio.Future[None]] = set()
        """One future per resume asked for and not yet sent or refused (an interrupt asked right
        after it waits for it: c then ctrl+c typed fast stops the program)."""
        self._unsubscribe: list[Callable[[], None]] = []
        self._audience: AudienceWatch | None = None
        """Counts who follows the recording (``config.record``), once the session has it open."""

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the debugger, insert the config's breakpoints, and run (unless ``run`` is off);
        when it cannot start (no debugger, not a gdb) the event is StartupFailed."""
        async with self.ctx.lock:
            await self._start(first=True)

    async def _start(self, first: bool) -> None:
        ctx = self.ctx
        cfg = ctx.config
        if cfg.rank is not None and (ctx.job is None or ctx.job.rank_run is None):
            joined = await self.targets.join_rank(first)
            if joined is None:
                return
            cfg = joined
        ctx.cut = ctx.ended = None
        what = f"attaching to process {cfg.attach}" if cfg.attach is not None else f"starting {cfg.debugger_name}"
        ctx.set_status(Phase.STARTING, what, since=ctx.clock())
        extra = {**jit_env(cfg), **dict(cfg.env)}
        env = {**os.environ, **extra} if extra else None
        session = ctx.session = GdbSession(cfg.debugger, cfg.program_argv, cwd=cfg.cwd, env=env, record=cfg.record,
                                           record_mode=SHARED if cfg.share_group else PRIVATE, attach=cfg.attach,
                                           hand_tty=cfg.replayed, stand_in=cfg.replayed)
        previous = ctx.builder
        ctx.breakpoints = Breakpoints(session)
        ctx.builder = StateBuilder(session, ctx.breakpoints)
        ctx.variables = VariableObjects(session)
        if previous is not None:  # the panes drop states older than the one they show
            ctx.builder.generation = previous.generation
        self.refresh.pending = None
        ctx.program_output, ctx.output_tail = TerminalFilter(), OutputTail()
        self._unsubscribe = [session.subscribe(self.events.on_event), session.subscribe_raw(ctx.emit)]
        try:
            await session.start()
        except (DebuggerNotFound, DebuggerGone) as exc:
            if ctx.closed:  # a quit while starting
                return
            message = self.targets.startup_failure(exc)
            ctx.set_status(Phase.DEAD, message)
            ctx.emit(StartupFailed(message) if first else Notice(message, "error"))
            return
        if cfg.record and self._audience is None:  # the recorder has the file open now
            self._audience = AudienceWatch(cfg.record, self._followed)
        try:
            await self._begin(cfg, first)
        except MIError as exc:
            ctx.notice(f"{cfg.debugger_name}: {exc.message}", "error", exc)
            if not session.alive:
                ctx.set_status(Phase.DEAD, exc.message)
            elif cfg.core:
                ctx.set_status(Phase.DEAD, f"coredump not opened: {exc.message}")

    async def _begin(self, cfg: LaunchConfig, first: bool) -> None:
        """gdb runs: open the coredump, say what it attached to, or insert the ``-b`` breakpoints
        and run the program (a native one with pending breakpoints is held). A follower starts as
        the instructor's session did."""
        cfg = as_followed(cfg)
        if cfg.core:
            await self._open_core(cfg.core)
            return
        if cfg.attach is not None:
            await self.targets.attached(first)
            return
        pending: dict[int, tuple[str, str]] = {}
        for text in cfg.breakpoints:
            spec = BreakpointSpec.parse(text)
            bp = await self.edits.insert(spec, say_pending=False)
            if bp is not None and bp.pending:
                pending[bp.number] = (spec.location, self.ctx.last_log)
        if pending and cfg.run and is_native(cfg):
            self._hold({number: pending_text({number: where}) for number, where in pending.items()})
            return
        self.refresh.unresolved = pending
        if cfg.run:
            await self._run()
        else:
            self.ctx.set_status(Phase.READY, "loaded, not started (r runs it)")

    def _hold(self, pending: dict[int, str]) -> None:
        """A native program with pending ``-b`` breakpoints (by number: how each is told), most
        likely mistyped locations: it is not run."""
        numbers = ", ".join(map(str, pending))
        self.ctx.set_status(Phase.READY, f"loaded, not started: breakpoint{'s' * (len(pending) > 1)} {numbers} "
                            "pending (r runs anyway)")
        self.ctx.notice(f"{'; '.join(pending.values())}: the program has no such location, so it was not started. "
                        "Fix it (:break LOCATION in the console) or press r to run anyway (a library loaded at run "
                        "time may define it)", "warning")

    async def _run(self) -> None:
        ctx = self.ctx
        assert ctx.session is not None and ctx.breakpoints is not None
        target = "first breakpoint" if ctx.breakpoints.table else "exit or a stop"
        ctx.set_status(Phase.STARTING, f"running to {target}", since=ctx.clock())
        ctx.runs += 1
        ctx.session.record("mark", f"run {ctx.runs}")  # each run numbered where the recording goes on
        if ctx.runs > 1 and ctx.config.record:
            ctx.notice(tr("run {run} is recorded after the others in {file} (marked \"run {run}\")").format(
                run=ctx.runs, file=ctx.config.record))
        try:
            await ctx.go(RUN)
        except DebuggerGone:
            raise
        except MIError as exc:  # not a program gdb can run: a script, an empty or cut ELF, a path the shell mangles
            ctx.set_status(Phase.EXITED, "(not run) " + " ".join(exc.message.split()))
            raise

    async def _open_core(self, path: str) -> None:
        ctx = self.ctx
        assert ctx.session is not None
        ctx.set_status(Phase.STARTING, f"opening GPU coredump {os.path.basename(path)}", since=ctx.clock())
        if ctx.config.program_output:  # triage: what the program said before it died, recorded for a replay
            said = await asyncio.to_thread(read_output, ctx.config.program_output)
            ctx.session.record("program", said)
            self.refresh.program_said(ctx.program_output.feed(said))
        stop = await open_core(ctx.session, path)
        state = await self.refresh.refresh(stop, requery_focus=stop.focus is None, new_stop=True)
        if state is not None and state.focus is None:
            ctx.notice(f"{os.path.basename(path)}: the coredump holds no CUDA thread to focus on", "warning")

    async def post_mortem(self, path: str) -> None:
        """Leave the live session and open the GPU coredump ``path`` (a restart re-opens it)."""
        async with self.ctx.lock:
            await self._start_over(core=path)

    async def debug_finding(self, spec: BreakpointSpec) -> None:
        """Break at ``spec`` (a sanitizer finding's thread) and run the program again; from a
        coredump, start a live session with that breakpoint."""
        ctx = self.ctx
        async with ctx.lock:
            if ctx.config.core:
                await self._start_over(core=None, breakpoints=(*ctx.config.breakpoints, str(spec)))
                return
            await self.edits.insert(spec)
            await ctx.guard(self._restart())

    async def restart(self) -> None:
        """Run again: kill a live program first; start a new debugger if the old one died (an
        attached process is not killed: attached again once its debugger died). A follower starts
        following again, from the instructor's newest session."""
        ctx = self.ctx
        async with ctx.lock:
            if ctx.config.follow:
                await ctx.guard(self._start_over())
                return
            if self.refuses_restart("r"):
                return
            await ctx.guard(self._restart())

    def refuses_restart(self, key: str) -> bool:
        """True, said, when ``key`` would run an attached process again (it would kill it)."""
        refused = self.targets.restart_refused(key)
        if refused:
            self.ctx.notice(refused, "warning")
        return refused is not None

    async def _restart(self) -> None:
        ctx = self.ctx
        session = ctx.session
        if session is None or not session.alive or ctx.config.core:
            await self._start_over()
            if not ctx.config.run and not ctx.config.core and ctx.session is not None and ctx.session.alive:
                await self._run()
            return
        if ctx.program_running():
            await session.interrupt()
        if session.inferior_pid is not None:
            await session.console("kill")
        await self._run()

    async def _start_over(self, **changes: Any) -> None:
        """A new debugger session on the config with ``changes``."""
        await self._close()
        self.ctx.closed = False
        self.ctx.config = replace(self.ctx.config, **changes)
        await self._start(first=False)

    async def close(self) -> None:
        """Close the debugger and reap everything it started (detach from an attached process;
        end a job whose rank it debugged)."""
        await self._close()
        if self.ctx.job is not None:
            await self.ctx.job.close()
        if self.ctx.config.attach is not None and not self.ctx.config.replayed:
            release_abandoned(self.ctx.config.attach)  # an attach cut short left its SIGSTOP pending

    def _followed(self, count: int) -> None:
        """How many follow the recording changed (the status bar shows it)."""
        self.ctx.status = replace(self.ctx.status, followers=count)
        self.ctx.emit(PhaseChanged(self.ctx.status))

    async def _close(self) -> None:
        ctx = self.ctx
        ctx.closed = True
        if self._audience is not None:
            self._audience.close()
        while self._unsubscribe:
            self._unsubscribe.pop()()
        if ctx.session is not None:
            await ctx.session.close()
        await ctx.cancel_tasks()

    # -- run control -----------------------------------------------------------------------

    async def resume(self, how: Step) -> None:
        """Continue, next, step or finish."""
        ctx = self.ctx
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._resuming.add(sent)
        try:
            async with ctx.lock:
                session = ctx.session
                if session is not None and session.alive and ctx.phase is Phase.STOPPED:
                    await ctx.guard(ctx.go(STEPS[how]))
                elif session is None or not session.alive:
                    ctx.notice("the debugger is not running: press r to restart", "warning")
                else:
                    ctx.notice("the program is running: ctrl+c interrupts it" if ctx.program_running()
                               else "the program is not running: press r to run it", "warning")
        finally:
            self._resuming.discard(sent)
            sent.set_result(None)

    async def interrupt(self) -> None:
        """Stop the running program, also one that a resume asked for just before is starting
        (it is waited for: until its ``^running`` the program is not running yet)."""
        if self._resuming:
            await asyncio.wait(set(self._resuming))
        if self.ctx.session is not None and self.ctx.program_running():
            await self.ctx.guard(self.ctx.session.interrupt())
