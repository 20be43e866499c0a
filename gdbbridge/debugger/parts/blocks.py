"""The Focus pane's part of a stop: the coalesced block ranges of every running kernel.

``-cuda-info-blocks``, asked at each place (a stop, a focus or frame change) while the Focus
pane on the screen has a kernel open; a bump keeps them. The thread ranges under an open block
range are the stop's ``threads`` (the batch's thread table, shown as the Warps pane's is).
cuda-gdb's tables select frame 0: the frame shown is selected again after it.
"""

from __future__ import annotations

from cudatui.gdbbridge.cuda.tables import parse_blocks
from cudatui.gdbbridge.debugger.state import info_at_frame
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.answers import Answer
from cudatui.gdbbridge.models.cuda import BlockRange
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import clean


class Blocks:
    """The block ranges part (see the module docstring)."""

    field = "blocks"

    def __init__(self) -> None:
        self.shown = False
        """Whether the Focus pane on the screen has a kernel open."""

    def wanted(self, state: StopState) -> bool:
        return self.shown and state.blocks is None and bool(state.kernels) and not state.stop.exited

    async def gather(self, session: GdbSession, state: StopState) -> Answer[tuple[BlockRange, ...]]:
        try:
            blocks = clean(parse_blocks(await info_at_frame(session, "blocks", state.selected_frame)))
        except MIError as exc:
            return Answer("blocks", (), exc.message, exc.not_recorded)
        return Answer("blocks", blocks)
