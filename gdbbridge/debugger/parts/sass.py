"""The SASS pane's part of a stop: the instructions around the selected frame's pc.

``-data-disassemble`` from pc to pc+``after`` (the bytes the UI asks for), from two instructions
before errorpc at an exception whose errorpc lies before pc (the faulting instruction is shown).
It costs 0.4-0.7 s of cuda-gdb's time on the H200, so the instructions are kept by address range
for the session (a kernel's code does not change while it is loaded): a step that stays inside a
range read before asks nothing.
"""

from __future__ import annotations

from cudatui.gdbbridge.cuda.disassembly import INSTRUCTION_BYTES, disassemble
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.answers import Answer
from cudatui.gdbbridge.models.cuda import Instruction
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
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


class Sass:
    """The SASS part (see the module docstring)."""

    field = "sass"

    def __init__(self) -> None:
        self.after = 0
        """The bytes of SASS after pc the screen shows (0: no SASS pane on the screen)."""
        self._ranges: dict[tuple[int, int], tuple[Instruction, ...]] = {}
        """SASS read this session, by [first address, end address)."""

    def wanted(self, state: StopState) -> bool:
        frame = state.frame
        return self.after > 0 and state.sass is None and state.in_kernel and frame is not None and frame.addr is not None

    def forget(self) -> None:
        """Drop the SASS read so far: the next stop shown with the SASS pane reads it again."""
        self._ranges.clear()

    async def gather(self, session: GdbSession, state: StopState) -> Answer[tuple[Instruction, ...]]:
        frame = state.frame
        assert frame is not None and frame.addr is not None
        pc = frame.addr
        for (low, high), insns in self._ranges.items():
            if low <= pc < high:
                return Answer(f"{low:#x}..{high:#x}", insns)
        start, end = sass_window(state, pc, self.after)
        asked = f"{start}..{end}"
        try:
            insns = clean(await disassemble(session, start, end))
        except MIError as exc:
            return Answer(asked, (), exc.message, exc.not_recorded)
        if insns:
            self._ranges[(min(i.address for i in insns), max(i.address for i in insns) + INSTRUCTION_BYTES)] = insns
        return Answer(asked, insns, "" if insns else f"no instructions at {pc:#x}")
