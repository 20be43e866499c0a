"""A stand-in debugger that follows a session while it is recorded (``cudatui follow FILE``).

``python -m cudatui.gdbbridge.record.follow FILE`` serves the newest session of a recording
that another cudatui (the instructor's, ``--record FILE``) is still writing. It answers the
follower's commands like :mod:`~cudatui.gdbbridge.record.replay` (from the stop the follower is
at, never from another one), and it moves by itself: as soon as the instructor's session has
moved (inotify wakes it when the file is written, :mod:`~cudatui.gdbbridge.record.file_watch`;
a slow poll where inotify is missing), it prints that stop's async records (``*running``,
``*stopped`` and the notifications) as they are written, so the follower's front end refreshes
its panes; each of its queries is answered once the instructor's own answer is in the file. A
follower catching up jumps to the newest stop.

The follower never writes to the session: the file is only read. Its own commands that would
move the program are refused (``read-only``), except the first run of its start, which is
answered with the instructor's. Where the instructor changed the focus or the frame after a
stop, ``=cudatui-follow,focus="..."`` (or ``frame="N"``) says so and the front end may follow.
When the instructor's session ends (``-gdb-exit``, or a new session appended by a restart)
``=cudatui-follow,state="ended"`` says so once; the follower keeps the last state.
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import time
from typing import IO
from collections.abc import Callable

from cudatui.gdbbridge.host.encoding import COMMAND as HOST_STACK
from cudatui.gdbbridge.record.awaited import follow_problem, session_begun
from cudatui.gdbbridge.record.audience import be_counted
from cudatui.gdbbridge.record.file_watch import FileWatch
from cudatui.gdbbridge.record.stop_state import COMMAND as STOP_STATE
from cudatui.gdbbridge.record.replay import _COMMAND, _RESULT_TOKEN, Replayer, handed_tty, hung_up, kind_of, places
from cudatui.gdbbridge.record.transcript import Exchange, Transcript, TranscriptError, load, match_key
from cudatui.gdbbridge.session.mi import quote
from cudatui.gdbbridge.text import one_line

FOLLOW = "cudatui-follow"
"""The notification the follower's stand-in adds (``=cudatui-follow,state="ended"`` ...)."""

SETTLE = 0.3
"""Seconds the file must stay unchanged before a query the instructor has not asked is answered
without them (their stop's queries are in)."""
PATIENCE = 2.0
"""Seconds a command the live session has not answered yet is waited for, once the instructor's
Debugger has written the state of the stop followed (its queries' answers are in then)."""
LONGEST = 60.0
"""Seconds a query is waited for before that state is written: on a loaded machine the
instructor's answers can reach the file more than SETTLE after its ``*stopped``, and the
follower's stop queries were answered "not in this recording" (tests/gdbbridge/record/
test_follow_slow_instructor.py)."""


def newest_session(path: str) -> Transcript:
    """The last session of the file (a restart of the instructor appends one)."""
    first = load(path, 1)
    return first if first.sessions == 1 else load(path, first.sessions)


def first_session(path: str, watch: FileWatch) -> Transcript:
    """:func:`newest_session`, once the file holds a command: the follower may start before the
    instructor (a file not there yet, empty, or only a header, is waited for; what can never be
    followed, or a begun session that does not read, is an error)."""
    while True:
        try:
            return newest_session(path)
        except TranscriptError:
            if follow_problem(path) or session_begun(path):
                raise
        watch.wait(watch.timeout)


