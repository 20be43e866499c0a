"""Where a debugging session stands: its :class:`Phase` and what the status bar says about it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from cudatui.gdbbridge.models import StopEvent, StopState
from cudatui.gdbbridge.names import short_name


class Phase(str, Enum):
    """The run phase of a session; compares equal to its name (``Phase.STOPPED == "stopped"``)."""

    STARTING = "starting"
    """The debugger starts, or the program runs to its first stop."""
    READY = "ready"
    """The program is loaded, not started (``--no-run``)."""
    RUNNING = "running"
    STOPPED = "stopped"
    """Stopped, and the stop's state is built: queries may be made."""
    EXITED = "exited"
    DEAD = "dead"
    """The debugger is gone (or could not start)."""

    def __str__(self) -> str:
        return self.value


NOT_STOPPED = {
    Phase.STARTING: "the program is starting",
    Phase.READY: "the program has not started",
    Phase.RUNNING: "the program is running",
    Phase.EXITED: "the program has exited",
    Phase.DEAD: "the debugger is gone",
}
"""Why a query cannot be answered, by phase."""


@dataclass(frozen=True)
class Status:
    """The phase with what the status bar shows about it."""

    phase: Phase
    detail: str = ""
    since: float | None = None
    """When the phase began (time.monotonic), for the elapsed time while starting/running."""
    focus: str = ""
    kernel: str = ""
    context: str = ""
    """What is debugged when it is not a program started here, shown always: an attached
    process and what q does, or the rank of a job and where the other ranks' output goes."""
    followers: int | None = None
    """How many follow the session's recording (``--record``), once someone did; None: untold."""


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


def focused_kernel(state: StopState) -> str:
    """The focused kernel's name, or "" on the host."""
    current = next((k for k in state.kernels if k.current), None)
    if current is not None:
        return short_name(current.name)
    return short_name(state.frame.func) if state.in_kernel and state.frame else ""
