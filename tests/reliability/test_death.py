"""Debugger death and debuggee death, in the app with a real GNU gdb.

gdb SIGKILLed while the program runs and while it is stopped: the UI says so and offers a
restart, nothing raises, gdb is reaped (no zombie) and the debuggee does not outlive it.
The debuggee killed from outside: the state becomes exited, with the signal. (Session-level
death with a request pending is tests/gdbbridge/session/test_session_gdb.py::test_gdb_sigkill_mid_session.)
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.status import StatusBar
from tests.support.app import messages, no_internal_errors, phase
from tests.support.processes import descendants, gone
from tests.support.programs import needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb


def launch(program: Path, *breakpoints: str) -> DebuggerApp:
    return DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program),), breakpoints=breakpoints,
                                    cwd=str(program.parent)))


@pytest.mark.parametrize("when", ["running", "stopped"])
async def test_gdb_killed_is_reported_reaped_and_restartable(forever: Path, when: str) -> None:
    app = launch(forever, *(["main"] if when == "stopped" else []))
    async with app.run_test(size=(80, 24)) as pilot:
        if when == "stopped":
            await wait_for(pilot, lambda: phase(app) == "stopped")
        else:
            await wait_for(pilot, lambda: "looping" in app.query_one(OutputPane).text)
        session = app.debugger.session
        assert session is not None and session.pid and session.inferior_pid
        gdb, debuggee = session.pid, session.inferior_pid
        os.kill(gdb, signal.SIGKILL)
        await wait_for(pilot, lambda: phase(app) == "dead")
        assert app.debugger.status.detail == "debugger killed by SIGKILL"
        assert "debugger died" in app.query_one(StatusBar).render().plain  # type: ignore[union-attr]
        assert "gdb: debugger killed by SIGKILL. Press r to restart." in messages(app, "error")
        await wait_for(pilot, lambda: gone(gdb) and gone(debuggee), timeout=5)
        assert not Path(f"/proc/{gdb}").exists(), "gdb left as a zombie"
        assert no_internal_errors(app)

        await pilot.press("r")
        await wait_for(pilot, lambda: app.debugger.session is not session and "looping" in app.query_one(OutputPane).text
                       if when == "running" else app.debugger.session is not session and phase(app) == "stopped")
        assert app.debugger.session is not None and app.debugger.session.alive
        await pilot.press("q")
    assert not descendants(os.getpid())


async def test_debuggee_killed_from_outside_becomes_exited(forever: Path) -> None:
    app = launch(forever)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "looping" in app.query_one(OutputPane).text)
        session = app.debugger.session
        assert session is not None and session.inferior_pid
        os.kill(session.inferior_pid, signal.SIGKILL)
        await wait_for(pilot, lambda: phase(app) == "exited")
        assert app.debugger.status.detail == "SIGKILL"
        assert session.alive and session.state == "exited" and session.inferior_pid is None
        assert no_internal_errors(app) and not messages(app, "error")
        await pilot.press("r")
        await wait_for(pilot, lambda: session.inferior_pid is not None)
        await pilot.press("q")
    assert not descendants(os.getpid())
