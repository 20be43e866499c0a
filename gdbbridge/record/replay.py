"""A stand-in debugger that serves a recorded transcript over MI on stdin/stdout.

``python -m cudatui.gdbbridge.record.replay FILE [--session N] [gdb flags...]`` answers each
incoming command with the recorded answer of the matching recorded command (tokens
rewritten), emits the recorded async records after it, writes the recorded program output to
the debuggee's pty the front end handed over (``$CUDATUI_PROGRAM_TTY_FD``), else to the file
``-inferior-tty-set`` names if that is no terminal (a terminal named by its path may be another
one's by the time it is opened: a front end gone frees its pty's number for the next terminal),
and answers ``^error,msg="not in this recording: ..."`` otherwise.

The recording is read as a sequence of stops: a command that sets the target moving
(``-exec-*``, ``-target-select``, a console ``run``/``continue``/``target ...``, anything
answered ``^running``) starts the next stop, and within a stop a focus or frame change
(``-cuda-focus-switch``, ``-stack-select-frame``, a console ``up``/``frame``/``cuda ...``)
moves to another *place* (the focus and frame it lands on). A query is answered only from the
exchanges recorded at the same stop and place, in recorded order (asked more often than
recorded, it gets the last answer again, without the async records); never from another stop.
A few answers that no stop changes (devices, register names, settings) are also served from
an earlier stop. Moving commands match forward only (skipping what the front end
did not ask for); a place change matches within the stop. The answers depend only on the
commands received, never on timing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import sys
import time
from dataclasses import dataclass
from typing import IO
from collections.abc import Callable, Iterator

from cudatui.gdbbridge.record.transcript import MOVERS, Entry, Exchange, Transcript, TranscriptError, load, match_key
from cudatui.gdbbridge.record.stop_state import STEP_COMMAND
from cudatui.gdbbridge.session.errors import NEXT_STEP, NOT_RECORDED
from cudatui.gdbbridge.session.mi import parse_line, quote
from cudatui.gdbbridge.session.pty import PROGRAM_TTY_FD
from cudatui.gdbbridge.text import one_line

_COMMAND = re.compile(r"^(\d*)(-\S+.*)$")
_RESULT_TOKEN = re.compile(r"^(\d+)(\^.*)$")
_CONSOLE_MOVERS = {"run", "r", "start", "continue", "c", "next", "n", "step", "s", "finish", "until", "advance",
                   "jump", "target", "kill", "signal", "nexti", "stepi", "ni", "si"}
_CONSOLE_PLACES = {"up", "down", "frame", "f", "cuda", "thread", "select-frame"}
STOP_INDEPENDENT = {"-cuda-info-devices", "-data-list-register-names", "-list-features", "-gdb-show", "-gdb-version",
                    "-file-list-exec-source-files", "-gdb-set", "-environment-cd", "-enable-pretty-printing"}
"""Commands whose answer no later stop changes: served from an earlier stop too."""

REPLAY_CUT = "replay-cut"
"""The notification (``=replay-cut,line="N"``) after the last exchange of a recording cut off by a crash."""

Place = tuple[int, str, str]
"""(stop number, focus, frame): where the debugger is when a command is asked."""


def kind_of(key: tuple[str, ...]) -> str:
    """"mover", "place" (focus or frame change) or "query" for a command's canonical words."""
    if not key:
        return "query"
    if key[0].startswith(MOVERS):
        return "mover"
    if key[0] in ("-cuda-focus-switch", "-stack-select-frame", "-thread-select"):
        return "place"
    if key[0] == "-interpreter-exec" and len(key) > 2:
        verb = key[2].split(None, 1)[0] if key[2].strip() else ""
        return "mover" if verb in _CONSOLE_MOVERS else "place" if verb in _CONSOLE_PLACES else "query"
    return "query"


def _focus_of(output: tuple[Entry, ...], token: str) -> str | None:
    """The focus a stop or a focus switch lands on (its CudaFocus, else its thread), or None."""
    for entry in output:
        if entry.dir != "out" or not (entry.line.startswith("*stopped") or entry.line.startswith(f"{token}^done")):
            continue
        payload = parse_line(entry.line).payload
        if not isinstance(payload, dict):  # a recording's line that is not a record with fields
            continue
        focus = payload.get("CudaFocus")
        if isinstance(focus, dict):
            return json.dumps({k: focus[k] for k in ("blockIdx", "threadIdx", "kernel", "device") if k in focus},
                              sort_keys=True)
        if payload.get("thread-id"):
            return f"thread {payload['thread-id']}"
    return None


@dataclass(frozen=True)
class Step:
    """Where a recorded exchange was asked (``before``) and where it left the debugger (``after``)."""

    kind: str
    before: Place
    after: Place


