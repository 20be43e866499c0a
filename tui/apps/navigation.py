"""The keys that move where the debugger looks, on every screen of the app: up and down the call
stack (``<``/``>``, as gdb's ``up``/``down``: up is the caller; ``u``/``d`` in the source and stack
panes), the next thread sitting at the breakpoint (``T``) and the file finder (``o`` in the
source pane). The app class derives from :class:`NavigatingApp`; its Debugger does the moves and
names the files."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding

from cudatui.gdbbridge import MIError, clean
from cudatui.tui.messages import FilesWanted
from cudatui.tui.panes.bp_threads import BreakpointThreads
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.apps.toasts import ToastingApp
from cudatui.tui.widgets.file_finder import FileFinder

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

    def on_source_pane_files_wanted(self, message: FilesWanted) -> None:
        self.link.spawn(self._find_file, "source-files")

    async def _find_file(self) -> None:
        """The file finder over the program's source files (gdb names them); the file chosen is
        shown in the source pane."""
        try:
            files = await self.debugger.source_files()
        except MIError as exc:
            self.notify(clean(f"the program's source files: {exc.message}"), severity="warning", markup=False)
            return
        if not files:
            self.notify("gdb knows no source file of this program (built without -g?)", severity="warning")
            return
        self.push_screen(FileFinder(files), self.query_one(SourcePane).open_found)

    def action_frame(self, step: int) -> None:
        self.link.spawn(partial(self.debugger.move_frame, step), "frame")

    def action_next_at_breakpoint(self) -> None:
        threads = self.query_one(BreakpointThreads)
        if not threads.next():
            self.notify("no other thread sits at a breakpoint here (T works at a kernel's breakpoint stop)",
                        severity="warning")
