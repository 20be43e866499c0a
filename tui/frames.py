"""Up and down the call stack by one frame (``<``/``>``, and ``u``/``d`` in the source and stack
panes), as gdb's ``up`` and ``down``: up is the caller."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from cudatui.gdbbridge import short_name

if TYPE_CHECKING:
    from cudatui.tui.app import DebuggerApp


def frame_step(app: "DebuggerApp", step: int) -> None:
    """Select the frame ``step`` levels above (positive: callers) the one shown, or say why not."""
    state = app.last_state
    if state is None or state.stop.exited or not state.frames:
        app.notify_user("no stack: the program is not stopped", "warning")
        return
    level = state.selected_frame + step
    if not 0 <= level < len(state.frames):
        edge = state.frames[-1 if step > 0 else 0]
        where = "outermost (initial)" if step > 0 else "innermost (bottom)"
        app.notify_user(f"already at the {where} frame: #{edge.level} {short_name(edge.func)}", "warning")
        return
    app.spawn(partial(app.debugger.select_frame, level), "frame")
