"""The asyncio protocols under :class:`cudatui.gdbbridge.session.gdb.GdbSession`: a pipe read as it
arrives and cut into lines, and the debugger's exit status."""

from __future__ import annotations

import asyncio
from typing import Callable


class LineReader(asyncio.Protocol):
    """One output pipe of the debugger, read as it arrives and cut into lines.

    ``on_lines(lines)`` gets the complete lines of each chunk (without their line break),
    ``on_closed(rest)`` the unfinished last line (maybe empty) when the pipe ends."""

    def __init__(self, on_lines: Callable[[list[bytes]], None], on_closed: Callable[[bytes], None]) -> None:
        self._on_lines = on_lines
        self._on_closed = on_closed
        self._partial: list[bytes] = []
        self._pipe: asyncio.ReadTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._pipe = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if b"\n" not in data:
            self._partial.append(data)
            return
        if self._partial:
            self._partial.append(data)
            data = b"".join(self._partial)
            self._partial.clear()
        *lines, rest = data.split(b"\n")
        if rest:
            self._partial.append(rest)
        self._on_lines(lines)

    def connection_lost(self, exc: Exception | None) -> None:
        rest = b"".join(self._partial)
        self._partial.clear()
        self._on_closed(rest)

    def pause(self) -> None:
        assert self._pipe is not None
        self._pipe.pause_reading()

    def resume(self) -> None:
        assert self._pipe is not None
        self._pipe.resume_reading()


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
