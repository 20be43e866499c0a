"""The errors a :class:`~cudatui.gdbbridge.session.gdb.GdbSession` raises."""

from __future__ import annotations

NOT_RECORDED = "not in this recording"
"""How the replay stand-in (:mod:`cudatui.gdbbridge.record.replay`) begins its answer to a
command its recording lacks."""
NEXT_STEP = " (the recording goes on with: "
"""How the replay stand-in names, in a refused move, the recorded path's next step from where it is."""


class MIError(Exception):
    """gdb answered ``^error``: ``message`` is gdb's own text, ``command`` what we sent."""

    def __init__(self, message: str, command: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.command = command

    @property
    def not_recorded(self) -> bool:
        """Whether the replay stand-in refused the command: its recording lacks it."""
        return self.message.startswith(NOT_RECORDED)


class DebuggerGone(MIError):
    """The debugger exited or was killed while a request was pending (or before it was sent)."""


class StartupTimeout(DebuggerGone):
    """The debugger gave no MI answer within its start-up bound (``seconds``): no gdb, or a gdb
    stuck attaching (``-p``) to a process that never stops."""

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


class DebuggerNotFound(OSError):
    """The debugger executable could not be started."""
