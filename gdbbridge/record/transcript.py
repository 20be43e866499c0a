"""Reading a session transcript (the :mod:`cudatui.gdbbridge.session.recorder` format).

A file holds one or more debugger sessions, each starting with its ``"dir": "meta"`` header
(a restart appends a new session to the same file). :func:`load` returns one session as a
:class:`Transcript`: its prologue (what the debugger printed before the first command) and
its exchanges (each command with what followed it).

The reader is bounded: it refuses what is not a regular file (a device, a FIFO), stops at
``MAX_TEXT`` bytes of (decompressed) text, at ``MAX_LINES`` lines and at a line longer than
``MAX_LINE``, splits on
``\\n`` only (U+2028 and friends are text, not line ends), and reports every failure as one
:class:`TranscriptError` line. A last line cut off by a crash ends the session (``truncated``).
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import stat
import zlib
from dataclasses import dataclass, field
from typing import Any, BinaryIO
from collections.abc import Iterator

from cudatui.gdbbridge.host.encoding import RECORD_TOKEN
from cudatui.gdbbridge.session.recorder import FORMAT, VERSION

MAX_TEXT = 256 * 1024 * 1024
"""Bytes of text a transcript may hold once decompressed (the largest lesson is under 2 MB)."""
MAX_LINE = 64 * 1024 * 1024
"""Bytes one transcript line may hold."""
MAX_LINES = 250_000
"""Lines (not blank) a transcript may hold: the lessons' hold 500 to 2,000 (program output is
recorded in chunks, not a line each); a line costs about 10 us and an object, and a gzip of
256 MiB of short valid lines cost 2 GB and 100 s."""

_COMMAND = re.compile(r"^(\d*)(-\S+.*)$")
_RESULT_TOKEN = re.compile(r"^(\d+)(\^.*)$")
_NOT_BLANK = re.compile(rb"[^\s][^\n]*")
"""A line from its first byte that is not ASCII white space (what ``bytes.strip`` removes)."""
MOVERS = ("-exec-", "-target-select")
"""Commands that set the target moving (or load a new one): each starts a new stop."""


class TranscriptError(Exception):
    """The file is not a transcript this version can replay (message is one line)."""


@dataclass(frozen=True)
class Entry:
    t: float
    dir: str
    line: str


@dataclass(frozen=True)
class Exchange:
    """One recorded command and everything the debugger printed until the next command."""

    index: int
    token: str
    command: str
    t: float
    output: tuple[Entry, ...]

    @property
    def key(self) -> tuple[str, ...]:
        return match_key(self.command)

    @property
    def result(self) -> str:
        """gdb's result line for this command (``^done...`` without the token), or ''."""
        for entry in self.output:
            m = _RESULT_TOKEN.match(entry.line) if entry.dir == "out" else None
            if m and m.group(1) == self.token:
                return m.group(2)
            if entry.dir == "out" and entry.line.startswith("^") and not self.token:
                return entry.line
        return ""


@dataclass(frozen=True)
class Transcript:
    prologue: tuple[Entry, ...]
    exchanges: tuple[Exchange, ...]
    truncated: bool
    meta: dict[str, Any] = field(default_factory=dict)
    """The session's header (argv, and for lessons recorded_on, debugger, recorded_at...)."""
    session: int = 1
    sessions: int = 1
    """Which session of the file this is, and how many the file holds."""
    cut_at: int | None = None
    """The file's line number where a truncated recording was cut off."""


