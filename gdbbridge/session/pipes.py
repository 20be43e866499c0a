"""The asyncio protocols under :class:`cudatui.gdbbridge.session.gdb.GdbSession`: an output stream
of the debugger read as it arrives and cut into lines of bounded length, and its exit status.

The streams are the cudatui ends of socket pairs (see ``GdbSession.start``): unlike a pipe, a
socket cannot be opened again through ``/proc/PID/fd``, so no other process (the debuggee, a
child of it) can write into gdb's output or input.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import struct
import termios
from collections.abc import Callable

LINE_LIMIT_ENV = "CUDATUI_MI_LINE_LIMIT"
"""The environment variable that sets the line limit, in bytes."""

LINE_LIMIT = 64 * 1024 * 1024
"""The longest line (in bytes, line break excluded) read from the debugger when neither the
session's ``line_limit`` nor ``$CUDATUI_MI_LINE_LIMIT`` says otherwise."""

DROP_HEAD = 200
"""How many bytes of a dropped line are kept, to say what it was."""

READ_SIZE = 64 * 1024
"""Bytes read per loop turn (asyncio's socket transports read ``max_size``, 256 KiB by default):
the lines of one read are handled in that turn, so a flood (a UI that spends 0.5 ms on a line)
kept ctrl+q waiting a second at 256 KiB, a third of one at 64 KiB."""


def effective_line_limit(value: int | None = None) -> int:
    """The line limit: ``value``, else ``$CUDATUI_MI_LINE_LIMIT``, else :data:`LINE_LIMIT`;
    ValueError unless it is a whole number of at least 1 (bytes)."""
    if value is None:
        text = os.environ.get(LINE_LIMIT_ENV, "").strip()
        if not text:
            return LINE_LIMIT
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{LINE_LIMIT_ENV}={text!r} is not a number of bytes") from None
    if value < 1:
        raise ValueError(f"the MI line limit must be at least 1 byte, not {value}")
    return value


class LineReader(asyncio.Protocol):
    """One output stream of the debugger, read as it arrives and cut into lines.

    ``on_lines(lines)`` gets the complete lines of each chunk (without their line break),
    ``on_closed(rest)`` the unfinished last line (maybe empty) when the stream ends. A line
    longer than ``limit`` bytes is never held: as soon as it is known to be too long, its first
    :data:`DROP_HEAD` bytes go to ``on_dropped(head)``, in its place among the lines, and the
    rest of it is skipped as it arrives, so memory stays bounded whatever the debugger writes
    (one endless line included)."""

    def __init__(
        self,
        on_lines: Callable[[list[bytes]], None],
        on_closed: Callable[[bytes], None],
        on_dropped: Callable[[bytes], None] | None = None,
        limit: int = LINE_LIMIT,
    ) -> None:
        self._on_lines = on_lines
        self._on_closed = on_closed
        self._on_dropped = on_dropped or (lambda head: None)
        self._limit = limit
        self._partial: list[bytes] = []
        self._held = 0
        """Bytes in ``_partial``."""
        self._skipping = False
        """Whether the rest of a dropped line is being skipped."""
        self._pipe: asyncio.ReadTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._pipe = transport  # type: ignore[assignment]
        transport.max_size = READ_SIZE  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self._skipping:
            end = data.find(b"\n")
            if end < 0:
                return
            self._skipping = False
            data = data[end + 1:]
        if b"\n" not in data:
            self._hold(data)
            return
        if self._partial:
            end = data.index(b"\n") if self._held + len(data) > self._limit else 0
            if self._held + end > self._limit:  # the held line ends in this chunk, over the limit
                self._drop(data[:min(end, DROP_HEAD)])
                self.data_received(data)
                return
            self._partial.append(data)
            data = b"".join(self._partial)
            self._partial.clear()
            self._held = 0
        *lines, rest = data.split(b"\n")
        if len(data) > self._limit:
            self._long_lines(lines)
        else:
            self._on_lines(lines)
        if rest:
            self._hold(rest)

    def _hold(self, data: bytes) -> None:
        """Keep an unfinished line, or drop it once it is over the limit."""
        if self._held + len(data) > self._limit:
            self._drop(data)
        elif data:
            self._partial.append(data)
            self._held += len(data)

    def _drop(self, data: bytes) -> None:
        """Drop the held line and ``data``, its continuation: report its head, skip what follows."""
        head = b""
        for part in (*self._partial, data):
            head += part[:DROP_HEAD - len(head)]
            if len(head) == DROP_HEAD:
                break
        self._partial.clear()
        self._held = 0
        self._skipping = True
        self._on_dropped(head)

    def _long_lines(self, lines: list[bytes]) -> None:
        """Deliver the lines of a chunk longer than the limit: each too long a line is dropped."""
        start = 0
        for i, line in enumerate(lines):
            if len(line) > self._limit:
                if start < i:
                    self._on_lines(lines[start:i])
                self._on_dropped(line[:DROP_HEAD])
                start = i + 1
        if start < len(lines):
            self._on_lines(lines[start:])

    def connection_lost(self, exc: Exception | None) -> None:
        self._skipping = False
        rest = b"".join(self._partial)
        self._partial.clear()
        self._held = 0
        self._on_closed(rest)

    def pause(self) -> None:
        assert self._pipe is not None
        self._pipe.pause_reading()

    def resume(self) -> None:
        assert self._pipe is not None
        self._pipe.resume_reading()

    def finish(self) -> None:
        """The writer has exited: read what it left queued, then end the stream (its end is
        ``on_closed``, one loop turn later). A child that holds the other end (a ``shell
        sleep 20`` of gdb's) can keep a stream open long after; what it writes later is lost."""
        pipe = self._pipe
        if pipe is None or pipe.is_closing():
            return
        fd = pipe.get_extra_info("socket").fileno()
        queued = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
        while queued > 0:
            try:
                data = os.read(fd, min(queued, 1 << 18))
            except OSError:  # BlockingIOError included: nothing more to read
                break
            if not data:
                break
            queued -= len(data)
            self.data_received(data)
        pipe.close()


def unread(stream: asyncio.BaseTransport) -> int:
    """Bytes written into ``stream`` (the cudatui end of a socket pair) that the other end has
    not read yet (0 once it read everything, or when the stream is closed)."""
    try:
        queued = fcntl.ioctl(stream.get_extra_info("socket").fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except (OSError, ValueError):  # closed: its descriptor is -1
        return 0
    return int(struct.unpack("i", queued)[0])


class ExitWatcher(asyncio.SubprocessProtocol):
    """Resolves ``status`` with the process's exit status when it exits."""

    def __init__(self, status: asyncio.Future[int]) -> None:
        self._status = status
        self._transport: asyncio.SubprocessTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]

    def process_exited(self) -> None:
        assert self._transport is not None
        self._status.set_result(self._transport.get_returncode())  # type: ignore[arg-type]
