"""What a :class:`~cudatui.gdbbridge.session.gdb.GdbSession` does with the debugger's output.

gdb's stdout and stderr are our own pipes read by protocols (:class:`cudatui.gdbbridge.session.pipes.LineReader`):
a chunk of stdout is split into lines and handled in the loop turn that read it, so a result line
resolves its request's Future directly (no reader task woken in between; with asyncio's
subprocess pipes each chunk would also wait one more turn). A line over ``BIG_LINE`` is
parsed in a thread while the lines after it wait, reading paused, so the order of events and
results is always gdb's. A line over the session's line limit is dropped by the reader; in its
place comes an error for the request it answered, or a log line, and a :class:`LineDropped`.
Records become results, session state and events here; so do stderr, the debuggee's pty
output and the debugger's end: its exit (reported when gdb exits, with what it left in its
streams, even while a child of it holds them open) or the close of its stdout while it lives on.
"""

from __future__ import annotations

import asyncio
import codecs
import re
import time
from collections import deque
from typing import Any

from cudatui.gdbbridge.convert import to_exit_code, to_int
from cudatui.gdbbridge.models import StopEvent
from cudatui.gdbbridge.session.recorder import Recorder
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.fanout import Fanout
from cudatui.gdbbridge.session.mi import BIG_LINE, Record, parse_line, quote
from cudatui.gdbbridge.session.offloop import in_thread
from cudatui.gdbbridge.session.pipes import LineReader
from cudatui.gdbbridge.session.processes import SessionProcesses
from cudatui.gdbbridge.session.pty import ProgramTty
from cudatui.gdbbridge.session.silence import SilenceWatch


class OutputHandling:
    """The reading half of :class:`~cudatui.gdbbridge.session.gdb.GdbSession`, its base class.

    Its methods are the callbacks of the pipes and the pty; the attributes below are made by
    ``GdbSession.__init__`` and ``start``.
    """

    state: str
    last_stop: StopEvent | None
    exit_code: int | None
    inferior_pid: int | None
    attach: int | None
    _stand_in: bool
    first_stderr: str
    _recorder: Recorder | None
    _tty: ProgramTty | None
    _stdin: asyncio.WriteTransport | None
    _stdout: LineReader
    _stderr: LineReader
    _line_limit: int
    _processes: SessionProcesses
    _gone: asyncio.TimerHandle | None
    _backlog: deque[bytes]
    _big: asyncio.Task[None] | None
    _stdout_done: bool
    _status: asyncio.Future[int] | None
    _ended: asyncio.Future[None] | None
    _stderr_ended: asyncio.Future[None] | None
    _pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, float]]
    _events: Fanout[ev.Event]
    _silence: SilenceWatch | None
    _raw: Fanout[ev.RawLine]
    _console_capture: list[str] | None
    _closing: bool
    _answered: bool
    _exited: ev.DebuggerExited | None
    _decoder: codecs.IncrementalDecoder

    def _silence_watch(self) -> SilenceWatch:
        """What says the debugger silent (made once ``_pending`` and ``_events`` are)."""
        return SilenceWatch(self._pending, self._events.emit)

    def _sent(self) -> None:
        """A request is in flight."""
        if self._silence is not None:
            self._silence.sent()

    def _on_stdout(self, lines: list[bytes]) -> None:
        if self._silence is not None:
            self._silence.heard()
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
            self._output_ended()

    async def _parse_big(self, line: str) -> None:
        record = await in_thread(parse_line, line)
        self._big = None
        self._stdout.resume()
        self._handle_record(line, record)
        self._handle_backlog()

    def _on_stdout_dropped(self, head: bytes) -> None:
        """A stdout line over the limit: its request fails (an error in its place), else a log line says so."""
        dropped = ev.LineDropped("stdout", self._line_limit, head.decode("utf-8", "replace"))
        token = _RESULT_TOKEN.match(head)
        text = dropped.description
        replacement = token[1] + b"^error,msg=" + quote(text).encode() if token else b"&" + quote(text + "\n").encode()
        self._backlog.append(replacement)
        self._events.emit(dropped)
        if self._big is None:
            self._handle_backlog()

    def _on_stderr_dropped(self, head: bytes) -> None:
        self._events.emit(ev.LineDropped("stderr", self._line_limit, head.decode("utf-8", "replace")))

    def _on_stderr(self, lines: list[bytes]) -> None:
        for line in lines:
            self._stderr_line(line.decode("utf-8", "replace") + "\n")

    def _on_stderr_closed(self, rest: bytes) -> None:
        if rest:
            self._stderr_line(rest.decode("utf-8", "replace"))
        assert self._stderr_ended is not None
        self._stderr_ended.set_result(None)

    def _stderr_line(self, text: str) -> None:
        if self._silence is not None:
            self._silence.heard()
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
            self._events.emit(ev.Stream(kind, record.payload))
        elif kind == "other" and line.strip():
            self._events.emit(ev.NonMI(line))

    def _resolve(self, token: int | None, message: str | None, payload: dict[str, Any]) -> None:
        entry = self._pending.pop(token, None) if token is not None else None
        if entry is None:
            self._events.emit(ev.UnmatchedResult(token, message, payload))
            return
        future, line, started = entry
        self._answered = True
        if self._silence is not None:
            self._silence.answered(token, line, started)
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
            if self.inferior_pid != self.attach and not self._stand_in:  # an attached process runs on
                self._processes.note(self.inferior_pid)  # taken only if the debugger started it
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

    def _on_status(self, status: asyncio.Future[int]) -> None:
        """The debugger has exited: take what it left in its streams and end them (a child of
        it may hold them open for long), then report the exit once every line is handled."""
        self._stderr.finish()
        self._stdout.finish()
        if self._stdin is not None:
            self._stdin.close()
        if self._stdout_done and self._big is None:
            self._output_ended()

    def _output_ended(self) -> None:
        """Every stdout line is handled: report the exit, or give the debugger a moment to exit
        (its exit follows the end of its output) before reporting it gone all the same."""
        assert self._status is not None
        if self._status.done():
            self._report_exit(ev.DebuggerExited(self._status.result(), expected=self._closing))
        elif self._gone is None:
            self._gone = asyncio.get_running_loop().call_later(
                OUTPUT_GRACE, lambda: self._report_exit(ev.DebuggerExited(None, self._closing, output_closed=True)))

    def _report_exit(self, exited: ev.DebuggerExited) -> None:
        """The debugger is gone: fail what is pending and say so (once)."""
        if self._exited is not None:
            return
        if self._gone is not None:
            self._gone.cancel()
        if self._tty is not None:
            self._tty.drain()
        self._exited = exited
        self.state = "dead" if not self._closing else "closed"
        self._fail_pending(exited.description)
        if self._recorder:
            self._recorder.write("mark", f"debugger-exit rc={exited.returncode}")
        self._events.emit(exited)
        assert self._ended is not None
        self._ended.set_result(None)

    def _fail_pending(self, reason: str) -> None:
        pending = dict(self._pending)
        self._pending.clear()  # the same dict: the silence watch holds it
        if self._silence is not None:
            self._silence.stop()
        for future, line, _ in pending.values():
            if not future.done():
                future.set_exception(DebuggerGone(reason, line))


OUTPUT_GRACE = 1.0
"""Seconds a debugger has to exit once its stdout has ended, before it is reported gone."""

_RESULT_TOKEN = re.compile(rb"(\d+)\^")
