"""Running the program, in the app with a real GNU gdb: what the status bar and the console say.

A program gdb cannot run (a backslash in its path, a shell script, an empty or a truncated ELF)
ends the start with gdb's message in one line, not a spinner. A console command shows its output
and its error once, while the program runs and while it is stopped (gdb prints the output as
console records, which the session also captures as the command's answer, and the error as a
log record before its ``^error``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RichLog

from conftest import FIXTURES
from test_reliability_cli import STEPS, messages, needs_gdb, no_internal_errors, phase, wait_for
from cudatui.gdbbridge import Phase, PhaseChanged, Status
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.app import DebuggerApp
from cudatui.tui.panes.status import SPINNER, StatusBar

pytestmark = needs_gdb


@pytest.fixture(scope="module")
def steps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run-steps") / "steps"
    subprocess.run(["gcc", "-g", "-O0", "-o", str(out), str(STEPS)], check=True)
    return out


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
    async with app.run_test(size=(100, 24)) as pilot:
        for runs in (1, 2):  # the first run, and r: each ends the same way
            await wait_for(pilot, lambda: len(ended) == runs and phase(app) == "exited")
            assert app.debugger.status.detail == f"(not run) {said}"
            shown = app.query_one(StatusBar).render().plain  # type: ignore[union-attr]
            assert shown.startswith(f" exited (not run) {said}") and not any(c in shown for c in SPINNER), shown
            assert len([m for m in messages(app, "error") if said.split(".")[0] in m]) == runs, messages(app)
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


async def test_a_console_command_shows_its_output_and_its_error_once(tmp_path: Path) -> None:
    program = tmp_path / "forever"
    subprocess.run(["gcc", "-g", "-O0", "-o", str(program), str(FIXTURES / "c" / "bridge" / "forever.c")], check=True)
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program),), cwd=str(tmp_path)))
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
