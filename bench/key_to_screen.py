"""Key to screen in the real app, for bench.gpu: from the key reaching the app to the screen
update that shows the new stop.

The app (``DebuggerApp`` at 160x48 under Pilot, headless) takes ``n`` ``steps`` times, then
``steps`` focus switches (the Debugger's ``switch_focus``, as the Focus pane's Enter calls it).
Per key, four instants:

* the key sent (before ``pilot.press``), and the key taken: the app's ``on_event`` for it (the
  start of the key-to-screen row; the gap is the app's queue);
* the Debugger's new state published (its ``StateChanged``);
* the last screen update of that stop: the compositor's last write (``App._display`` of a
  screen update, as bench.stop_to_screen's TimedApp records them) before the app is idle with
  nothing left to lay out or paint, and stays so; the paints that the visible panes' on-demand
  answers bring count, they are part of the stop's screen;
* (the old way, batch 39 and before) the app idle after ``pilot.pause()``, which waits for every
  Pilot wait, later than the screen.

A focus switch has no key: its start is the call of ``switch_focus`` (what Enter on the Focus
pane does once the key is taken).
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from textual import events

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.events import DebuggerEvent, StateChanged
from cudatui.gdbbridge.session.events import RawLine
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.models import StopEvent
from cudatui.tui.apps import debugger_app as app_module
from cudatui.tui.apps.debugger_app import DebuggerApp

STEP_TIMEOUT = 120.0
SWITCH_TIMEOUT = 20.0
"""A focus switch that shows no new state by then is said and left out (the n rows stand)."""
SIZE = (160, 48)


@dataclass
class KeyTimes:
    """Seconds per key of one kind: to the screen (from the key taken), to the Debugger's state
    (from the key taken), the app's queue (key sent to key taken), and the old way (key sent to
    the app idle after ``pilot.pause()``)."""

    screen: list[float] = field(default_factory=list)
    state: list[float] = field(default_factory=list)
    queued: list[float] = field(default_factory=list)
    written: list[float] = field(default_factory=list)
    """From the key taken to the command's write to gdb (the app's and the Debugger's part before
    gdb has anything to do)."""
    idle: list[float] = field(default_factory=list)
    commands: tuple[str, ...] = ()
    """The MI commands the app sent for the first such key until its last screen update (the
    command itself first): what the raw baseline sends."""

    def extend(self, other: KeyTimes) -> None:
        for name in ("screen", "state", "queued", "written", "idle"):
            getattr(self, name).extend(getattr(other, name))
        self.commands = self.commands or other.commands


class ScreenTimedApp(DebuggerApp):
    """The debugger app with the instants of the keys it takes and of its screen updates."""

    CSS_PATH = str(Path(app_module.__file__).with_name("cudatui.tcss"))

    def __init__(self, config: LaunchConfig) -> None:
        super().__init__(config)
        self.key_at = 0.0
        self.painted_at = 0.0
        self.published: list[tuple[float, StopEvent, int]] = []
        """(when, stop, generation) of every state the Debugger published."""
        self.sent: list[str] = []
        """Every MI command the Debugger wrote (without its token), virtual records left out."""
        self.sent_at: list[float] = []
        """When each of :attr:`sent` was written."""
        self.debugger.subscribe(self._on_event)

    def _on_event(self, event: DebuggerEvent) -> None:
        if isinstance(event, StateChanged):
            self.published.append((time.perf_counter(), event.state.stop, event.state.generation))
        elif isinstance(event, RawLine) and event.direction == "in":
            command = event.text.lstrip("0123456789")
            if command.startswith("-") and not command.startswith("-cudatui-"):
                self.sent.append(command)
                self.sent_at.append(time.perf_counter())

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            self.key_at = time.perf_counter()
        await super().on_event(event)

    def _display(self, screen, renderable) -> None:  # type: ignore[no-untyped-def]
        if renderable is not None and not self._batch_count:
            self.painted_at = time.perf_counter()
        super()._display(screen, renderable)

    def settled(self) -> bool:
        """Nothing in flight in the Debugger, nothing left to lay out or paint on the screen."""
        screen = self.screen
        return (not self.debugger.busy and not screen._dirty_widgets and not screen._layout_required
                and not screen._repaint_required)


async def last_paint(app: ScreenTimedApp, pilot: Any) -> float:
    """The time of the last screen update once the app is settled and stays so across the
    processing of its pending messages."""
    while True:
        await asyncio.sleep(0.001)
        if not app.settled():
            continue
        mark = app.painted_at
        await pilot.pause()
        if app.settled() and app.painted_at == mark:
            return mark


async def app_steps(debugger: str, program: tuple[str, ...], cwd: str, location: str, steps: int,
                    record: Path | None = None) -> tuple[KeyTimes, KeyTimes]:
    """The ``n`` and focus-switch times (:class:`KeyTimes`) of one session of the app."""
    app = ScreenTimedApp(LaunchConfig(debugger=(debugger,), target=program, cwd=cwd, breakpoints=(location,),
                                      record=str(record) if record else None, record_every_part=False))
    nexts, switches = KeyTimes(), KeyTimes()
    async with app.run_test(size=SIZE) as pilot:

        async def until(done: Callable[[], bool], limit: float = STEP_TIMEOUT) -> None:
            deadline = time.perf_counter() + limit
            while not done():
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"the app never reached the state asked for ({app.debugger.status.detail})")
                await asyncio.sleep(0.001)

        def shown_after(generation: int) -> Callable[[], bool]:
            return lambda: (app.debugger.state is not None and app.debugger.state.generation > generation
                            and app.debugger.status.phase is Phase.STOPPED)

        await until(shown_after(0))
        await last_paint(app, pilot)
        for _ in range(steps):
            assert app.debugger.state is not None
            before, stop = app.debugger.state.generation, app.debugger.state.stop
            app.key_at, sent, mark = 0.0, time.perf_counter(), len(app.sent)
            await pilot.press("n")
            await until(shown_after(before))
            await pilot.pause()
            idle = time.perf_counter()
            painted = await last_paint(app, pilot)
            if app.debugger.state.stop.exited:
                break
            taken = app.key_at or sent
            state_at = next(when for when, shown, _ in app.published if when > taken and shown is not stop)
            if painted < state_at:
                raise RuntimeError("the screen was not updated after the new stop's state")
            nexts.screen.append(painted - taken)
            nexts.state.append(state_at - taken)
            nexts.queued.append(taken - sent)
            nexts.written.append(app.sent_at[mark] - taken)
            nexts.idle.append(idle - sent)
            nexts.commands = nexts.commands or tuple(app.sent[mark:])
        for thread in range(1, steps + 1):
            state = app.debugger.state
            assert state is not None
            if state.focus is None:
                break
            before, asked, mark = state.generation, time.perf_counter(), len(app.sent)
            request = f"thread ({thread},0,0)"  # in the focused block
            app.spawn(partial(app.debugger.switch_focus, request), "focus")
            try:
                await until(shown_after(before), SWITCH_TIMEOUT)
            except RuntimeError:  # the n rows stand; say what the switch did
                said = [n.message for n in app.notices.entries][-3:] if hasattr(app, "notices") else []
                print(f"bench.gpu: focus switch to {request} showed no new state: {said}", file=sys.stderr)
                break
            await pilot.pause()
            idle = time.perf_counter()
            painted = await last_paint(app, pilot)
            state_at = next(when for when, _, generation in app.published if generation > before)
            switches.screen.append(painted - asked)
            switches.state.append(state_at - asked)
            switches.written.append(app.sent_at[mark] - asked)
            switches.idle.append(idle - asked)
            switches.commands = switches.commands or tuple(app.sent[mark:])
        await app.action_quit()
    return nexts, switches
