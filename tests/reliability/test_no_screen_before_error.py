"""Issue 36: a debugger that cannot start writes no screen codes before its one line.

``cudatui --debugger /bin/false PROGRAM`` in a real terminal (a pty, every byte kept): the
full screen opened (alternate screen ``ESC [ ? 1049 h``, mouse reporting, a first frame), then
closed again over the error line, some 17 KB of escape codes that a terminal log (``script``,
tmux's scrollback, CI) kept. Now the debugger is started alone first
(``gdbbridge.session.startup_check``): the terminal gets the one line and nothing else, exit 2.
Same for a debugger that exits 0 at once (/bin/true), one that is no gdb (/bin/cat refuses
``--interpreter=mi3``) and one that dies of a signal. And ``cudatui --rank 3 -- LAUNCHER``
whose launcher never starts rank 3, or fails: the launcher now starts before the screen opens
(``Debugger.start_job``), so its end is the one line too; a launcher that does start the rank
opens the UI on it.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.support.jobs import launcher_argv, rank_library
from tests.support.processes import children_named, in_directory
from tests.support.terminal import TerminalApp
from tests.support.wait import wait_until


def killed_by_a_signal(directory: Path) -> str:
    script = directory / "crash-gdb"
    script.write_text("#!/bin/sh\nkill -SEGV $$\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize(("debugger", "line"), [
    ("/bin/false", "cudatui: false exited with code 1 at startup"),
    ("/bin/true", "cudatui: true exited with code 0 at startup"),
    ("/bin/cat", "cudatui: cat exited with code 1 at startup (/bin/cat: unrecognized option '--interpreter=mi3')"),
    (killed_by_a_signal, "cudatui: crash-gdb killed by SIGSEGV at startup"),
], ids=["false", "true", "cat", "killed"])
def test_the_terminal_gets_the_one_line_and_no_screen_code(tmp_path: Path, debugger, line: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    chosen = debugger(tmp_path) if callable(debugger) else debugger
    app = TerminalApp(["--debugger", chosen, "/bin/ls"], cwd=work)
    try:
        assert app.wait(timeout=60) == 2
    finally:
        app.close()
    written = bytes(app.output)
    assert written == line.encode() + b"\r\n", written[:300]  # no ESC [ ? 1049 h, no mouse mode, nothing else
    assert not in_directory(work)


@pytest.fixture
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The jobs' temporary directory ($TMPDIR), short enough for the socket in it."""
    return tmp_path_factory.mktemp("jobs")


@pytest.mark.parametrize(("nproc", "words"), [
    (2, "launcher.py ended (exit code 0) before starting rank 3: launcher: rank 1 exited 0 (does it run"),
    ("x", "launcher.py ended (exit code 1) before starting rank 3: ValueError: invalid literal for int() with base 10: 'x' (does it run"),
], ids=["never-starts-the-rank", "fails"])
def test_a_launcher_that_never_starts_the_rank_is_one_line_and_no_screen_code(tmp_path: Path, nproc: object, words: str,
                                                                             short: Path) -> None:
    """``cudatui --rank 3 -- LAUNCHER`` whose launcher ends without starting rank 3 (it runs 2),
    or fails at once: the launcher runs before the screen opens, so its end is the one line."""
    work, jobs = tmp_path / "work", short
    work.mkdir()
    argv = list(launcher_argv(rank_library(tmp_path)))
    argv[argv.index("--nproc") + 1] = str(nproc)
    app = TerminalApp(["--debugger", "gdb", "--rank", "3", "--", *argv], cwd=work, env={"TMPDIR": str(jobs)})
    try:
        assert app.wait(timeout=120) == 2
    finally:
        app.close()
    written = bytes(app.output)
    logs = list(jobs.glob("cudatui-rank-*/ranks.log"))
    assert len(logs) == 1, (logs, written[-600:])
    log = logs[0]
    assert b"\x1b" not in written, written[:300]  # no alternate screen, no mouse mode, no frame
    assert written.startswith(b"cudatui: " + words.encode()), written[:300]
    assert written.endswith(f"Its output: {log})".encode() + b"\r\n") and written.count(b"\n") == 1, written[-300:]
    assert not in_directory(work)


@pytest.mark.parametrize("tmpdir", ["short", "too-deep"])
def test_a_launcher_that_starts_the_rank_opens_the_ui_on_it(tmp_path: Path, short: Path, tmpdir: str) -> None:
    """The job started before the screen is the one the UI debugs (same event loop): rank 1
    stops at ``-b rank_work``, c runs it to its end, q ends the launcher and every rank. With a
    $TMPDIR too deep for the job's unix socket (``AF_UNIX path too long``, one line), the job's
    directory is made in $XDG_RUNTIME_DIR instead."""
    work, jobs = tmp_path / "work", short
    work.mkdir()
    env = {"TMPDIR": str(jobs)}
    if tmpdir == "too-deep":
        deep = tmp_path / ("d" * 60) / ("e" * 60)
        deep.mkdir(parents=True)
        env = {"TMPDIR": str(deep), "XDG_RUNTIME_DIR": str(jobs)}
    argv = launcher_argv(rank_library(tmp_path), rank1_exit=3)
    app = TerminalApp(["--debugger", "gdb", "-b", "rank_work", "--rank", "1", "--", *argv], cwd=work, env=env)
    try:
        app.wait_shown("breakpoint 1")
        mark = app.mark()
        app.send("c")
        app.wait_shown("exited 3", since=mark)
        (log,) = jobs.glob("cudatui-rank-*/ranks.log")
        wait_until(lambda: "launcher: rank 1 exited 3" in log.read_text(), why="the launcher to see rank 1's exit code")
        app.send("q")
        assert app.wait(timeout=60) == 0
    finally:
        app.close()
    assert "Traceback" not in app.after_exit()
    assert not in_directory(work)


def test_ctrl_c_while_waiting_for_the_rank_ends_the_launcher(tmp_path: Path, short: Path) -> None:
    """ctrl+c (SIGINT) while cudatui waits, before the screen, for a launcher that starts no
    rank (``sleep 600``): `cudatui: interrupted`, exit 130, and the launcher is gone."""
    work = tmp_path / "work"
    work.mkdir()
    app = TerminalApp(["--debugger", "gdb", "--rank", "1", "--", "sleep", "600"], cwd=work, env={"TMPDIR": str(short)})
    try:
        wait_until(lambda: children_named(app.proc.pid, "sleep"), why="the launcher started")
        app.proc.send_signal(signal.SIGINT)
        assert app.wait(timeout=60) == 130
    finally:
        app.close()
    assert bytes(app.output) == b"cudatui: interrupted\r\n"
    wait_until(lambda: not in_directory(work), why="the launcher to be gone")