def places(transcript: Transcript) -> tuple[Step, ...]:
    """The place of every exchange, walking the recording in order."""
    here: Place = (0, "", "0")
    steps = []
    for x in transcript.exchanges:
        kind = kind_of(x.key)
        before = here
        result = x.result
        moved = any(e.dir == "out" and e.line.startswith(("*running", "*stopped")) for e in x.output)
        if kind == "mover" or result.startswith("^running"):
            kind = "mover"
            if moved or result.startswith(("^done", "^connected", "^running")):
                here = (here[0] + 1, _focus_of(x.output, x.token) or "", "0")
        elif kind == "place" and result.startswith("^done"):
            if x.key[0] == "-stack-select-frame":
                here = (here[0], here[1], x.key[1] if len(x.key) > 1 else "0")
            elif x.key[0] == "-cuda-focus-switch":
                here = (here[0], _focus_of(x.output, x.token) or " ".join(x.key[1:]), "0")
            else:
                here = (here[0], f"{here[1]}|{x.index}", "0")
        steps.append(Step(kind, before, here))
    return tuple(steps)


class Replayer:
    """Serves one transcript. ``speed`` > 0 replays recorded delays divided by it."""

    def __init__(self, transcript: Transcript, out: IO[str], speed: float = 0.0,
                 front_end_gone: Callable[[], bool] = lambda: False, program_tty: int | None = None) -> None:
        self.transcript = transcript
        self.front_end_gone = front_end_gone
        self.program_tty = program_tty
        """The file descriptor of the debuggee's pty handed over by the front end, if it did."""
        self.steps = places(transcript)
        self.cursor = 0
        """Where the forward search for a moving command starts."""
        self.here: Place = (0, "", "0")
        self.out = out
        self.speed = speed
        self.tty: IO[str] | None = None
        self._used: set[int] = set()
        self._said_cut = False
        """Whether the REPLAY_CUT notification was sent (once per replay)."""
        self._asked: dict[tuple[Place, tuple[str, ...]], list[int]] = {}
        for x, step in zip(transcript.exchanges, self.steps):
            if step.kind == "query":
                self._asked.setdefault((step.before, x.key), []).append(x.index)

    def start(self) -> None:
        self._emit(self.transcript.prologue, None, self.transcript.prologue[0].t if self.transcript.prologue else 0.0)
        self._print("(gdb) ")

    def find(self, command: str) -> Exchange | None:
        """The recorded exchange that answers ``command`` here, or None; moves ``here``."""
        key = match_key(command)
        kind = kind_of(key)
        exchanges = self.transcript.exchanges
        if kind == "mover":
            found = next((x for x in exchanges[self.cursor:] if x.key == key and self.steps[x.index].kind == "mover"), None)
        elif kind == "place":
            found = self._place_change(key)
        else:
            found = self._query(key)
        if found is not None and self.steps[found.index].kind != "query":
            self.here = self.steps[found.index].after
            self.cursor = max(self.cursor, found.index + 1)
        return found

    def _place_change(self, key: tuple[str, ...]) -> Exchange | None:
        stop = self.here[0]
        same = [x for x in self.transcript.exchanges
                if x.key == key and self.steps[x.index].before[0] == stop and self.steps[x.index].kind == "place"]
        if not same:
            return None
        from_here = [x for x in same if self.steps[x.index].before == self.here]
        absolute = key[0] == "-cuda-focus-switch" and len(key) > 1 and "block" in key[1] and "thread" in key[1]
        pool = from_here or (same if absolute else [])
        return next((x for x in pool if x.index >= self.cursor), pool[0] if pool else None)

    def _query(self, key: tuple[str, ...]) -> Exchange | None:
        exchanges = self.transcript.exchanges
        asked = self._asked.get((self.here, key), [])
        fresh = [i for i in asked if i not in self._used]
        if fresh or asked:
            return exchanges[(fresh or asked)[-1 if not fresh else 0]]
        if key[0] in STOP_INDEPENDENT:
            return next((x for x in reversed(exchanges[: self.cursor]) if x.key == key), None)
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
        cut = self.transcript.truncated and (not exchange.result if exchange is not None else self._past_cut(command))
        if exchange is None or cut:  # a command recorded whose answer the cut lost is not in the recording either
            ahead = self._next_step() if kind_of(match_key(command)) == "mover" else ""
            said = f"{NOT_RECORDED}: " + command[:300] + self._cut_note() + (f"{NEXT_STEP}{ahead})" if ahead else "")
            self._print(f'{token}^error,msg={quote(said)}')
            if cut and not self._said_cut:
                self._said_cut = True
                self._print(f'={REPLAY_CUT},line="{self.transcript.cut_at}"')
            self._print("(gdb) ")
            return True
        again = exchange.index in self._used
        self._used.add(exchange.index)
        output = exchange.output
        if again:
            output = tuple(e for e in output if e.dir == "out" and not e.line.startswith(("*", "=")))
        self._emit(output, (exchange.token, token), exchange.t)
        if self._cut_while_moving(exchange) and not self._said_cut:
            self._said_cut = True
            self._print(f'={REPLAY_CUT},line="{self.transcript.cut_at}"')
        return True

    def _next_step(self) -> str:
        """The keys of the recorded path's step the recording goes on with from where the replay
        is, or '': the step after the one whose end mark comes first after the last move served
        (that mark ends the step that made the stop shown)."""
        marks = (x for x in self.transcript.exchanges[self.cursor:] if x.key[:1] == (STEP_COMMAND,))
        next(marks, None)
        ahead = next(marks, None)
        found = re.search(r'keys="((?:[^"\\]|\\.)*)"', " ".join(e.line for e in ahead.output)) if ahead else None
        return found.group(1).replace('\\"', '"') if found else ""

    def _past_cut(self, command: str) -> bool:
        """Whether ``command`` sets the target moving where the recording has no later move (it was cut)."""
        if kind_of(match_key(command)) != "mover":
            return False
        return not any(step.kind == "mover" for step in self.steps[self.cursor:])

    def _cut_while_moving(self, exchange: Exchange) -> bool:
        """Whether ``exchange`` set the target moving and the recording was cut before it stopped."""
        if not self.transcript.truncated or self.steps[exchange.index].kind != "mover":
            return False
        later = self.transcript.exchanges[exchange.index + 1:]
        stopped = any(e.dir == "out" and e.line.startswith("*stopped") for e in exchange.output)
        return not stopped and not any(self.steps[x.index].kind == "mover" for x in later)

    def _cut_note(self) -> str:
        if not self.transcript.truncated:
            return ""
        return f" (the recording was cut off at line {self.transcript.cut_at}: it replays up to there)"

    def _open_tty(self, command: str) -> None:
        """Where the program's output goes: the pty the front end handed over; else the file
        the front end named, unless it is a terminal (its number may be another terminal's by
        now: a replay once wrote a lesson's output over another app's screen) or the front end
        has gone. Appended to, never truncated, never made this process's controlling terminal."""
        self.tty = None
        if self.program_tty is not None:  # the front end's own pty: never another terminal
            self.tty = os.fdopen(self.program_tty, "w", encoding="utf-8", errors="replace", closefd=False)
            return
        path = command.split(None, 1)[1] if " " in command else ""
        path = json.loads(path) if path.startswith('"') else path
        if self.front_end_gone():
            return
        try:  # non-blocking: a FIFO without a reader fails at once instead of hanging the replay
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:  # no such file: the program's output goes nowhere
            return
        if os.isatty(fd) or self.front_end_gone():
            os.close(fd)
            return
        os.set_blocking(fd, True)
        self.tty = os.fdopen(fd, "w", encoding="utf-8", errors="replace")

    def _write_program(self, text: str) -> None:
        if self.tty is None:
            return
        try:
            self.tty.write(text)
            self.tty.flush()
        except OSError:  # the front end closed its pty
            self.tty = None

    def _emit(self, output: tuple[Entry, ...], tokens: tuple[str, str] | None, t0: float) -> None:
        started = time.monotonic()
        for entry in output:
            if self.speed > 0:
                delay = (entry.t - t0) / self.speed - (time.monotonic() - started)
                if delay > 0:
                    time.sleep(min(delay, 5.0))
            if entry.dir == "program":
                self._write_program(entry.line)
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


