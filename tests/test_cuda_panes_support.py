"""Shared setup for the CUDA pane tests: a tiny App hosting one pane over a replayed session.

States come from the real StateBuilder over a replayed reference recording; commands a
recording lacks are filled in by gdbbridge parsers over the recording's own payloads (e.g.
``info cuda lanes`` through the console for oob.jsonl). No test in this module.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Awaitable, Callable

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget

from conftest import replay_debugger
from cudatui.gdbbridge.cuda.tables import parse_lanes_console
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.models import StopEvent, StopState
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.tui.panes.base import FocusRequested, StatePane
from cudatui.tui.port import SessionPort


class Replay:
    """A replayed session, its StateBuilder and its SessionPort."""

    def __init__(self, transcript: str, record: str | None = None) -> None:
        self.session = GdbSession(replay_debugger(transcript), record=record)
        self.builder = StateBuilder(self.session)
        self.port = SessionPort(self.session)
        self._stops: asyncio.Queue[ev.Event] | None = None

    async def start(self) -> None:
        await self.session.start()
        self._stops = self.session.queue()

    async def resume(self, command: str = "-exec-run") -> StopEvent:
        """Send ``command`` and wait for the ``*stopped`` it causes."""
        assert self._stops is not None
        await self.session.command(command)
        while True:
            event = await asyncio.wait_for(self._stops.get(), 20)
            if isinstance(event, ev.Stopped):
                return event.stop

    async def state(self, stop: StopEvent) -> StopState:
        return await self.builder.refresh(stop)

    async def with_console_lanes(self, state: StopState) -> StopState:
        """``state`` with the lanes of ``info cuda lanes`` (recordings made through the console)."""
        lanes = parse_lanes_console(await self.session.console("info cuda lanes"))
        return replace(state, lanes=lanes)

    async def close(self) -> None:
        await self.session.close()


Script = Callable[["PaneApp", Replay], Awaitable[None]]


class PaneApp(App[None]):
    """Hosts ``pane`` and runs ``script`` against a replay of ``transcript`` once mounted."""

    def __init__(self, pane: Widget, transcript: str, script: Script, record: str | None = None) -> None:
        super().__init__()
        self.pane = pane
        self.replay = Replay(transcript, record)
        self.script = script
        self.requests: list[str] = []
        self.ready = False
        self.states: list[StopState] = []

    def compose(self) -> ComposeResult:
        yield self.pane

    def on_mount(self) -> None:
        self.run_worker(self._drive(), exclusive=True)

    async def _drive(self) -> None:
        await self.replay.start()
        if hasattr(self.pane, "port"):
            self.pane.port = self.replay.port  # type: ignore[attr-defined]
        await self.script(self, self.replay)
        self.ready = True

    def show(self, state: StopState) -> None:
        """Give ``state`` to the pane (as the app's controller does)."""
        self.states.append(state)
        assert isinstance(self.pane, StatePane)
        self.pane.show_state(state)

    def on_focus_requested(self, message: FocusRequested) -> None:
        self.requests.append(message.request)

    async def on_unmount(self) -> None:
        await self.replay.close()


async def first_stop(app: PaneApp, replay: Replay) -> None:
    """Run to the first stop and show its state."""
    app.show(await replay.state(await replay.resume()))


async def wait_for(pilot: Pilot, condition: Callable[[], bool], timeout: float = 15.0) -> None:
    """Let the app run until ``condition()`` holds (or fail after ``timeout`` seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the pane")
        await pilot.pause(0.05)
