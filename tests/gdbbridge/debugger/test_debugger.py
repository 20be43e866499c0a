"""cudatui.gdbbridge.debugger.Debugger against a real GNU gdb, seen through the events it sends.

The MI log gets the real lines in both directions (commands as written, records as printed),
and a program's exit code (octal in MI) reaches the status as the decimal number.
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger, Step
from cudatui.gdbbridge.debugger.events import DebuggerEvent, Notice, PhaseChanged, StartupFailed
from cudatui.gdbbridge.debugger.status import Phase, Status
from cudatui.gdbbridge.session.events import RawLine
from tests.support.paths import FIXTURES
from tests.support.programs import needs_gdb

BRIDGE = FIXTURES / "c" / "bridge"
WAIT = 20.0

pytestmark = needs_gdb


class Keeper:
    """A subscriber that keeps every event a Debugger sends, and wakes who waits for a phase."""

    def __init__(self) -> None:
        self.raw: list[RawLine] = []
        self.statuses: list[Status] = []
        self.notes: list[tuple[str, str]] = []
        self.failures: list[str] = []
        self._phases: asyncio.Queue[Phase] = asyncio.Queue()

    def __call__(self, event: DebuggerEvent) -> None:
        if isinstance(event, RawLine):
            self.raw.append(event)
        elif isinstance(event, PhaseChanged):
            self.statuses.append(event.status)
            self._phases.put_nowait(event.status.phase)
        elif isinstance(event, Notice):
            self.notes.append((event.message, event.severity))
        elif isinstance(event, StartupFailed):
            self.failures.append(event.message)

    async def until(self, phase: Phase) -> Status:
        """The status once the Debugger says it reached ``phase``."""
        while await asyncio.wait_for(self._phases.get(), WAIT) is not phase:
            pass
        return self.statuses[-1]


@pytest.fixture(scope="module")
def exit_with(tmp_path_factory: pytest.TempPathFactory) -> Path:
    exe = tmp_path_factory.mktemp("controller") / "exit_with"
    subprocess.run(["gcc", "-g", "-O0", "-o", str(exe), str(BRIDGE / "exit_with.c")], check=True)
    return exe


async def test_mi_log_shows_real_lines_and_exit_code_is_decimal(exit_with: Path) -> None:
    kept = Keeper()
    config = LaunchConfig(debugger=("gdb",), target=(str(exit_with), "10"), breakpoints=("main",), cwd=str(exit_with.parent))
    debugger = Debugger(config)
    debugger.subscribe(kept)
    try:
        await asyncio.wait_for(debugger.start(), WAIT)
        assert (await kept.until(Phase.STOPPED)) is debugger.status
        sent = [r.text for r in kept.raw if r.direction == "in"]
        assert any(t.endswith('-break-insert -f "main"') for t in sent) and any(t.endswith("-exec-run") for t in sent)
        received = [r.text for r in kept.raw if r.direction == "out"]
        assert any(t.startswith("*stopped,reason=\"breakpoint-hit\"") for t in received)
        assert any("^done,bkpt={number=\"1\"" in t for t in received)

        await debugger.resume(Step.CONTINUE)
        exited = await kept.until(Phase.EXITED)
        assert exited.detail == "10" and exited is debugger.status
        assert any(r.text.startswith('*stopped,reason="exited",exit-code="012"') for r in kept.raw)
    finally:
        await debugger.close()
    assert not kept.failures
    assert debugger.session is not None and not debugger.session.alive
