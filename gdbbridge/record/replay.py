"""A stand-in debugger that serves a recorded transcript over MI on stdin/stdout.

``python -m cudatui.gdbbridge.record.replay FILE [gdb flags...]`` answers each incoming command with the
recorded answer of the matching recorded command (tokens rewritten), emits the recorded async
records after it, writes the recorded program output to the tty given by
``-inferior-tty-set``, and answers ``^error,msg="not in this recording: ..."`` otherwise.

Matching: commands that move the target or the focus (``-exec-*``, ``-cuda-focus-switch``)
are matched forward only (skipping what the front end did not ask for). Other commands are
answered from the current stop (forward, up to the next state-changing command) or else from
their latest earlier occurrence: a pane opened later still gets the data of this stop.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import time
import zlib
from dataclasses import dataclass
from typing import IO, Iterator

from cudatui.gdbbridge.session.mi import quote
from cudatui.gdbbridge.record.recorder import FORMAT, VERSION

_COMMAND = re.compile(r"^(\d*)(-\S+.*)$")
_RESULT_TOKEN = re.compile(r"^(\d+)(\^.*)$")
_STATE_CHANGING = ("-exec-", "-cuda-focus-switch", "-target-")


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
    def state_changing(self) -> bool:
        return self.command.startswith(_STATE_CHANGING)

    @property
    def key(self) -> tuple[str, ...]:
        return match_key(self.command)


@dataclass(frozen=True)
class Transcript:
    prologue: tuple[Entry, ...]
    exchanges: tuple[Exchange, ...]
    truncated: bool


def _open(path: str) -> IO[str]:
    with open(path, "rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def load(path: str) -> Transcript:
    """Read a transcript; a line cut off by a crash ends it (``truncated``), garbage is an error."""
    try:
        handle = _open(path)
    except OSError as exc:
        raise TranscriptError(f"cannot read recording {path}: {exc.strerror or exc}") from None
    entries: list[Entry] = []
    truncated = False
    with handle:
        try:
            lines = handle.read().splitlines()
        except (OSError, EOFError, zlib.error) as exc:
            raise TranscriptError(f"cannot read recording {path}: {exc}") from None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
            if not isinstance(obj, dict) or "dir" not in obj:
                raise ValueError("not a transcript entry")
            t = float(obj.get("t", 0.0))
        except (ValueError, TypeError, RecursionError):
            if number == len(lines) and entries:
                truncated = True
                break
            raise TranscriptError(f"{path}:{number}: not a cudatui transcript line") from None
        if obj["dir"] == "meta":
            if obj.get("format") != FORMAT or obj.get("version") != VERSION:
                raise TranscriptError(
                    f"{path}: recording format {obj.get('format')!r} version {obj.get('version')!r} "
                    f"is not supported (this cudatui reads {FORMAT} version {VERSION})"
                )
            continue
        entries.append(Entry(t, str(obj["dir"]), str(obj.get("line", ""))))
    if not any(e.dir == "in" for e in entries):
        raise TranscriptError(f"{path}: the recording holds no commands")
    return _split(entries, truncated)


def _split(entries: list[Entry], truncated: bool) -> Transcript:
    """Group output by command. A result record goes to the command with its token (pipelined
    commands are answered after several were sent); an exec record (``*running``,
    ``*stopped``) to the latest command that set the target moving (``-exec-*``, or any
    command answered ``^running``), so a stop is replayed even when a front end does not ask
    the queries that were in flight when it was recorded; everything else to the latest command."""
    prologue: list[Entry] = []
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
            if heads[-1][1].startswith("-exec-"):
                mover = len(heads) - 1
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
                index = len(outputs) - 1
            outputs[index].append(entry)
    exchanges = tuple(Exchange(i, *head, tuple(out)) for i, (head, out) in enumerate(zip(heads, outputs)))
    return Transcript(tuple(prologue), exchanges, truncated)


class Replayer:
    """Serves one transcript. ``speed`` > 0 replays recorded delays divided by it."""

    def __init__(self, transcript: Transcript, out: IO[str], speed: float = 0.0) -> None:
        self.transcript = transcript
        self.cursor = 0
        self.out = out
        self.speed = speed
        self.tty: IO[str] | None = None

    def start(self) -> None:
        self._emit(self.transcript.prologue, None, self.transcript.prologue[0].t if self.transcript.prologue else 0.0)
        self._print("(gdb) ")

    def find(self, command: str) -> Exchange | None:
        exchanges = self.transcript.exchanges
        key = match_key(command)
        state_changing = command.startswith(_STATE_CHANGING)
        for x in exchanges[self.cursor :]:
            if x.key == key:
                return x
            if not state_changing and x.state_changing:
                break
        if state_changing:
            return None
        for x in reversed(exchanges[: self.cursor]):
            if x.key == key:
                return x
        return None

    def handle(self, line: str) -> bool:
        """Answer one command line; False when the debugger should exit."""
        m = _COMMAND.match(line.strip())
        if not m:
            self._print(f'^error,msg={quote("not an MI command: " + line.strip()[:200])}')
            self._print("(gdb) ")
            return True
        token, command = m.group(1), m.group(2)
        if command.startswith("-gdb-exit"):
            self._print(f"{token}^exit")
            return False
        exchange = self.find(command)
        if command.startswith("-inferior-tty-set"):
            self._open_tty(command)
            if exchange is None:
                self._print(f"{token}^done")
                self._print("(gdb) ")
                return True
        if exchange is None:
            self._print(f'{token}^error,msg={quote("not in this recording: " + command[:300])}')
            self._print("(gdb) ")
            return True
        if exchange.index >= self.cursor:
            self.cursor = exchange.index + 1
        self._emit(exchange.output, (exchange.token, token), exchange.t)
        return True

    def _open_tty(self, command: str) -> None:
        path = command.split(None, 1)[1] if " " in command else ""
        path = json.loads(path) if path.startswith('"') else path
        try:
            self.tty = open(path, "w", encoding="utf-8", errors="replace")
        except OSError:
            self.tty = None

    def _emit(self, output: tuple[Entry, ...], tokens: tuple[str, str] | None, t0: float) -> None:
        started = time.monotonic()
        for entry in output:
            if self.speed > 0:
                delay = (entry.t - t0) / self.speed - (time.monotonic() - started)
                if delay > 0:
                    time.sleep(min(delay, 5.0))
            if entry.dir == "program":
                if self.tty is not None:
                    self.tty.write(entry.line)
                    self.tty.flush()
                continue
            line = entry.line
            if tokens is not None:
                m = _RESULT_TOKEN.match(line)
                if m and m.group(1) == tokens[0]:
                    line = tokens[1] + m.group(2)
            self._print(line)

    def _print(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()


def serve(path: str, speed: float, stdin: IO[str], stdout: IO[str]) -> int:
    transcript = load(path)
    replayer = Replayer(transcript, stdout, speed)
    replayer.start()
    for line in _lines(stdin):
        if not replayer.handle(line):
            break
    return 0


def _lines(stream: IO[str]) -> Iterator[str]:
    while line := stream.readline():
        if line.strip():
            yield line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cudatui.gdbbridge.record.replay", description=__doc__.splitlines()[0])
    parser.add_argument("transcript")
    parser.add_argument("--speed", type=float, default=float(os.environ.get("CUDATUI_REPLAY_SPEED", "0")),
                        help="replay recorded delays divided by this factor (0: no delays)")
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--args" in argv:
        argv = argv[: argv.index("--args")]
    args, _gdb_flags = parser.parse_known_args(argv)
    try:
        return serve(args.transcript, args.speed, sys.stdin, sys.stdout)
    except TranscriptError as exc:
        print(f"cudatui replay: {exc}", file=sys.stderr)
        return 2
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
