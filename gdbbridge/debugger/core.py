"""What every :class:`~cudatui.gdbbridge.debugger.debugger.Debugger` operation shares.

:class:`DebuggerCore` holds the session of the moment, its StateBuilder and Breakpoints, the
last state, the phase, the subscribers and the one lock (see the Debugger's docstring); it
follows the session's events and runs the refresh batch of each ``*stopped`` in a task of its
own, under the lock. The operations the UI calls are the Debugger's.

Everything the Debugger hands out is clean text (:func:`~cudatui.gdbbridge.text.clean`): each
event as it is emitted (:meth:`DebuggerCore._emit`), the published state and status, and every
query's answer. Names and text from gdb, the debuggee, its files and recordings (a source file
named with ``#line`` and an OSC 2 title, a library or function whose name writes the clipboard
with OSC 52, a variable's value, the host stack) reach any UI without an escape sequence, and no
pane has to remember to clean its fields. The program's output is filtered as a stream
(:class:`~cudatui.gdbbridge.text.TerminalFilter`: an escape split between two reads of the pty is
held back and removed whole). This is done here rather than in the app because the Debugger
is the one object through which every UI sees a session; inside it the raw text is kept (the
breakpoint table, the session, the recording), so what is matched and sent to gdb is gdb's own.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import replace
from enum import Enum
from typing import Any
from collections.abc import Awaitable, Callable, Coroutine

from cudatui.gdbbridge.debugger.breakpoints import Breakpoints, BreakpointSpec, pending_text
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.cuda.evaluation import evaluation
from cudatui.gdbbridge.debugger.events import (
    ConsoleOutput, DebuggerEvent, Notice, PhaseChanged, ProgramText, QueriesFailed, Severity, StateChanged,
)
from cudatui.gdbbridge.debugger.host import debuggee_env, read_host_stack
from cudatui.gdbbridge.record.audience import AudienceWatch
from cudatui.gdbbridge.record.follow import FOLLOW
from cudatui.gdbbridge.record import stop_state
from cudatui.gdbbridge.record.replay import REPLAY_CUT
from cudatui.gdbbridge.models.host import HostStack
from cudatui.gdbbridge.host.view import sync_point
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.gdbbridge.jobs.ranks import RankJob, exit_status
from cudatui.gdbbridge.debugger.status import NOT_STOPPED, Phase, Status, focused_kernel, stop_detail
from cudatui.gdbbridge.debugger.varobj import VariableObjects
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.models import Breakpoint, StopEvent, StopState, Variable
from cudatui.gdbbridge.outcome import OutputTail, StopNotes, device_assert, notes_at_exit
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.fanout import Fanout
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import TerminalFilter, clean

Listener = Callable[[DebuggerEvent], None]


class Step(str, Enum):
    """How :meth:`Debugger.resume` moves the program."""

    CONTINUE = "continue"
    NEXT = "next"
    STEP = "step"
    FINISH = "finish"

    def __str__(self) -> str:
        return self.value


STEPS = {Step.CONTINUE: "-exec-continue", Step.NEXT: "-exec-next", Step.STEP: "-exec-step",
         Step.FINISH: "-exec-finish"}
"""The MI command of each step."""
RUN = "-exec-run"
"""The MI command that runs the program from its start."""


class DebuggerCore:
    """The shared state, events and stop refresh of a Debugger (see the module docstring)."""

    def __init__(self, config: LaunchConfig, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.session: GdbSession | None = None
        self.builder: StateBuilder | None = None
        self.breakpoints: Breakpoints | None = None
        """The session's breakpoints: the table, and the CUDA conditions deferred to the kernel launch."""
        self.state: StopState | None = None
        """The state last published."""
        self.watches: list[str] = []
        self.variables: VariableObjects | None = None
        """The variables opened in the Locals tree (gdb varobjs of the frame shown)."""
        self._status = Status(Phase.STARTING, f"starting {config.debugger_name}", clock())
        self._events: Fanout[DebuggerEvent] = Fanout("debugger listener")
        self._program_output = TerminalFilter()
        """The debuggee's output as a stream (a new one per session)."""
        self.output_tail = OutputTail()
        """The end of the debuggee's output (a new one per session), read for each stop's notes."""
        self.uses_cuda = False
        """Whether the program loaded the CUDA driver (or stopped in a kernel)."""
        self._lock = asyncio.Lock()
        self._resuming: set[asyncio.Future[None]] = set()
        """One future per resume asked for and not yet sent or refused (an interrupt asked right
        after it waits for it: c then ctrl+c typed fast stops the program)."""
        self._pending_stop: StopEvent | None = None
        """The last ``*stopped`` not refreshed yet (None once a ``*running`` followed it)."""
        self._refreshing = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._unsubscribe: list[Callable[[], None]] = []
        self._unresolved: dict[int, tuple[str, str]] = {}
        """The ``-b`` breakpoints pending when the program was started (by number: location, what
        gdb said); those still pending when it exits are told then, in one warning."""
        self._last_log = ""
        self._console_said: list[str] | None = None
        """While the user's console command runs, the log records (``&``) gdb says meanwhile
        (shown once it ended), else None; its console records are what the session captures."""
        self._selected_by_console: int | None = None
        """The frame level gdb said it selected (``=thread-selected``) while a console command ran."""
        self._closed = False
        self._cut: str | None = None
        """Once a replayed recording's cut is reached: what the status says from then on."""
        self.job: RankJob | None = None
        """The distributed job whose rank is debugged (``config.rank``), once started."""
        self.attaching = False
        """Set once gdb attached (``config.attach``), until the stop where it did is shown."""
        self.launch_blocking = False
        """Whether the program was re-run with CUDA_LAUNCH_BLOCKING=1 (so a stop's host line is the launch)."""
        self._audience: AudienceWatch | None = None
        """Counts who follows the recording (``config.record``), once the session has it open."""
        self.following_instructor = True
        """A follower moves with the instructor's focus and frame (see Debugger.follow_instructor)."""

    def record(self, direction: str, line: str) -> None:
        """Add a line to the session's recording, if it is recorded (what a front end measured
        beside gdb: a GPU sample, a lesson path's step)."""
        if self.session is not None:
            self.session.record(direction, line)

    @property
    def debuggee_pid(self) -> int | None:
        """The pid the debugger reports for its debuggee (the recording machine's in a replay): to
        match it among the GPU's processes, never to signal it (GdbSession.own_debuggee)."""
        return self.session.inferior_pid if self.session is not None else None

    @property
    def status(self) -> Status:
        """The phase and what the status bar says about it."""
        return self._status

    @property
    def phase(self) -> Phase:
        return self._status.phase

    @property
    def busy(self) -> bool:
        """Whether an operation or a stop's refresh is in flight (a driver waits for False)."""
        return self._lock.locked() or bool(self._tasks)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` for every event from now on; returns an unsubscriber."""
        return self._events.subscribe(listener)

    # -- session events --------------------------------------------------------------------

    def _on_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.Running):
            self._pending_stop = None
            if self.phase not in (Phase.STARTING, Phase.RUNNING):
                self._set_status(Phase.RUNNING, "", since=self.clock())
        elif isinstance(event, ev.Stopped):
            self._pending_stop = event.stop
            self._spawn(self._on_stop(event.stop), "refresh")
        elif isinstance(event, ev.Notify):
            self._on_notify(event)
        elif isinstance(event, ev.Stream):
            if event.kind == "log":
                self._last_log = event.text.strip()
            # gdb's own console text is shown while the program runs (when stopped it answers a
            # query); a console command of the user's shows what it made gdb say once, as it ends
            if self._console_said is not None and event.kind in ("console", "log"):
                if event.kind == "log":
                    self._console_said.append(event.text)
            elif event.kind != "console" or self.phase in (Phase.STARTING, Phase.RUNNING):
                self._emit(ConsoleOutput(event.text, event.kind))
        elif isinstance(event, ev.ProgramOutput):
            text = self._program_output.feed(event.text)
            if text:
                self._program_said(text)
        elif isinstance(event, ev.NonMI):
            self._program_said(event.line + "\n")
        elif isinstance(event, ev.RecordingStopped):
            self._notice(event.message, "error")
        elif isinstance(event, ev.LineDropped):
            self._notice(event.description, "warning")
        elif isinstance(event, ev.DebuggerExited) and not event.expected:
            self._set_status(Phase.DEAD, event.description)
            self._notice(f"{self.config.debugger_name}: {event.description}. Press r to restart.", "error")

    def _on_notify(self, event: ev.Notify) -> None:
        payload = event.payload
        if event.name == "library-loaded" and "libcuda.so" in str(payload.get("id") or ""):
            self.uses_cuda = True
        if event.name == "library-loaded" and self.phase is Phase.STARTING:
            name = os.path.basename(str(payload.get("target-name") or payload.get("id") or ""))
            base = self._status.detail.split(" · ", 1)[0]
            self._set_status(Phase.STARTING, f"{base} · loaded {name}")
        elif event.name == "thread-selected" and isinstance(payload.get("frame"), dict):
            self._selected_by_console = to_int(payload["frame"].get("level"), 0)
        elif event.name == REPLAY_CUT:
            line = payload.get("line", "?")
            self._cut = f"the recording ends here: it was cut off at line {line} (a crash?)"
            self._set_status(Phase.DEAD, self._cut)
            self._notice(f"the recording was cut off at line {line}: it replays up to there", "warning")
        elif event.name == FOLLOW:
            self._on_follow(payload)
        elif self.breakpoints is not None and self.breakpoints.note(event.name, payload):
            self._publish_breakpoints()

    def _on_follow(self, payload: dict[str, Any]) -> None:
        """What the follow stand-in says: the instructor's session ended, or where they look."""
        if payload.get("state") == "ended":
            self._set_status(self.phase, "the instructor's session ended: this is its last state (r follows "
                             "their next session)")
            self._notice("the instructor's session ended: its last state stays on screen", "warning")
        elif self.following_instructor and isinstance(payload.get("focus"), str):
            self._spawn(self.switch_focus(payload["focus"]), "follow focus")  # type: ignore[attr-defined]
        elif self.following_instructor and str(payload.get("frame", "")).isdigit():
            self._spawn(self.select_frame(int(payload["frame"])), "follow frame")  # type: ignore[attr-defined]

    async def _on_stop(self, stop: StopEvent) -> None:
        """The refresh of a ``*stopped`` (unless a later ``*running`` or stop made it stale)."""
        async with self._lock:
            if self._pending_stop is not stop:
                return
            assert self.breakpoints is not None
            try:
                if not stop.exited and await self.breakpoints.should_skip(stop):
                    await self._go(STEPS[Step.CONTINUE])
                    return
            except DebuggerGone:
                return
            except MIError as exc:
                self._notice(f"breakpoint condition: {exc.message}", "warning", exc)
            previous = self.state
            state = await self._refresh(stop, new_stop=True)
            if state is None:
                return
            if stop.exception is not None:
                self._notice(f"{stop.exception.signal_name}: {stop.exception.name}", "error")
            elif previous is not None and previous.focus and state.focus and not stop.exited and (
                (previous.focus.block, previous.focus.thread) != (state.focus.block, state.focus.thread)
            ):
                self._notice(f"cuda-gdb moved the focus to {state.focus.software}", "information")

    async def _refresh(
        self, stop: StopEvent, *, selected_frame: int = 0, focus: CudaFocus | None = None, requery_focus: bool = False,
        select: bool | None = None, new_stop: bool = False,
    ) -> StopState | None:
        """Gather everything shown at ``stop`` (the refresh batch, the watches, and for a
        ``new_stop`` the host stack; a focus or frame change keeps the stop's host stack), then
        publish it as ONE state and announce it (the lock is held); ``select`` as
        :meth:`StateBuilder.refresh` takes it."""
        assert self.builder is not None
        previous = self.state
        if self._pending_stop is stop:
            self._pending_stop = None
        self._refreshing = True
        try:
            state = await self.builder.refresh(stop, selected_frame=selected_frame, focus=focus, requery_focus=requery_focus,
                                               select=select)
            if self.variables is not None:
                await self.variables.follow(state)
            watches = await self._watch_values(state)
            if new_stop:
                host, note = await self._host_behind(state)
            elif previous is not None and previous.stop is stop:
                host, note = previous.host, previous.host_note
            else:
                host, note = None, None
        except DebuggerGone:
            return None
        finally:
            self._refreshing = False
        self.uses_cuda = self.uses_cuda or state.focus is not None
        self.state = state = clean(replace(state, notes=self._notes(state), watches=watches, host=host, host_note=note))
        if self.session is not None and not self.config.replayed:
            stop_state.record(self.session.record, state)
        self._emit(StateChanged(state))
        self._announce_stop(state)
        if state.errors:
            self._emit(QueriesFailed(state.errors))
        return state

    def _announce_stop(self, state: StopState) -> None:
        stop = state.stop
        if stop.exited:
            detail = stop.signal or "?" if stop.exit_code is None else str(stop.exit_code)
            self._set_status(Phase.EXITED, detail, focus="", kernel="")
            self._tell_unresolved()
            if self.job is not None:
                self.job.finished(exit_status(stop.exit_code, stop.signal))
            return
        focus = state.focus.software if state.focus else ""
        detail, self.attaching = "attached" if self.attaching else stop_detail(stop), False
        self._set_status(Phase.STOPPED, detail, focus=focus, kernel=focused_kernel(state))

    def _tell_unresolved(self) -> None:
        """At the program's exit: the ``-b`` breakpoints pending at its start that no library or
        kernel it loaded defined (a mistyped location, most likely), in one warning. Those that
        were set meanwhile are not told: a kernel's breakpoint is pending until its module loads."""
        still = {bp.number for bp in self.breakpoints.listed if bp.pending} if self.breakpoints else set()
        told = {number: where for number, where in self._unresolved.items() if number in still}
        self._unresolved = {}
        if not told:
            return
        self._notice(f"{pending_text(told)}: the program ended and loaded no library or kernel that defines "
                     f"{'them' if len(told) > 1 else 'it'}; check the location", "warning")

    # -- helpers ---------------------------------------------------------------------------

    def _program_said(self, text: str) -> None:
        """Show the program's ``text``; output that arrives after the stop it explains (the pty
        is read apart from gdb's records) updates that stop's notes."""
        self._emit(ProgramText(text))
        self.output_tail.feed(text)
        state = self.state
        if state is None or self.builder is None or self._refreshing or self.phase not in (Phase.STOPPED, Phase.EXITED):
            return
        notes = self._notes(state)
        if notes != state.notes:
            self.state = clean(self.builder.bump(state, notes=notes))
            self._emit(StateChanged(self.state))

    def _notes(self, state: StopState) -> StopNotes:
        """What the program's output says about ``state`` (see :mod:`cudatui.gdbbridge.outcome`)."""
        stop, tail = state.stop, self.output_tail.text
        if stop.exited:
            return notes_at_exit(tail, stop.exit_code, self.uses_cuda)
        focus = state.focus or stop.focus
        if stop.exception is None or focus is None:
            return StopNotes()
        return StopNotes(device_assert=device_assert(tail, focus.block, focus.thread))

    def _publish_breakpoints(self) -> None:
        """Show changed breakpoints now, unless a refresh in flight will show them."""
        if self.state is not None and self.builder is not None and self.breakpoints is not None and not self._refreshing:
            self.state = clean(self.builder.bump(self.state, breakpoints=self.breakpoints.listed))
            self._emit(StateChanged(self.state))

    async def _host_behind(self, state: StopState) -> tuple[HostStack | None, str | None]:
        """The host stack behind a new stop, when the program is Python (or the recording has it),
        and the note saying when its line is a sync point rather than the launch."""
        assert self.session is not None
        if state.stop.exited:
            return None, None
        stack = await read_host_stack(self.session, self.config)
        in_kernel = stack is not None and state.focus is not None
        note = sync_point(stack, debuggee_env(self.config, self.launch_blocking)) if stack is not None and in_kernel else None
        return stack, note

    async def _watch_values(self, state: StopState) -> tuple[Variable, ...]:
        """The watch expressions' values at ``state`` (``<not stopped>`` once the program ended)."""
        if state.stop.exited or self.session is None:
            return tuple(Variable(w, "<not stopped>") for w in self.watches)
        return tuple([(await evaluation(self.session, w, typed=True)).variable for w in self.watches])

    async def _publish_watches(self) -> None:
        """The watches changed: the state shown again with their values (a new generation)."""
        if self.state is None or self.builder is None or self._refreshing:
            return
        if self.phase is not Phase.STOPPED:
            watches = tuple(Variable(w, "<not stopped>") for w in self.watches)
        else:
            watches = await self._watch_values(self.state)
        self.state = clean(self.builder.bump(self.state, watches=watches))
        self._emit(StateChanged(self.state))

    def _set_status(self, phase: Phase, detail: str, since: float | None = None, *, focus: str | None = None,
                    kernel: str | None = None) -> None:
        if self._cut is not None:  # past a recording's cut nothing runs
            phase, detail, since = Phase.DEAD, self._cut, None
        keep_since = since if since is not None else (self._status.since if phase is self._status.phase else None)
        status = replace(self._status, phase=phase, detail=detail, since=keep_since)
        if focus is not None or kernel is not None:
            status = replace(status, focus=focus if focus is not None else status.focus,
                             kernel=kernel if kernel is not None else status.kernel)
        self._status = clean(status)
        self._emit(PhaseChanged(self._status))

    def _emit(self, event: DebuggerEvent) -> None:
        """Tell the subscribers ``event``, its text cleaned (see the module docstring)."""
        self._events.emit(clean(event))

    def _say_logs(self, said: list[str], error: str = "") -> None:
        """The log records a console command made gdb say, but the one that is its ``error``."""
        for text in said:
            if not error or text.strip() != error.strip():
                self._emit(ConsoleOutput(text, "log"))

    def _notice(self, message: str, severity: Severity = "information", error: MIError | None = None) -> None:
        self._emit(Notice(message, severity, error is not None and error.not_recorded))

    async def _guard(self, work: Awaitable[Any]) -> bool:
        """Await ``work``; report gdb's error as a Notice. True when it succeeded."""
        try:
            await work
        except MIError as exc:
            self._notice(exc.message, "error", exc)
            return False
        return True

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self._notice(f"internal error in {task.get_name()}: {task.exception()}", "error")

    def _program_running(self) -> bool:
        session = self.session
        return session is not None and (self.phase is Phase.RUNNING or
                                        self.phase is Phase.STARTING and session.inferior_pid is not None)

    async def _go(self, operation: str) -> None:
        """Send an execution command; at its ``^running`` the program runs."""
        assert self.session is not None
        await self.session.command(operation)
        if self.phase not in (Phase.STARTING, Phase.RUNNING):
            self._set_status(Phase.RUNNING, "", since=self.clock())

    async def _insert(self, spec: BreakpointSpec, *, say_pending: bool = True) -> Breakpoint | None:
        """Insert ``spec``: the breakpoint, or None when gdb refused it (a warning). A pending
        one is said to be one unless ``say_pending`` is off (the caller says it)."""
        assert self.breakpoints is not None
        self._last_log = ""
        try:
            bp = await self.breakpoints.add(spec)
        except DebuggerGone:
            raise
        except MIError as exc:
            self._notice(f"breakpoint {spec.location}: {exc.message}", "warning", exc)
            return None
        self._publish_breakpoints()
        if bp.pending and say_pending:
            self._notice(f"{self._pending(bp, spec)}: it is set when a library or kernel defines it; check the "
                         "location if it never stops", "warning")
        return bp

    def _pending(self, bp: Breakpoint, spec: BreakpointSpec) -> str:
        """How the pending ``bp`` just inserted is told, with what gdb said about it."""
        return pending_text({bp.number: (spec.location, self._last_log)})

    async def _change(self, work: Awaitable[None]) -> None:
        if await self._guard(work):
            self._publish_breakpoints()

    def _stopped(self) -> GdbSession:
        """The session, when stopped with its state built; else MIError saying why not."""
        if self.session is None:
            raise MIError("the debugger has not started", "")
        if self.phase is not Phase.STOPPED:
            raise MIError(NOT_STOPPED[self.phase], "")
        return self.session

