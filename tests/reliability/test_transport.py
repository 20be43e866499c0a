"""The session transport under hostile conditions: what reaches cudatui as gdb's output, lines of
any length, floods, a debugger that closes its output, a gdb killed while a child holds its
streams.

Real GNU gdb on C programs compiled here, or the stand-in debugger tests/fixtures/stand_in_gdb.py
(answers every command ``N^done``, misbehaves on request). Nothing here measures time:
each test waits for a condition (with a generous bound) and checks an outcome.
"""

from __future__ import annotations

import asyncio
import errno
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.offloop import THREAD_NAME
from cudatui.gdbbridge.session.pipes import DROP_HEAD, LINE_LIMIT, LINE_LIMIT_ENV, LineReader, effective_line_limit
from cudatui.tui.apps.debugger_app import DebuggerApp
from tests.support.app import messages, no_internal_errors
from tests.support.paths import ROOT
from tests.support.processes import alive, resident_bytes
from tests.support.programs import needs_gdb, stand_in
from tests.support.shell_child import gdb_killed_under_a_shell_sleep
from tests.support.wait import until, wait_for

WAIT = 60.0
MIB = 1 << 20



def written_mib(seen: list[ev.Event]) -> int:
    """How much the stand-in said (on stderr) it has written so far."""
    said = [e.text for e in seen if isinstance(e, ev.Stream) and e.kind == "stderr" and e.text.startswith("wrote ")]
    return int(said[-1].split()[1]) if said else 0


async def started(argv: list[str], keep: Callable[[ev.Event], bool] = lambda e: True,
                  ) -> tuple[GdbSession, list[ev.Event]]:
    """A started session on ``argv`` and the list of its events that ``keep`` accepts."""
    session = GdbSession(argv, inferior_tty=False)
    seen: list[ev.Event] = []
    session.subscribe(lambda e: seen.append(e) if keep(e) else None)
    await asyncio.wait_for(session.start(), WAIT)
    return session, seen


# -- 1. nobody but gdb writes gdb's output ----------------------------------------------------------

FORGER = r'''
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char fake[] = "*stopped,reason=\"exited-normally\"\n=thread-group-exited,id=\"i1\",exit-code=\"0\"\n";

static char state_of(pid_t pid) {
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = 0;
    char *end = strrchr(buf, ')');
    return end && end[1] ? end[2] : '?';
}

void stopped_here(void) {}

int main(int argc, char **argv) {
    pid_t gdb = getppid(), me = getpid();
    if (fork() == 0) { /* a detached child: waits until its parent is held at the breakpoint */
        for (int i = 0; i < 60000 && state_of(me) != 't'; i++) usleep(1000);
        FILE *report = fopen(argv[1], "w");
        for (int fd = 0; fd < 3; fd++) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)gdb, fd);
            int w = open(path, O_WRONLY);
            if (w < 0) {
                fprintf(report, "fd%d %d\n", fd, errno);
            } else {
                fprintf(report, "fd%d opened\n", fd);
                if (write(w, fake, sizeof fake - 1) < 0) fprintf(report, "fd%d write %d\n", fd, errno);
                close(w);
            }
        }
        fprintf(report, "done\n");
        fclose(report);
        _exit(0);
    }
    stopped_here();
    return 0;
}
'''


