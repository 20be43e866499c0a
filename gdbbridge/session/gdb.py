"""An asyncio GDB/MI session: one debugger process, per-request tokens, an ordered event stream.

No time windows and no per-command timeouts: a result arrives when gdb sends it (an
``-exec-next`` in a kernel takes up to ~1 s, running to the first kernel of a PyTorch script
~14 s). The debuggee gets its own pty, so its output never mixes with MI.

gdb's stdout and stderr are our own pipes read by protocols (:class:`cudatui.gdbbridge.session.pipes.LineReader`):
a chunk of stdout is split into lines and handled in the loop turn that read it, so a result line
resolves its request's Future directly (no reader task woken in between; with asyncio's
subprocess pipes each chunk would also wait one more turn). A line over ``BIG_LINE`` is
parsed in a thread while the lines after it wait, reading paused, so the order of events and
results is always gdb's.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import re
import signal
import subprocess
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Sequence

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.errors import DebuggerGone, DebuggerNotFound, MIError
from cudatui.gdbbridge.session.fanout import Fanout
from cudatui.gdbbridge.session.mi import BIG_LINE, Flag, Record, build, parse_line
from cudatui.gdbbridge.convert import to_exit_code, to_int
from cudatui.gdbbridge.cuda.models import CudaFocus
from cudatui.gdbbridge.models import StopEvent
from cudatui.gdbbridge.session.pipes import ExitWatcher, LineReader
from cudatui.gdbbridge.session.pty import ProgramTty
from cudatui.gdbbridge.record.recorder import Recorder

Listener = Callable[[ev.Event], None]
RawListener = Callable[[ev.RawLine], None]

MI_FLAGS = ("--interpreter=mi3", "--quiet", "--nx")

STARTUP_TIMEOUT = 20.0
"""Seconds the debugger has to answer its first commands (a program that is not a gdb may
never answer); later commands have no timeout, since a kernel may run for hours."""

_TERMINATED = re.compile(r"Program terminated with signal (?P<name>\S+), (?P<meaning>[^.\n]+)")
"""How gdb says which signal ended the program a core file holds."""


class GdbSession:
    """One debugger process spoken to over MI.

    ``debugger`` is the command that starts it: ``["cuda-gdb"]``, ``["gdb"]`` or a replay
    (``[sys.executable, "-m", "cudatui.gdbbridge.record.replay", FILE]``).
    """

    def __init__(
        self,
        debugger: Sequence[str],
        program: Sequence[str] = (),
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        record: str | os.PathLike[str] | None = None,
        inferior_tty: bool = True,
    ) -> None:
        self.argv = [*debugger, *MI_FLAGS, *(["--args", *program] if program else [])]
        self._cwd = cwd
        self._env = env
        self._recorder = Recorder(record, self.argv, self._recording_stopped) if record else None
        self._want_tty = inferior_tty
        self._tty: ProgramTty | None = None
        self._transport: asyncio.SubprocessTransport | None = None
        self._stdin: asyncio.WriteTransport | None = None
        self._stdout = LineReader(self._on_stdout, self._on_stdout_closed)
        self._stderr = LineReader(self._on_stderr, self._on_stderr_closed)
        self._backlog: deque[bytes] = deque()
        """Complete stdout lines not handled yet (they wait while a big line is parsed)."""
        self._big: asyncio.Task[None] | None = None
        """The thread parse of a big stdout line, while one runs."""
        self._stdout_done = False
        self._status: asyncio.Future[int] | None = None
        """The debugger's exit status, once it has exited."""
        self._ended: asyncio.Future[None] | None = None
        """Done once stdout ended, the debugger exited and DebuggerExited was sent."""
        self._stderr_ended: asyncio.Future[None] | None = None
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, float]] = {}
        self._next_token = 1
        self._events: Fanout[ev.Event] = Fanout("event listener")
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
        self._inferior_start: str | None = None
        self.exit_code: int | None = None
        self.async_mode = False
        self.last_stop: StopEvent | None = None
        self.first_stderr = ""
        """The debugger's first non-empty stderr line (shown when it dies at startup)."""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def _recording_stopped(self, message: str) -> None:
        self._events.emit(ev.RecordingStopped(message))

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the debugger, give the debuggee its pty, and turn on asynchronous MI."""
        loop = asyncio.get_running_loop()
        status = self._status = loop.create_future()
        self._ended = loop.create_future()
        self._stderr_ended = loop.create_future()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            self._transport, _ = await loop.subprocess_exec(
                lambda: ExitWatcher(status),
                *self.argv,
                stdin=subprocess.PIPE,
                stdout=out_w,
                stderr=err_w,
                cwd=self._cwd,
                env=self._env,
                start_new_session=True,
            )
        except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
            for fd in (out_r, err_r):
                os.close(fd)
            raise DebuggerNotFound(f"cannot start debugger {self.argv[0]!r}: {exc.strerror or exc}") from None
        finally:
            for fd in (out_w, err_w):
                os.close(fd)
        self._stdin = self._transport.get_pipe_transport(0)  # type: ignore[assignment]
        await loop.connect_read_pipe(lambda: self._stdout, os.fdopen(out_r, "rb", buffering=0))
        await loop.connect_read_pipe(lambda: self._stderr, os.fdopen(err_r, "rb", buffering=0))
        self.state = "ready"
        name = os.path.basename(self.argv[0])
        try:
            await asyncio.wait_for(self._handshake(), STARTUP_TIMEOUT)
        except asyncio.TimeoutError:
            raise DebuggerGone(f"{name} gave no MI answer within {STARTUP_TIMEOUT:g} s: is it a gdb?") from None
        except DebuggerGone as exc:
            await asyncio.wait([self._stderr_ended], timeout=1.0)  # its last words explain why
            said = f" ({self.first_stderr})" if self.first_stderr else ""
            raise DebuggerGone(f"{name} {exc.message.removeprefix('debugger ')} at startup{said}", exc.command) from None

    async def _handshake(self) -> None:
        """The first commands: give the debuggee its pty, turn on asynchronous MI."""
        if self._want_tty:
            self._tty = ProgramTty(self._on_program_output)
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
        except MIError:
            self.async_mode = False

    async def close(self, grace: float = 1.0) -> None:
        """Stop the debugger: ``-gdb-exit``, then SIGTERM, then SIGKILL; always reap it."""
        self._closing = True
        transport, status, ended = self._transport, self._status, self._ended
        if transport is not None and status is not None and ended is not None:
            if transport.get_returncode() is None:
                try:
                    self._write(build(None, "-gdb-exit"))
                    await asyncio.wait([status], timeout=grace if self._answered else 0.1)
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
            await asyncio.wait([ended], timeout=grace)  # gdb's last lines, then DebuggerExited
        self._kill_orphaned_inferior()
        if self._big is not None:
            self._big.cancel()
            await asyncio.gather(self._big, return_exceptions=True)
        self._fail_pending("debugger closed")
        if self._tty is not None:
            self._tty.close()
            self._tty = None
        if self._recorder is not None:
            self._recorder.close()

    @property
    def pid(self) -> int | None:
        return self._transport.get_pid() if self._transport else None

    @property
    def alive(self) -> bool:
        return self._transport is not None and self._transport.get_returncode() is None

    # -- requests --------------------------------------------------------------------------

    async def command(self, operation: str, *args: str | int | Flag) -> dict[str, Any]:
        """Send one MI command; return its result payload or raise :class:`MIError`."""
        if self._exited is not None or self._transport is None:
            raise DebuggerGone(self._exited.description if self._exited else "debugger not started", operation)
        token = self._next_token
        self._next_token += 1
        line = build(token, operation, *args)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[token] = (future, line, time.monotonic())
        try:
            self._write(line)
        except DebuggerGone:
            self._pending.pop(token, None)
            raise
        return await future

    async def console(self, command: str) -> str:
        """Run a CLI command (``info cuda lanes``) and return the console text it printed."""
        async with self._console_lock:
            self._console_capture = []
            try:
                await self.command("-interpreter-exec", Flag("console"), command)
                return "".join(self._console_capture)
            finally:
                self._console_capture = None

    async def open_core(self, path: str) -> StopEvent:
        """Open a GPU coredump (``target cudacore PATH``) and return the stop it holds.

        cuda-gdb 13.0 prints no ``*stopped`` for it, only console text ("[Current focus set to
        CUDA kernel 0, ..., lane 5]", "Program terminated with signal SIGTRAP, ..."): the stop
        is made from that (reason ``core``). MIError when cuda-gdb cannot open the file."""
        if "\n" in path or "\r" in path:
            raise MIError("a coredump path cannot contain a line break", "target cudacore")
        before = self.last_stop
        text = await self.console(f"target cudacore {path}")
        if self.last_stop is not before and self.last_stop is not None:
            return self.last_stop
        ended = _TERMINATED.search(text)
        self.last_stop = StopEvent(reason="core", focus=CudaFocus.from_console(text),
                                   signal=ended["name"] if ended else None,
                                   signal_meaning=ended["meaning"] if ended else None)
        self.state = "stopped"
        return self.last_stop

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
        target = self.inferior_pid if self.inferior_pid else self.pid
        if target is not None:
            try:
                os.kill(target, signal.SIGINT)
            except ProcessLookupError:
                pass

    # -- events ----------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` on the event loop for every event; returns an unsubscriber."""
        return self._events.subscribe(listener)

    def subscribe_raw(self, listener: RawListener) -> Callable[[], None]:
        """Call ``listener(RawLine)`` for every line written to gdb ("in"), read from its stdout
        ("out", before it is parsed) or its stderr ("err"); returns an unsubscriber. Without a
        raw listener the I/O path only checks an empty list per line."""
        return self._raw.subscribe(listener)

    def queue(self) -> "asyncio.Queue[ev.Event]":
        """An unbounded queue receiving every event from now on (handy for scripts and tests)."""
        q: asyncio.Queue[ev.Event] = asyncio.Queue()
        self.subscribe(q.put_nowait)
        return q

    # -- I/O -------------------------------------------------------------------------------

    def _write(self, line: str) -> None:
        stdin, transport = self._stdin, self._transport
        if stdin is None or transport is None or transport.get_returncode() is not None or stdin.is_closing():
            raise DebuggerGone(self._exited.description if self._exited else "debugger is not running", line)
        if self._recorder:
            self._recorder.write("in", line)
        if self._raw:
            self._raw.emit(ev.RawLine("in", line))
        try:
            stdin.write(line.encode() + b"\n")
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise DebuggerGone(f"debugger pipe closed: {exc}", line) from None

    def _on_stdout(self, lines: list[bytes]) -> None:
        self._backlog.extend(lines)
        if self._big is None:
            self._handle_backlog()

    def _on_stdout_closed(self, rest: bytes) -> None:
        if rest:
            self._backlog.append(rest)
        self._stdout_done = True
        if self._big is None:
            self._handle_backlog()

    def _handle_backlog(self) -> None:
        """Handle the waiting stdout lines in order, until a big one (parsed in a thread)."""
        backlog = self._backlog
        while backlog:
            line = backlog.popleft().decode("utf-8", "replace")
            if self._recorder:
                self._recorder.write("out", line)
            if self._raw:
                self._raw.emit(ev.RawLine("out", line))
            if len(line) > BIG_LINE:
                self._stdout.pause()
                self._big = asyncio.create_task(self._parse_big(line))
                return
            self._handle_record(line, parse_line(line))
        if self._stdout_done:
            assert self._status is not None
            self._status.add_done_callback(self._on_debugger_exit)

    async def _parse_big(self, line: str) -> None:
        record = await asyncio.to_thread(parse_line, line)
        self._big = None
        self._stdout.resume()
        self._handle_record(line, record)
        self._handle_backlog()

    def _on_stderr(self, lines: list[bytes]) -> None:
        for line in lines:
            self._stderr_line(line.decode("utf-8", "replace") + "\n")

    def _on_stderr_closed(self, rest: bytes) -> None:
        if rest:
            self._stderr_line(rest.decode("utf-8", "replace"))
        assert self._stderr_ended is not None
        self._stderr_ended.set_result(None)

    def _stderr_line(self, text: str) -> None:
        self.first_stderr = self.first_stderr or text.strip()[:200]
        if self._recorder:
            self._recorder.write("err", text.rstrip("\n"))
        if self._raw:
            self._raw.emit(ev.RawLine("err", text.rstrip("\n")))
        self._events.emit(ev.Stream("stderr", text))

    def _handle_record(self, line: str, record: Record) -> None:
        kind = record.kind
        if kind == "result":
            self._resolve(record.token, record.message, record.payload)
        elif kind == "exec":
            self._on_exec(record.message or "", record.payload)
        elif kind == "notify":
            self._on_notify(record.message or "", record.payload)
        elif kind in ("console", "target", "log"):
            if kind == "console" and self._console_capture is not None:
                self._console_capture.append(record.payload)
            self._events.emit(ev.Stream(kind, record.payload))  # type: ignore[arg-type]
        elif kind == "other" and line.strip():
            self._events.emit(ev.NonMI(line))

    def _resolve(self, token: int | None, message: str | None, payload: dict[str, Any]) -> None:
        entry = self._pending.pop(token, None) if token is not None else None
        if entry is None:
            self._events.emit(ev.UnmatchedResult(token, message, payload))
            return
        future, line, started = entry
        self._answered = True
        if self._recorder:
            self._recorder.write("mark", f"rtt {line.split(' ', 1)[0]} result={time.monotonic() - started:.6f}")
        if future.done():
            return
        if message == "error":
            future.set_exception(MIError(str(payload.get("msg", "unknown error")), line))
        else:
            future.set_result(payload)

    def _on_exec(self, message: str, payload: dict[str, Any]) -> None:
        if message == "running":
            self.state = "running"
            self._events.emit(ev.Running(str(payload.get("thread-id", "all"))))
        elif message == "stopped":
            stop = StopEvent.from_mi(payload)
            self.last_stop = stop
            if stop.exited:
                self.state = "exited"
                if stop.exit_code is not None:
                    self.exit_code = stop.exit_code
            else:
                self.state = "stopped"
            self._events.emit(ev.Stopped(stop, payload))

    def _on_notify(self, name: str, payload: dict[str, Any]) -> None:
        if name == "thread-group-started":
            self.inferior_pid = to_int(payload.get("pid"))
            self._inferior_start = _start_time(self.inferior_pid)
        elif name == "thread-group-exited":
            code = to_exit_code(payload.get("exit-code"))
            self.exit_code = code if code is not None else self.exit_code
            self.inferior_pid = None
        self._events.emit(ev.Notify(name, payload))

    def _on_program_output(self, data: bytes) -> None:
        if self._recorder:
            self._recorder.write("program", data.decode("utf-8", "replace"))
        text = self._decoder.decode(data)
        if text:
            self._events.emit(ev.ProgramOutput(text))

    def _on_debugger_exit(self, status: asyncio.Future[int]) -> None:
        """Stdout has ended and the debugger has exited: fail what is pending, say so."""
        rc = status.result()
        if self._tty is not None:
            self._tty.drain()
        self._exited = ev.DebuggerExited(rc, expected=self._closing)
        self.state = "dead" if not self._closing else "closed"
        self._fail_pending(self._exited.description)
        if self._recorder:
            self._recorder.write("mark", f"debugger-exit rc={rc}")
        self._events.emit(self._exited)
        assert self._ended is not None
        self._ended.set_result(None)

    def _fail_pending(self, reason: str) -> None:
        pending, self._pending = self._pending, {}
        for future, line, _ in pending.values():
            if not future.done():
                future.set_exception(DebuggerGone(reason, line))

    def _kill_orphaned_inferior(self) -> None:
        """A SIGKILLed gdb leaves its debuggee running, detached: end it (same pid, same start)."""
        pid = self.inferior_pid
        if pid and self._inferior_start and _start_time(pid) == self._inferior_start:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _start_time(pid: int | None) -> str | None:
    """The process start time from /proc (field 22), to tell a pid from a reused one."""
    if not pid:
        return None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]
