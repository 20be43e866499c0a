"""The errors a :class:`~cudatui.gdbbridge.session.gdb.GdbSession` raises."""

from __future__ import annotations


class MIError(Exception):
    """gdb answered ``^error``: ``message`` is gdb's own text, ``command`` what we sent."""

    def __init__(self, message: str, command: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.command = command


class DebuggerGone(MIError):
    """The debugger exited or was killed while a request was pending (or before it was sent)."""


class DebuggerNotFound(OSError):
    """The debugger executable could not be started."""