@needs_gdb
async def test_a_child_of_the_debuggee_cannot_write_into_gdbs_streams(tmp_path: Path) -> None:
    """The child opens /proc/<gdb>/fd/0, 1 and 2 to write a fake exit: every open fails (they are
    sockets), and the session stays at its breakpoint."""
    source, program, report = tmp_path / "forger.c", tmp_path / "forger", tmp_path / "report.txt"
    source.write_text(FORGER)
    subprocess.run(["gcc", "-g", "-O0", "-o", str(program), str(source)], check=True)
    session = GdbSession(["gdb"], [str(program), str(report)])
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    try:
        await asyncio.wait_for(session.start(), WAIT)
        await session.command("-break-insert", "stopped_here")
        await session.command("-exec-run")
        await until(lambda: any(isinstance(e, ev.Stopped) for e in seen))
        await until(lambda: report.exists() and report.read_text().endswith("done\n"))
        # gdb's output after the child's try: a line it forged would have come before this answer
        assert (await session.command("-data-evaluate-expression", "1+1"))["value"] == "2"
        assert report.read_text().splitlines() == [f"fd{fd} {errno.ENXIO}" for fd in range(3)] + ["done"]
        stops = [e.stop for e in seen if isinstance(e, ev.Stopped)]
        assert [(s.reason, s.frame.func) for s in stops] == [("breakpoint-hit", "stopped_here")]
        assert session.state == "stopped" and session.alive and session.exit_code is None
        assert not [e for e in seen if isinstance(e, ev.DebuggerExited)
                    or isinstance(e, ev.Notify) and e.name == "thread-group-exited"]
    finally:
        await session.close()


# -- 2. lines of any length -------------------------------------------------------------------------


def test_the_line_limit_is_64_mib_unless_the_environment_or_the_session_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LINE_LIMIT_ENV, raising=False)
    assert effective_line_limit() == LINE_LIMIT == 64 * MIB
    monkeypatch.setenv(LINE_LIMIT_ENV, "1000")
    assert effective_line_limit() == 1000 and effective_line_limit(5) == 5
    for bad in ("lots", "0", "-1"):
        monkeypatch.setenv(LINE_LIMIT_ENV, bad)
        with pytest.raises(ValueError, match="limit|bytes"):
            effective_line_limit()


LINES = st.lists(st.one_of(st.binary(max_size=12), st.integers(13, 60).map(lambda n: b"L" * n)), max_size=12)


@settings(max_examples=500, deadline=None)
@given(LINES, st.booleans(), st.lists(st.integers(0, 400), max_size=12), st.integers(1, 40))
def test_reader_drops_each_line_over_the_limit_in_its_place(lines, ended, cuts, limit):
    """Any chunking: lines within the limit arrive whole, each longer one is reported once where
    it stood, by its head (its first bytes: at least ``limit + 1`` of them, at most DROP_HEAD),
    and no more than ``limit`` bytes of a line are ever held."""
    lines = [line.replace(b"\n", b"") for line in lines]
    data = b"\n".join(lines) + (b"\n" if ended else b"")
    got: list[tuple[str, bytes]] = []
    reader = LineReader(lambda ls: got.extend(("line", line) for line in ls), lambda rest: got.append(("rest", rest)),
                        lambda head: got.append(("dropped", head)), limit)
    bounds = sorted({0, len(data), *(c for c in cuts if c <= len(data))})
    for start, end in zip(bounds, bounds[1:]):
        reader.data_received(data[start:end])
        assert sum(len(part) for part in reader._partial) <= limit
    reader.connection_lost(None)
    *complete, last = data.split(b"\n")
    expected = [("dropped", line) if len(line) > limit else ("line", line) for line in complete]
    expected += [("dropped", last), ("rest", b"")] if len(last) > limit else [("rest", last)]
    assert [kind for kind, _ in got] == [kind for kind, _ in expected]
    for (kind, text), (_, line) in zip(got, expected):
        if kind == "dropped":
            assert line.startswith(text) and min(limit + 1, DROP_HEAD) <= len(text) <= DROP_HEAD
        else:
            assert text == line


