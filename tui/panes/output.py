"""The program output pane: what the debuggee wrote to its own terminal, made harmless."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Log

from gdbbridge.text import TerminalFilter

from .base import InfoLine

MAX_LINE = 4096
"""A line longer than this (a program printing without newlines) is wrapped into pieces."""


class OutputPane(Widget):
    """The debuggee's stdout/stderr from its pty, last ``max_lines`` lines kept.

    Escape sequences (colours, cursor moves, titles, hyperlinks) are removed and other control
    characters shown as ``^X``, so nothing the program prints can disturb the UI.

    | Key | Action |
    | :- | :- |
    | up/down, pageup/pagedown | Scroll |
    """

    DEFAULT_CSS = """
    OutputPane { height: 1fr; layout: vertical; }
    OutputPane > #output-title { height: 1; background: $boost; padding: 0 1; }
    OutputPane > Log { height: 1fr; background: $surface; }
    """

    def __init__(self, *, max_lines: int = 10_000, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._max_lines = max_lines
        self._filter = TerminalFilter()
        self._line_length = 0
        self.received = 0
        """Characters received so far (before sanitising)."""

    def compose(self) -> ComposeResult:
        yield InfoLine("program output", id="output-title")
        yield Log(max_lines=self._max_lines, id="output-log")

    @property
    def text(self) -> str:
        """The lines shown, joined (for tests and copying)."""
        return "\n".join(self.query_one(Log).lines)

    def write(self, data: str) -> None:
        """Append program output (any bytes the program wrote, decoded)."""
        self.received += len(data)
        text = self._filter.feed(data)
        if text:
            self.query_one(Log).write(self._wrap(text))

    def _wrap(self, text: str) -> str:
        pieces = []
        for i, part in enumerate(text.split("\n")):
            if i:
                pieces.append("\n")
                self._line_length = 0
            while self._line_length + len(part) > MAX_LINE:
                cut = MAX_LINE - self._line_length
                pieces.append(part[:cut] + "\n")
                part, self._line_length = part[cut:], 0
            pieces.append(part)
            self._line_length += len(part)
        return "".join(pieces)
