"""The Debugger's navigation with a real GNU gdb on a program of two source files: a console
``up``/``frame``/``down`` selects the frame the whole state follows (stack, locals, source line),
a later console command keeps it, and the program's source files are listed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.events import DebuggerEvent, StateChanged
from cudatui.gdbbridge.models import StopState
from tests.support.programs import NAV_MAIN, NAV_WALK, compile_nav, marked_line, needs_gdb

WAIT = 20.0

pytestmark = needs_gdb


@pytest.fixture(scope="module")
def nav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_nav(tmp_path_factory.mktemp("nav") / "nav")


class States:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[StopState] = asyncio.Queue()

    def __call__(self, event: DebuggerEvent) -> None:
        if isinstance(event, StateChanged):
            self.queue.put_nowait(event.state)

    async def next(self) -> StopState:
        return await asyncio.wait_for(self.queue.get(), WAIT)

    def drain(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()


async def test_console_frame_commands_move_the_selected_frame(nav: Path) -> None:
    states = States()
    debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(nav),), breakpoints=("leaf",), cwd=str(nav.parent)))
    debugger.subscribe(states)
    try:
        await asyncio.wait_for(debugger.start(), WAIT)
        state = await states.next()
        while not state.frames:
            state = await states.next()
        assert [f.func for f in state.frames] == ["leaf", "walk", "outer", "main"]
        assert state.selected_frame == 0 and [v.name for v in state.variables] == ["value", "doubled"]

        for command, level, func, line in (
            ("up 2", 2, "outer", marked_line(NAV_MAIN, "/* OUTER */")),
            ("print n", 2, "outer", marked_line(NAV_MAIN, "/* OUTER */")),
            ("down", 1, "walk", marked_line(NAV_WALK, "/* WALK */")),
            ("frame 3", 3, "main", marked_line(NAV_MAIN, "/* MAIN */")),
        ):
            states.drain()
            await asyncio.wait_for(debugger.console_command(command), WAIT)
            state = await states.next()
            assert state.selected_frame == level, command
            assert state.frame is not None and (state.frame.func, state.frame.line) == (func, line), command
        assert [v.name for v in state.variables] == ["result"]

        files = await debugger.source_files()
        assert str(NAV_MAIN.resolve()) in files and str(NAV_WALK.resolve()) in files
        assert len(files) == len(set(files))
    finally:
        await debugger.close()