async def test_an_answer_over_the_limit_fails_its_request_and_the_session_goes_on(monkeypatch) -> None:
    monkeypatch.setenv(LINE_LIMIT_ENV, str(MIB))
    session, seen = await started(stand_in())
    try:
        with pytest.raises(MIError, match="over the 1,048,576-byte limit") as failed:
            await asyncio.wait_for(session.command("-huge-answer", 3 * MIB), WAIT)
        assert not isinstance(failed.value, DebuggerGone)
        dropped = [e for e in seen if isinstance(e, ev.LineDropped)]
        assert len(dropped) == 1 and dropped[0].stream == "stdout" and dropped[0].limit == MIB
        assert len(dropped[0].head) == DROP_HEAD and re.fullmatch(r'\d+\^done,value="x+', dropped[0].head)
        assert await asyncio.wait_for(session.command("-ping"), WAIT) == {}  # still in step with the debugger
        assert await asyncio.wait_for(session.command("-huge-answer", MIB - 100), WAIT) == {"value": "x" * (MIB - 100)}
        assert session.alive
    finally:
        await session.close()


async def test_an_endless_line_is_skipped_in_bounded_memory() -> None:
    """2 GiB without a line break (default limit, 64 MiB): dropped once, memory stays bounded,
    close ends the writer while it still writes."""
    session, seen = await started(stand_in())
    try:
        before = resident_bytes()
        pending = asyncio.ensure_future(session.command("-endless"))
        peak = before
        for mib in range(64, 2048 + 1, 64):
            await until(lambda: written_mib(seen) >= mib)
            peak = max(peak, resident_bytes())
        assert peak - before < 3 * LINE_LIMIT, f"grew by {(peak - before) // MIB} MiB"
        assert [e.stream for e in seen if isinstance(e, ev.LineDropped)] == ["stdout"]
        assert not pending.done() and session.alive and session.pid is not None and alive(session.pid)
        writer = session.pid
        await asyncio.wait_for(session.close(), WAIT)
        assert not alive(writer)
        with pytest.raises(DebuggerGone):
            await pending
    finally:
        await session.close()


