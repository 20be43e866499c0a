"""The parts of a stop that a pane on the screen shows beyond the stop's batch, gathered with it.

The UI says which of them a pane on the screen shows (the Debugger's ``show_parts``); a stop's
refresh gathers them after its batch (:meth:`OnDemand.gather`), into the same one snapshot; one
that comes on the screen while the stop shown lacks it is asked at once and the stop is shown
again with it (:class:`~cudatui.gdbbridge.debugger.shown.Shown`). No pane asks gdb for them: the
panes render what the snapshot holds.

- SASS (the SASS pane): ``-data-disassemble`` from pc to pc+SASS_AFTER (the bytes the UI asks
  for; from two instructions before errorpc at an exception whose errorpc lies before pc: the
  faulting instruction is shown). It
  costs 0.4-0.7 s of cuda-gdb's time on the H200, so the instructions are kept by address range
  for the session (a kernel's code does not change while it is loaded): a step that stays inside
  a range read before asks nothing.
"""

from __future__ import annotations

from dataclasses import replace

from cudatui.gdbbridge.cuda.disassembly import INSTRUCTION_BYTES, disassemble
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.answers import Answer
from cudatui.gdbbridge.models.cuda import Instruction
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.text import clean

SASS_AFTER = 128
"""Bytes of SASS the SASS pane shows after pc (eight instructions)."""


def sass_window(state: StopState, pc: int, after: int) -> tuple[str, str]:
    """The address expressions the SASS at ``state`` is read between: pc to pc+``after``, from two
    instructions before errorpc at an exception that faulted before pc."""
    errorpc = state.errorpc
    start = "$pc"
    if state.stop.exception is not None and errorpc and errorpc < pc:
        start = f"{errorpc - 2 * INSTRUCTION_BYTES:#x}"
    return start, f"$pc+{after}"


class OnDemand:
    """The on-demand parts the screen shows and their gathering (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext) -> None:
        self.ctx = ctx
        self.sass = 0
        """The bytes of SASS after pc the screen shows (0: no SASS pane on the screen)."""
        self._ranges: dict[tuple[int, int], tuple[Instruction, ...]] = {}
        """SASS read this session, by [first address, end address)."""

    def missing(self, state: StopState) -> bool:
        """Whether ``state`` lacks a part the screen shows."""
        return self._wants_sass(state)

    async def gather(self, state: StopState) -> StopState:
        """``state`` with the parts the screen shows that it lacks (the lock is held)."""
        if self._wants_sass(state):
            state = replace(state, sass=await self._sass(state))
        return state

    def forget(self) -> None:
        """Drop the SASS read so far: the next stop shown with the SASS pane reads it again."""
        self._ranges.clear()

    def _wants_sass(self, state: StopState) -> bool:
        frame = state.frame
        return self.sass > 0 and state.sass is None and state.in_kernel and frame is not None and frame.addr is not None

    async def _sass(self, state: StopState) -> Answer[tuple[Instruction, ...]]:
        frame = state.frame
        assert frame is not None and frame.addr is not None and self.ctx.session is not None
        pc = frame.addr
        for (low, high), insns in self._ranges.items():
            if low <= pc < high:
                return Answer(f"{low:#x}..{high:#x}", insns)
        start, end = sass_window(state, pc, self.sass)
        asked = f"{start}..{end}"
        try:
            insns = clean(await disassemble(self.ctx.session, start, end))
        except MIError as exc:
            return Answer(asked, (), exc.message, exc.not_recorded)
        if insns:
            self._ranges[(min(i.address for i in insns), max(i.address for i in insns) + INSTRUCTION_BYTES)] = insns
        return Answer(asked, insns, "" if insns else f"no instructions at {pc:#x}")
