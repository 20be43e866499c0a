"""Quit at any moment: after ``q`` every process cudatui started is gone, and cudatui exits with 0.

The app runs as a user runs it (``python -m cudatui`` in a pseudo-terminal); the processes are
found by walking parent pids from /proc before quitting, and each must be gone after: during
startup (a debugger that has not answered yet), while the program runs an endless loop,
during a sanitizer run (the stand-in compute-sanitizer of tests/fixtures/sanitizer/, which
also starts a child of its own), during a flood of non-MI lines from the debugger, and with
ctrl+q after 50 MiB of console records sent at once.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.support.paths import FIXTURES
from tests.support.processes import descendants, kill_all, wait_gone
from tests.support.programs import FOREVER, compile_c, needs_gdb, stand_in
from tests.support.terminal import TerminalApp
from tests.support.wait import WAIT, wait_until


def quit_and_check(app: TerminalApp, expected: set[str], pids: tuple[int, ...] = (), key: str = "q") -> None:
    """Press q (or ``key``): every process below the app (among them processes named ``expected`` and
    ``pids``) must be gone, and the app must exit with code 0. The bound is generous (a loaded
    machine); what quit does after its graces (SIGKILL) is what makes them go."""
    children = descendants(app.proc.pid)
    names = {Path(f"/proc/{pid}/comm").read_text().strip() for pid in children}
    assert expected <= names and set(pids) <= set(children), (names, pids, children)
    try:
        app.send(key)
        left = wait_gone(children, timeout=WAIT)
        assert not left, f"{WAIT:g} s after {key!r} still running: {left}"
        assert app.wait(timeout=10) == 0
        assert b"Traceback" not in app.output, app.after_exit()
    finally:
        kill_all(children)
        app.close()


def test_quit_during_startup(tmp_path: Path) -> None:
    silent = tmp_path / "slow-gdb"
    silent.write_text("#!/bin/sh\nexec sleep 1000\n")
    silent.chmod(0o755)
    record = tmp_path / "session.jsonl"
    app = TerminalApp(["--debugger", str(silent), "--record", str(record), "/bin/ls"], cwd=tmp_path)
    wait_until(lambda: record.exists() and "-inferior-tty-set" in record.read_text())
    app.wait_shown("Quit")  # the UI is up (its footer); the debugger has not answered (and never will)
    quit_and_check(app, {"sleep"})


@needs_gdb
def test_quit_while_the_program_loops(tmp_path: Path) -> None:
    program = compile_c(FOREVER, tmp_path / "forever")
    record = tmp_path / "session.jsonl"
    app = TerminalApp(["--debugger", "gdb", "--record", str(record), str(program)], cwd=tmp_path)
    wait_until(lambda: record.exists() and "looping" in record.read_text())
    quit_and_check(app, {"gdb", "forever"})


@needs_gdb
def test_quit_during_a_sanitizer_run_that_ignores_sigterm(tmp_path: Path) -> None:
    """The hard case (a run that obeys SIGTERM ends sooner; SanitizerRun's own cancel tests
    are in tests/gdbbridge/sanitizer/test_sanitizer_run.py)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "compute-sanitizer"
    fake.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / "sanitizer" / "fake_compute_sanitizer.py"}" "$@"\n')
    fake.chmod(0o755)
    child_pid = tmp_path / "child.pid"
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "FAKE_SANITIZER_REPLAY": str(FIXTURES / "sanitizer" / "memcheck.txt"),
           "FAKE_SANITIZER_HANG": "1", "FAKE_SANITIZER_CHILD_PID": str(child_pid), "FAKE_SANITIZER_IGNORE_TERM": "1"}
    record = tmp_path / "session.jsonl"
    app = TerminalApp(["--debugger", "gdb", "--record", str(record), "--no-run", "/bin/true"], cwd=tmp_path, env=env)
    wait_until(lambda: record.exists() and "mi-async" in record.read_text())
    app.wait_shown("loaded, not started")  # the UI is up, the program loaded
    mark = app.mark()
    app.send("\x10")  # ctrl+p: the command palette
    app.wait_shown("Search for commands", since=mark)
    mark = app.mark()
    app.send("Sanitize")
    app.wait_shown("run compute-sanitizer memcheck on the program", since=mark)  # the command found
    app.send("\r")
    wait_until(lambda: child_pid.exists() and child_pid.read_text())
    quit_and_check(app, {"gdb"}, (int(child_pid.read_text()),))


def under_stand_in(tmp_path: Path, name: str, on_run: str, progress: Path) -> TerminalApp:
    """cudatui on /bin/true in a terminal, its debugger the stand-in doing ``on_run`` at -exec-run
    and writing its progress to ``progress`` (a script named ``name``, as a debugger is given)."""
    debugger = tmp_path / name
    command = stand_in("--on-run", on_run, "--progress", str(progress))
    debugger.write_text("#!/bin/sh\nexec " + " ".join(f'"{word}"' for word in command) + "\n")
    debugger.chmod(0o755)
    return TerminalApp(["--debugger", str(debugger), "/bin/true"], cwd=tmp_path)


def test_quit_during_a_flood_of_non_mi_lines(tmp_path: Path) -> None:
    """The stand-in debugger answers the first commands, then floods non-MI lines on -exec-run
    and never reads -gdb-exit (one that ignores SIGTERM too is killed a moment later:
    tests/reliability/test_transport.py); the UI's console pane stays bounded meanwhile."""
    progress = tmp_path / "progress.txt"
    app = under_stand_in(tmp_path, "flooding-gdb", "flood", progress)
    try:
        wait_until(lambda: progress.exists() and progress.read_text(), why="4 MiB of flood read by the UI")
    except AssertionError:
        kill_all(descendants(app.proc.pid))
        app.close()
        raise
    quit_and_check(app, {Path(sys.executable).name[:15]})


def test_ctrl_q_after_50_mib_of_console_records_at_once(tmp_path: Path) -> None:
    """Issue 36: after 50 MB of console records at once (a program printing a tensor), ctrl+q
    took 3.8 s. The stand-in writes 50 MiB of ``~"..."`` records on -exec-run, all at once; once
    the UI has read them (the stand-in's writes returned), ctrl+q ends cudatui and the stand-in."""
    progress = tmp_path / "progress.txt"
    app = under_stand_in(tmp_path, "bursting-gdb", "console-burst:50", progress)
    try:
        wait_until(lambda: progress.exists() and "burst written" in progress.read_text(), WAIT,
                   "the 50 MiB of console records read by cudatui")
    except AssertionError:
        kill_all(descendants(app.proc.pid))
        app.close()
        raise
    quit_and_check(app, {Path(sys.executable).name[:15]}, key="\x11")
