"""What a :class:`~cudatui.gdbbridge.debugger.debugger.Debugger` tells its subscribers, in order.

Every event is a frozen dataclass; :data:`DebuggerEvent` is their union. The raw MI lines for
an MI log are the session's own :class:`~cudatui.gdbbridge.session.events.RawLine`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cudatui.gdbbridge.debugger.status import Status
from cudatui.gdbbridge.models import QueryFailure, StopState
from cudatui.gdbbridge.session.events import RawLine

Severity = Literal["information", "warning", "error"]


@dataclass(frozen=True)
class StateChanged:
    """A new state to show: a stop (with everything gathered at it: watches, host stack), a focus
    or frame change, changed breakpoints or watches. One per change, painted once."""

    state: StopState


@dataclass(frozen=True)
class PhaseChanged:
    """The session's phase, or what is said about it, changed."""

    status: Status


@dataclass(frozen=True)
class QueriesFailed:
    """Requests of a stop's refresh batch that gdb refused (the rest of the state is shown)."""

    failures: tuple[QueryFailure, ...]

    @property
    def not_recorded(self) -> tuple[QueryFailure, ...]:
        """The failures whose answer the replayed recording lacks."""
        return tuple(f for f in self.failures if f.not_recorded)


@dataclass(frozen=True)
class Notice:
    """Something to tell the user; ``not_recorded`` when it is the replay stand-in's refusal."""

    message: str
    severity: Severity = "information"
    not_recorded: bool = False


@dataclass(frozen=True)
class ConsoleOutput:
    """Text for the console pane: ``kind`` is console, target, log, stderr, command or error."""

    text: str
    kind: str
    not_recorded: bool = False


@dataclass(frozen=True)
class ProgramText:
    """What the debuggee printed (and stdout lines of gdb that are not MI)."""

    text: str


@dataclass(frozen=True)
class StartupFailed:
    """The first start failed (no debugger, not a gdb): there is nothing to debug."""

    message: str


DebuggerEvent = (StateChanged | PhaseChanged | QueriesFailed | Notice | ConsoleOutput | ProgramText | RawLine
                 | StartupFailed)