class Follower(Replayer):
    """Serves the newest session of a growing recording and moves with it."""

    def __init__(self, path: str, out: IO[str], clock: Callable[[], float] = time.monotonic,
                 front_end_gone: Callable[[], bool] = lambda: False, program_tty: int | None = None) -> None:
        self.path = path
        self.clock = clock
        self.watch = FileWatch(path)
        """Wakes the follower when the file is written."""
        super().__init__(first_session(path, self.watch), out, front_end_gone=front_end_gone, program_tty=program_tty)
        self.counted = be_counted(path)
        """Held open while following: the instructor counts its readers (record/audience.py)."""
        self._size = self._stat()
        self._changed = clock()
        self.ended = False
        self._stop_x: int | None = None
        """The instructor's moving command whose stop the follower shows (None before the first run)."""
        self._emitted = 0
        """How many of its output lines were printed."""
        self._looked = False
        """Whether the follower changed the focus or frame on its own within this stop."""
        self._said: tuple[str | None, str | None] = (None, None)
        self._ended_already = any(x.command.startswith("-gdb-exit") for x in self.transcript.exchanges)
        """The session had ended before the follower came: said once it started (see :meth:`start`)."""

    def start(self) -> None:
        super().start()
        if self._ended_already:
            self._end()

    # -- the file ---------------------------------------------------------------------------

    def _stat(self) -> tuple[int, int]:
        try:
            info = os.stat(self.path)
        except OSError:
            return (-1, -1)
        return (info.st_size, info.st_mtime_ns)

    def refresh(self) -> bool:
        """Read the file again if it changed; True when it did."""
        size = self._stat()
        if size == self._size:
            return False
        self._size, self._changed = size, self.clock()
        try:
            transcript = newest_session(self.path)
        except TranscriptError:
            return True
        if transcript.session != self.transcript.session:
            self._end()
            return True
        self.transcript = transcript
        self.steps = places(transcript)
        self._asked = {}
        for x, step in zip(transcript.exchanges, self.steps):
            if step.kind == "query":
                self._asked.setdefault((step.before, x.key), []).append(x.index)
        if any(x.command.startswith("-gdb-exit") for x in transcript.exchanges):
            self._end()
        return True

    @property
    def settled(self) -> bool:
        """Whether the file has not changed for :data:`SETTLE` seconds."""
        return self.clock() - self._changed >= SETTLE

    def _end(self) -> None:
        if not self.ended:
            self.ended = True
            self._print(f'={FOLLOW},state="ended"')

    # -- moving with the instructor ---------------------------------------------------------

    def advance(self) -> bool:
        """Show the instructor's newest stop: jump to their last moving command, print what it
        printed since it was last looked at (``*running``, ``*stopped``, notifications, program
        output), then where they looked within the stop. True when something was printed."""
        if self._stop_x is None:
            return False
        exchanges = self.transcript.exchanges
        newer = [x for x in exchanges[self._stop_x + 1:] if self.steps[x.index].kind == "mover"]
        if newer:
            self._stop_x, self._emitted, self._said, self._looked = newer[-1].index, 0, (None, None), False
            self._used.add(self._stop_x)
            self.cursor = self._stop_x + 1
        if not self._looked:
            self.here = self.steps[self._stop_x].after
        x = exchanges[self._stop_x]
        fresh = tuple(e for e in x.output[self._emitted:] if e.dir == "program" or not _RESULT_TOKEN.match(e.line)
                      and not e.line.startswith("^"))
        self._emitted = len(x.output)
        self._emit(fresh, None, x.t)
        self._say_place()
        return bool(fresh)

    def _say_place(self) -> None:
        """Where the instructor looked within this stop, when it changed: their last focus
        switch and frame selection (after the stop settled)."""
        if self._stop_x is None:
            return
        focus = frame = None
        for x in self.transcript.exchanges[self._stop_x + 1:]:
            step = self.steps[x.index]
            if step.kind == "mover":
                break
            if step.kind == "place" and x.result.startswith("^done"):
                if x.key[0] == "-cuda-focus-switch" and len(x.key) > 1:
                    focus, frame = x.key[1], None
                elif x.key[0] == "-stack-select-frame" and len(x.key) > 1:
                    frame = x.key[1]
        if (focus, frame) == self._said:
            return
        self._said = (focus, frame)
        if focus:
            self._print(f"={FOLLOW},focus={quote(focus)}")
        if frame:
            self._print(f"={FOLLOW},frame={quote(frame)}")

    # -- the follower's commands ------------------------------------------------------------

    def handle(self, line: str) -> bool:
        m = _COMMAND.match(line.strip())
        if m is None or m.group(2).startswith("-gdb-exit"):
            return super().handle(line)
        command = m.group(2)
        if self._stop_x is not None and self._moves(command):
            self._print(f'{m.group(1)}^error,msg="read-only: following the instructor\'s session"')
            self._print("(gdb) ")
            return True
        self._wait_for(command)
        found = self._lookup(command)
        if found is not None and self.steps[found.index].kind == "mover":
            self._stop_x, self._emitted = found.index, len(found.output)
        going_on = super().handle(line)
        if found is not None and self.steps[found.index].kind == "place" and self._stop_x is not None:
            self._looked = self.here != self.steps[self._stop_x].after
        return going_on

    def _moves(self, command: str) -> bool:
        return kind_of(match_key(command)) == "mover"

    def _wait_for(self, command: str) -> None:
        """While the session is live, wait for the instructor's answer to ``command`` to be
        written: its first run without limit (the follower may start first), anything else until the
        instructor's state of the stop is in the file (at most :data:`LONGEST`), then until the
        file has been quiet for :data:`SETTLE` seconds, at most :data:`PATIENCE`; the host stack
        only where the session records one (the instructor's program is Python)."""
        started = self.clock()
        patient = self._stop_x is None and self._moves(command)
        while not self.ended and not self._answered(command) and self._may_come(command):
            if patient:
                self.watch.wait(self.watch.timeout)
            else:
                now = self.clock()
                if self._stop_told():
                    left = min(SETTLE - (now - self._changed), PATIENCE - (now - started))
                else:
                    left = LONGEST - (now - started)
                if left <= 0:
                    return
                self.watch.wait(min(left, self.watch.timeout))
            self.refresh()

    def _stop_told(self) -> bool:
        """Whether the instructor's Debugger has written the state it published at the stop
        followed (``-cudatui-stop-state``, after the answers to its stop's queries); True before
        the first stop (nothing to wait for)."""
        if self._stop_x is None:
            return True
        return any(x.key[:1] == (STOP_STATE,) for x in self.transcript.exchanges[self._stop_x + 1:])

    def _may_come(self, command: str) -> bool:
        """Whether the instructor's session may write an answer to ``command``: any real command;
        the virtual host-stack command only where the program is Python (the instructor's
        Debugger records a host stack at each stop of one, never of another)."""
        if not command.startswith(HOST_STACK):
            return True
        argv = [str(a) for a in self.transcript.meta.get("argv", [])]
        program = argv[argv.index("--args") + 1] if "--args" in argv[:-1] else ""
        return os.path.basename(program).startswith("python") or any(
            x.command.startswith(HOST_STACK) for x in self.transcript.exchanges)

    def _answered(self, command: str) -> bool:
        """Whether the instructor's session holds ``command`` with its result line."""
        found = self._lookup(command)
        return found is not None and bool(found.result)

    def _lookup(self, command: str) -> Exchange | None:
        here, cursor = self.here, self.cursor
        try:
            return self.find(command)
        finally:
            self.here, self.cursor = here, cursor

    def _cut_note(self) -> str:
        return ""

    def _cut_while_moving(self, exchange: Exchange) -> bool:
        return False


def serve(path: str, stdin: IO[str], stdout: IO[str]) -> int:
    follower = Follower(path, stdout, front_end_gone=lambda: hung_up(stdin), program_tty=handed_tty())
    follower.start()
    buffered = ""
    fd = stdin.fileno()
    watch = follower.watch
    while True:
        watched = watch.fileno()
        ready, _, _ = select.select([fd] if watched is None else [fd, watched], [], [], watch.timeout)
        if watched is not None and watched in ready:
            watch.drain()
        if fd in ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return 0
            buffered += chunk.decode("utf-8", errors="replace")
            *lines, buffered = buffered.split("\n")
            for line in lines:
                if line.strip() and not follower.handle(line):
                    return 0
        follower.refresh()
        follower.advance()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cudatui.gdbbridge.record.follow",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("transcript")
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--args" in argv:
        argv = argv[: argv.index("--args")]
    args, _gdb_flags = parser.parse_known_args(argv)
    try:
        return serve(args.transcript, sys.stdin, sys.stdout)
    except TranscriptError as exc:
        print(one_line(f"cudatui follow: {exc}"), file=sys.stderr)
        return 2
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
