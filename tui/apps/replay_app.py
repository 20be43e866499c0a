"""The debugger app on a recording (``cudatui replay FILE``), and the base of ``cudatui demo``.

:class:`ReplayApp` is the :class:`~cudatui.tui.apps.debugger_app.DebuggerApp` with the mode first in the status
bar (REPLAY, or LIVE for a live lesson) and what the recording's header says last (GPU,
debugger, date). In a replay, what the Debugger marks as refused by the replay stand-in (a step,
a query, a console command the recording lacks) is said as the recorded path instead, a step
whose stop the recording lacks is reported after STALL_S, and ``r`` replays from the start.
"""

from __future__ import annotations

from functools import partial
from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.screen import Screen
from textual.widget import Widget

from cudatui.gdbbridge import (
    NEXT_STEP, ConsoleOutput, DebuggerEvent, LaunchConfig, Notice, Phase, PhaseChanged, QueriesFailed, Status, tr,
)
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.plans.demo_plan import RecordingInfo
from cudatui.tui.panes.base import StatePane
from cudatui.tui.panes.guide import mode_label
from cudatui.tui.panes.status import StatusBar, status_text

STALL_S = 5.0
"""Seconds a replayed step may run before the UI says the recording has no stop for it."""


class ModeStatusBar(StatusBar):
    """The status bar with the mode first (LIVE / REPLAY) and why (or what was recorded) last,
    where a notice leaves room for it (the guide strip and the notices log say it too)."""

    DEFAULT_CSS = """
    ModeStatusBar { height: 1; background: $panel; padding: 0 1; }
    """

    def __init__(self, mode: str, why: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.mode = mode
        self.why = why

    def line(self) -> Text:
        text = mode_label(self.mode)
        text.append(" ")
        text.append_text(status_text(self.status, self.clock()))
        return text

    def aside(self) -> Text:
        return Text(f" · {self.why}", style="dim")


class ReplayApp(DebuggerApp):
    """The debugger with its mode in the status bar; a replay's refusals said for a person."""

    def __init__(self, config: LaunchConfig, mode: str, why: str, recording: RecordingInfo | None = None) -> None:
        super().__init__(config)
        self.mode = mode
        self.why = why
        self.recording = recording
        """What the replayed recording holds (None: live)."""

    def above_status(self) -> list[Widget]:
        """Widgets shown above the status bar (none here)."""
        return []

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, StatusBar):
                yield from self.above_status()
                yield ModeStatusBar(self.mode, self.why, id="status")
            else:
                yield widget

    def on_mount(self) -> None:
        if self.recording is not None:  # the status bar says it (cut on a small screen): logged for !
            self.log_notice(f"{tr('REPLAY')} — {self.why}")

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)

    def show_debugger_event(self, event: DebuggerEvent) -> None:
        """In a replay, say a refusal of the replay stand-in as the recorded path; time steps."""
        if self.recording is not None:
            event = self._as_recorded(event, self.recording.path_text)
            if isinstance(event, PhaseChanged) and event.status.phase is Phase.RUNNING:
                self.set_timer(STALL_S, partial(self._stalled, event.status))
        super().show_debugger_event(event)

    @staticmethod
    def _as_recorded(event: DebuggerEvent, path: str) -> DebuggerEvent:
        """``event`` with what the recording lacks said for a person."""
        step = tr("this step is not in the recording; the recorded path is: {path}").format(path=path)
        message = event.message if isinstance(event, Notice) else event.text if isinstance(event, ConsoleOutput) else ""
        if NEXT_STEP in message:  # the stand-in named the step the recording goes on with from here
            ahead = message.split(NEXT_STEP, 1)[1].rstrip()
            step = tr("this step is not in the recording; from here it goes on with: {next} (the recorded path: "
                      "{path})").format(next=ahead[:-1] if ahead.endswith(")") else ahead, path=path)
        if isinstance(event, QueriesFailed) and event.not_recorded:
            missing = ", ".join(f.what for f in event.not_recorded)
            return Notice(tr("this recording has no answer for: {missing} (the panes say so)").format(missing=missing),
                          "warning")
        if isinstance(event, Notice) and event.not_recorded:
            return Notice(step, "warning")
        if isinstance(event, ConsoleOutput) and event.not_recorded:
            return ConsoleOutput(step + "\n", event.kind)
        return event

    def _stalled(self, status: Status) -> None:
        """A replayed step still running after STALL_S: the recording holds no stop for it."""
        if self.debugger.status is status and self.recording is not None:
            self.notify_user(tr("the recording has no stop after this step: r replays it from the start; the "
                                "recorded path is: {path}").format(path=self.recording.path_text), "warning")

    def action_restart(self) -> None:
        """Live: run again. Replay: serve the recording again from its start."""
        if self.recording is None:
            super().action_restart()
        else:
            self.spawn(self._replay_from_start, "restart")

    async def _replay_from_start(self) -> None:
        await self.debugger.close()
        for pane in self.query(StatePane):
            pane.set_reactive(StatePane.state, None)
        self.notify_user(tr("replaying the recording from the start"))
        await self.debugger.restart()
