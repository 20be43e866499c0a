"""A key for every pane, as lazygit's and btop's number keys: it shows the pane (its tab selected,
a zoom of another pane ended) and focuses it. ``:`` is the Console's (it opens its input)."""

from __future__ import annotations

from textual.binding import Binding
from textual.widget import Widget

from cudatui.tui.apps.layout import Workspace
from cudatui.tui.apps.noticing import NoticesApp


class PaneKeysApp(NoticesApp):
    """The pane keys, on the debugger's main screen.

    | Key | Pane |
    | :- | :- |
    | 1 - 9 | Source, Locals, Focus, Warps, Stack, Breaks, Regs, SASS, Shared |
    | O / G / M | Output, GPU, Sanitize (M as memcheck) |
    """

    BINDINGS = [
        Binding("1", "show('source')", "Show Source", show=False),
        Binding("2", "show('locals')", "Show Locals", show=False),
        Binding("3", "show('focus')", "Show Focus", show=False),
        Binding("4", "show('warps')", "Show Warps", show=False),
        Binding("5", "show('stack')", "Show Stack", show=False),
        Binding("6", "show('breakpoints')", "Show Breaks", show=False),
        Binding("7", "show('registers')", "Show Regs", show=False),
        Binding("8", "show('disassembly')", "Show SASS", show=False),
        Binding("9", "show('shared')", "Show Shared", show=False),
        Binding("O", "show('output')", "Show Output", show=False),
        Binding("G", "show('gpu')", "Show GPU", show=False),
        Binding("M", "show('sanitizer')", "Show Sanitize", show=False),
    ]

    def show_pane(self, pane_id: str) -> Widget:
        """Put a pane on the screen (selecting its tab where it has one) and return it."""
        return self.query_one(Workspace).show_pane(pane_id)

    def open_pane(self, pane_id: str) -> Widget:
        """Show a pane for what the user asked (a key that opens it) and give it the focus, so that
        the pane's keys (the guide's next step, ``d`` in Sanitize) reach it."""
        pane = self.show_pane(pane_id)
        target = next((w for w in [pane, *pane.query("*")] if w.focusable or (w.can_focus and w.display)), None)
        if target is not None:
            self.call_after_refresh(target.focus)
        return pane

    def action_show(self, pane_id: str) -> None:
        """Show the pane ``pane_id`` and focus it (on the main screen only: a dialog keeps its keys)."""
        if self.screen is self.screen_stack[0]:
            self.open_pane(pane_id)
