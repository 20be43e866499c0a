"""The Debugger's part that moves where the UI looks within a stop: the frame shown (by level,
or up and down the stack), the CUDA focus, and the watch expressions evaluated at every stop.
Each takes the lock and shows the same stop again through one refresh (a new generation)."""

from __future__ import annotations

from cudatui.gdbbridge.cuda.focus import FocusSyntaxError, normalize_focus
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.names import short_name
from cudatui.gdbbridge.session.errors import MIError


class Viewpoint:
    """Frame, focus and watches of one Debugger (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, refresh: StopRefresh) -> None:
        self.ctx = ctx
        self.refresh = refresh

    async def select_frame(self, level: int) -> None:
        """Show stack frame ``level`` (its locals, registers, source)."""
        ctx = self.ctx
        async with ctx.lock:
            if ctx.state is not None and ctx.phase is Phase.STOPPED:
                await self.refresh.refresh(ctx.state.stop, selected_frame=level, focus=ctx.state.focus, select=True,
                                           viewpoint=True)

    async def move_frame(self, step: int) -> None:
        """Select the frame ``step`` levels up (positive: the callers, as gdb's ``up``) or down from
        the one shown; at either end a Notice says so. Moves asked for at once add up."""
        ctx = self.ctx
        async with ctx.lock:
            state = ctx.state
            if state is None or ctx.phase is not Phase.STOPPED or not state.frames:
                ctx.notice("no stack: the program is not stopped", "warning")
                return
            level = state.selected_frame + step
            if not 0 <= level < len(state.frames):
                edge = state.frames[-1 if step > 0 else 0]
                where = "outermost (initial)" if step > 0 else "innermost (bottom)"
                ctx.notice(f"already at the {where} frame: #{edge.level} {short_name(edge.func)}", "warning")
                return
            await self.refresh.refresh(state.stop, selected_frame=level, focus=state.focus, select=True, viewpoint=True)

    async def switch_focus(self, request: str) -> None:
        """Move the CUDA focus (``block (1,0,0) thread (5,0,0)``, ``warp 2 lane 3``, ``sm 4``)."""
        ctx = self.ctx
        async with ctx.lock:
            if ctx.session is None or ctx.state is None or ctx.phase is not Phase.STOPPED:
                ctx.notice("the focus can change only while stopped in a kernel", "warning")
                return
            try:  # the switch and the batch of the focus shown in one write
                await self.refresh.refresh(ctx.state.stop, switch=normalize_focus(request), viewpoint=True)
            except (FocusSyntaxError, MIError) as exc:
                ctx.notice(f"focus: {exc}", "error", exc if isinstance(exc, MIError) else None)

    async def add_watch(self, expression: str) -> None:
        """Watch ``expression``: evaluated at every stop (``StopState.watches``)."""
        async with self.ctx.lock:
            if expression and expression not in self.ctx.watches:
                self.ctx.watches.append(expression)
                await self.refresh.publish_watches()

    async def remove_watch(self, expression: str) -> None:
        async with self.ctx.lock:
            if expression in self.ctx.watches:
                self.ctx.watches.remove(expression)
                await self.refresh.publish_watches()
