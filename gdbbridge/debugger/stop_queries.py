"""The Debugger's part that answers the on-demand queries a pane asks at a stop
(:class:`~cudatui.gdbbridge.debugger.queries.DebuggerQueries`): values, shared
memory, the warp watch and culprit lane, source files, a replay's
GPU sample. Each holds the Debugger's one lock (gdb's focus and frame are shared) and answers
clean text; a refusal raises MIError to the pane that asked. A query publishes no state: its
answer goes to the pane that asked (the culprit search leaves the focus where it was: the pane
asks for the move to the culprit lane like any focus switch)."""

from __future__ import annotations

from cudatui.gdbbridge.cuda import warp_watch
from cudatui.gdbbridge.cuda.culprit import culprit_of
from cudatui.gdbbridge.cuda.evaluation import evaluate, read_shared
from cudatui.gdbbridge.models.culprit import Culprit
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.state import WARP_TABLES_UNASKED, warp_tables_unsafe
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

    async def evaluate_in_lanes(self, expression: str) -> tuple[tuple[int, str], ...]:
        """``expression`` in each active lane of the focused warp; the focus is restored."""
        async with self.ctx.lock:
            self._lanes_listable()
            values = await warp_watch.evaluate_in_lanes(self.ctx.stopped(), expression)
            return clean(tuple((v.lane, v.text) for v in values))

    async def find_culprit(self) -> Culprit:
        """At a warp-wide exception: the lane whose values on the faulting line are out of range
        (:mod:`cudatui.gdbbridge.cuda.culprit`); the focus stays where it is."""
        async with self.ctx.lock:
            session, state = self.ctx.stopped(), self.ctx.state
            assert state is not None
            self._lanes_listable()
            return clean(await culprit_of(session, state, self.ctx.config.source_dirs, self.ctx.config.replayed))

    def _lanes_listable(self) -> None:
        if self.ctx.state is not None and warp_tables_unsafe(self.ctx.state.stop):
            raise warp_watch.WarpWatchError(WARP_TABLES_UNASKED)

    async def source_files(self) -> tuple[str, ...]:
        """The program's source files as gdb names them (the libraries loaded so far included)."""
        async with self.ctx.lock:
            if self.ctx.session is None or not self.ctx.session.alive:
                raise MIError("the debugger is not running", "")
            return clean(await source_files(self.ctx.session))
