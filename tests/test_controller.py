"""cudatui.tui.controller.Controller against a real GNU gdb, seen through a View that keeps what it is told.

The MI log gets the real lines in both directions (commands as written, records as printed),
and a program's exit code (octal in MI) reaches the status bar as the decimal number.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path
from typing import Any, Coroutine

import pytest

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.models import StopState, Variable
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.tui.cli import LaunchConfig
from cudatui.tui.controller import Controller
from cudatui.tui.panes.status import Status

BRIDGE = Path(__file__).parent / "fixtures" / "c" / "bridge"
WAIT = 20.0

pytestmark = pytest.mark.skipif(not (shutil.which("gdb") and shutil.which("gcc")), reason="needs gdb and gcc")


class KeepingView:
    """A View (cudatui.tui.controller.View) that runs spawned work as tasks and keeps everything shown."""

    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[None]] = []
        self.raw: list[ev.RawLine] = []
        self.states: list[StopState] = []
        self.statuses: list[Status] = []
        self.notes: list[tuple[str, str]] = []

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        self.tasks.append(asyncio.get_running_loop().create_task(work, name=name))

    def attach(self, session: GdbSession) -> None:
        pass

    def show_state(self, state: StopState) -> None:
        self.states.append(state)

    def show_watches(self, generation: int, watches: tuple[Variable, ...]) -> None:
        pass

    def show_status(self, status: Status) -> None:
        self.statuses.append(status)

    def program_output(self, text: str) -> None:
        pass

    def console_output(self, text: str, kind: str) -> None:
        pass

    def mi_log(self, line: ev.RawLine) -> None:
        self.raw.append(line)

    def notify_user(self, message: str, severity: str = "information") -> None:
        self.notes.append((message, severity))

    def startup_failed(self, message: str) -> None:
        raise AssertionError(f"startup failed: {message}")


async def until(what, timeout: float = WAIT) -> None:
    for _ in range(int(timeout / 0.02)):
        if what():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


@pytest.fixture(scope="module")
def exit_with(tmp_path_factory: pytest.TempPathFactory) -> Path:
    exe = tmp_path_factory.mktemp("controller") / "exit_with"
    subprocess.run(["gcc", "-g", "-O0", "-o", str(exe), str(BRIDGE / "exit_with.c")], check=True)
    return exe


async def test_mi_log_shows_real_lines_and_exit_code_is_decimal(exit_with: Path) -> None:
    view = KeepingView()
    config = LaunchConfig(debugger=("gdb",), target=(str(exit_with), "10"), breakpoints=("main",), cwd=str(exit_with.parent))
    controller = Controller(config, view)
    try:
        await asyncio.wait_for(controller.start(), WAIT)
        await until(lambda: controller.status.phase == "stopped")
        sent = [r.text for r in view.raw if r.direction == "in"]
        assert any(t.endswith('-break-insert -f "main"') for t in sent) and any(t.endswith("-exec-run") for t in sent)
        received = [r.text for r in view.raw if r.direction == "out"]
        assert any(t.startswith("*stopped,reason=\"breakpoint-hit\"") for t in received)
        assert any("^done,bkpt={number=\"1\"" in t for t in received)

        await controller.resume("continue")
        await until(lambda: controller.status.phase == "exited")
        assert controller.status.detail == "10"
        assert any(r.text.startswith('*stopped,reason="exited",exit-code="012"') for r in view.raw)
    finally:
        await controller.close()
        await asyncio.gather(*view.tasks, return_exceptions=True)
    assert controller.session is not None and not controller.session.alive
