"""Shared setup for the CUDA pane tests: a tiny App hosting one pane over a replayed session.

States come from a real Debugger (its StateBuilder) over a replayed reference recording, and a
QueryPane asks that Debugger; commands a recording lacks are filled in by gdbbridge parsers
over the recording's own payloads (e.g. ``info cuda lanes`` through the console for oob.jsonl).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from collections.abc import Awaitable, Callable

from textual.app import App, ComposeResult
from textual.widget import Widget

from cudatui.gdbbridge.cuda.tables import parse_lanes_console
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.events import DebuggerEvent, PhaseChanged
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.models import StopEvent, StopState
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.tui.messages import FocusRequested
from cudatui.tui.panes.base import QueryPane, StatePane

from .paths import TRANSCRIPTS


class Replay:
    """A Debugger on a replayed transcript, loaded and not run: :meth:`resume` moves it."""

    def __init__(self, transcript: str, record: str | None = None, breakpoints: tuple[str, ...] = ()) -> None:
        self.debugger = Debugger(LaunchConfig.replay(TRANSCRIPTS / transcript, record=record, run=False,
                                                     breakpoints=breakpoints))
        self._settled: asyncio.Queue[StopState] = asyncio.Queue()
        self.debugger.subscribe(self._on_event)

    @property
    def session(self) -> GdbSession:
        assert self.debugger.session is not None
        return self.debugger.session

    @property
    def builder(self) -> StateBuilder:
        assert self.debugger.builder is not None
        return self.debugger.builder

    def _on_event(self, event: DebuggerEvent) -> None:
        if isinstance(event, PhaseChanged) and event.status.phase in (Phase.STOPPED, Phase.EXITED):
            assert self.debugger.state is not None
            self._settled.put_nowait(self.debugger.state)

    async def start(self) -> None:
        await self.debugger.start()

    async def resume(self, command: str = "-exec-run") -> StopEvent:
        """Send ``command`` and wait until the Debugger has shown the stop it causes."""
        await self.session.command(command)
        return (await asyncio.wait_for(self._settled.get(), 20)).stop

    async def state(self, stop: StopEvent) -> StopState:
        """The Debugger's state of ``stop`` (the last stop :meth:`resume` returned)."""
        state = self.debugger.state
        assert state is not None and state.stop is stop
        return state

    async def with_console_lanes(self, state: StopState) -> StopState:
        """``state`` with the lanes of ``info cuda lanes`` (recordings made through the console)."""
        lanes = parse_lanes_console(await self.session.console("info cuda lanes"))
        return replace(state, lanes=lanes)

    async def close(self) -> None:
        await self.debugger.close()


Script = Callable[["PaneApp", Replay], Awaitable[None]]


class PaneApp(App[None]):
    """Hosts ``pane`` and runs ``script`` against a replay of ``transcript`` once mounted."""

    def __init__(self, pane: Widget, transcript: str, script: Script, record: str | None = None,
                 breakpoints: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.pane = pane
        self.replay = Replay(transcript, record, breakpoints)
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
        if isinstance(self.pane, QueryPane):
            self.pane.queries = self.replay.debugger
        await self.script(self, self.replay)
        self.ready = True

    def show(self, state: StopState) -> None:
        """Give ``state`` to the pane (as the app does)."""
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
