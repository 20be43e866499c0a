"""Bad input: each case is one clear line on stderr and exit 2 (never a traceback), or, where
the input is the program's own problem, program output in the UI.

The helpers the reliability tests share (the app in a real pseudo-terminal, process listings
from /proc) are in tests/support/terminal.py and tests/support/processes.py.
Cases already covered elsewhere are listed in docs/reliability.md, not repeated here.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable

import pytest

import cudatui.gdbbridge.session.gdb
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.messages import WatchAdded
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.status import StatusBar
from tests.support.app import messages, no_internal_errors, phase
from tests.support.cli import one_line, run_main
from tests.support.paths import ROOT, TRANSCRIPTS
from tests.support.processes import descendants, gone
from tests.support.programs import BREAK_LINE, STEPS, needs_gdb
from tests.support.terminal import TerminalApp
from tests.support.wait import wait_for


@pytest.mark.parametrize("argv, expected", [
    (["--bogus", "prog"], "unrecognized arguments: --bogus"),
    (["replay", "--bogus", "x.jsonl"], "cudatui replay: error: unrecognized arguments: --bogus"),
    (["stats", "--bogus"], "cudatui stats: error: unrecognized arguments: --bogus"),
    (["sanitize", "--tool", "nosuchtool", "prog"], "invalid choice: 'nosuchtool'"),
    (["-b"], "expected one argument"),
    (["--debugger", "", sys.executable], "debugger  not found"),
    (["--debugger", "/etc/passwd", sys.executable], "debugger /etc/passwd not found or not executable"),
    (["--debugger", "/", sys.executable], "debugger / not found or not executable"),
    (["--debugger", "gdb", "/dev/null/x.py"], "program /dev/null/x.py not found"),
], ids=["unknown-option", "replay-unknown-option", "stats-unknown-option", "sanitize-bad-tool", "b-without-value", "empty-debugger",
        "debugger-not-executable", "debugger-directory", "py-under-a-file"])
def test_bad_command_lines(capsys: pytest.CaptureFixture[str], argv: list[str], expected: str) -> None:
    assert expected in one_line(*run_main(capsys, *argv))


def _gzip_corrupt(path: Path) -> None:
    data = bytearray(gzip.compress((TRANSCRIPTS / "inspect.jsonl").read_bytes()))
    data[200:260] = bytes(60)
    path.write_bytes(bytes(data))


def _gzip_truncated(path: Path) -> None:
    data = gzip.compress((TRANSCRIPTS / "inspect.jsonl").read_bytes())
    path.write_bytes(data[: len(data) // 2])


RECORDINGS: dict[str, tuple[Callable[[Path], object], str]] = {
    "gzip-corrupt": (_gzip_corrupt, "cannot read recording"),
    "gzip-truncated": (_gzip_truncated, "Compressed file ended"),
    "time-not-a-number": (lambda p: p.write_text('{"dir": "in", "t": "soon", "line": "1-exec-run"}\n{}\n'),
                          "x.jsonl:1: not a cudatui transcript line"),
    "time-null": (lambda p: p.write_text('{"dir": "in", "t": null, "line": "1-exec-run"}\n{}\n'),
                  "x.jsonl:1: not a cudatui transcript line"),
    "deep-nesting": (lambda p: p.write_text('{"dir": "in", "line": "1-exec-run"}\n' + "[" * 100_000 + "]" * 100_000
                                            + '\n{"dir": "in", "line": "2-exec-next"}\n'),
                     "x.jsonl:2: not a cudatui transcript line"),
    "json-list": (lambda p: p.write_text("[1, 2]\n[3]\n"), "x.jsonl:1: not a cudatui transcript line"),
    "version-as-string": (lambda p: p.write_text(json.dumps({"dir": "meta", "format": "cudatui-transcript",
                                                             "version": "1"}) + "\n"), "version '1' is not supported"),
    "unknown-version": (lambda p: p.write_text(json.dumps({"dir": "meta", "format": "cudatui-transcript", "version": 2})
                                               + "\n" + (TRANSCRIPTS / "inspect.jsonl").read_text()),
                        "version 2 is not supported"),
    "utf16": (lambda p: p.write_bytes((TRANSCRIPTS / "inspect.jsonl").read_text().encode("utf-16")),
              "not a cudatui transcript line"),
}


@pytest.mark.parametrize("kind", list(RECORDINGS))
def test_unreadable_or_corrupt_recordings(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    path = tmp_path / ("x.jsonl.gz" if kind.startswith("gzip") else "x.jsonl")
    make, expected = RECORDINGS[kind]
    make(path)
    assert expected in one_line(*run_main(capsys, "replay", str(path)))


@pytest.mark.parametrize("argv", [["--bogus", "prog"], ["replay", "CORRUPT"]], ids=["unknown-option", "corrupt-replay"])
def test_the_installed_entry_point_prints_no_traceback(tmp_path: Path, argv: list[str]) -> None:
    corrupt = tmp_path / "c.jsonl.gz"
    _gzip_corrupt(corrupt)
    argv = [str(corrupt) if a == "CORRUPT" else a for a in argv]
    proc = subprocess.run([sys.executable, "-m", "cudatui", *argv], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "TERM": "dumb"})
    one_line(proc.returncode, proc.stdout, proc.stderr)


# -- a debugger that is not a gdb ---------------------------------------------------------------


def test_not_a_gdb_exits_with_one_line_in_a_real_terminal(tmp_path: Path) -> None:
    app = TerminalApp(["--debugger", "/bin/cat", "/bin/ls"], cwd=tmp_path)
    try:
        assert app.wait(timeout=40) == 2
    finally:
        app.close()
    assert app.after_exit() == "cudatui: cat exited with code 1 at startup (/bin/cat: unrecognized option '--interpreter=mi3')\n"
    assert b"Traceback" not in app.output


async def test_a_debugger_that_exits_at_once_ends_the_app(tmp_path: Path) -> None:
    app = DebuggerApp(LaunchConfig(debugger=("/bin/true",), target=("/bin/ls",), cwd=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.return_code is not None, timeout=10)
    assert (app.return_code, app.failure) == (2, "true exited with code 0 at startup")
    assert not descendants(os.getpid())


async def test_a_debugger_that_never_answers_times_out_at_startup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in that ignores its arguments and echoes MI back (``exec cat``): the first
    commands are never answered; after STARTUP_TIMEOUT the app gives up and reaps it."""
    echo = tmp_path / "echo-gdb"
    echo.write_text("#!/bin/sh\nexec cat\n")
    echo.chmod(0o755)
    monkeypatch.setattr(cudatui.gdbbridge.session.gdb, "STARTUP_TIMEOUT", 1.5)
    app = DebuggerApp(LaunchConfig(debugger=(str(echo),), target=("/bin/ls",), cwd=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.debugger.session is not None and app.debugger.session.pid)
        stand_in = app.debugger.session.pid
        await wait_for(pilot, lambda: app.return_code is not None, timeout=10)
    assert app.return_code == 2
    assert app.failure == "echo-gdb gave no MI answer within 1.5 s: is it a gdb?"
    assert gone(stand_in) and not descendants(os.getpid())


# -- the program's own errors are program output ------------------------------------------------


@needs_gdb
async def test_python_syntax_error_is_program_output(tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text("print('before')\ndef f(:\n    pass\n")
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(sys.executable, str(script)), cwd=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited")
        await wait_for(pilot, lambda: "SyntaxError" in app.query_one(OutputPane).text)
        assert app.debugger.status.detail == "1"
        assert 'broken.py", line 2' in app.query_one(OutputPane).text
        assert app.debugger.session is not None and app.debugger.session.alive
        assert not messages(app, "error") and no_internal_errors(app)
        await pilot.press("q")
    assert app.return_code == 0 and app.failure is None


# -- bad breakpoints and watches: a warning, nothing injected -----------------------------------


@needs_gdb
async def test_bad_breakpoints_warn_and_cannot_inject(steps: Path) -> None:
    bad = ['main"\n-gdb-exit', "main if nosuchvar ==", "steps.c:99999", f"steps.c:{BREAK_LINE}"]
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(steps),), breakpoints=tuple(bad),
                                   cwd=str(steps.parent), source_dirs=(str(STEPS.parent),)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "ready")  # steps.c:99999 is pending: not run until r
        await pilot.press("r")
        await wait_for(pilot, lambda: phase(app) == "stopped")
        assert app.debugger.status.detail.startswith("breakpoint")
        warnings = messages(app, "warning")
        assert any("steps.c:99999" in w for w in warnings) and any("nosuchvar" in w for w in warnings)
        assert any('main"\n-gdb-exit' in w for w in warnings)
        session = app.debugger.session
        assert session is not None and session.alive and no_internal_errors(app)
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        await pilot.press("q")


