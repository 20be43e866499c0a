"""The on-demand queries a pane may make, answered at the stop the UI shows.

:class:`DebuggerQueries` is what a pane is given; the
:class:`~cudatui.gdbbridge.debugger.debugger.Debugger` implements it, each call one or a few MI
requests under its lock (the warp watch switches the focus lane by lane: a step or another
query in between would read the wrong lane).
"""

from __future__ import annotations

from typing import Protocol

from cudatui.gdbbridge.models.culprit import Culprit


class DebuggerQueries(Protocol):
    """The on-demand queries of the panes; each raises MIError when gdb (or the phase) refuses it."""

    async def evaluate(self, expression: str) -> str:
        """The value of ``expression`` in the focused thread, as gdb prints it."""

    async def read_shared(self, name: str, start: int, count: int) -> tuple[str, ...]:
        """``count`` elements (rows, for a 2-D array) of shared array ``name`` from ``start``."""

    async def evaluate_in_lanes(self, expression: str) -> tuple[tuple[int, str], ...]:
        """``expression`` in each active lane of the focused warp; the focus is restored."""

    async def find_culprit(self) -> Culprit:
        """At a warp-wide exception: the lane whose values on the faulting line are out of range
        and the expressions whose values differ between lanes; the focus stays (the pane asks for
        the move to that lane as a focus switch)."""

    async def source_files(self) -> tuple[str, ...]:
        """The program's source files as gdb names them (the libraries loaded so far included)."""
