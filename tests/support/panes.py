"""Shared setup for the CUDA pane tests: a tiny App hosting one pane over a replayed session.

States come from a real Debugger (its StateBuilder) over a replayed reference recording; a pane
that says what it shows (the Shared pane's pages, the Focus pane's ranges, the Warps pane's watch
and culprit) is on the screen: the Debugger reads it, and the states it publishes from then on
are given to the pane; commands a recording lacks are filled in by gdbbridge parsers
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
from cudatui.gdbbridge.debugger.events import ConsoleOutput, DebuggerEvent, PhaseChanged, StateChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.steps import RUN, STEPS
from cudatui.gdbbridge.models import StopEvent, StopState
from cudatui.tui.messages import CulpritAsked, FocusRequested, LanesWatched, PagesShown, RangesOpened
from cudatui.tui.panes.base import StatePane

from .paths import TRANSCRIPTS


class Replay:
    """A Debugger on a replayed transcript, loaded and not run: :meth:`resume` moves it. It is
    driven through the Debugger's public methods alone, as the app drives it."""

    def __init__(self, transcript: str, record: str | None = None, breakpoints: tuple[str, ...] = ()) -> None:
        self.debugger = Debugger(LaunchConfig.replay(TRANSCRIPTS / transcript, record=record, run=False,
                                                     breakpoints=breakpoints))
        self._settled: asyncio.Queue[StopState] = asyncio.Queue()
        self._console: list[str] | None = None
        self.debugger.subscribe(self._on_event)

    def _on_event(self, event: DebuggerEvent) -> None:
        if isinstance(event, PhaseChanged) and event.status.phase in (Phase.STOPPED, Phase.EXITED):
            assert self.debugger.state is not None
            self._settled.put_nowait(self.debugger.state)
        elif isinstance(event, ConsoleOutput) and event.kind == "console" and self._console is not None:
            self._console.append(event.text)

    async def start(self) -> None:
        await self.debugger.start()

    async def resume(self, command: str = RUN) -> StopEvent:
        """Run (``-exec-run``) or step (``-exec-next``...) and wait until the Debugger has shown
        the stop it causes."""
        while not self._settled.empty():  # what a focus switch or a console command showed
            self._settled.get_nowait()
        if command == RUN:
            await self.debugger.restart()
        else:
            await self.debugger.resume(next(step for step, operation in STEPS.items() if operation == command))
        return (await asyncio.wait_for(self._settled.get(), 20)).stop

    async def switch_focus(self, request: str) -> StopState:
        """Move the focus as the app does; the state the Debugger then shows."""
        before = self.debugger.state
        await self.debugger.switch_focus(request)
        state = self.debugger.state
        assert state is not None and state is not before, "the focus switch showed no new state"
        return state

    async def state(self, stop: StopEvent) -> StopState:
        """The Debugger's state of ``stop`` (the last stop :meth:`resume` returned)."""
        state = self.debugger.state
        assert state is not None and state.stop is stop
        return state

    async def with_console_lanes(self, state: StopState) -> StopState:
        """``state`` with the lanes of ``info cuda lanes`` (recordings made through the console)."""
        self._console = said = []
        try:
            await self.debugger.console_command("info cuda lanes")
        finally:
            self._console = None
        return replace(state, lanes=parse_lanes_console("".join(said)))

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
        self.ranges: list[tuple[bool, bool]] = []
        """What the Focus pane said it has open (a kernel, a block range), in order."""
        self._following = False

    def compose(self) -> ComposeResult:
        yield self.pane

    def on_mount(self) -> None:
        self.run_worker(self._drive(), exclusive=True)

    async def _drive(self) -> None:
        await self.replay.start()
        await self.script(self, self.replay)
        self.ready = True

    def show(self, state: StopState) -> None:
        """Give ``state`` to the pane (as the app does)."""
        self.states.append(state)
        assert isinstance(self.pane, StatePane)
        self.pane.show_state(state)

    def on_shared_memory_pane_pages_shown(self, message: PagesShown) -> None:
        """The pane, on the screen here, says which pages it shows: the Debugger reads them, and
        from now on every state it publishes is given to the pane (as the app does)."""
        self._follow()
        self.replay.debugger.show_shared(message.windows)

    def on_focus_requested(self, message: FocusRequested) -> None:
        self.requests.append(message.request)

    def on_warps_pane_lanes_watched(self, message: LanesWatched) -> None:
        self._follow()
        self.replay.debugger.watch_lanes(message.expression)

    def on_warps_pane_culprit_asked(self, message: CulpritAsked) -> None:
        self._follow()
        self.run_worker(self.replay.debugger.find_culprit(), group="culprit")

    def _follow(self) -> None:
        """From now on, show the states the Debugger publishes (as the app does): what the pane
        asked it for comes in the stop it shows again."""
        if not self._following:
            self._following = True
            self.replay.debugger.subscribe(lambda e: self.show(e.state) if isinstance(e, StateChanged) else None)

    def on_focus_navigator_ranges_opened(self, message: RangesOpened) -> None:
        """The Focus pane's open nodes: said to the Debugger as the app says them (the batch's
        every part shown, as without a screen), and from now on every state it publishes is shown
        (the stop shown again with its ranges)."""
        self.ranges.append((message.blocks, message.threads))
        self._follow()
        self.replay.debugger.show_parts(registers=True, threads=True, blocks=message.blocks)

    async def on_unmount(self) -> None:
        await self.replay.close()


async def first_stop(app: PaneApp, replay: Replay) -> None:
    """Run to the first stop and show its state."""
    app.show(await replay.state(await replay.resume()))
