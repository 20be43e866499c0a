"""The one-line input a pane edits in: the console's command line, the watch expressions of the
locals and warps panes, a breakpoint's condition, the focus pane's go-to and the shared array to add.

Every one has the same keys and gives the focus back when it is left, so that the debugger's
keys (``n``, ``s``, ``c`` ...) work again at once: an input left open never keeps them.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input

from cudatui.tui.textual_compat import InPlaceScrollView


class InlineInput(InPlaceScrollView, Input):
    """A one-line input with a history of what was submitted, left with escape.

    A pane opens it with :meth:`open` (from its key: ``:``, ``w``, ``e`` ...) and handles its
    ``Input.Submitted``. Enter submits, empties the line and leaves it, unless the input is a
    ``command_line`` (the console's, where one types command after command: it keeps the focus);
    escape empties it and leaves. Leaving gives the focus back to the widget that had it when the
    input was opened (else to the pane's first focusable widget), so the next key is the pane's or
    the debugger's again. A *transient* input is shown only while it is open; the others (the
    console's command line, the locals' watch line) stay on screen. Typing in it lays nothing out
    (an :class:`~cudatui.tui.textual_compat.InPlaceScrollView`: its size does not follow its text).

    | Key | Action |
    | :- | :- |
    | enter | Submit |
    | escape | Leave (what was typed is dropped) |
    | up / down | Previous / next submitted line |
    """

    DEFAULT_CSS = """
    InlineInput.-transient { dock: bottom; }
    """
    """A transient input sits at the bottom edge of its pane, over the pane's last rows while it
    is open: a pane's tables fill its height, and an input laid out after them would be cut off."""

    BINDINGS = [
        Binding("escape", "leave", "Leave", show=False),
        Binding("up", "history(-1)", "Previous", show=False),
        Binding("down", "history(1)", "Next", show=False),
    ]

    def __init__(self, value: str | None = None, *, placeholder: str = "", transient: bool = False,
                 command_line: bool = False, compact: bool = False, limit: int = 500, id: str | None = None) -> None:
        super().__init__(value, placeholder=placeholder, compact=compact, id=id)
        self.transient = transient
        """Shown only while open."""
        self.command_line = command_line
        """A submit keeps the focus (the console's command line); else it leaves the input."""
        self.history: list[str] = []
        """What was submitted, oldest first (at most ``limit``; never the same line twice in a row)."""
        self._limit = limit
        self._index = 0
        self._back: Widget | None = None
        if transient:
            self.display = False
            self.add_class("-transient")

    def open(self, value: str | None = None) -> None:
        """Show and focus the input (with ``value``, else with what it holds). The focus moves at
        once (``Widget.focus`` moves it after the next refresh), so that what is typed right after
        the key that opened it (type-ahead, a paste) lands in it."""
        if self.screen.focused is not self:
            self._back = self.screen.focused
        if value is not None:
            self.value = value
            self.cursor_position = len(value)
        self._index = len(self.history)
        self.display = True
        self.screen.set_focus(self)  # now, not after a refresh: keys typed right after the pane's key are the input's

    def close(self) -> None:
        """Empty the line and give the focus back (and hide a transient input)."""
        chain = self.screen.focus_chain
        back = self._back if self._back in chain else next(
            (w for w in chain if w is not self and self.parent in w.ancestors), None)
        self._back = None
        self.value = ""
        if self.transient:
            self.display = False
        self.screen.set_focus(back)

    def remember(self, line: str) -> None:
        """Add ``line`` to the history (not twice in a row)."""
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
            del self.history[: -self._limit]
        self._index = len(self.history)

    async def action_submit(self) -> None:
        """Post ``Input.Submitted``, remember the line and empty it; leave it unless it is a command line."""
        await super().action_submit()
        self.remember(self.value.strip())
        if self.command_line:
            self.value = ""
            self._index = len(self.history)
        else:
            self.close()

    def action_leave(self) -> None:
        self.close()

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self._index = max(0, min(self._index + step, len(self.history)))
        self.value = self.history[self._index] if self._index < len(self.history) else ""
        self.cursor_position = len(self.value)
