"""The one object the UI drives a debugging session through.

A :class:`Debugger` owns the :class:`GdbSession` (a new one after a restart), the
:class:`StateBuilder` and the :class:`Breakpoints`; runs the refresh batch on each stop; and
tells its subscribers what happened through the typed events of
:mod:`cudatui.gdbbridge.debugger.events`. Every method catches gdb's errors and reports them as
events (the on-demand queries raise MIError to the pane that asked).

gdb's focus and selected frame are shared by everything sent to it, so every operation that
sends commands holds one lock: the stop's refresh batch, steps, focus switches, frame
selection, console commands, watches, breakpoints and every query. A query that walks the lanes
of a warp therefore never interleaves with a step or with another query. An execution command
releases the lock at its ``^running``; the stop's refresh, started from the ``*stopped``
event, takes it next. :meth:`interrupt` and :meth:`close` take no lock (they must work while an
operation waits on gdb).
"""

from __future__ import annotations

import asyncio
import functools
import os
from dataclasses import replace
from typing import Any, TypeVar
from collections.abc import Awaitable, Callable

from cudatui.gdbbridge.cuda.focus import FocusSyntaxError, switch_focus
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints, BreakpointSpec, pending_text
from cudatui.gdbbridge.debugger.core import RUN, STEPS, Step
from cudatui.gdbbridge.debugger.events import ConsoleOutput, Notice, PhaseChanged, StartupFailed
from cudatui.gdbbridge.debugger.host import LAUNCH_BLOCKING, is_native, jit_env, read_output
from cudatui.gdbbridge.debugger.state import StateBuilder, reselect_frame
from cudatui.gdbbridge.debugger.targets import attached, join_rank, restart_refused
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.stop_queries import StopQueries
from cudatui.gdbbridge.record.audience import AudienceWatch
from cudatui.gdbbridge.session.recorder import PRIVATE, SHARED
from cudatui.gdbbridge.debugger.varobj import VariableObjects
from cudatui.gdbbridge.session.errors import DebuggerGone, DebuggerNotFound, MIError
from cudatui.gdbbridge.names import short_name
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import TerminalFilter
from cudatui.gdbbridge.outcome import OutputTail

__all__ = ["Debugger", "Step"]

READ_ONLY = "read-only: you are following the instructor's session (their keys drive it)"
"""What a follower's key that would change the session says instead."""

_Method = TypeVar("_Method", bound=Callable[..., Awaitable[None]])


def _drives(method: _Method) -> _Method:
    """A method that changes the session: when following a recording it only says so."""
    @functools.wraps(method)
    async def wrapper(self: Debugger, *args: Any, **kwargs: Any) -> None:
        if self.config.follow:
            self._notice(READ_ONLY, "warning")
            return
        await method(self, *args, **kwargs)
    return wrapper  # type: ignore[return-value]


