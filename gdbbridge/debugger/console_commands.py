"""The Debugger's part that runs a gdb CLI command the user typed in the console.

Its output is ConsoleOutput; the log records gdb says while it runs are shown once it ended
(but the one that is its error). A command that changed gdb's frame or CUDA focus within the
stop (``up 2``, ``cuda lane 3``) shows the stop again from where gdb now looks."""

from __future__ import annotations

from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.events import ConsoleOutput
from cudatui.gdbbridge.debugger.state import reselect_frame
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.session.errors import MIError


class ConsoleCommands:
    """The console commands of one Debugger (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, refresh: StopRefresh) -> None:
        self.ctx = ctx
        self.refresh = refresh
        self.said: list[str] | None = None
        """While the user's console command runs, the log records (``&``) gdb says meanwhile
        (shown once it ended), else None; its console records are what the session captures."""
        self.selected: int | None = None
        """The frame level gdb said it selected (``=thread-selected``) while a console command ran."""

    async def run(self, command: str) -> None:
        """Run a gdb CLI command; its output is ConsoleOutput."""
        ctx = self.ctx
        async with ctx.lock:
            session = ctx.session
            if session is None or not session.alive:
                ctx.emit(ConsoleOutput("the debugger is not running (r restarts it)\n", "error"))
                return
            ctx.emit(ConsoleOutput(f"(gdb) {command}\n", "command"))
            before = session.last_stop
            self.selected = None
            said: list[str] = []
            self.said = said
            try:
                if ctx.phase is Phase.STOPPED and ctx.state is not None and ctx.state.selected_frame:
                    await reselect_frame(session, ctx.state.selected_frame)  # a lane walk may have reset it
                text = await session.console(command)
            except MIError as exc:
                self._say_logs(said, exc.message)
                ctx.emit(ConsoleOutput(exc.message + "\n", "error", exc.not_recorded))
                return
            finally:
                self.said = None
            self._say_logs(said)
            if text:
                ctx.emit(ConsoleOutput(text, "console"))
            state = ctx.state
            if ctx.phase is Phase.STOPPED and session.last_stop is before and state is not None:
                # gdb keeps the frame it has selected (`up 2`, `frame 1` change it: =thread-selected)
                # the focus: the one cuda-gdb said it switched to, else the one shown, unless the info
                # tables mark a warp current (cuda-gdb 13.0 marks none in some: the stop's focus came back)
                level = self.selected
                focus = CudaFocus.from_console(text or "") or state.focus
                await self.refresh.refresh(state.stop, focus=focus, requery_focus=state.in_kernel, select=False,
                                           selected_frame=state.selected_frame if level is None else level)

    def _say_logs(self, said: list[str], error: str = "") -> None:
        """The log records a console command made gdb say, but the one that is its ``error``."""
        for text in said:
            if not error or text.strip() != error.strip():
                self.ctx.emit(ConsoleOutput(text, "log"))