def serve(path: str, speed: float, stdin: IO[str], stdout: IO[str], session: int = 1) -> int:
    transcript = load(path, session)
    replayer = Replayer(transcript, stdout, speed, lambda: hung_up(stdin), handed_tty())
    replayer.start()
    for line in _lines(stdin):
        if not replayer.handle(line):
            break
    return 0


def handed_tty() -> int | None:
    """The debuggee's pty the front end handed over (an inherited descriptor that is a terminal), or None."""
    try:
        fd = int(os.environ.get(PROGRAM_TTY_FD, ""))
    except ValueError:
        return None
    return fd if fd > 2 and os.isatty(fd) else None


def hung_up(stream: IO[str]) -> bool:
    """Whether every writer of ``stream`` (a pipe from the front end) has closed it; False for
    what is not a pipe or file descriptor."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(events & select.POLLHUP for _, events in poller.poll(0))


def _lines(stream: IO[str]) -> Iterator[str]:
    while line := stream.readline():
        if line.strip():
            yield line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cudatui.gdbbridge.record.replay",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("transcript")
    parser.add_argument("--speed", type=float, default=float(os.environ.get("CUDATUI_REPLAY_SPEED", "0")),
                        help="replay recorded delays divided by this factor (0: no delays)")
    parser.add_argument("--session", type=int, default=1, help="which session of the file to serve (default 1)")
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--args" in argv:
        argv = argv[: argv.index("--args")]
    args, _gdb_flags = parser.parse_known_args(argv)
    try:
        return serve(args.transcript, args.speed, sys.stdin, sys.stdout, args.session)
    except TranscriptError as exc:
        print(one_line(f"cudatui replay: {exc}"), file=sys.stderr)
        return 2
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
