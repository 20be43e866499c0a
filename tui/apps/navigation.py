"""The keys that move where the debugger looks, on every screen of the app: up and down the call
stack (``<``/``>``, as gdb's ``up``/``down``: up is the caller; ``u``/``d`` in the source and stack
panes) and the next thread sitting at the breakpoint (``T``). The app class derives from
:class:`NavigatingApp`; its Debugger does the moves."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding

from cudatui.tui.panes.bp_threads import BreakpointThreads
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.apps.toasts import ToastingApp

if TYPE_CHECKING:
    from cudatui.gdbbridge import Debugger
    from cudatui.tui.apps.debugger_link import DebuggerLink


class NavigatingApp(ToastingApp[int]):
    """Frame and breakpoint-thread keys for an app that has a ``debugger`` and its ``link``.

    | Key | Action |
    | :- | :- |
    | < / > | Up (the caller) / down one frame |
    | T | Move the CUDA focus to the next block sitting at the breakpoint of this stop |
    """

    BINDINGS = [
        Binding("less_than_sign", "frame(1)", "Up frame", key_display="<", show=False),
        Binding("greater_than_sign", "frame(-1)", "Down frame", key_display=">", show=False),
        Binding("T", "next_at_breakpoint", "Next block at the breakpoint", show=False),
    ]

    debugger: Debugger
    link: DebuggerLink

    def on_mount(self) -> None:
        self.query_one(SourcePane).queries = self.debugger  # its file finder asks for the source files

    def action_frame(self, step: int) -> None:
        self.link.spawn(partial(self.debugger.move_frame, step), "frame")

    def action_next_at_breakpoint(self) -> None:
        threads = self.query_one(BreakpointThreads)
        if not threads.next():
            self.notify("no other thread sits at a breakpoint here (T works at a kernel's breakpoint stop)",
                        severity="warning")
