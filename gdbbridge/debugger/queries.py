"""The on-demand queries a pane may make, answered at the stop the UI shows.

:class:`DebuggerQueries` is what a pane is given; the
:class:`~cudatui.gdbbridge.debugger.debugger.Debugger` implements it, each call one or a few MI
requests under its lock (gdb's focus and frame are shared: a step in between would read another
place).
"""

from __future__ import annotations

from typing import Protocol



class DebuggerQueries(Protocol):
    """The on-demand queries of the panes; each raises MIError when gdb (or the phase) refuses it."""

    async def evaluate(self, expression: str) -> str:
        """The value of ``expression`` in the focused thread, as gdb prints it."""


    async def source_files(self) -> tuple[str, ...]:
        """The program's source files as gdb names them (the libraries loaded so far included)."""
