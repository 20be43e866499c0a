"""The status bar: state, focus, kernel, and while starting or running, a progress indicator."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from cudatui.gdbbridge.models import StopEvent, StopState


@dataclass(frozen=True)
class Status:
    """What the status bar shows: ``phase`` is starting, running, stopped, exited, dead."""

    phase: str
    detail: str = ""
    since: float | None = None
    """When the phase began (time.monotonic), for the elapsed time while starting/running."""
    focus: str = ""
    kernel: str = ""


def stop_detail(stop: StopEvent) -> str:
    """A few words on why the target stopped."""
    if stop.exception is not None:
        return f"{stop.exception.signal_name} {stop.exception.name}"
    if stop.reason == "breakpoint-hit":
        return f"breakpoint {stop.breakpoint}" if stop.breakpoint is not None else "breakpoint"
    if stop.reason == "signal-received":
        return stop.signal or "signal"
    return {"end-stepping-range": "step", "function-finished": "finish",
            "core": "post-mortem (GPU coredump)"}.get(stop.reason, stop.reason)


def kernel_name(state: StopState) -> str:
    """The focused kernel's name, or "" on the host."""
    current = next((k for k in state.kernels if k.current), None)
    if current is not None:
        return current.name
    return state.frame.func if state.in_kernel and state.frame else ""


SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
BUSY = ("starting", "running")
PHASE_STYLES = {
    "starting": "bold black on yellow",
    "running": "bold black on yellow",
    "stopped": "bold white on dark_green",
    "exited": "bold white on blue",
    "dead": "bold white on red",
}


def status_text(status: Status, now: float) -> Text:
    """One line: ``[stopped] breakpoint 1 · block (0,0,0) thread (0,0,0) · kernel reduce_racy``."""
    busy = status.phase in BUSY and status.since is not None
    label = {"exited": f"exited {status.detail}", "dead": "debugger died"}.get(status.phase, status.phase)
    text = Text()
    if busy:
        text.append(SPINNER[int(now * 10) % len(SPINNER)] + " ", style="bold yellow")
    text.append(f" {label} ", style=PHASE_STYLES.get(status.phase, "reverse"))
    parts = [status.detail] if status.detail and status.phase != "exited" else []
    parts += [p for p in (status.focus, f"kernel {status.kernel}" if status.kernel else "") if p]
    if parts:
        text.append(" " + " · ".join(parts))
    if busy:
        text.append(f" · {now - (status.since or now):.1f} s", style="bold")
    return text


class StatusBar(Widget):
    """One line at the bottom: what the debugger is doing and where it stopped.

    While starting or running it animates and shows how long the phase has lasted and what is
    loading (the first kernel stop of a PyTorch script takes ~13 s).
    """

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; padding: 0 1; }
    """

    status: reactive[Status] = reactive(Status("starting", "starting"))
    """What is shown."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = clock
        self._ticker: Timer | None = None

    def watch_status(self, status: Status) -> None:
        busy = status.phase in BUSY
        if busy and self._ticker is None:
            self._ticker = self.set_interval(0.2, self.refresh)
        elif not busy and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def render(self) -> Text:
        return status_text(self.status, self.clock())