WATCHES = ['1"\n-gdb-exit', '"\n-gdb-exit\n"', "x\\", '\\"; -gdb-exit', "total\n", "total"]


@needs_gdb
async def test_watch_expressions_with_quotes_and_newlines_do_not_inject(steps: Path) -> None:
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(steps),), breakpoints=(f"steps.c:{BREAK_LINE}",),
                                   cwd=str(steps.parent), source_dirs=(str(STEPS.parent),)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        gdb_pid = app.debugger.session.pid
        pane = app.query_one(LocalsPane)
        for expression in WATCHES:
            pane.post_message(WatchAdded(expression))
        await wait_for(pilot, lambda: pane.state is not None and len(pane.state.watches) == len(WATCHES))
        values = {w.name: w.value for w in pane.state.watches}
        assert values["total"] == values["total\n"] == "0"
        assert all(values[e] == "<-var-create: unable to create variable object>" for e in WATCHES[:4]), values
        session = app.debugger.session
        assert session is not None and session.alive and session.pid == gdb_pid and phase(app) == "stopped"
        assert (await session.command("-data-evaluate-expression", "total + 1"))["value"] == "1"
        await pilot.press("q")


# -- a terminal smaller than 80x24 --------------------------------------------------------------


@needs_gdb
async def test_small_terminal_is_usable(steps: Path) -> None:
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(steps),), breakpoints=(f"steps.c:{BREAK_LINE}",),
                                   cwd=str(steps.parent), source_dirs=(str(STEPS.parent),)))
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        status = app.query_one(StatusBar)
        assert status.region.height >= 1 and status.region.bottom <= 20 and status.region.right <= 60
        source = app.query_one("#source")
        assert source.region.height >= 3 and source.region.width >= 40
        await pilot.press("n")
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(SourcePane).view.current == BREAK_LINE + 1)
        await pilot.resize_terminal(40, 12)
        await wait_for(pilot, lambda: app.size == (40, 12), why="the smaller terminal")
        await pilot.pause()
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        assert no_internal_errors(app)
        await pilot.press("q")
    assert app.return_code == 0
