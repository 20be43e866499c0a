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
import os
from dataclasses import replace
from typing import Any

from cudatui.gdbbridge.cuda import warp_watch
from cudatui.gdbbridge.cuda.disassembly import disassemble
from cudatui.gdbbridge.cuda.evaluation import evaluate, read_shared
from cudatui.gdbbridge.cuda.focus import FocusSyntaxError, switch_focus
from cudatui.gdbbridge.cuda.models import BlockRange, Instruction, ThreadRange
from cudatui.gdbbridge.cuda.tables import info, parse_blocks, parse_threads
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints, BreakpointSpec
from cudatui.gdbbridge.debugger.core import RUN, STEPS, DebuggerCore, Step
from cudatui.gdbbridge.debugger.events import ConsoleOutput, Notice, StartupFailed
from cudatui.gdbbridge.debugger.host import LAUNCH_BLOCKING, is_native
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.varobj import Path, VariableObjects, VarNode
from cudatui.gdbbridge.session.errors import DebuggerGone, DebuggerNotFound, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import TerminalFilter, clean

__all__ = ["Debugger", "Step"]


class Debugger(DebuggerCore):
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
        self._set_status(Phase.STARTING, f"starting {cfg.debugger_name}", since=self.clock())
        env = {**os.environ, **dict(cfg.env)} if cfg.env else None
        self.session = GdbSession(cfg.debugger, cfg.program_argv, cwd=cfg.cwd, env=env, record=cfg.record)
        previous = self.builder
        self.breakpoints = Breakpoints(self.session)
        self.builder = StateBuilder(self.session, self.breakpoints)
        self.variables = VariableObjects(self.session)
        if previous is not None:  # the panes drop states older than the one they show
            self.builder.generation = previous.generation
        self._pending_stop = None
        self._program_output = TerminalFilter()
        self._unsubscribe = [self.session.subscribe(self._on_event), self.session.subscribe_raw(self._emit)]
        try:
            await self.session.start()
        except (DebuggerNotFound, DebuggerGone) as exc:
            if self._closed:  # a quit while starting
                return
            self._set_status(Phase.DEAD, str(exc))
            self._emit(StartupFailed(str(exc)) if first else Notice(str(exc), "error"))
            return
        try:
            if cfg.core:
                await self._open_core(cfg.core)
                return
            hold = cfg.run and is_native(cfg)
            pending: dict[int, str] = {}
            for text in cfg.breakpoints:
                spec = BreakpointSpec.parse(text)
                bp = await self._insert(spec, say_pending=not hold)
                if hold and bp is not None and bp.pending:
                    pending[bp.number] = self._pending(bp, spec)
            if pending:
                self._hold(pending)
            elif cfg.run:
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
        stop = await self.session.open_core(path)
        state = await self._refresh(stop, requery_focus=stop.focus is None)
        if state is not None and state.focus is None:
            self._notice(f"{os.path.basename(path)}: the coredump holds no CUDA thread to focus on", "warning")

    async def post_mortem(self, path: str) -> None:
        """Leave the live session and open the GPU coredump ``path`` (a restart re-opens it)."""
        async with self._lock:
            await self._start_over(core=path)

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
        """Run again: kill a live program first; start a new debugger if the old one died."""
        async with self._lock:
            await self._guard(self._restart())

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
        """Close the debugger and reap everything it started."""
        await self._close()

    async def _close(self) -> None:
        self._closed = True
        while self._unsubscribe:
            self._unsubscribe.pop()()
        if self.session is not None:
            await self.session.close()
        tasks = [task for task in self._tasks if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- run control -----------------------------------------------------------------------

    async def resume(self, how: Step) -> None:
        """Continue, next, step or finish."""
        async with self._lock:
            session = self.session
            if session is not None and session.alive and self.phase is Phase.STOPPED:
                await self._guard(self._go(STEPS[how]))
            elif session is None or not session.alive:
                self._notice("the debugger is not running: press r to restart", "warning")
            else:
                self._notice("the program is running: ctrl+c interrupts it" if self._program_running()
                             else "the program is not running: press r to run it", "warning")

    async def interrupt(self) -> None:
        """Stop the running program."""
        if self.session is not None and self._program_running():
            await self._guard(self.session.interrupt())

    # -- breakpoints -----------------------------------------------------------------------

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

    async def add_breakpoint(self, spec: BreakpointSpec) -> None:
        """Insert ``spec`` (a CUDA condition cuda-gdb refuses before the kernel loads is deferred)."""
        async with self._lock:
            await self._insert(spec)

    async def delete_breakpoint(self, number: int) -> None:
        async with self._lock:
            if self.breakpoints is not None:
                await self._change(self.breakpoints.delete(number))

    async def enable_breakpoint(self, number: int, enabled: bool) -> None:
        async with self._lock:
            if self.breakpoints is not None:
                await self._change(self.breakpoints.enable(number, enabled))

    async def set_condition(self, number: int, condition: str) -> None:
        async with self._lock:
            if self.breakpoints is not None:
                await self._change(self.breakpoints.set_condition(number, condition))

    # -- where the UI looks ----------------------------------------------------------------

    async def select_frame(self, level: int) -> None:
        """Show stack frame ``level`` (its locals, registers, source)."""
        async with self._lock:
            if self.state is not None and self.phase is Phase.STOPPED:
                await self._refresh(self.state.stop, selected_frame=level, focus=self.state.focus)

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

    async def console_command(self, command: str) -> None:
        """Run a gdb CLI command; its output is ConsoleOutput."""
        async with self._lock:
            session = self.session
            if session is None or not session.alive:
                self._emit(ConsoleOutput("the debugger is not running (r restarts it)\n", "error"))
                return
            self._emit(ConsoleOutput(f"(gdb) {command}\n", "command"))
            before = session.last_stop
            self._console_said = said = []
            try:
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
                await self._refresh(self.state.stop, requery_focus=self.state.in_kernel)

    async def add_watch(self, expression: str) -> None:
        """Watch ``expression``: evaluated at every stop (WatchesChanged)."""
        async with self._lock:
            if expression and expression not in self.watches:
                self.watches.append(expression)
                await self._publish_watches()

    async def remove_watch(self, expression: str) -> None:
        async with self._lock:
            if expression in self.watches:
                self.watches.remove(expression)
                await self._publish_watches()

    # -- on-demand queries (DebuggerQueries): every answer is clean text ------------------

    async def evaluate(self, expression: str) -> str:
        """The value of ``expression`` in the focused thread, as gdb prints it."""
        async with self._lock:
            return clean(await evaluate(self._stopped(), expression))

    async def children(self, path: Path) -> tuple[VarNode, ...]:
        """The members, elements or pointee of the variable at ``path`` (a local or watch
        expression, then child names), through gdb's variable objects."""
        async with self._lock:
            self._stopped()
            assert self.variables is not None
            return clean(await self.variables.children(path))

    async def read_shared(self, name: str, start: int, count: int) -> tuple[str, ...]:
        """``count`` elements (rows, for a 2-D array) of shared array ``name`` from ``start``."""
        async with self._lock:
            return clean(await read_shared(self._stopped(), name, start, count))

    async def disassemble(self, start: str, end: str) -> tuple[Instruction, ...]:
        """SASS between two address expressions, with source lines."""
        async with self._lock:
            return clean(await disassemble(self._stopped(), start, end))

    async def evaluate_in_lanes(self, expression: str) -> tuple[tuple[int, str], ...]:
        """``expression`` in each active lane of the focused warp; the focus is restored."""
        async with self._lock:
            values = await warp_watch.evaluate_in_lanes(self._stopped(), expression)
            return clean(tuple((v.lane, v.text) for v in values))

    async def blocks(self) -> tuple[BlockRange, ...]:
        """The coalesced block ranges of every running kernel."""
        async with self._lock:
            return clean(parse_blocks(await info(self._stopped(), "blocks")))

    async def threads(self) -> tuple[ThreadRange, ...]:
        """The coalesced thread ranges (same pc and line) of every running kernel."""
        async with self._lock:
            return clean(parse_threads(await info(self._stopped(), "threads")))