def canonical(command: str) -> tuple[str, ...]:
    """Split a command into words with c-strings unquoted, so ``-f "main"`` matches ``-f main``."""
    words: list[str] = []
    i, n = 0, len(command)
    while i < n:
        if command[i].isspace():
            i += 1
        elif command[i] == '"':
            j, buf = i + 1, []
            while j < n and command[j] != '"':
                if command[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(command[j])
                j += 1
            words.append("".join(buf))
            i = j + 1
        else:
            j = i
            while j < n and not command[j].isspace():
                j += 1
            words.append(command[i:j])
            i = j
    return tuple(words)


def match_key(command: str) -> tuple[str, ...]:
    """What two commands must share to match: their canonical words, except that
    ``-inferior-tty-set`` matches whatever terminal the front end has this time."""
    words = canonical(command)
    return words[:1] if words[:1] == ("-inferior-tty-set",) else words


class _Gzipped(gzip.GzipFile):
    """A gzip stream over an open file, which closing it closes too."""

    def __init__(self, raw: BinaryIO) -> None:
        super().__init__(fileobj=raw, mode="rb")
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


def _open(path: str) -> BinaryIO:
    """``path`` opened for reading, checked on the open descriptor (a FIFO put in place of the
    file between a check and the open cannot make the open block: it is opened non-blocking)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise TranscriptError(f"cannot read recording {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise TranscriptError(f"cannot read recording {path}: Is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise TranscriptError(f"cannot read recording {path}: not a regular file (a device or a FIFO)")
        os.set_blocking(fd, True)
        handle: BinaryIO = open(fd, "rb")  # noqa: SIM115 (returned to the caller, who closes it)
    except BaseException:
        os.close(fd)
        raise
    try:
        if handle.read(2) == b"\x1f\x8b":
            handle.seek(0)
            return _Gzipped(handle)  # type: ignore[return-value]
        handle.seek(0)
        return handle
    except OSError as exc:
        handle.close()
        raise TranscriptError(f"cannot read recording {path}: {exc.strerror or exc}") from None


def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    """(number, line) for each line that is not blank, within the MAX_TEXT, MAX_LINES and MAX_LINE bounds.

    A line is found from its first non-blank byte by a regular expression, so a run of blank
    lines (a gzip of newlines) is skipped at the speed of ``re``, not one Python turn a line."""
    total = number = lines = 0
    pending = b""
    with _open(path) as handle:
        while True:
            try:
                chunk = handle.read(1 << 20)
            except (OSError, EOFError, zlib.error) as exc:
                raise TranscriptError(f"cannot read recording {path}: {exc}") from None
            total += len(chunk)
            if total > MAX_TEXT:
                raise TranscriptError(f"{path}: more than {MAX_TEXT >> 20} MiB of text (not a recording, "
                                      "or a decompression bomb)")
            if not chunk:
                break
            text = pending + chunk
            end = text.rfind(b"\n") + 1
            text, pending = text[:end], text[end:]
            if len(pending) > MAX_LINE:
                at_line = number + text.count(b"\n") + 1
                raise TranscriptError(f"{path}:{at_line}: a line longer than {MAX_LINE >> 20} MiB")
            at = 0
            for found in _NOT_BLANK.finditer(text):
                number += text.count(b"\n", at, found.start())
                at = found.start()
                lines += 1
                if lines > MAX_LINES:
                    raise TranscriptError(f"{path}:{number + 1}: more than {MAX_LINES:,} lines (not the recording "
                                          "of a session, or a decompression bomb)")
                yield number + 1, found.group()
            number += text.count(b"\n", at)
    if pending.strip():
        yield number + 1, pending.strip()


def _entry(raw: bytes) -> dict[str, Any]:
    obj = json.loads(raw.decode("utf-8", errors="replace"))
    if not isinstance(obj, dict) or "dir" not in obj:
        raise ValueError("not a transcript entry")
    obj["t"] = float(obj.get("t", 0.0))  # OverflowError for an integer of 400 digits
    if not math.isfinite(obj["t"]):
        raise ValueError("not a time")
    return obj


def load(path: str, session: int = 1) -> Transcript:
    """Read session ``session`` (1-based) of a transcript file. A line cut off by a crash ends
    its session (``truncated``): at the end of the file, or just before the header of a
    session appended later; garbage anywhere else is an error."""
    sessions: list[tuple[dict[str, Any], list[Entry], list[int]]] = []
    garbage: int | None = None
    """The number of an unreadable line, until what follows it says whether it was a cut."""
    for number, raw in _lines(path):
        try:
            obj = _entry(raw)
        except (ValueError, TypeError, OverflowError, RecursionError):
            if garbage is not None or not sessions or not sessions[-1][1]:
                raise TranscriptError(f"{path}:{garbage or number}: not a cudatui transcript line") from None
            garbage = number
            continue
        if obj["dir"] == "meta":
            if obj.get("format") != FORMAT or obj.get("version") != VERSION:
                raise TranscriptError(
                    f"{path}: recording format {obj.get('format')!r} version {obj.get('version')!r} "
                    f"is not supported (this cudatui reads {FORMAT} version {VERSION})"
                )
            if garbage is not None:
                sessions[-1][2].append(garbage)
                garbage = None
            sessions.append((obj, [], []))
            continue
        if garbage is not None:
            raise TranscriptError(f"{path}:{garbage}: not a cudatui transcript line")
        if not sessions:
            sessions.append(({}, [], []))
        sessions[-1][1].append(Entry(obj["t"], str(obj["dir"]), str(obj.get("line", ""))))
    if garbage is not None:
        sessions[-1][2].append(garbage)
    sessions = [s for s in sessions if any(e.dir == "in" for e in s[1])]
    if not sessions:
        raise TranscriptError(f"{path}: the recording holds no commands")
    if not 1 <= session <= len(sessions):
        raise TranscriptError(f"{path}: holds {len(sessions)} session(s), not a session {session}")
    meta, entries, cut = sessions[session - 1]
    prologue, exchanges = _split(entries)
    return Transcript(prologue, exchanges, bool(cut), meta, session, len(sessions), cut[0] if cut else None)


def _split(entries: list[Entry]) -> tuple[tuple[Entry, ...], tuple[Exchange, ...]]:
    """Group output by command. A result record goes to the command with its token (pipelined
    commands are answered after several were sent); an exec record (``*running``,
    ``*stopped``) to the latest command that set the target moving (``-exec-*``, a detach, or
    any command answered ``^running``), so a stop is replayed even when a front end does not ask
    the queries that were in flight when it was recorded; everything else to the latest command
    that is not a virtual one (what cudatui wrote beside gdb, such as the host stack or the stop
    state, token ``RECORD_TOKEN``), so program output that arrives then is not lost."""
    prologue: list[Entry] = []
    real = -1
    heads: list[tuple[str, str, float]] = []
    outputs: list[list[Entry]] = []
    by_token: dict[str, int] = {}
    mover: int | None = None
    for entry in entries:
        if entry.dir == "in":
            m = _COMMAND.match(entry.line)
            heads.append((m.group(1), m.group(2), entry.t) if m else ("", entry.line, entry.t))
            outputs.append([])
            if heads[-1][0]:
                by_token[heads[-1][0]] = len(heads) - 1
            if heads[-1][1].startswith(("-exec-", "-target-detach")):  # a detach lets the process run on
                mover = len(heads) - 1
            if heads[-1][0] != str(RECORD_TOKEN):
                real = len(heads) - 1
        elif entry.dir in ("out", "program"):
            if not outputs:
                prologue.append(entry)
                continue
            m = _RESULT_TOKEN.match(entry.line) if entry.dir == "out" else None
            if m:
                index = by_token.get(m.group(1), len(outputs) - 1)
                if m.group(2).startswith("^running"):
                    mover = max(mover if mover is not None else -1, index)
            elif entry.dir == "out" and entry.line.startswith("*") and mover is not None:
                index = mover
            else:
                index = real if real >= 0 else len(outputs) - 1
            outputs[index].append(entry)
    exchanges = tuple(Exchange(i, *head, tuple(out)) for i, (head, out) in enumerate(zip(heads, outputs)))
    return tuple(prologue), exchanges
