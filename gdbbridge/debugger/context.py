"""What every part of a :class:`~cudatui.gdbbridge.debugger.debugger.Debugger` shares.

:class:`DebuggerContext` holds the session of the moment, its StateBuilder, Breakpoints and
variable objects, the last state published, the watches, the phase, the subscribers and the
one lock (see the Debugger's docstring), and the few things every part does with them: tell an
event, set the phase, send an execution command, run a task. The parts (run control, stop
refresh, queries...) are given the context; none of them holds state of its own that another
part reads.

Everything the Debugger hands out is clean text (:func:`~cudatui.gdbbridge.text.clean`): each
event as it is emitted (:meth:`DebuggerContext.emit`), the published state and status, and every
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
import time
from dataclasses import replace
from typing import Any
from collections.abc import Awaitable, Callable, Coroutine

from cudatui.gdbbridge.debugger.breakpoints import Breakpoints
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.events import DebuggerEvent, Notice, PhaseChanged, Severity
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.gdbbridge.debugger.status import NOT_STOPPED, Phase, Status
from cudatui.gdbbridge.debugger.varobj import VariableObjects
from cudatui.gdbbridge.jobs.ranks import RankJob
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.outcome import OutputTail
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.fanout import Fanout
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import TerminalFilter, clean

Listener = Callable[[DebuggerEvent], None]


class DebuggerContext:
    """The shared state of one Debugger and what every part does with it (see the module docstring)."""

    def __init__(self, config: LaunchConfig, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        """What runs: the one launch config (a rank's own program and directory once it joined)."""
        self.clock = clock
        self.session: GdbSession | None = None
        self.builder: StateBuilder | None = None
        self.breakpoints: Breakpoints | None = None
        """The session's breakpoints: the table, and the CUDA conditions deferred to the kernel launch."""
        self.variables: VariableObjects | None = None
        """The variables opened in the Locals tree (gdb varobjs of the frame shown)."""
        self.state: StopState | None = None
        """The state last published: the one snapshot of the stop shown."""
        self.watches: list[str] = []
        self.leave_out: frozenset[str] = frozenset()
        """The parts of a stop no pane on the screen shows, left out of its batch
        (:mod:`cudatui.gdbbridge.debugger.shown`)."""
        self.status = Status(Phase.STARTING, f"starting {config.debugger_name}", clock())
        self.events: Fanout[DebuggerEvent] = Fanout("debugger listener")
        self.lock = asyncio.Lock()
        self.program_output = TerminalFilter()
        """The debuggee's output as a stream (a new one per session)."""
        self.output_tail = OutputTail()
        """The end of the debuggee's output (a new one per session), read for each stop's notes."""
        self.uses_cuda = False
        """Whether the program loaded the CUDA driver (or stopped in a kernel)."""
        self.last_log = ""
        """gdb's last log record (what it said about a breakpoint or an attach)."""
        self.closed = False
        self.cut: str | None = None
        """Once a replayed recording's cut is reached: what the status says from then on."""
        self.ended: str | None = None
        """Once the instructor's session ended (a follower): what the status says from then on,
        whatever refresh of their last stop finishes after the news."""
        self.job: RankJob | None = None
        """The distributed job whose rank is debugged (``config.rank``), once started."""
        self.runs = 0
        """The program's runs so far (every session of this Debugger): each is marked ``run N`` in the recording."""
        self.launch_blocking = False
        """Whether the program was re-run with CUDA_LAUNCH_BLOCKING=1 (so a stop's host line is the launch)."""
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def phase(self) -> Phase:
        return self.status.phase

    @property
    def busy(self) -> bool:
        """Whether an operation or a stop's refresh is in flight (a driver waits for False)."""
        return self.lock.locked() or bool(self._tasks)

    # -- telling ---------------------------------------------------------------------------

    def emit(self, event: DebuggerEvent) -> None:
        """Tell the subscribers ``event``, its text cleaned (see the module docstring)."""
        self.events.emit(clean(event))

    def notice(self, message: str, severity: Severity = "information", error: MIError | None = None) -> None:
        self.emit(Notice(message, severity, error is not None and error.not_recorded))

    def set_status(self, phase: Phase, detail: str, since: float | None = None, *, focus: str | None = None,
                   kernel: str | None = None) -> None:
        if self.cut is not None:  # past a recording's cut nothing runs
            phase, detail, since = Phase.DEAD, self.cut, None
        elif self.ended is not None:
            detail = self.ended
        keep_since = since if since is not None else (self.status.since if phase is self.status.phase else None)
        status = replace(self.status, phase=phase, detail=detail, since=keep_since)
        if focus is not None or kernel is not None:
            status = replace(status, focus=focus if focus is not None else status.focus,
                             kernel=kernel if kernel is not None else status.kernel)
        self.status = clean(status)
        self.emit(PhaseChanged(self.status))

    def set_context(self, context: str) -> None:
        """What the status bar always says beside the phase (an attached pid, a rank's log)."""
        self.status = replace(self.status, context=context)

    def record(self, direction: str, line: str) -> None:
        """Add a line to the session's recording, if it is recorded."""
        if self.session is not None:
            self.session.record(direction, line)

    # -- doing -----------------------------------------------------------------------------

    async def guard(self, work: Awaitable[Any]) -> bool:
        """Await ``work``; report gdb's error as a Notice. True when it succeeded."""
        try:
            await work
        except MIError as exc:
            self.notice(exc.message, "error", exc)
            return False
        return True

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` in a task of its own (an unexpected error is a Notice)."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.notice(f"internal error in {task.get_name()}: {task.exception()}", "error")

    async def cancel_tasks(self) -> None:
        """Cancel the tasks in flight (but the one calling) and wait for them."""
        tasks = [task for task in self._tasks if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def program_running(self) -> bool:
        session = self.session
        return session is not None and (self.phase is Phase.RUNNING or
                                        self.phase is Phase.STARTING and session.inferior_pid is not None)

    async def go(self, operation: str) -> None:
        """Send an execution command; at its ``^running`` the program runs."""
        assert self.session is not None
        await self.session.command(operation)
        if self.phase not in (Phase.STARTING, Phase.RUNNING):
            self.set_status(Phase.RUNNING, "", since=self.clock())

    def stopped(self) -> GdbSession:
        """The session, when stopped with its state built; else MIError saying why not."""
        if self.session is None:
            raise MIError("the debugger has not started", "")
        if self.phase is not Phase.STOPPED:
            raise MIError(NOT_STOPPED[self.phase], "")
        return self.session
