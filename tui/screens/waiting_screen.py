"""The follower's waiting screen: ``cudatui follow FILE`` started before the instructor.

It says whose session it waits for (the recording's path), since when, and that it waits for the
instructor; it looks at the file four times a second and closes by itself once the instructor's
session has begun (the app then starts following). What can never become a recording (the
directory removed, a FIFO created at the path) is said on the screen, in red; the screen stays.
"""

from __future__ import annotations

import time
from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from cudatui.gdbbridge import clean, follow_problem, session_begun, tr

LOOK_EVERY = 0.25
"""Seconds between looks at the file (ctrl+q is answered at once either way)."""


def waited(seconds: float) -> str:
    """``42 s``, ``3 min 5 s``, ``1 h 2 min``."""
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


class WaitingScreen(Screen[None]):
    """Waits for the instructor's recording to begin (see the module docstring).

    | Key | Description |
    | :- | :- |
    | ctrl+q / q | Quit |
    """

    BINDINGS = [Binding("ctrl+q,q", "app.quit", "Quit", priority=True)]

    DEFAULT_CSS = """
    WaitingScreen { align: center middle; }
    WaitingScreen #waiting { width: auto; max-width: 100%; height: auto; border: round $accent; padding: 1 2; }
    """

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.since = datetime.now()
        self._started = time.monotonic()
        self.problem: str | None = None

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(self._text(), id="waiting")

    def on_mount(self) -> None:
        self.set_interval(LOOK_EVERY, self._look)

    def _look(self) -> None:
        self.problem = follow_problem(self.path)
        if self.problem is None and session_begun(self.path):
            self.dismiss(None)
            return
        self.query_one("#waiting", Static).update(self._text())

    def _text(self) -> Text:
        text = Text()
        text.append("cudatui follow", style="bold")
        text.append(" · " + tr("read-only") + "\n\n")
        text.append(tr("Waiting for the instructor to start their session."), style="bold cyan")
        text.append("\n\n")
        text.append(tr("Session:") + "  ", style="dim")
        text.append(f"{clean(self.path)}\n")
        text.append(tr("Waiting since:") + "  ", style="dim")
        text.append(f"{self.since:%H:%M:%S} ({waited(time.monotonic() - self._started)})\n\n")
        if self.problem:
            text.append(self.problem, style="bold red")
            text.append("\n\n")
        else:
            text.append(tr("The instructor starts it with `cudatui --record FILE ...`; this screen moves on by itself "
                           "at their first stop.") + "\n\n")
        text.append("ctrl+q", style="bold")
        text.append(" " + tr("quits"))
        return text
