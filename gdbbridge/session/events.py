"""Events a :class:`~cudatui.gdbbridge.session.gdb.GdbSession` publishes, in the order they happen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cudatui.gdbbridge.models import StopEvent
from cudatui.gdbbridge.session.pipes import LINE_LIMIT_ENV


@dataclass(frozen=True)
class Running:
    """The target resumed (``*running``)."""

    thread_id: str


@dataclass(frozen=True)
class Stopped:
    """The target stopped (``*stopped``); ``stop`` is typed, ``payload`` the raw MI dict."""

    stop: StopEvent
    payload: dict[str, Any]


@dataclass(frozen=True)
class Notify:
    """A ``=`` record: breakpoint-modified, library-loaded, thread-group-started ..."""

    name: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class Stream:
    """A ``~`` console, ``@`` target or ``&`` log text record, and gdb's own stderr."""

    kind: Literal["console", "target", "log", "stderr"]
    text: str


@dataclass(frozen=True)
class ProgramOutput:
    """Text the debuggee wrote to its terminal (its own pty), decoded, not yet sanitised."""

    text: str


@dataclass(frozen=True)
class RecordingStopped:
    """Writing the ``--record`` file failed; the recording stopped, the session goes on."""

    message: str


@dataclass(frozen=True)
class NonMI:
    """A line on gdb's stdout that is not MI: a parse error, reported, never interpreted."""

    line: str


@dataclass(frozen=True)
class UnmatchedResult:
    """A result record whose token matches no request in flight."""

    token: int | None
    message: str | None
    payload: Any


@dataclass(frozen=True)
class RawLine:
    """One MI line as it crossed the pipe, for an MI log view (see ``GdbSession.subscribe_raw``).

    ``direction`` is "in" (a command cudatui wrote), "out" (a line gdb printed) or "err" (a
    line on gdb's stderr), the words a recording uses. Not part of the :data:`Event` stream.
    """

    direction: Literal["in", "out", "err"]
    text: str


@dataclass(frozen=True)
class LineDropped:
    """A line from the debugger went over the session's line limit and was dropped (a request
    it answered fails with an MIError saying so); ``head`` is how it began."""

    stream: Literal["stdout", "stderr"]
    limit: int
    head: str

    @property
    def description(self) -> str:
        return (f"the debugger wrote a line over the {self.limit:,}-byte limit ({LINE_LIMIT_ENV}) on its "
                f"{self.stream}: dropped (it began {self.head[:60]!r})")


@dataclass(frozen=True)
class Silent:
    """The debugger has not answered ``asked`` (an MI command, without its token) for
    ``seconds``, and wrote nothing meanwhile (see :mod:`~cudatui.gdbbridge.session.silence`)."""

    asked: str
    seconds: float


@dataclass(frozen=True)
class Answered:
    """The debugger said :class:`Silent` answered ``asked`` after all, ``seconds`` after it was sent."""

    asked: str
    seconds: float


@dataclass(frozen=True)
class DebuggerExited:
    """gdb itself went away: ``returncode`` is negative for a signal (-9 = SIGKILL). With
    ``output_closed`` it closed its standard output and did not exit: it is gone for us
    (killed when the session closes) and ``returncode`` is None."""

    returncode: int | None
    expected: bool
    output_closed: bool = False

    @property
    def description(self) -> str:
        rc = self.returncode
        if self.output_closed:
            return "debugger closed its output but did not exit"
        if rc is None:
            return "debugger exited"
        if rc < 0:
            import signal

            try:
                name = signal.Signals(-rc).name
            except ValueError:
                name = f"signal {-rc}"
            return f"debugger killed by {name}"
        return f"debugger exited with code {rc}"


Event = (Running | Stopped | Notify | Stream | ProgramOutput | RecordingStopped | NonMI | UnmatchedResult | LineDropped
         | Silent | Answered | DebuggerExited)
