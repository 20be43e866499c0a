"""The Debugger's part that answers the on-demand queries a pane asks at a stop
(:class:`~cudatui.gdbbridge.debugger.queries.DebuggerQueries`): values, variable members, shared
memory, thread and block ranges, source files, a replay's GPU sample. Each holds the Debugger's
one lock (gdb's focus and frame are shared) and answers clean text; a refusal raises MIError to
the pane that asked. A query publishes no state: its answer goes to the pane that asked (the warp
watch and the culprit lane are parts of the stop's state: :mod:`~cudatui.gdbbridge.debugger.parts.lane_watch`)."""

from __future__ import annotations

from cudatui.gdbbridge.cuda.evaluation import evaluate, read_shared
from cudatui.gdbbridge.models.cuda import BlockRange, ThreadRange
from cudatui.gdbbridge.cuda.tables import info, parse_blocks, parse_threads
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.varobj import Path, VarNode
from cudatui.gdbbridge.nvml.models import Snapshot
from cudatui.gdbbridge.nvml.recorded import COMMAND as GPU_SAMPLE, decode as decode_gpu_sample
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.source_files import source_files
from cudatui.gdbbridge.text import clean


class StopQueries:
    """The queries of one Debugger (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext) -> None:
        self.ctx = ctx

    async def evaluate(self, expression: str) -> str:
        """The value of ``expression`` in the focused thread, as gdb prints it."""
        async with self.ctx.lock:
            return clean(await evaluate(self.ctx.stopped(), expression))

    async def children(self, path: Path) -> tuple[VarNode, ...]:
        """The members, elements or pointee of the variable at ``path`` (a local or watch
        expression, then child names), through gdb's variable objects."""
        async with self.ctx.lock:
            self.ctx.stopped()
            assert self.ctx.variables is not None
            return clean(await self.ctx.variables.children(path))

    async def read_shared(self, name: str, start: int, count: int) -> tuple[str, ...]:
        """``count`` elements (rows, for a 2-D array) of shared array ``name`` from ``start``."""
        async with self.ctx.lock:
            return clean(await read_shared(self.ctx.stopped(), name, start, count))

    async def recorded_gpu_sample(self) -> Snapshot | None:
        """In a replay, the next GPU sample recorded at this stop (the last one again once all were
        served); None live, or when the recording holds none here."""
        async with self.ctx.lock:
            if self.ctx.session is None or not self.ctx.session.alive or not self.ctx.config.replayed:
                return None
            try:
                return clean(decode_gpu_sample(await self.ctx.session.command(GPU_SAMPLE)))
            except (MIError, ValueError):
                return None

    async def blocks(self) -> tuple[BlockRange, ...]:
        """The coalesced block ranges of every running kernel."""
        async with self.ctx.lock:
            return clean(parse_blocks(await info(self.ctx.stopped(), "blocks")))

    async def threads(self) -> tuple[ThreadRange, ...]:
        """The coalesced thread ranges (same pc and line) of every running kernel."""
        async with self.ctx.lock:
            return clean(parse_threads(await info(self.ctx.stopped(), "threads")))

    async def source_files(self) -> tuple[str, ...]:
        """The program's source files as gdb names them (the libraries loaded so far included)."""
        async with self.ctx.lock:
            if self.ctx.session is None or not self.ctx.session.alive:
                raise MIError("the debugger is not running", "")
            return clean(await source_files(self.ctx.session))
