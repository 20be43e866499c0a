"""The Debugger's part that changes breakpoints: insert one (saying when it is pending), toggle
one at a source line, delete, enable, condition. Each change is shown as a bump of the state
(:meth:`~cudatui.gdbbridge.debugger.stop_refresh.StopRefresh.publish_breakpoints`); gdb's refusal
is a Notice. Each change takes the lock; :meth:`BreakpointEdits.insert` is called under it (by
run control, the targets and a sanitizer finding's breakpoint)."""

from __future__ import annotations

from collections.abc import Awaitable

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec, pending_text
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.models import Breakpoint
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError


class BreakpointEdits:
    """Breakpoint changes of one Debugger (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, refresh: StopRefresh) -> None:
        self.ctx = ctx
        self.refresh = refresh

    async def insert(self, spec: BreakpointSpec, *, say_pending: bool = True) -> Breakpoint | None:
        """Insert ``spec``: the breakpoint, or None when gdb refused it (a warning). A pending
        one is said to be one unless ``say_pending`` is off (the caller says it)."""
        ctx = self.ctx
        assert ctx.breakpoints is not None
        ctx.last_log = ""
        try:
            bp = await ctx.breakpoints.add(spec)
        except DebuggerGone:
            raise
        except MIError as exc:
            ctx.notice(f"breakpoint {spec.location}: {exc.message}", "warning", exc)
            return None
        self.refresh.publish_breakpoints()
        if bp.pending and say_pending:
            ctx.notice(f"{pending_text({bp.number: (spec.location, ctx.last_log)})}: it is set when a library or "
                       "kernel defines it; check the location if it never stops", "warning")
        return bp

    async def toggle(self, path: str, line: int) -> None:
        """Delete the breakpoints at ``path:line``, or insert one there."""
        async with self.ctx.lock:
            breakpoints = self.ctx.breakpoints
            if breakpoints is None:
                return
            here = breakpoints.at(path, line)
            if here:
                for bp in here:
                    await self._change(breakpoints.delete(bp.number))
            else:
                await self.insert(BreakpointSpec(f"{path}:{line}"))

    async def delete(self, number: int) -> None:
        async with self.ctx.lock:
            if self.ctx.breakpoints is not None:
                await self._change(self.ctx.breakpoints.delete(number))

    async def enable(self, number: int, enabled: bool) -> None:
        async with self.ctx.lock:
            if self.ctx.breakpoints is not None:
                await self._change(self.ctx.breakpoints.enable(number, enabled))

    async def set_condition(self, number: int, condition: str) -> None:
        async with self.ctx.lock:
            if self.ctx.breakpoints is not None:
                await self._change(self.ctx.breakpoints.set_condition(number, condition))

    async def _change(self, work: Awaitable[None]) -> None:
        if await self.ctx.guard(work):
            self.refresh.publish_breakpoints()
