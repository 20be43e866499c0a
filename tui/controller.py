"""The one controller between the UI and gdbbridge.

It owns the :class:`GdbSession`, the :class:`StateBuilder` and the :class:`Breakpoints`; runs
the refresh batch on each stop; and tells a :class:`View` (the app) what to show. Every intent
method catches gdb's errors and reports them through ``View.notify``: nothing here raises
into the UI.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Coroutine, Protocol

from cudatui.gdbbridge.cuda import focus as cuda
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints, BreakpointSpec
from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.cuda.models import CudaFocus
from cudatui.gdbbridge.models import Breakpoint, StopEvent, StopState, Variable
from cudatui.gdbbridge.session.errors import DebuggerGone, DebuggerNotFound, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.cuda.evaluation import evaluation
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.tui.panes.status import Status, kernel_name, stop_detail

if TYPE_CHECKING:
    from cudatui.gdbbridge.debugger.config import LaunchConfig

STEPS = {"continue": "-exec-continue", "next": "-exec-next", "step": "-exec-step", "finish": "-exec-finish"}


class View(Protocol):
    """What the controller needs from the UI. ``mi_log`` gets every raw MI line as it crossed
    the pipe: ``RawLine.direction`` is "in" (sent), "out" (printed by gdb) or "err" (its stderr)."""

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None: ...
    def attach(self, session: GdbSession) -> None: ...
    def show_state(self, state: StopState) -> None: ...
    def show_watches(self, generation: int, watches: tuple[Variable, ...]) -> None: ...
    def show_status(self, status: Status) -> None: ...
    def program_output(self, text: str) -> None: ...
    def console_output(self, text: str, kind: str) -> None: ...
    def mi_log(self, line: ev.RawLine) -> None: ...
    def notify_user(self, message: str, severity: str = "information") -> None: ...
    def startup_failed(self, message: str) -> None: ...


class Controller:
    """Routes intents to gdbbridge and publishes StopStates (see the module docstring)."""

    def __init__(self, config: LaunchConfig, view: View, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.view = view
        self.clock = clock
        self.session: GdbSession | None = None
        self.builder: StateBuilder | None = None
        self.bps: Breakpoints | None = None
        self.state: StopState | None = None
        self.watches: list[str] = []
        self._breakpoints: dict[int, Breakpoint] = {}
        self._status = Status("starting", f"starting {config.debugger_name}", clock())
        self._refreshing = 0
        self._unsubscribe: list[Callable[[], None]] = []
        self._last_log = ""
        self._closed = False

    @property
    def status(self) -> Status:
        """What the status bar shows now."""
        return self._status

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self, first: bool = True) -> None:
        """Start the debugger, insert the -b breakpoints, and run (unless --no-run); a
        ``first`` start that fails (no debugger, not a gdb) makes the view give up."""
        cfg = self.config
        self._set_status("starting", f"starting {cfg.debugger_name}", since=self.clock())
        env = {**os.environ, **dict(cfg.env)} if cfg.env else None
        self.session = GdbSession(cfg.debugger, cfg.program_argv, cwd=cfg.cwd, env=env, record=cfg.record)
        self.view.attach(self.session)
        previous = self.builder
        self.builder = StateBuilder(self.session)
        if previous is not None:  # the panes drop states older than the one they show
            self.builder.generation = previous.generation
        self.bps = Breakpoints(self.session)
        self._unsubscribe = [self.session.subscribe(self._on_event), self.session.subscribe_raw(self.view.mi_log)]
        try:
            await self.session.start()
        except (DebuggerNotFound, DebuggerGone) as exc:
            if self._closed:  # a quit while starting
                return
            self._set_status("dead", str(exc))
            if first:
                self.view.startup_failed(str(exc))
            else:
                self.view.notify_user(str(exc), "error")
            return
        try:
            if cfg.core:
                await self._open_core(cfg.core)
                return
            for spec in cfg.breakpoints:
                await self._insert(BreakpointSpec.parse(spec))
            if cfg.run:
                await self._run()
            else:
                self._set_status("stopped", "loaded, not started (r runs it)")
        except MIError as exc:
            self.view.notify_user(f"{cfg.debugger_name}: {exc.message}", "error")
            if not self.session.alive:
                self._set_status("dead", exc.message)
            elif cfg.core:
                self._set_status("dead", f"coredump not opened: {exc.message}")

    async def _run(self) -> None:
        assert self.session is not None
        target = "first breakpoint" if self._breakpoints else "exit or a stop"
        self._set_status("starting", f"running to {target}", since=self.clock())
        await self.session.command("-exec-run")

    async def _open_core(self, path: str) -> None:
        assert self.session is not None
        self._set_status("starting", f"opening GPU coredump {os.path.basename(path)}", since=self.clock())
        stop = await self.session.open_core(path)
        state = await self._refresh(stop, requery_focus=stop.focus is None)
        if state is not None and state.focus is None:
            self.view.notify_user(f"{os.path.basename(path)}: the coredump holds no CUDA thread to focus on", "warning")

    async def post_mortem(self, path: str) -> None:
        """Leave the live session and open the GPU coredump ``path`` (r re-opens it)."""
        await self._start_over(core=path)

    async def debug_finding(self, spec: str) -> None:
        """Break at ``LOCATION if CONDITION`` (a sanitizer finding's thread) and run the program
        again; from a coredump, start a live session with that breakpoint."""
        if self.config.core:
            await self._start_over(core=None, breakpoints=(*self.config.breakpoints, spec))
            return
        await self.add_breakpoint(spec)
        await self.restart()

    async def _start_over(self, **changes: Any) -> None:
        """A new debugger session on the config with ``changes``."""
        await self.close()
        self._breakpoints.clear()
        self._closed = False
        self.config = replace(self.config, **changes)
        await self.start(first=False)

    async def restart(self) -> None:
        """Run again: kill a live program first; start a new debugger if the old one died."""
        await self._guard(self._restart())

    async def _restart(self) -> None:
        session = self.session
        if session is None or not session.alive or self.config.core:
            await self._start_over()
            if not self.config.run and not self.config.core and self.session is not None and self.session.alive:
                await self._run()
            return
        if session.state == "running":
            await session.interrupt()
        if session.inferior_pid is not None:
            await session.console("kill")
        await self._run()

    async def close(self) -> None:
        """Close the debugger and reap everything it started."""
        self._closed = True
        while self._unsubscribe:
            self._unsubscribe.pop()()
        if self.session is not None:
            await self.session.close()

    # -- intents ---------------------------------------------------------------------------

    async def resume(self, how: str) -> None:
        """continue / next / step / finish."""
        session = self.session
        if session is not None and session.alive and session.state == "stopped":
            await self._guard(session.command(STEPS[how]))
        elif session is None or not session.alive:
            self.view.notify_user("the debugger is not running: press r to restart", "warning")
        else:
            running = session.state == "running"
            self.view.notify_user("the program is running: ctrl+c interrupts it" if running
                                  else "the program is not running: press r to run it", "warning")

    async def interrupt(self) -> None:
        if self.session is not None and self.session.state == "running":
            await self._guard(self.session.interrupt())

    async def toggle_breakpoint(self, path: str, line: int) -> None:
        """Delete the breakpoints at ``path:line``, or insert one there."""
        here = [bp for bp in self._breakpoints.values() if _at(bp, path, line)]
        if here:
            for bp in here:
                await self.delete_breakpoint(bp.number)
        else:
            await self._insert(BreakpointSpec(f"{path}:{line}"))

    async def add_breakpoint(self, spec: str) -> None:
        """Insert ``LOCATION [if CONDITION]``."""
        await self._insert(BreakpointSpec.parse(spec))

    async def delete_breakpoint(self, number: int) -> None:
        if self.bps is not None and await self._guard(self.bps.delete(number)):
            self._breakpoints.pop(number, None)
            self._publish_breakpoints()

    async def enable_breakpoint(self, number: int, enabled: bool) -> None:
        if self.bps is not None and await self._guard(self.bps.enable(number, enabled)):
            self._update_breakpoint(number, enabled=enabled)

    async def set_condition(self, number: int, condition: str) -> None:
        if self.bps is not None and await self._guard(self.bps.set_condition(number, condition)):
            self._update_breakpoint(number, condition=condition or None)

    async def select_frame(self, level: int) -> None:
        if self.state is not None and self.session is not None and self.session.state == "stopped":
            await self._refresh(self.state.stop, selected_frame=level, focus=self.state.focus)

    async def switch_focus(self, request: str) -> None:
        """Move the CUDA focus (``block (1,0,0) thread (5,0,0)``, ``warp 2 lane 3``, ``sm 4``)."""
        if self.session is None or self.state is None or self.session.state != "stopped":
            self.view.notify_user("the focus can change only while stopped in a kernel", "warning")
            return
        try:
            result = await cuda.switch_focus(self.session, request)
        except (cuda.FocusSyntaxError, MIError) as exc:
            self.view.notify_user(f"focus: {exc}", "error")
            return
        await self._refresh(self.state.stop, focus=result.focus)

    async def console_command(self, command: str) -> None:
        """Run a gdb CLI command; its output goes to the console pane."""
        if self.session is None or not self.session.alive:
            self.view.console_output("the debugger is not running (r restarts it)\n", "error")
            return
        self.view.console_output(f"(gdb) {command}\n", "command")
        before = self.session.last_stop
        try:
            text = await self.session.console(command)
        except MIError as exc:
            self.view.console_output(exc.message + "\n", "error")
            return
        if text:
            self.view.console_output(text, "console")
        if self.session.state == "stopped" and self.session.last_stop is before and self.state is not None:
            await self._refresh(self.state.stop, requery_focus=self.state.in_kernel)

    async def add_watch(self, expression: str) -> None:
        if expression and expression not in self.watches:
            self.watches.append(expression)
            await self._publish_watches()

    async def remove_watch(self, expression: str) -> None:
        if expression in self.watches:
            self.watches.remove(expression)
            await self._publish_watches()

    # -- events ----------------------------------------------------------------------------

    def _on_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.Running):
            if self._status.phase != "starting":
                self._set_status("running", "", since=self.clock())
        elif isinstance(event, ev.Stopped):
            self.view.spawn(self._on_stop(event.stop), "refresh")
        elif isinstance(event, ev.Notify):
            self._on_notify(event)
        elif isinstance(event, ev.Stream):
            if event.kind == "log":
                self._last_log = event.text.strip()
            if event.kind != "console" or self._status.phase in ("starting", "running"):
                self.view.console_output(event.text, event.kind)
        elif isinstance(event, (ev.ProgramOutput, ev.NonMI)):
            self.view.program_output(event.text if isinstance(event, ev.ProgramOutput) else event.line + "\n")
        elif isinstance(event, ev.RecordingStopped):
            self.view.notify_user(event.message, "error")
        elif isinstance(event, ev.DebuggerExited) and not event.expected:
            self._set_status("dead", event.description)
            self.view.notify_user(f"{self.config.debugger_name}: {event.description}. Press r to restart.", "error")

    def _on_notify(self, event: ev.Notify) -> None:
        payload = event.payload
        if event.name == "library-loaded" and self._status.phase == "starting":
            name = os.path.basename(str(payload.get("target-name") or payload.get("id") or ""))
            base = self._status.detail.split(" · ", 1)[0]
            self._set_status("starting", f"{base} · loaded {name}")
        elif event.name in ("breakpoint-created", "breakpoint-modified"):
            bp = Breakpoint.from_answer(payload)
            if bp is not None:
                self._breakpoints[bp.number] = bp
                self._publish_breakpoints()
        elif event.name == "breakpoint-deleted":
            self._breakpoints.pop(to_int(payload.get("id"), -1) or -1, None)
            self._publish_breakpoints()

    async def _on_stop(self, stop: StopEvent) -> None:
        assert self.bps is not None and self.session is not None
        try:
            if not stop.exited and await self.bps.should_skip(stop):
                await self.session.command("-exec-continue")
                return
        except MIError as exc:
            self.view.notify_user(f"breakpoint condition: {exc.message}", "warning")
        previous = self.state
        state = await self._refresh(stop)
        if state is None:
            return
        if stop.exception is not None:
            self.view.notify_user(f"{stop.exception.signal_name}: {stop.exception.name}", "error")
        elif previous is not None and previous.focus and state.focus and not stop.exited and (
            (previous.focus.block, previous.focus.thread) != (state.focus.block, state.focus.thread)
        ):
            self.view.notify_user(f"cuda-gdb moved the focus to {state.focus.software}", "information")

    async def _refresh(
        self, stop: StopEvent, *, selected_frame: int = 0, focus: CudaFocus | None = None, requery_focus: bool = False
    ) -> StopState | None:
        assert self.builder is not None
        self._refreshing += 1
        try:
            state = await self.builder.refresh(stop, selected_frame=selected_frame, focus=focus, requery_focus=requery_focus)
        except DebuggerGone:
            return None
        finally:
            self._refreshing -= 1
        if any(e.what == "breakpoints" for e in state.errors):
            state = replace(state, breakpoints=self._sorted_breakpoints())
        else:
            self._breakpoints = {bp.number: bp for bp in state.breakpoints}
        self.state = state
        self.view.show_state(state)
        self._announce_stop(state)
        if state.errors:
            self.view.notify_user("some queries failed: " + "; ".join(str(e) for e in state.errors), "warning")
        await self._publish_watches()
        return state

    def _announce_stop(self, state: StopState) -> None:
        stop = state.stop
        if stop.exited:
            self._set_status("exited", stop.signal or "?" if stop.exit_code is None else str(stop.exit_code), focus="", kernel="")
            return
        focus = state.focus.software if state.focus else ""
        self._set_status("stopped", stop_detail(stop), focus=focus, kernel=kernel_name(state))

    # -- helpers ---------------------------------------------------------------------------

    async def _insert(self, spec: BreakpointSpec) -> None:
        assert self.bps is not None
        location = spec.location
        self._last_log = ""
        try:
            bp = await self.bps.insert(location, spec.condition)
        except DebuggerGone:
            raise
        except MIError as exc:
            self.view.notify_user(f"breakpoint {location}: {exc.message}", "warning")
            return
        self._breakpoints[bp.number] = bp
        self._publish_breakpoints()
        if bp.pending:
            why = f" ({self._last_log})" if self._last_log else ""
            self.view.notify_user(
                f"breakpoint {bp.number} at {location} is pending{why}: it is set when a library or kernel "
                "defines it; check the location if it never stops",
                "warning",
            )

    def _update_breakpoint(self, number: int, **changes: Any) -> None:
        if number in self._breakpoints:
            self._breakpoints[number] = replace(self._breakpoints[number], **changes)
            self._publish_breakpoints()

    def _sorted_breakpoints(self) -> tuple[Breakpoint, ...]:
        return tuple(self._breakpoints[n] for n in sorted(self._breakpoints))

    def _publish_breakpoints(self) -> None:
        """Show changed breakpoints now, unless a refresh in flight will show them."""
        if self.state is not None and self.builder is not None and not self._refreshing:
            self.state = self.builder.bump(self.state, breakpoints=self._sorted_breakpoints())
            self.view.show_state(self.state)

    async def _publish_watches(self) -> None:
        state, session = self.state, self.session
        if state is None or session is None:
            return
        if state.stop.exited or session.state != "stopped":
            values = tuple(Variable(w, "<not stopped>") for w in self.watches)
        else:
            values = tuple([(await evaluation(session, w, typed=True)).variable for w in self.watches])
        self.view.show_watches(state.generation, values)

    def _set_status(self, phase: str, detail: str, since: float | None = None, **changes: str) -> None:
        keep_since = since if since is not None else (self._status.since if phase == self._status.phase else None)
        self._status = replace(self._status, phase=phase, detail=detail, since=keep_since, **changes)
        self.view.show_status(self._status)

    async def _guard(self, work: Awaitable[Any]) -> bool:
        """Await ``work``; report gdb's error as a notification. True when it succeeded."""
        try:
            await work
        except MIError as exc:
            self.view.notify_user(exc.message, "error")
            return False
        return True


def _at(bp: Breakpoint, path: str, line: int) -> bool:
    """Whether ``bp`` (or one of its locations) is at ``path:line`` (same file name)."""
    name = os.path.basename(path)
    places = [(bp.fullname or bp.file, bp.line)] + [(loc.fullname or loc.file, loc.line) for loc in bp.locations]
    return any(f and ln == line and (f == path or os.path.basename(f) == name) for f, ln in places)
