"""The Debugger's part that answers what the app asks once at a stop, beside the stop's state: a
value shown whole in a dialog, the program's source files (the file finder), a replay's GPU
sample. Each holds the Debugger's one lock (gdb's focus and frame are shared) and answers clean
text; a refusal raises MIError to the caller. None publishes a state: what a pane shows at each
stop is a part of the stop's state (:mod:`cudatui.gdbbridge.debugger.on_demand`)."""

from __future__ import annotations

from cudatui.gdbbridge.cuda.evaluation import evaluate
from cudatui.gdbbridge.debugger.context import DebuggerContext
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


    async def source_files(self) -> tuple[str, ...]:
        """The program's source files as gdb names them (the libraries loaded so far included)."""
        async with self.ctx.lock:
            if self.ctx.session is None or not self.ctx.session.alive:
                raise MIError("the debugger is not running", "")
            return clean(await source_files(self.ctx.session))
