"""The debugger app for ``cudatui demo``: the mode in the status bar, the lesson guide, the build.

:class:`DemoApp` is the :class:`~cudatui.tui.app.DebuggerApp` with three additions: the status bar
starts with LIVE or REPLAY and ends with why; a :class:`~cudatui.tui.panes.guide.GuidePane` above it
(``h`` toggles it); a live lesson's kernels are built (nvcc, in a thread) before cuda-gdb starts,
with nvcc's error in the console pane when the build fails. In a replay, gdb's answer to a
step the recording lacks (``not in this recording: ...``) is shown as the recorded path instead,
a step whose stop the recording lacks is reported after STALL_S, and ``r`` replays from the start.
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

from cudatui.kernels.build import BuildError, build_lesson
from cudatui.tui.app import DebuggerApp
from cudatui.tui.commands.demo import DemoPlan
from cudatui.tui.panes.base import StatePane
from cudatui.tui.panes.guide import MODE_STYLES, Guide, GuidePane
from cudatui.tui.panes.status import Status, StatusBar, status_text

NOT_RECORDED = "not in this recording"
"""What the replay stand-in answers to a command the recording lacks."""
STALL_S = 5.0
"""Seconds a replayed step may run before the UI says the recording has no stop for it."""
QUERIES_FAILED = "some queries failed: "
"""How the controller starts its notification of failed refresh queries."""


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
            self._apply_layout()
            self.run_worker(self._build_then_start(), name="build", group="debugger", exit_on_error=False)

    async def _build_then_start(self) -> None:
        source = self.plan.lesson.source.name
        self.show_status(Status("starting", f"building {source} with nvcc -g -G", time.monotonic()))
        try:
            library = await asyncio.to_thread(self.build)
        except BuildError as exc:
            self.show_status(Status("dead", f"build failed: {exc}"))
            self.console_output(f"{exc}\n{exc.stderr.rstrip()}\n" if exc.stderr else f"{exc}\n", "error")
            self.show_pane("console")
            self.notify_user(f"{exc} (nvcc's output is in the console pane)", "error")
            return
        self.console_output(f"built {library}\n", "console")
        await self.controller.start()

    def on_resize(self) -> None:
        self.query_one(GuidePane).set_class(self.wide, "-wide")

    # -- replay: steps outside the recording ---------------------------------------------------

    def recorded_path_message(self, message: str) -> str:
        """``message`` with the stand-in's "not in this recording" said for a person."""
        if self.plan.recording is None or NOT_RECORDED not in message:
            return message
        if message.startswith(QUERIES_FAILED):
            parts = message[len(QUERIES_FAILED):].split("; ")
            missing = ", ".join(part.split(":", 1)[0] for part in parts if NOT_RECORDED in part)
            return f"this recording has no answer for: {missing} (the panes say so)"
        return f"this step is not in the recording; the recorded path is: {self.plan.recording.path_text}"

    def notify_user(self, message: str, severity: str = "information") -> None:
        if self.plan.recording is not None and NOT_RECORDED in message:
            message, severity = self.recorded_path_message(message), "warning"
        super().notify_user(message, severity)

    def console_output(self, text: str, kind: str) -> None:
        if self.plan.recording is not None and NOT_RECORDED in text:
            text = self.recorded_path_message(text.rstrip("\n")) + "\n"
        super().console_output(text, kind)

    def show_status(self, status: Status) -> None:
        super().show_status(status)
        if self.plan.recording is not None and status.phase == "running":
            self.set_timer(STALL_S, partial(self._stalled, status))

    def _stalled(self, status: Status) -> None:
        """A replayed step still running after STALL_S: the recording holds no stop for it."""
        if self.controller.status is status and self.plan.recording is not None:
            self.notify_user("the recording has no stop after this step: r replays it from the start; the "
                             f"recorded path is: {self.plan.recording.path_text}", "warning")

    def action_restart(self) -> None:
        """Live: run again. Replay: serve the recording again from its start."""
        if self.plan.recording is None:
            super().action_restart()
        else:
            self.spawn(self._replay_from_start(), "restart")

    async def _replay_from_start(self) -> None:
        await self.controller.close()
        for pane in self.query(StatePane):
            pane.set_reactive(StatePane.state, None)
        self.notify_user("replaying the recording from the start")
        await self.controller.restart()

    # -- the guide -----------------------------------------------------------------------------

    def action_toggle_guide(self) -> None:
        """Show or hide the lesson guide."""
        guide = self.query_one(GuidePane)
        guide.display = not guide.display

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Lesson guide", "show or hide the lesson guide (h)", self.action_toggle_guide)
