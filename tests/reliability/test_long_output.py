"""Issue 36: a program's long output does not freeze the UI when its exit is explained.

tests/fixtures/c/hostile/tensor.c prints 300 lines of 4,000 characters (a printed tensor), then
a CUDA error, and exits 1. At its exit the app offers an explanation, and E explains: both read
the program's output. They read the whole Output pane (1.2 MB here, up to 40 MB) on the event
loop: seconds per MB, during which no key was handled (`?` did not open, ctrl+q took 83 s with
the earlier explain). Now explain reads the output's last :data:`EXPLAIN_CHARS` characters, in a
thread. Real gdb, the real program, Pilot; explain_all is watched (what it was given, on which
thread), not replaced.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from cudatui.tui.apps import debugger_app
from cudatui.tui.apps.debugger_app import EXPLAIN_CHARS, DebuggerApp
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.screens.explain_screen import ExplainScreen
from cudatui.tui.screens.help import HelpScreen
from tests.support.app import messages, no_internal_errors, status
from tests.support.paths import FIXTURES
from tests.support.programs import compile_c, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb

TENSOR = FIXTURES / "c" / "hostile" / "tensor.c"


async def test_explaining_the_exit_of_a_program_with_long_output_keeps_keys_answered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = compile_c(TENSOR, tmp_path / "tensor")
    calls: list[tuple[int, bool]] = []
    real = debugger_app.explain_all

    def watched(text: str) -> Any:
        calls.append((len(text), threading.current_thread() is threading.main_thread()))
        return real(text)

    monkeypatch.setattr(debugger_app, "explain_all", watched)
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program),), cwd=str(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: status(app) == ("exited", "1"), why="the program's exit")
        offered = "press E for what it means"
        await wait_for(pilot, lambda: any(offered in m for m in messages(app, "warning")), why="the offer to explain")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), why="the help screen")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, ExplainScreen), why="the explanation")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExplainScreen))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, why="the app to close on ctrl+q")
    assert no_internal_errors(app)
    assert len(calls) >= 2, calls  # the offer and E
    assert all(size <= EXPLAIN_CHARS for size, _ in calls), calls  # the output's end, not 1.2 MB
    assert not any(on_loop for _, on_loop in calls), calls  # off the event loop
