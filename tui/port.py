"""The panes' on-demand queries, answered by a live (or replayed) :class:`GdbSession`.

:class:`SessionPort` implements :class:`cudatui.tui.panes.base.DebuggerPort` plus the CUDA tables the
focus navigator expands lazily (:class:`CudaPort`). Every call is one or a few MI requests
through gdbbridge; nothing here builds MI text. While the program runs nothing is sent: the
call raises :class:`MIError` (a pane re-renders a state of the last stop when a breakpoint
changes; its queries wait for the next stop).
"""

from __future__ import annotations

from typing import Protocol

from cudatui.gdbbridge.cuda import disassembly, evaluation, tables, warp_watch
from cudatui.gdbbridge.cuda.models import BlockRange, Instruction, ThreadRange
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.tui.panes.base import DebuggerPort


_NOT_STOPPED = {"running": "the program is running", "exited": "the program has exited",
                "ready": "the program has not started", "not-started": "the debugger has not started"}


class CudaPort(DebuggerPort, Protocol):
    """A DebuggerPort that can also list the coalesced block and thread tables."""

    async def blocks(self) -> tuple[BlockRange, ...]: ...

    async def threads(self) -> tuple[ThreadRange, ...]: ...


class SessionPort:
    """On-demand queries over one GdbSession (see the module docstring)."""

    def __init__(self, session: GdbSession) -> None:
        self.session = session

    def _check_stopped(self) -> None:
        state = self.session.state
        if state != "stopped":
            raise MIError(_NOT_STOPPED.get(state, "the debugger is gone"), "")

    async def evaluate(self, expression: str) -> str:
        """The value of ``expression`` in the focused thread, as gdb prints it."""
        self._check_stopped()
        return await evaluation.evaluate(self.session, expression)

    async def read_shared(self, name: str, start: int, count: int) -> tuple[str, ...]:
        """``count`` elements (rows, for a 2-D array) of shared array ``name`` from ``start``."""
        self._check_stopped()
        return await evaluation.read_shared(self.session, name, start, count)

    async def disassemble(self, start: str, end: str) -> tuple[Instruction, ...]:
        """SASS between two address expressions, with source lines."""
        self._check_stopped()
        return await disassembly.disassemble(self.session, start, end)

    async def evaluate_in_lanes(self, expression: str) -> tuple[tuple[int, str], ...]:
        """``expression`` in each active lane of the focused warp; the focus is restored."""
        self._check_stopped()
        values = await warp_watch.evaluate_in_lanes(self.session, expression)
        return tuple((v.lane, v.text) for v in values)

    async def blocks(self) -> tuple[BlockRange, ...]:
        """The coalesced block ranges of every running kernel."""
        self._check_stopped()
        return tables.parse_blocks(await tables.info(self.session, "blocks"))

    async def threads(self) -> tuple[ThreadRange, ...]:
        """The coalesced thread ranges (same pc and line) of every running kernel."""
        self._check_stopped()
        return tables.parse_threads(await tables.info(self.session, "threads"))
