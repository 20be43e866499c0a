"""An asyncio GDB/MI session: one debugger process, per-request tokens, an ordered event stream.

No time windows and no per-command timeouts: a result arrives when gdb sends it (an
``-exec-next`` in a kernel takes up to ~1 s, running to the first kernel of a PyTorch script
~14 s); a debugger silent for long is said (:mod:`.silence`). The debuggee gets its own pty.
gdb's stdin, stdout and stderr are socket pairs, which no other process can open through
``/proc/PID/fd``: nothing but gdb writes its MI, and nothing but cudatui gives it commands.
Closing kills every process the session started (:mod:`cudatui.gdbbridge.session.processes`).

This module starts, asks and stops the debugger; what its output does (stdout lines read in
the loop turn that brought them, big lines parsed in a thread, in gdb's order) is
:class:`cudatui.gdbbridge.session.output.OutputHandling`, the base of :class:`GdbSession`.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import signal
import socket
import time
from collections import deque
from typing import Any, cast
from collections.abc import Callable, Sequence

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.errors import DebuggerGone, DebuggerNotFound, MIError, StartupTimeout
from cudatui.gdbbridge.session.fanout import Fanout
from cudatui.gdbbridge.session.mi import Flag, build
from cudatui.gdbbridge.models import StopEvent
from cudatui.gdbbridge.session.output import OutputHandling
from cudatui.gdbbridge.session.pipes import ExitWatcher, LineReader, effective_line_limit, unread
from cudatui.gdbbridge.session.processes import SessionProcesses
from cudatui.gdbbridge.session.pty import PROGRAM_TTY_FD, ProgramTty
from cudatui.gdbbridge.session.recorder import PRIVATE, Recorder

Listener = Callable[[ev.Event], None]
RawListener = Callable[[ev.RawLine], None]

MI_FLAGS = ("--interpreter=mi3", "--quiet", "--nx")

ATTACH_FLAGS = ("-iex", "set mi-async on")
"""Given before ``-p PID``: asynchronous MI must be on before gdb attaches, since once it holds a live
process it refuses the change ("Cannot change this setting while the inferior is running");
attaching later (``-target-attach``, the console's ``attach``) crashed cuda-gdb 13.0 under MI."""

DETACH_WAIT = 1.0
"""Seconds closing an attached session waits for ``-target-detach`` before it exits gdb anyway
(gdb detaches from an attached process as it exits, and the kernel does if gdb is killed), so
that quitting stays quick."""

STARTUP_TIMEOUT = 20.0
"""Seconds the debugger has to answer its first commands (a program that is not a gdb may
never answer); later commands have no timeout, since a kernel may run for hours."""

EXIT_HEARD = 0.1
"""Seconds after ``-gdb-exit`` when closing looks whether the debugger read it: one that did gets
the close's grace to exit; one that did not (never answered, or busy flooding its output
without reading its input) is sent SIGTERM at once."""

class GdbSession(OutputHandling):
    """One debugger process spoken to over MI.

    ``debugger`` is the command that starts it: ``["cuda-gdb"]``, ``["gdb"]`` or a replay
    (``[sys.executable, "-m", "cudatui.gdbbridge.record.replay", FILE]``). A line it writes
    longer than ``line_limit`` bytes (default ``$CUDATUI_MI_LINE_LIMIT``, else 64 MiB; see
    :func:`~cudatui.gdbbridge.session.pipes.effective_line_limit`) is dropped
    (:class:`~cudatui.gdbbridge.session.events.LineDropped`).
    ``cgroup`` off tracks the session's processes through /proc only, as where no cgroup can be made.
    ``attach`` is the pid of a running process gdb attaches to as it starts (``-p``): it has no pty
    of ours, is not one of the session's processes (closing detaches from it; it runs on).
    ``hand_tty`` gives the debugger the debuggee's pty itself, an inherited file descriptor named
    by ``$CUDATUI_PROGRAM_TTY_FD`` (for the stand-ins, see :data:`~cudatui.gdbbridge.session.pty.PROGRAM_TTY_FD`).
    ``stand_in`` marks a replay or follow stand-in: the pids it reports, the attached one included,
    are the recording machine's, so nothing but the stand-in itself is ever signalled.
    """

    def __init__(
        self,
        debugger: Sequence[str],
        program: Sequence[str] = (),
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        record: str | os.PathLike[str] | None = None,
        record_mode: int = PRIVATE,
        inferior_tty: bool = True,
        line_limit: int | None = None,
        cgroup: bool = True,
        attach: int | None = None,
        hand_tty: bool = False,
        stand_in: bool = False,
    ) -> None:
        self.attach = attach
        self._stand_in = stand_in
        self._hand_tty = hand_tty
        target = ["-p", str(attach)] if attach is not None else ["--args", *program] if program else []
        self.argv = [*debugger, *(ATTACH_FLAGS if attach is not None else ()), *MI_FLAGS, *target]
        self._cwd = cwd
        self._env = env
        self._recorder = Recorder(record, self.argv, self._recording_stopped, record_mode) if record else None
        self._want_tty = inferior_tty and attach is None
        self._tty: ProgramTty | None = None
        self._transport: asyncio.SubprocessTransport | None = None
        self._stdin: asyncio.WriteTransport | None = None
        self._line_limit = effective_line_limit(line_limit)
        self._stdout = LineReader(self._on_stdout, self._on_stdout_closed, self._on_stdout_dropped, self._line_limit)
        self._stderr = LineReader(self._on_stderr, self._on_stderr_closed, self._on_stderr_dropped, self._line_limit)
        self._processes = SessionProcesses(cgroup)
        self._gone: asyncio.TimerHandle | None = None
        """The report of a debugger whose stdout ended, while it has a moment to exit."""
        self._backlog: deque[bytes] = deque()
        """Complete stdout lines not handled yet (they wait while a big line is parsed)."""
        self._big: asyncio.Task[None] | None = None
        """The thread parse of a big stdout line, while one runs."""
        self._stdout_done = False
        self._status: asyncio.Future[int] | None = None  # the debugger's exit status, once it has exited
        self._ended: asyncio.Future[None] | None = None
        """Done once stdout ended, the debugger exited and DebuggerExited was sent."""
        self._stderr_ended: asyncio.Future[None] | None = None
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, float]] = {}
        self._next_token = 1
        self._events: Fanout[ev.Event] = Fanout("event listener")
        self._silence = None if stand_in else self._silence_watch()
        self._raw: Fanout[ev.RawLine] = Fanout("raw line listener")
        self._console_capture: list[str] | None = None
        self._console_lock = asyncio.Lock()
        self._closing = False
        self._answered = False
        """Whether the debugger answered a command (else it is not asked twice to exit on close)."""
        self._exited: ev.DebuggerExited | None = None
        self.state = "not-started"
        """not-started, ready, running, stopped, exited, dead."""
        self.inferior_pid: int | None = None
        self.exit_code: int | None = None
        self.async_mode = False
        self.last_stop: StopEvent | None = None
        self.first_stderr = ""  # its first non-empty stderr line (shown when it dies at startup)
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def record(self, direction: str, line: str) -> None:
        """Add a line to the recording (what cudatui reads beside gdb, such as the host stack)."""
        if self._recorder is not None:
            self._recorder.write(direction, line)

    def _recording_stopped(self, message: str) -> None:
        self._events.emit(ev.RecordingStopped(message))

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the debugger, give the debuggee its pty, and turn on asynchronous MI."""
        loop = asyncio.get_running_loop()
        status = self._status = loop.create_future()
        self._ended = loop.create_future()
        self._stderr_ended = loop.create_future()
        ours, theirs = zip(*(socket.socketpair() for _ in range(3)))  # stdin, stdout, stderr
        env, handed = self._env, cast(tuple[int, ...], ())
        if self._want_tty and self._hand_tty:
            self._tty = ProgramTty(self._on_program_output)
            env, handed = {**(env or os.environ), PROGRAM_TTY_FD: str(self._tty.slave_fd)}, (self._tty.slave_fd,)
        try:
            self._transport, _ = await loop.subprocess_exec(
                lambda: ExitWatcher(status),
                *self.argv,
                stdin=theirs[0],
                stdout=theirs[1],
                stderr=theirs[2],
                cwd=self._cwd,
                env=env,
                pass_fds=handed,
                start_new_session=True,
            )
        except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
            for sock in ours:
                sock.close()
            if self._tty is not None:
                self._tty.close()
                self._tty = None
            raise DebuggerNotFound(f"cannot start debugger {self.argv[0]!r}: {exc.strerror or exc}") from None
        finally:
            for sock in theirs:
                sock.close()
        self._processes.adopt(self._transport.get_pid())
        self._stdin, _ = await loop.connect_accepted_socket(asyncio.Protocol, ours[0])
        await loop.connect_accepted_socket(lambda: self._stdout, ours[1])
        await loop.connect_accepted_socket(lambda: self._stderr, ours[2])
        status.add_done_callback(self._on_status)
        self.state = "ready"
        name = os.path.basename(self.argv[0])
        try:
            await asyncio.wait_for(self._handshake(), STARTUP_TIMEOUT)
        except asyncio.TimeoutError:
            raise StartupTimeout(f"{name} gave no MI answer within {STARTUP_TIMEOUT:g} s: is it a gdb?", STARTUP_TIMEOUT) from None
        except DebuggerGone as exc:  # its exit status and last words explain why
            await asyncio.wait([self._stderr_ended, self._ended], timeout=1.0)
            said = f" ({self.first_stderr})" if self.first_stderr else ""
            why = self._exited.description if self._exited else exc.message  # not "not running": exited how
            raise DebuggerGone(f"{name} {why.removeprefix('debugger ')} at startup{said}", exc.command) from None

    async def _handshake(self) -> None:
        """The first commands: give the debuggee its pty, turn on asynchronous MI."""
        if self._want_tty:
            self._tty = self._tty or ProgramTty(self._on_program_output)
            try:
                await self.command("-inferior-tty-set", self._tty.name)
            except DebuggerGone:
                raise
            except MIError:
                self._tty.close()
                self._tty = None
        try:
            await self.command("-gdb-set", Flag("mi-async"), Flag("on"))
            self.async_mode = True
        except DebuggerGone:
            raise
        except MIError:  # refused once gdb holds a process (attached): it may be on already
            self.async_mode = await self._shows_async()

    async def _shows_async(self) -> bool:
        try:
            return (await self.command("-gdb-show", Flag("mi-async"))).get("value") == "on"
        except DebuggerGone:
            raise
        except MIError:
            return False

    async def close(self, grace: float = 1.0) -> None:
        """Stop the debugger: ``-gdb-exit``, then SIGTERM, then SIGKILL; always reap it; then
        kill whatever the session started that is left (gdb's ``shell`` children, the
        debuggee's, those that called ``setsid()``)."""
        self._closing = True
        transport, status, ended = self._transport, self._status, self._ended
        members = self._processes.members()  # while the process tree is whole
        await self._drop_big()  # else gdb may be blocked writing the lines after it, not reading -gdb-exit
        if transport is not None and status is not None and ended is not None:
            if transport.get_returncode() is None:
                await self._detach()
                try:
                    self._write([build(None, "-gdb-exit")])
                    await asyncio.wait([status], timeout=EXIT_HEARD)
                    if self._answered and self._exited is None and self._stdin and not unread(self._stdin):
                        await asyncio.wait([status], timeout=grace)  # it read -gdb-exit: it may take a while
                except (OSError, DebuggerGone):
                    pass
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    if status.done():
                        break
                    try:
                        os.killpg(transport.get_pid(), sig)
                    except (ProcessLookupError, PermissionError):
                        transport.send_signal(sig)
                    await asyncio.wait([status], timeout=grace / 2)
            await asyncio.wait([status])
            if self._big is None:
                await asyncio.wait([ended], timeout=grace)  # gdb's last lines, then DebuggerExited
            await self._drop_big()
        self._fail_pending("debugger closed")
        await self._processes.end(members)
        if self._tty is not None:
            self._tty.close()
            self._tty = None
        if self._recorder is not None:
            self._recorder.close()

    async def _detach(self) -> None:
        """An attached session: let the process go (it runs on), if gdb still holds it."""
        if self.attach is None or self.inferior_pid is None or not self.alive:
            return
        try:
            await asyncio.wait_for(self.command("-target-detach"), DETACH_WAIT)
        except (MIError, asyncio.TimeoutError):
            pass

    async def _drop_big(self) -> None:
        """Closing: stop parsing big lines (a parse takes seconds), drop them, handle the rest."""
        while self._big is not None:
            self._big.cancel()
            await asyncio.gather(self._big, return_exceptions=True)
            self._big = None
            self._stdout.resume()
            self._handle_backlog()

    @property
    def pid(self) -> int | None:
        return self._transport.get_pid() if self._transport else None

    @property
    def program_tty(self) -> str | None:
        """The path of the debuggee's pty (None without one)."""
        return self._tty.name if self._tty is not None else None

    @property
    def alive(self) -> bool:
        """Whether the debugger runs and speaks to us (not once it closed its output)."""
        return self._exited is None and self._transport is not None and self._transport.get_returncode() is None

    # -- requests --------------------------------------------------------------------------

    async def command(self, operation: str, *args: str | int | Flag) -> dict[str, Any]:
        """Send one MI command; return its result payload or raise :class:`MIError`."""
        return await self.send(operation, *args)

    def send(self, operation: str, *args: str | int | Flag) -> asyncio.Future[dict[str, Any]]:
        """Write one MI command now, before any answer is read."""
        return self.send_batch([(operation, args)])[0]

    def send_batch(self, commands: Sequence[tuple[str, Sequence[str | int | Flag]]]) -> list[asyncio.Future[dict[str, Any]]]:
        """Write MI commands (operation, arguments) in ONE write, before any answer is read or
        anything else is done (the recording, the raw lines' listeners): gdb gets the whole batch
        at once and answers it without waiting for the next line. A future per command."""
        if self._exited is not None or self._transport is None:
            raise DebuggerGone(self._exited.description if self._exited else "debugger not started", commands[0][0])
        tokens = range(self._next_token, self._next_token + len(commands))
        self._next_token += len(commands)
        lines = [build(token, operation, *args) for token, (operation, args) in zip(tokens, commands)]
        self._write(lines)  # DebuggerGone: nothing pending
        loop, now, futures = asyncio.get_running_loop(), time.monotonic(), []
        for token, line in zip(tokens, lines):
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            self._pending[token] = (future, line, now)
            futures.append(future)
        self._sent()
        return futures

    async def console(self, command: str) -> str:
        """Run a CLI command (``info cuda lanes``) and return the console text it printed."""
        async with self._console_lock:
            self._console_capture = []
            try:
                await self.command("-interpreter-exec", Flag("console"), command)
                return "".join(self._console_capture)
            finally:
                self._console_capture = None

    async def interrupt(self) -> None:
        """Stop a running target: ``-exec-interrupt`` in async mode, else SIGINT to the debuggee."""
        if self.async_mode:
            try:
                await self.command("-exec-interrupt")
                return
            except DebuggerGone:
                raise
            except MIError:
                pass
        target = self.own_debuggee or self.pid
        if target is not None:
            try:
                os.kill(target, signal.SIGINT)
            except (ProcessLookupError, PermissionError):
                pass

    @property
    def own_debuggee(self) -> int | None:
        """The debuggee's pid when cudatui may signal or read it: one of the session's processes
        now, or the live process the user attached to; None otherwise (a stand-in's, or a pid
        the debugger reports that is not below it)."""
        pid = self.inferior_pid
        if pid is not None and not self._stand_in and (pid == self.attach or self._processes.owns(pid)):
            return pid
        return None

    # -- events ----------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` on the event loop for every event; returns an unsubscriber."""
        return self._events.subscribe(listener)

    def subscribe_raw(self, listener: RawListener) -> Callable[[], None]:
        """Call ``listener(RawLine)`` for every line written to gdb ("in"), read from its stdout ("out",
        before it is parsed) or its stderr ("err"); returns an unsubscriber (none: no cost per line)."""
        return self._raw.subscribe(listener)

    def queue(self) -> asyncio.Queue[ev.Event]:
        """An unbounded queue receiving every event from now on (handy for scripts and tests)."""
        q: asyncio.Queue[ev.Event] = asyncio.Queue()
        self.subscribe(q.put_nowait)
        return q

    # -- I/O -------------------------------------------------------------------------------

    def _write(self, lines: list[str]) -> None:
        """``lines`` to gdb in one write; then recorded and told to the raw lines' listeners."""
        stdin, transport = self._stdin, self._transport
        if stdin is None or transport is None or transport.get_returncode() is not None or stdin.is_closing():
            raise DebuggerGone(self._exited.description if self._exited else "debugger is not running", lines[0])
        try:
            stdin.write("".join(line + "\n" for line in lines).encode())
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise DebuggerGone(f"debugger pipe closed: {exc}", lines[0]) from None
        for line in lines:
            if self._recorder:
                self._recorder.write("in", line)
            if self._raw:
                self._raw.emit(ev.RawLine("in", line))