class Debugger(StopQueries):
    """Run control, breakpoints, focus, console, watches and queries of one debugging session
    (see the module docstring)."""

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the debugger, insert the config's breakpoints, and run (unless ``run`` is off);
        when it cannot start (no debugger, not a gdb) the event is StartupFailed."""
        async with self._lock:
            await self._start(first=True)

    async def _start(self, first: bool) -> None:
        cfg = self.config
        if cfg.rank is not None and self.job is None:
            joined = await join_rank(self, first)
            if joined is None:
                return
            cfg = joined
        self._cut = None
        what = f"attaching to process {cfg.attach}" if cfg.attach is not None else f"starting {cfg.debugger_name}"
        self._set_status(Phase.STARTING, what, since=self.clock())
        extra = {**jit_env(cfg), **dict(cfg.env)}
        env = {**os.environ, **extra} if extra else None
        self.session = GdbSession(cfg.debugger, cfg.program_argv, cwd=cfg.cwd, env=env, record=cfg.record,
                                  record_mode=SHARED if cfg.share_group else PRIVATE, attach=cfg.attach,
                                  hand_tty=cfg.replayed, stand_in=cfg.replayed)
        previous = self.builder
        self.breakpoints = Breakpoints(self.session)
        self.builder = StateBuilder(self.session, self.breakpoints)
        self.variables = VariableObjects(self.session)
        if previous is not None:  # the panes drop states older than the one they show
            self.builder.generation = previous.generation
        self._pending_stop = None
        self._program_output, self.output_tail = TerminalFilter(), OutputTail()
        self._unsubscribe = [self.session.subscribe(self._on_event), self.session.subscribe_raw(self._emit)]
        try:
            await self.session.start()
        except (DebuggerNotFound, DebuggerGone) as exc:
            if self._closed:  # a quit while starting
                return
            self._set_status(Phase.DEAD, str(exc))
            self._emit(StartupFailed(str(exc)) if first else Notice(str(exc), "error"))
            return
        if cfg.record and self._audience is None:  # the recorder has the file open now
            self._audience = AudienceWatch(cfg.record, self._followed)
        try:
            if cfg.core:
                await self._open_core(cfg.core)
                return
            if cfg.attach is not None:
                await attached(self, first)
                return
            pending: dict[int, tuple[str, str]] = {}
            for text in cfg.breakpoints:
                spec = BreakpointSpec.parse(text)
                bp = await self._insert(spec, say_pending=False)
                if bp is not None and bp.pending:
                    pending[bp.number] = (spec.location, self._last_log)
            if pending and cfg.run and is_native(cfg):
                self._hold({number: pending_text({number: where}) for number, where in pending.items()})
                return
            self._unresolved = pending
            if cfg.run:
                await self._run()
            else:
                self._set_status(Phase.READY, "loaded, not started (r runs it)")
        except MIError as exc:
            self._notice(f"{cfg.debugger_name}: {exc.message}", "error", exc)
            if not self.session.alive:
                self._set_status(Phase.DEAD, exc.message)
            elif cfg.core:
                self._set_status(Phase.DEAD, f"coredump not opened: {exc.message}")

    def _hold(self, pending: dict[int, str]) -> None:
        """A native program with pending ``-b`` breakpoints (by number: how each is told), most
        likely mistyped locations: it is not run."""
        numbers = ", ".join(map(str, pending))
        self._set_status(Phase.READY, f"loaded, not started: breakpoint{'s' * (len(pending) > 1)} {numbers} pending "
                         "(r runs anyway)")
        self._notice(f"{'; '.join(pending.values())}: the program has no such location, so it was not started. Fix "
                     "it (:break LOCATION in the console) or press r to run anyway (a library loaded at run time may "
                     "define it)", "warning")

    async def _run(self) -> None:
        assert self.session is not None and self.breakpoints is not None
        target = "first breakpoint" if self.breakpoints.table else "exit or a stop"
        self._set_status(Phase.STARTING, f"running to {target}", since=self.clock())
        try:
            await self._go(RUN)
        except DebuggerGone:
            raise
        except MIError as exc:  # not a program gdb can run: a script, an empty or cut ELF, a path the shell mangles
            self._set_status(Phase.EXITED, "(not run) " + " ".join(exc.message.split()))
            raise

    async def _open_core(self, path: str) -> None:
        assert self.session is not None
        self._set_status(Phase.STARTING, f"opening GPU coredump {os.path.basename(path)}", since=self.clock())
        if self.config.program_output:  # triage: what the program said before it died, recorded for a replay
            said = await asyncio.to_thread(read_output, self.config.program_output)
            self.session.record("program", said)
            self._program_said(self._program_output.feed(said))
        stop = await self.session.open_core(path)
        state = await self._refresh(stop, requery_focus=stop.focus is None, new_stop=True)
        if state is not None and state.focus is None:
            self._notice(f"{os.path.basename(path)}: the coredump holds no CUDA thread to focus on", "warning")

    @_drives
    async def post_mortem(self, path: str) -> None:
        """Leave the live session and open the GPU coredump ``path`` (a restart re-opens it)."""
        async with self._lock:
            await self._start_over(core=path)

    @_drives
    async def debug_finding(self, spec: BreakpointSpec) -> None:
        """Break at ``spec`` (a sanitizer finding's thread) and run the program again; from a
        coredump, start a live session with that breakpoint."""
        async with self._lock:
            if self.config.core:
                await self._start_over(core=None, breakpoints=(*self.config.breakpoints, str(spec)))
                return
            await self._insert(spec)
            await self._guard(self._restart())

    async def restart(self) -> None:
        """Run again: kill a live program first; start a new debugger if the old one died (an
        attached process is not killed: attached again once its debugger died). A follower starts
        following again, from the instructor's newest session."""
        async with self._lock:
            if self.config.follow:
                await self._guard(self._start_over())
                return
            refused = restart_refused(self)
            if refused:
                self._notice(refused, "warning")
                return
            await self._guard(self._restart())

    @_drives
    async def rerun_with_launch_blocking(self) -> None:
        """Run again with ``CUDA_LAUNCH_BLOCKING=1``: every launch waits for its kernel, so the
        host line behind a kernel's stop is the line that launched it."""
        await self.console_command(f"set environment {LAUNCH_BLOCKING}=1")
        self.launch_blocking = True
        await self.restart()

    async def _restart(self) -> None:
        session = self.session
        if session is None or not session.alive or self.config.core:
            await self._start_over()
            if not self.config.run and not self.config.core and self.session is not None and self.session.alive:
                await self._run()
            return
        if self._program_running():
            await session.interrupt()
        if session.inferior_pid is not None:
            await session.console("kill")
        await self._run()

    async def _start_over(self, **changes: Any) -> None:
        """A new debugger session on the config with ``changes``."""
        await self._close()
        self._closed = False
        self.config = replace(self.config, **changes)
        await self._start(first=False)

    async def close(self) -> None:
        """Close the debugger and reap everything it started (detach from an attached process;
        end a job whose rank it debugged)."""
        await self._close()
        if self.job is not None:
            await self.job.close()

    def _followed(self, count: int) -> None:
        """How many follow the recording changed (the status bar shows it)."""
        self._status = replace(self._status, followers=count)
        self._emit(PhaseChanged(self._status))

    async def _close(self) -> None:
        self._closed = True
        if self._audience is not None:
            self._audience.close()
        while self._unsubscribe:
            self._unsubscribe.pop()()
        if self.session is not None:
            await self.session.close()
        tasks = [task for task in self._tasks if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- run control -----------------------------------------------------------------------

    @_drives
    async def resume(self, how: Step) -> None:
        """Continue, next, step or finish."""
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._resuming.add(sent)
        try:
            async with self._lock:
                session = self.session
                if session is not None and session.alive and self.phase is Phase.STOPPED:
                    await self._guard(self._go(STEPS[how]))
                elif session is None or not session.alive:
                    self._notice("the debugger is not running: press r to restart", "warning")
                else:
                    self._notice("the program is running: ctrl+c interrupts it" if self._program_running()
                                 else "the program is not running: press r to run it", "warning")
        finally:
            self._resuming.discard(sent)
            sent.set_result(None)

    @_drives
    async def interrupt(self) -> None:
        """Stop the running program, also one that a resume asked for just before is starting
        (it is waited for: until its ``^running`` the program is not running yet)."""
        if self._resuming:
            await asyncio.wait(set(self._resuming))
        if self.session is not None and self._program_running():
            await self._guard(self.session.interrupt())

    # -- breakpoints -----------------------------------------------------------------------

    @_drives
    async def toggle_breakpoint(self, path: str, line: int) -> None:
        """Delete the breakpoints at ``path:line``, or insert one there."""
        async with self._lock:
            if self.breakpoints is None:
                return
            here = self.breakpoints.at(path, line)
            if here:
                for bp in here:
                    await self._change(self.breakpoints.delete(bp.number))
            else:
                await self._insert(BreakpointSpec(f"{path}:{line}"))

    @_drives
    async def delete_breakpoint(self, number: int) -> None:
        async with self._lock:
            if self.breakpoints is not None:
                await self._change(self.breakpoints.delete(number))

    @_drives
    async def enable_breakpoint(self, number: int, enabled: bool) -> None:
        async with self._lock:
            if self.breakpoints is not None:
                await self._change(self.breakpoints.enable(number, enabled))

    @_drives
    async def set_condition(self, number: int, condition: str) -> None:
        async with self._lock:
            if self.breakpoints is not None:
                await self._change(self.breakpoints.set_condition(number, condition))

    # -- where the UI looks ----------------------------------------------------------------

    async def select_frame(self, level: int) -> None:
        """Show stack frame ``level`` (its locals, registers, source)."""
        async with self._lock:
            if self.state is not None and self.phase is Phase.STOPPED:
                await self._refresh(self.state.stop, selected_frame=level, focus=self.state.focus, select=True)

    async def move_frame(self, step: int) -> None:
        """Select the frame ``step`` levels up (positive: the callers, as gdb's ``up``) or down from
        the one shown; at either end a Notice says so. Moves asked for at once add up."""
        async with self._lock:
            state = self.state
            if state is None or self.phase is not Phase.STOPPED or not state.frames:
                self._notice("no stack: the program is not stopped", "warning")
                return
            level = state.selected_frame + step
            if not 0 <= level < len(state.frames):
                edge = state.frames[-1 if step > 0 else 0]
                where = "outermost (initial)" if step > 0 else "innermost (bottom)"
                self._notice(f"already at the {where} frame: #{edge.level} {short_name(edge.func)}", "warning")
                return
            await self._refresh(state.stop, selected_frame=level, focus=state.focus, select=True)

    def follow_instructor(self, on: bool) -> None:
        """A follower: move with the instructor's focus and frame within a stop (on), or look
        around on one's own (off; the next stop is shown either way)."""
        self.following_instructor = on

    async def switch_focus(self, request: str) -> None:
        """Move the CUDA focus (``block (1,0,0) thread (5,0,0)``, ``warp 2 lane 3``, ``sm 4``)."""
        async with self._lock:
            if self.session is None or self.state is None or self.phase is not Phase.STOPPED:
                self._notice("the focus can change only while stopped in a kernel", "warning")
                return
            try:
                result = await switch_focus(self.session, request)
            except (FocusSyntaxError, MIError) as exc:
                self._notice(f"focus: {exc}", "error", exc if isinstance(exc, MIError) else None)
                return
            await self._refresh(self.state.stop, focus=result.focus)

    @_drives
    async def console_command(self, command: str) -> None:
        """Run a gdb CLI command; its output is ConsoleOutput."""
        async with self._lock:
            session = self.session
            if session is None or not session.alive:
                self._emit(ConsoleOutput("the debugger is not running (r restarts it)\n", "error"))
                return
            self._emit(ConsoleOutput(f"(gdb) {command}\n", "command"))
            before = session.last_stop
            self._selected_by_console = None
            said: list[str] = []
            self._console_said = said
            try:
                if self.phase is Phase.STOPPED and self.state is not None and self.state.selected_frame:
                    await reselect_frame(session, self.state.selected_frame)  # a lane walk may have reset it
                text = await session.console(command)
            except MIError as exc:
                self._say_logs(said, exc.message)
                self._emit(ConsoleOutput(exc.message + "\n", "error", exc.not_recorded))
                return
            finally:
                self._console_said = None
            self._say_logs(said)
            if text:
                self._emit(ConsoleOutput(text, "console"))
            if self.phase is Phase.STOPPED and session.last_stop is before and self.state is not None:
                # gdb keeps the frame it has selected (`up 2`, `frame 1` change it: =thread-selected)
                # the focus: the one cuda-gdb said it switched to, else the one shown, unless the info
                # tables mark a warp current (cuda-gdb 13.0 marks none in some: the stop's focus came back)
                level = self._selected_by_console
                focus = CudaFocus.from_console(text or "") or self.state.focus
                await self._refresh(self.state.stop, focus=focus, requery_focus=self.state.in_kernel, select=False,
                                    selected_frame=self.state.selected_frame if level is None else level)

    async def add_watch(self, expression: str) -> None:
        """Watch ``expression``: evaluated at every stop (``StopState.watches``)."""
        async with self._lock:
            if expression and expression not in self.watches:
                self.watches.append(expression)
                await self._publish_watches()

    async def remove_watch(self, expression: str) -> None:
        async with self._lock:
            if expression in self.watches:
                self.watches.remove(expression)
                await self._publish_watches()
