"""Running the program, in the app with a real GNU gdb: what the status bar and the console say.

A program gdb cannot run (a backslash in its path, a shell script, an empty or a truncated ELF)
ends the start with gdb's message in one line, not a spinner. A console command shows its output
and its error once, while the program runs and while it is stopped (gdb prints the output as
console records, which the session also captures as the command's answer, and the error as a
log record before its ``^error``). A ``-b`` location gdb leaves pending in a native program (a
function that does not exist) holds the run until r; in a Python program a pending breakpoint is
set when the library that defines it loads, and the program runs to it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RichLog

from cudatui.gdbbridge import Notice, Phase, PhaseChanged, Status
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.status import SPINNER, StatusBar
from tests.support.app import messages, no_internal_errors, phase, posted
from tests.support.programs import needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb


def unrunnable(kind: str, steps: Path, directory: Path) -> Path:
    """A program of ``kind`` that gdb cannot run."""
    if kind == "backslash":  # the shell gdb starts the program with reads the backslash as an escape
        (directory / "back\\slash").mkdir()
        return Path(shutil.copy(steps, directory / "back\\slash" / "steps"))
    program = directory / kind
    contents = {"shell-script": b"#!/bin/sh\necho hello\n", "empty": b"", "truncated-elf": steps.read_bytes()[:200]}
    program.write_bytes(contents[kind])
    program.chmod(0o755)
    return program


@pytest.mark.parametrize("kind, said", [
    ("backslash", "During startup program exited with code 127."),
    ("shell-script", 'No executable file specified. Use the "file" or "exec-file" command.'),
    ("empty", 'No executable file specified. Use the "file" or "exec-file" command.'),
    ("truncated-elf", 'No executable file specified. Use the "file" or "exec-file" command.'),
])
async def test_a_program_gdb_cannot_run_ends_the_start_with_its_message(steps: Path, tmp_path: Path, kind: str,
                                                                        said: str) -> None:
    program = unrunnable(kind, steps, tmp_path)
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program),), cwd=str(tmp_path)))
    ended: list[Status] = []
    app.debugger.subscribe(lambda e: ended.append(e.status) if isinstance(e, PhaseChanged) and e.status.phase is
                           Phase.EXITED else None)
    errors: list[str] = []  # every error notice the Debugger sent (a toast expires after 8 s: under load, before the check)
    app.debugger.subscribe(lambda e: errors.append(e.message) if isinstance(e, Notice) and e.severity == "error" else None)
    async with app.run_test(size=(100, 24)) as pilot:
        for runs in (1, 2):  # the first run, and r: each ends the same way
            await wait_for(pilot, lambda: len(ended) == runs and phase(app) == "exited")
            assert app.debugger.status.detail == f"(not run) {said}"
            shown = app.query_one(StatusBar).render().plain  # type: ignore[union-attr]
            # the bar gives its right end to the newest notice: the detail's first sentence stays whole
            assert shown.startswith(f" exited (not run) {said.split('.')[0]}") and not any(c in shown for c in SPINNER), shown
            assert len([m for m in errors if said.split(".")[0] in m]) == runs, errors
            assert app.debugger.session is not None and app.debugger.session.alive and no_internal_errors(app)
            if runs == 1:
                await pilot.press("r")
        await pilot.press("q")


def console_lines(app: DebuggerApp) -> list[str]:
    return [strip.text for strip in app.query_one("#console-log", RichLog).lines]


async def console(pilot: Pilot, app: DebuggerApp, *commands: str) -> None:
    """Type ``commands`` in the console, then one more whose answer shows they have all ended."""
    marker = "There are no auto-display expressions now."
    shown = console_lines(app).count(marker)
    if not isinstance(app.focused, Input):
        await pilot.press("colon")
    for command in (*commands, "info display"):
        await pilot.press(*command, "enter")
    await wait_for(pilot, lambda: console_lines(app).count(marker) > shown)


async def test_a_console_command_shows_its_output_and_its_error_once(forever: Path) -> None:
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(forever),), cwd=str(forever.parent)))
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: app.debugger.session is not None and app.debugger.session.inferior_pid)
        await console(pilot, app, "info breakpoints", "nosuchcommand")
        assert phase(app) == "starting"  # the program runs (to its exit or a stop)
        lines = console_lines(app)
        assert lines.count("No breakpoints or watchpoints.") == 1, lines
        assert lines.count('Undefined command: "nosuchcommand".  Try "help".') == 1, lines
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await console(pilot, app, "nosuchcommand2", "info breakpoints")
        lines = console_lines(app)
        assert lines.count('Undefined command: "nosuchcommand2".  Try "help".') == 1, lines
        assert lines.count("No breakpoints or watchpoints.") == 2, lines
        await pilot.press("q")


async def test_a_pending_breakpoint_in_a_native_program_holds_the_run_until_r(steps: Path) -> None:
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(steps),), cwd=str(steps.parent),
                                   breakpoints=("no_such_function", "square")))
    notified = posted(app)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "ready")
        assert app.debugger.status.detail == "loaded, not started: breakpoint 1 pending (r runs anyway)"
        shown = app.query_one(StatusBar).render().plain  # type: ignore[union-attr]
        assert "loaded, not started: breakpoint 1 pending (r runs any" in shown  # the newest notice has the bar's right end
        (warning,) = [message for message, severity in notified if severity == "warning"]
        assert warning.startswith('breakpoint 1 at no_such_function is pending (Function "no_such_function" not '
                                  'defined.): the program has no such location, so it was not started.')
        assert "press r to run anyway" in warning
        session = app.debugger.session
        assert session is not None and session.inferior_pid is None and session.state == "ready"
        assert app.debugger.breakpoints is not None
        assert [(bp.number, bp.pending) for bp in app.debugger.breakpoints.listed] == [(1, True), (2, False)]
        await pilot.press("r")
        await wait_for(pilot, lambda: phase(app) == "stopped")
        assert app.debugger.status.detail == "breakpoint 2" and app.debugger.state is not None
        assert app.debugger.state.frame is not None and app.debugger.state.frame.func == "square"
        await pilot.press("q")


async def test_a_pending_breakpoint_in_a_python_program_is_set_when_its_library_loads(tmp_path: Path) -> None:
    library = tmp_path / "libwork.so"
    (tmp_path / "work.c").write_text("int work(int x) { return x * 2; }\n")
    subprocess.run(["gcc", "-g", "-O0", "-shared", "-fPIC", "-o", str(library), str(tmp_path / "work.c")], check=True)
    script = tmp_path / "loads_later.py"
    script.write_text(f"import ctypes\nprint(ctypes.CDLL({str(library)!r}).work(21))\n")
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(script),), cwd=str(tmp_path),
                                   breakpoints=("work",)))
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped", timeout=60)
        assert app.debugger.state is not None and app.debugger.state.frame is not None
        assert app.debugger.state.frame.func == "work" and app.debugger.status.detail == "breakpoint 1"
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        assert not [w for w in messages(app, "warning") if "pending" in w]  # it was set when the library loaded
        await pilot.press("q")


async def test_a_pending_breakpoint_no_library_defined_is_told_when_the_python_program_ends(tmp_path: Path) -> None:
    script = tmp_path / "no_library.py"
    script.write_text("print('done')\n")
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(script),), cwd=str(tmp_path),
                                   breakpoints=("no_such_function",)))
    notified = posted(app)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited", timeout=60)
        await wait_for(pilot, lambda: any(severity == "warning" for _, severity in notified))
        (warning,) = [message for message, severity in notified if severity == "warning"]
        assert warning == ('breakpoint 1 at no_such_function is pending (Function "no_such_function" not defined.): '
                           "the program ended and loaded no library or kernel that defines it; check the location")
        await pilot.press("q")
