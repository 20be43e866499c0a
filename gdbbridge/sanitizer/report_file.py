"""Opening a saved sanitizer report: a regular file only, and a bounded amount of it.

The same rules as the transcript reader (:mod:`cudatui.gdbbridge.record.transcript`): what is
not a regular file (a device such as /dev/zero, a FIFO) is refused, and no more than
:data:`MAX_REPORT` bytes are read. The file is opened without blocking and checked on the open
descriptor, so a FIFO put in its place cannot make the open hang. Text lines are cut at
:data:`MAX_LINE` (program output mixed into a log, such as a progress bar rewritten with CR for
hours, may be one long line; the sanitizer's own lines are short). A gzipped report (the lesson
recordings' ``LESSON.TOOL.xml.gz``) is read inflated, within the same bound.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import zlib
from typing import BinaryIO
from collections.abc import Iterator

from cudatui.gdbbridge.sanitizer.text_report import ReportError

MAX_REPORT = 256 * 1024 * 1024
"""Bytes of a report that are read (the largest recorded lesson report is under 100 KB; the
sanitizer prints at most 10,000 records by default)."""
MAX_LINE = 1024 * 1024
"""Characters of a text line that are kept; the rest of that line is skipped."""
MAX_LINES = 1_000_000
"""Text lines read (blank ones too): the sanitizer prints at most 10,000 records of a few dozen
lines by default; 256 MiB of newlines would be 268 million turns of the parser."""


class _Bounded(io.RawIOBase):
    """A file descriptor read at most ``limit`` bytes far; ReportError past that."""

    def __init__(self, fd: int, path: str, limit: int) -> None:
        self._fd, self._path, self._limit, self._read = fd, path, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = os.read(self._fd, len(buffer))
        self._read += len(data)
        if self._read > self._limit:
            raise ReportError(too_big(self._path, self._limit))
        buffer[: len(data)] = data
        return len(data)

    def fileno(self) -> int:
        return self._fd

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def too_big(path: str, limit: int) -> str:
    size = f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"
    return f"{path}: more than {size}, too big for a sanitizer report"


def open_report(path: str, limit: int | None = None) -> io.BufferedReader:
    """``path`` opened for reading (buffered, at most ``limit`` bytes, default
    :data:`MAX_REPORT`); ReportError when it is missing, unreadable, a directory, a device or a
    FIFO, or bigger than ``limit``."""
    limit = MAX_REPORT if limit is None else limit
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ReportError(f"{path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ReportError(f"{path}: Is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise ReportError(f"{path}: not a regular file (a device or a FIFO)")
        if info.st_size > limit:
            raise ReportError(too_big(path, limit))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    stream = io.BufferedReader(_Bounded(fd, path, limit))
    if stream.peek(2)[:2] != b"\x1f\x8b":
        return stream  # type: ignore[return-value]
    return io.BufferedReader(_Inflated(stream, path, limit))  # type: ignore[arg-type]


class _Inflated(io.RawIOBase):
    """A gzipped report (as the lesson recordings package theirs), at most ``limit`` bytes once
    inflated; ReportError past that or when the data is not gzip."""

    def __init__(self, stream: io.BufferedReader, path: str, limit: int) -> None:
        self._stream, self._path, self._limit, self._read = stream, path, limit, 0
        self._gzip = gzip.GzipFile(fileobj=stream, mode="rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            data = self._gzip.read(len(buffer))
        except (OSError, EOFError, zlib.error) as exc:
            raise ReportError(f"{self._path}: not a readable gzip file ({exc})") from None
        self._read += len(data)
        if self._read > self._limit:
            raise ReportError(too_big(self._path, self._limit))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._gzip.close()
            self._stream.close()
        super().close()


def report_lines(stream: BinaryIO, max_line: int = MAX_LINE) -> Iterator[str]:
    """The text lines of ``stream`` (UTF-8, undecodable bytes as U+FFFD; ``\\n``, ``\\r\\n`` and
    ``\\r`` end a line, as in text mode), each cut to ``max_line`` characters; ReportError past
    :data:`MAX_LINES` lines."""
    text = io.TextIOWrapper(stream, encoding="utf-8", errors="replace")
    for _ in range(MAX_LINES):
        line = text.readline(max_line)
        if not line:
            return
        if not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):  # skip the rest of an over-long line
                rest = text.readline(max_line)
            line += "\n"
        yield line
    if text.read(1):
        raise ReportError(f"more than {MAX_LINES:,} lines, too many for a sanitizer report")
