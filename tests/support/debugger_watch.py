"""A Debugger replaying a recording, and what it sent and showed (the Debugger tests of
tests/gdbbridge/debugger watch it through its events, as the app does)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.events import DebuggerEvent, Notice, PhaseChanged
from cudatui.gdbbridge.debugger.recorded_path import recorded_breakpoints
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.record.transcript import load
from cudatui.gdbbridge.session.events import RawLine


class Watcher:
    """Subscribes to a Debugger: every command it sent, and each stop it finished showing."""

    def __init__(self, debugger: Debugger) -> None:
        self.debugger = debugger
        self.sent: list[str] = []
        self.notices: list[Notice] = []
        self._shown: asyncio.Queue[StopState] = asyncio.Queue()
        debugger.subscribe(self._on_event)

    def _on_event(self, event: DebuggerEvent) -> None:
        if isinstance(event, RawLine) and event.direction == "in":
            self.sent.append(event.text.lstrip("0123456789"))
        elif isinstance(event, Notice):
            self.notices.append(event)
        elif isinstance(event, PhaseChanged) and event.status.phase is Phase.STOPPED:
            assert self.debugger.state is not None
            self._shown.put_nowait(self.debugger.state)

    async def next_stop(self) -> StopState:
        """The state of the next stop the Debugger has shown (refreshed, phase stopped)."""
        return await asyncio.wait_for(self._shown.get(), 20)


def replayed(recording: Path) -> tuple[Debugger, Watcher]:
    """A Debugger (not started) replaying ``recording`` with the breakpoints it was made with, and
    its :class:`Watcher`."""
    breakpoints = tuple(str(spec) for spec in recorded_breakpoints(load(str(recording))))
    debugger = Debugger(LaunchConfig.replay(recording, breakpoints=breakpoints))
    return debugger, Watcher(debugger)
