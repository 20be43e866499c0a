"""The status bar: state, focus, kernel, and while starting or running, a progress indicator.

It shows the Debugger's :class:`~cudatui.gdbbridge.debugger.status.Status`; the words and
colours are chosen here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from cudatui.gdbbridge import N_, Phase, Status, tr
from cudatui.tui.widgets.notices import Entry, fit_line


SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
BUSY = (Phase.STARTING, Phase.RUNNING)
PHASE_STYLES = {
    Phase.STARTING: "bold black on yellow",
    Phase.RUNNING: "bold black on yellow",
    Phase.READY: "bold white on dark_green",
    Phase.STOPPED: "bold white on dark_green",
    Phase.EXITED: "bold white on blue",
    Phase.DEAD: "bold white on red",
}


PHASES = (N_("starting"), N_("running"), N_("stopped"), N_("exited"), N_("dead"), N_("ready"))
"""The phases' words, for the catalogue (Phase values)."""
DETAILS = (N_("breakpoint"), N_("step"), N_("finish"), N_("post-mortem (GPU coredump)"), N_("signal"))
"""Why a stop happened, as gdbbridge's stop_detail says it (a CUDA exception's name stays gdb's)."""


def detail_text(detail: str) -> str:
    """``breakpoint 1``, ``step`` ... in the language in use; anything else as it is."""
    number = re.fullmatch(r"breakpoint (\d+)", detail)
    if number:
        return tr("breakpoint {number}").format(number=number.group(1))
    return tr(detail) if detail in DETAILS else detail


def status_text(status: Status, now: float) -> Text:
    """One line: ``[stopped] breakpoint 1 · block (0,0,0) thread (0,0,0) · kernel reduce_racy``
    (a program loaded but not started reads ``[stopped] loaded, not started (r runs it)``); the
    status's context (an attached process, a job's rank) comes before the focus, so that a narrow
    terminal still shows it."""
    busy = status.phase in BUSY and status.since is not None
    label = {Phase.EXITED: tr("exited {code}").format(code=status.detail), Phase.DEAD: tr("debugger died"),
             Phase.READY: tr("stopped")}.get(status.phase, tr(status.phase.value))
    text = Text()
    if busy:
        text.append(SPINNER[int(now * 10) % len(SPINNER)] + " ", style="bold yellow")
    text.append(f" {label} ", style=PHASE_STYLES.get(status.phase, "reverse"))
    parts = [detail_text(status.detail)] if status.detail and status.phase is not Phase.EXITED else []
    kernel = tr("kernel {name}").format(name=status.kernel) if status.kernel else ""
    parts += [p for p in (status.context, status.focus, kernel) if p]
    if parts:
        text.append(" " + " · ".join(parts))
    if busy:
        text.append(f" · {now - (status.since or now):.1f} s", style="bold")
    if status.followers is not None:
        text.append(" · " + tr("{count} following").format(count=status.followers), style="bold")
    return text


class StatusBar(Widget):
    """One line at the bottom: what the debugger is doing and where it stopped, and at its
    right end the newest notice (until the program runs again), which takes the room of the
    status's :meth:`aside` (a replay's recording) where both do not fit.

    While starting or running it animates and shows how long the phase has lasted and what is
    loading (the first kernel stop of a PyTorch script takes ~13 s).
    """

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; padding: 0 1; }
    """

    status: reactive[Status] = reactive(Status(Phase.STARTING, "starting"))
    """What is shown."""

    notice: reactive[Entry | None] = reactive(None)
    """The newest notice, shown at the right end until the program runs again (``!`` shows them all)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = clock
        self._ticker: Timer | None = None

    def watch_status(self, status: Status) -> None:
        if status.phase is Phase.RUNNING:
            self.notice = None
        busy = status.phase in BUSY
        if busy and self._ticker is None:
            self._ticker = self.set_interval(0.2, self.refresh)
        elif not busy and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def line(self) -> Text:
        """The status, without the notice."""
        return status_text(self.status, self.clock())

    def aside(self) -> Text:
        """What follows the status when no notice needs its room (nothing here)."""
        return Text()

    def render(self) -> Text:
        width, line, aside = self.content_size.width, self.line(), self.aside()
        if self.notice is None or line.cell_len + aside.cell_len + 2 + self.notice.text().cell_len <= width:
            line = line + aside
        return fit_line(line, self.notice, width)
