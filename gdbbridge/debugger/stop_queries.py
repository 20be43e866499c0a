"""The on-demand queries a pane asks at a stop (:class:`~cudatui.gdbbridge.debugger.queries.DebuggerQueries`):
values, variable members, shared memory, SASS, the warp watch and culprit lane, thread and block
ranges, source files, a replay's GPU sample. Each holds the Debugger's one lock (gdb's focus and
frame are shared) and answers clean text; a refusal raises MIError to the pane that asked."""

from __future__ import annotations

from cudatui.gdbbridge.cuda import warp_watch
from cudatui.gdbbridge.cuda.breakpoint_threads import at_breakpoint
from cudatui.gdbbridge.cuda.culprit import Culprit, faulting_line, find_culprit
from cudatui.gdbbridge.cuda.disassembly import disassemble
from cudatui.gdbbridge.cuda.evaluation import evaluate, read_shared
from cudatui.gdbbridge.cuda.focus import switch_focus
from cudatui.gdbbridge.models.cuda import BlockRange, Instruction, ThreadRange
from cudatui.gdbbridge.cuda.tables import info, parse_blocks, parse_threads
from cudatui.gdbbridge.debugger.core import DebuggerCore
from cudatui.gdbbridge.debugger.state import WARP_TABLES_UNASKED, warp_tables_unsafe
from cudatui.gdbbridge.debugger.varobj import Path, VarNode
from cudatui.gdbbridge.nvml.models import Snapshot
from cudatui.gdbbridge.nvml.recorded import COMMAND as GPU_SAMPLE, decode as decode_gpu_sample
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.source_files import source_files
from cudatui.gdbbridge.text import clean


class StopQueries(DebuggerCore):
    """The queries of a :class:`~cudatui.gdbbridge.debugger.debugger.Debugger` (see the module docstring)."""

    async def evaluate(self, expression: str) -> str:
        """The value of ``expression`` in the focused thread, as gdb prints it."""
        async with self._lock:
            return clean(await evaluate(self._stopped(), expression))

    async def children(self, path: Path) -> tuple[VarNode, ...]:
        """The members, elements or pointee of the variable at ``path`` (a local or watch
        expression, then child names), through gdb's variable objects."""
        async with self._lock:
            self._stopped()
            assert self.variables is not None
            return clean(await self.variables.children(path))

    async def read_shared(self, name: str, start: int, count: int) -> tuple[str, ...]:
        """``count`` elements (rows, for a 2-D array) of shared array ``name`` from ``start``."""
        async with self._lock:
            return clean(await read_shared(self._stopped(), name, start, count))

    async def disassemble(self, start: str, end: str) -> tuple[Instruction, ...]:
        """SASS between two address expressions, with source lines."""
        async with self._lock:
            return clean(await disassemble(self._stopped(), start, end))

    async def recorded_gpu_sample(self) -> Snapshot | None:
        """In a replay, the next GPU sample recorded at this stop (the last one again once all were
        served); None live, or when the recording holds none here."""
        async with self._lock:
            if self.session is None or not self.session.alive or not self.config.replayed:
                return None
            try:
                return clean(decode_gpu_sample(await self.session.command(GPU_SAMPLE)))
            except (MIError, ValueError):
                return None

    async def evaluate_in_lanes(self, expression: str) -> tuple[tuple[int, str], ...]:
        """``expression`` in each active lane of the focused warp; the focus is restored."""
        async with self._lock:
            self._lanes_listable()
            values = await warp_watch.evaluate_in_lanes(self._stopped(), expression)
            return clean(tuple((v.lane, v.text) for v in values))

    async def find_culprit(self) -> Culprit:
        """At a warp-wide exception: the lane whose values on the faulting line are out of range
        (:mod:`cudatui.gdbbridge.cuda.culprit`); the focus moves to it."""
        async with self._lock:
            session, state = self._stopped(), self.state
            assert state is not None
            self._lanes_listable()
            code, before = faulting_line(state, self.config.source_dirs, self.config.replayed)
            culprit = await find_culprit(session, state, code, before)
            focused = state.focus.lane if state.focus else None
            if culprit.lane is not None and culprit.lane != focused:
                result = await switch_focus(session, f"lane {culprit.lane}")
                await self._refresh(state.stop, focus=result.focus)
            return clean(culprit)

    def _lanes_listable(self) -> None:
        if self.state is not None and warp_tables_unsafe(self.state.stop):
            raise warp_watch.WarpWatchError(WARP_TABLES_UNASKED)

    async def blocks(self) -> tuple[BlockRange, ...]:
        """The coalesced block ranges of every running kernel."""
        async with self._lock:
            return clean(parse_blocks(await info(self._stopped(), "blocks")))

    async def threads(self) -> tuple[ThreadRange, ...]:
        """The coalesced thread ranges (same pc and line) of every running kernel."""
        async with self._lock:
            return clean(parse_threads(await info(self._stopped(), "threads")))

    async def threads_at_breakpoint(self, number: int) -> tuple[ThreadRange, ...]:
        """The thread ranges sitting at breakpoint ``number``'s lines (see cuda/breakpoint_threads.py)."""
        async with self._lock:
            bp = next((b for b in self.breakpoints.listed if b.number == number), None) if self.breakpoints else None
            if bp is None:
                return ()
            return clean(at_breakpoint(parse_threads(await info(self._stopped(), "threads")), bp))

    async def source_files(self) -> tuple[str, ...]:
        """The program's source files as gdb names them (the libraries loaded so far included)."""
        async with self._lock:
            if self.session is None or not self.session.alive:
                raise MIError("the debugger is not running", "")
            return clean(await source_files(self.session))
