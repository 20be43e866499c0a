"""The debugger app for ``cudatui demo``: the mode in the status bar, the lesson guide, the build.

:class:`DemoApp` is the :class:`~cudatui.tui.app.DebuggerApp` with three additions: the status bar
starts with LIVE or REPLAY and ends with why; a :class:`~cudatui.tui.panes.guide.GuidePane` above it
(``h`` toggles it); a live lesson's kernels are built (nvcc, in a thread) before cuda-gdb starts,
with nvcc's error in the console pane when the build fails. In a replay, what the Debugger
marks as refused by the replay stand-in (a step, a query, a console command the recording lacks)
is said as the recorded path instead, a step whose stop the recording lacks is reported after
STALL_S, and ``r`` replays from the start.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from pathlib import Path
from typing import Callable, Iterable

from rich.text import Text
from textual import events
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from cudatui.gdbbridge import ConsoleOutput, DebuggerEvent, Notice, Phase, PhaseChanged, QueriesFailed, Status, clean
from cudatui.kernels.build import BuildError, build_lesson
from cudatui.tui.app import DebuggerApp
from cudatui.tui.demo_plan import DemoPlan
from cudatui.tui.panes.base import StatePane
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.guide import MODE_STYLES, Guide, GuidePane
from cudatui.tui.panes.status import StatusBar, status_text

STALL_S = 5.0
"""Seconds a replayed step may run before the UI says the recording has no stop for it."""


class DemoStatusBar(StatusBar):
    """The status bar with the demo's mode first (LIVE / REPLAY) and why it was chosen last."""

    DEFAULT_CSS = """
    DemoStatusBar { height: 1; background: $panel; padding: 0 1; }
    """

    def __init__(self, mode: str, why: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.mode = mode
        self.why = why

    def render(self) -> Text:
        text = Text()
        text.append(f" {self.mode.upper()} ", style=MODE_STYLES.get(self.mode, "reverse"))
        text.append(" ")
        text.append_text(status_text(self.status, self.clock()))
        text.append(f" · {self.why}", style="dim")
        return text


class DemoApp(DebuggerApp):
    """The debugger on one lesson, live or replayed (see the module docstring).

    | Key | Description |
    | :- | :- |
    | h | Show or hide the lesson guide. |
    """

    BINDINGS = [Binding("h", "toggle_guide", "Guide")]

    def __init__(self, plan: DemoPlan, build: Callable[[], Path] | None = None) -> None:
        super().__init__(plan.config)
        self.plan = plan
        self.build = build or (lambda: build_lesson(plan.lesson.name))
        """Builds the lesson's kernels (live); raises BuildError."""
        self.title = f"cudatui demo {plan.lesson.name}"

    def compose(self) -> ComposeResult:
        plan = self.plan
        path = plan.recording.path_text if plan.recording else ""
        for widget in super().compose():
            if isinstance(widget, StatusBar):
                yield GuidePane(Guide.for_lesson(plan.lesson, plan.mode, plan.banner, path), id="guide")
                yield DemoStatusBar(plan.mode, plan.why, id="status")
            else:
                yield widget

    def on_mount(self, event: events.Mount) -> None:
        self.query_one(GuidePane).set_class(self.wide, "-wide")
        if self.plan.build:
            event.prevent_default()
            self.run_worker(self._build_then_start(), name="build", group="debugger", exit_on_error=False)

    async def _build_then_start(self) -> None:
        source = self.plan.lesson.source.name
        bar, console = self.query_one(StatusBar), self.query_one(ConsolePane)
        bar.status = Status(Phase.STARTING, f"building {source} with nvcc -g -G", time.monotonic())
        try:
            library = await asyncio.to_thread(self.build)
        except BuildError as exc:
            bar.status = Status(Phase.DEAD, clean(f"build failed: {exc}"))
            console.write(clean(f"{exc}\n{exc.stderr.rstrip()}\n" if exc.stderr else f"{exc}\n"), "error")
            self.show_pane("console")
            self.notify_user(f"{exc} (nvcc's output is in the console pane)", "error")
            return
        console.write(f"built {library}\n", "console")
        await self.debugger.start()

    def on_resize(self) -> None:
        self.query_one(GuidePane).set_class(self.wide, "-wide")

    # -- replay: steps outside the recording ---------------------------------------------------

    def show_debugger_event(self, event: DebuggerEvent) -> None:
        """In a replay, say a refusal of the replay stand-in as the recorded path; time steps."""
        if self.plan.recording is not None:
            event = self._as_recorded(event, self.plan.recording.path_text)
            if isinstance(event, PhaseChanged) and event.status.phase is Phase.RUNNING:
                self.set_timer(STALL_S, partial(self._stalled, event.status))
        super().show_debugger_event(event)

    @staticmethod
    def _as_recorded(event: DebuggerEvent, path: str) -> DebuggerEvent:
        """``event`` with what the recording lacks said for a person."""
        step = f"this step is not in the recording; the recorded path is: {path}"
        if isinstance(event, QueriesFailed) and event.not_recorded:
            missing = ", ".join(f.what for f in event.not_recorded)
            return Notice(f"this recording has no answer for: {missing} (the panes say so)", "warning")
        if isinstance(event, Notice) and event.not_recorded:
            return Notice(step, "warning")
        if isinstance(event, ConsoleOutput) and event.not_recorded:
            return ConsoleOutput(step + "\n", event.kind)
        return event

    def _stalled(self, status: Status) -> None:
        """A replayed step still running after STALL_S: the recording holds no stop for it."""
        if self.debugger.status is status and self.plan.recording is not None:
            self.notify_user("the recording has no stop after this step: r replays it from the start; the "
                             f"recorded path is: {self.plan.recording.path_text}", "warning")

    def action_restart(self) -> None:
        """Live: run again. Replay: serve the recording again from its start."""
        if self.plan.recording is None:
            super().action_restart()
        else:
            self.spawn(self._replay_from_start, "restart")

    async def _replay_from_start(self) -> None:
        await self.debugger.close()
        for pane in self.query(StatePane):
            pane.set_reactive(StatePane.state, None)
        self.notify_user("replaying the recording from the start")
        await self.debugger.restart()

    # -- the guide -----------------------------------------------------------------------------

    def action_toggle_guide(self) -> None:
        """Show or hide the lesson guide."""
        guide = self.query_one(GuidePane)
        guide.display = not guide.display

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Lesson guide", "show or hide the lesson guide (h)", self.action_toggle_guide)