def test_closing_stops_a_big_line_parse_that_never_ends() -> None:
    """A big line is parsed in a thread; here the parse never ends (parse_line made to spin
    on big lines): closing the session stops the thread, and asyncio.run() returns."""
    script = f"""
import asyncio, threading
import cudatui.gdbbridge.session.output as output
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.mi import BIG_LINE
from tests.support.wait import until

real = output.parse_line
def spin(line):
    while len(line) > BIG_LINE:
        pass
    return real(line)
output.parse_line = spin

def parsing():
    return any(t.name == "cudatui-mi-parse" and t.is_alive() for t in threading.enumerate())

async def main():
    session = GdbSession({stand_in()!r}, inferior_tty=False)
    await session.start()
    answer = asyncio.ensure_future(session.command("-slow-line", BIG_LINE))
    await until(parsing, 60, why="the big line's parse to start")
    await session.close()
    print("closed, answered", await answer, flush=True)  # the line after the big one is still handled
    await until(lambda: not parsing(), 60, why="the parse to stop")
    print("parse stopped", flush=True)

asyncio.run(main())
print("asyncio.run returned", flush=True)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert done.stdout.splitlines() == ["closed, answered {}", "parse stopped", "asyncio.run returned"]


async def test_ctrl_q_while_a_big_line_is_parsed_closes_the_app() -> None:
    """A 24 MiB console record (seconds of parsing in a thread) answers -exec-run: ctrl+q
    during the parse closes the app, the parse is stopped and nothing raised."""
    app = DebuggerApp(LaunchConfig(debugger=tuple(stand_in("--on-run", f"slow-line:{24 * MIB // 5}")),
                                   target=("/bin/true",)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: parse_threads(), timeout=WAIT)
        assert app.debugger.session is not None and app.debugger.session.pid is not None
        debugger = app.debugger.session.pid
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not parse_threads(), timeout=WAIT)
        assert no_internal_errors(app)
    assert not alive(debugger)


def parse_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == THREAD_NAME and t.is_alive()]


async def test_an_answer_over_the_limit_is_a_warning_in_the_app(monkeypatch) -> None:
    monkeypatch.setenv(LINE_LIMIT_ENV, str(MIB))
    debugger = tuple(stand_in("--on-run", f"huge-answer:{2 * MIB}"))
    app = DebuggerApp(LaunchConfig(debugger=debugger, target=("/bin/true",)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: messages(app, "warning"), timeout=WAIT)
        assert [m for m in messages(app, "warning") if "over the 1,048,576-byte limit" in m]
        assert [m for m in messages(app, "error") if "over the 1,048,576-byte limit" in m]  # the run's own failure
        assert no_internal_errors(app)
        await pilot.press("q")


# -- 3. a flood of non-MI lines ---------------------------------------------------------------------


async def test_a_flood_of_non_mi_lines_stays_bounded_and_close_ends_it() -> None:
    """512 MiB of 1 KiB lines that are not MI, from a debugger that ignores SIGTERM and
    -gdb-exit: every line is reported (counted, not kept), memory stays bounded, and close
    kills the debugger while the flood goes on."""
    session, seen = await started(stand_in("--stubborn"), keep=lambda e: not isinstance(e, ev.NonMI))
    lines = [0]
    session.subscribe(lambda e: lines.__setitem__(0, lines[0] + 1) if isinstance(e, ev.NonMI) else None)
    try:
        before = resident_bytes()
        pending = asyncio.ensure_future(session.command("-flood"))
        peak = before
        for mib in range(64, 512 + 1, 64):
            await until(lambda: written_mib(seen) >= mib)
            peak = max(peak, resident_bytes())
        assert lines[0] >= 400 * 1024
        assert peak - before < 64 * MIB, f"grew by {(peak - before) // MIB} MiB"
        flooder = session.pid
        assert flooder is not None and alive(flooder) and not pending.done()
        await asyncio.wait_for(session.close(), WAIT)
        assert not alive(flooder)
        assert [e for e in seen if isinstance(e, ev.DebuggerExited)] == [ev.DebuggerExited(-signal.SIGKILL, True)]
        with pytest.raises(DebuggerGone):
            await pending
    finally:
        await session.close()


# -- 4. a debugger that closes its stdout and lives on ----------------------------------------------


async def test_a_debugger_that_closes_its_stdout_is_reported_gone_and_killed_on_close() -> None:
    session, seen = await started(stand_in("--stubborn"))
    try:
        pending = asyncio.ensure_future(session.command("-close-stdout"))
        await until(lambda: any(isinstance(e, ev.DebuggerExited) for e in seen))
        gone = [e for e in seen if isinstance(e, ev.DebuggerExited)]
        assert gone == [ev.DebuggerExited(None, False, output_closed=True)]
        assert gone[0].description == "debugger closed its output but did not exit"
        with pytest.raises(DebuggerGone, match="closed its output"):
            await asyncio.wait_for(pending, WAIT)
        with pytest.raises(DebuggerGone):
            await session.command("-ping")
        assert session.state == "dead" and not session.alive
        debugger = session.pid
        assert debugger is not None and alive(debugger)  # it did not exit: it is killed on close
        await asyncio.wait_for(session.close(), WAIT)
        assert not alive(debugger)
        assert len([e for e in seen if isinstance(e, ev.DebuggerExited)]) == 1
    finally:
        await session.close()


# -- 5. gdb's death is reported when gdb dies -------------------------------------------------------


@needs_gdb
async def test_gdb_killed_while_its_shell_child_holds_its_streams_is_reported_at_once() -> None:
    """gdb runs ``shell sleep 120`` (the sleep inherits gdb's stdin, stdout and stderr) and is
    SIGKILLed: the death is reported while the sleep still holds the streams."""
    session, seen = await started(["gdb"])
    try:
        shell, sleeper = await gdb_killed_under_a_shell_sleep(session, seen)
        assert alive(sleeper), "reported only once the sleep ended"
        assert [e for e in seen if isinstance(e, ev.DebuggerExited)] == [ev.DebuggerExited(-signal.SIGKILL, False)]
        with pytest.raises(DebuggerGone, match="SIGKILL"):
            await shell
        assert session.state == "dead" and not session.alive
    finally:
        await session.close()

