"""The program output pane: what the debuggee wrote to its own terminal (made harmless by the Debugger)."""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from typing import Any

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Log

from cudatui.tui.textual_compat import LogHooks, log_forget_rendered_line, log_line_processor, log_line_strip

from .base import InfoLine

MAX_LINE = 4096
"""A line longer than this (a program printing without newlines) is wrapped into pieces."""

FLUSH_INTERVAL = 0.05
"""Seconds between writes to the log: output arriving meanwhile is written in one go."""

FLOOD_INTERVAL = 0.2
"""Seconds between writes while the program floods: each write costs a full repaint."""

FLOOD_LINES = 1000
"""A write of at least this many lines means a flood: the next one waits FLOOD_INTERVAL."""

TITLE = "program output"


class OutputLog(LogHooks):
    """A :class:`Log` that wraps long lines at its width (a program's lines are shown whole, not
    cut at the pane's edge) and whose :meth:`write` repaints the rows it changed once, not once
    per line.

    ``Log.write`` asks for a repaint of every line it appends (~0.25 ms each), which made
    writing 10,000 lines at once take seconds; here those requests are merged into one. The rows
    each line takes are counted once per line and width (:meth:`rows`), so a write maps only the
    lines it added and a resize or a prune of the oldest lines maps them all again.
    """

    _changed: tuple[int, int] | None = None
    """First and last line asked to repaint during the current write."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._starts: list[int] = [0]
        """The first row of each line mapped, then the row after the last."""
        self._mapped = 0
        """Lines mapped (the last may have grown since)."""
        self._wrap_width = 0

    @property
    def wrap_width(self) -> int:
        """The columns a row shows: the log's width less its vertical scrollbar."""
        return max(self.scrollable_content_region.width, 1)

    def rows(self) -> int:
        """The rows the lines take at the current width, mapping the lines added since."""
        width = self.wrap_width
        lines = self.lines
        if width != self._wrap_width or self._mapped > len(lines):
            self._starts, self._mapped, self._wrap_width = [0], 0, width
        start = max(self._mapped - 1, 0)
        del self._starts[start + 1:]
        starts, process = self._starts, log_line_processor(self)
        for line in lines[start:]:
            shown = process(line)
            cells = len(shown) if shown.isascii() else cell_len(shown)
            starts.append(starts[-1] + max(1, -(-cells // width)))
        self._mapped = len(lines)
        if lines and lines[-1] == "":  # the empty line after the last newline is not shown
            return starts[-2]
        return starts[-1]

    def lines_pruned(self) -> None:
        self._mapped = len(self.lines) + 1  # the lines moved: map them all again

    def _resize_rows(self, scroll_end: bool) -> None:
        size = Size(self.wrap_width, self.rows())
        if self.virtual_size != size:
            self.virtual_size = size
            if scroll_end:
                self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self) -> None:
        self._resize_rows(self.auto_scroll)
        self.refresh()

    def write(self, data: str, scroll_end: bool | None = None) -> OutputLog:
        """Write ``data`` like ``Log.write``, then repaint the changed rows in one request."""
        self._changed = (-1, -1)
        try:
            super().write(data, scroll_end)
        finally:
            first, last = self._changed
            self._changed = None
        self._resize_rows(self.auto_scroll if scroll_end is None else scroll_end)
        if last >= 0:
            count = last - first + 1
            start = max(0, len(self.lines) - count)
            for y in range(start, len(self.lines)):
                log_forget_rendered_line(self, y)
            top = self._starts[min(start, len(self._starts) - 1)]
            ScrollView.refresh_lines(self, top, max(self.virtual_size.height - top, 1))
        return self

    def refresh_lines(self, y_start: int, line_count: int = 1) -> None:
        """Repaint lines now (every row from the first), or once at the end of the current write."""
        if self._changed is None:
            for y in range(y_start, y_start + line_count):
                log_forget_rendered_line(self, y)
            self.refresh()
            return
        first, last = self._changed
        end = y_start + line_count - 1
        self._changed = (y_start if first < 0 else min(first, y_start), max(last, end))

    def render_line(self, y: int) -> Strip:
        """Row ``y`` of the view: a piece of the line it belongs to, as wide as the log."""
        width = self.wrap_width
        total = self.rows()
        row = int(self.scroll_offset.y) + y
        if row >= total or not self.lines:
            return Strip.blank(width, self.rich_style)
        index = bisect_right(self._starts, row) - 1
        piece = row - self._starts[index]
        strip = log_line_strip(self, index, self.rich_style)
        return strip.crop_extend(piece * width, (piece + 1) * width, self.rich_style)


class OutputPane(Widget):
    """The debuggee's stdout/stderr from its pty, last ``max_lines`` lines kept.

    The text arrives clean: the Debugger removes escape sequences (colours, cursor moves, titles,
    hyperlinks) and shows other control characters as ``^X``, so nothing the program prints can
    disturb the UI.

    Output is kept as it arrives but written to the log at most every
    :data:`FLUSH_INTERVAL` seconds (:data:`FLOOD_INTERVAL` while the program floods), in one
    write that repaints once.
    When more than ``max_lines`` lines arrive between two writes only the last ``max_lines``
    are kept, and the title counts the lines dropped.

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
        self._line_length = 0
        self._pending: deque[str] = deque(maxlen=max_lines)
        """Complete lines (wrapped) not yet written to the log."""
        self._tail = ""
        """The unfinished last line not yet written (it continues the log's last line)."""
        self._gap = False
        """Lines were dropped since the last write: the pending text starts a new line."""
        self._timer: Timer | None = None
        self._flooding = False
        """The last write to the log carried at least FLOOD_LINES lines."""
        self.received = 0
        """Characters received so far."""
        self.dropped = 0
        """Lines dropped so far because they arrived faster than the log is written."""

    def compose(self) -> ComposeResult:
        yield InfoLine(TITLE, id="output-title")
        yield OutputLog(max_lines=self._max_lines, id="output-log")

    @property
    def text(self) -> str:
        """The lines shown, joined (for tests and copying); pending output is written first."""
        self.flush()
        return "\n".join(self.query_one(Log).lines)

    def tail(self, chars: int) -> str:
        """The last ``chars`` characters of the lines shown (what explains the program's end,
        read without joining the whole pane: up to 10,000 lines of 4,096 characters)."""
        self.flush()
        kept: list[str] = []
        size = 0
        for line in reversed(self.query_one(Log).lines):
            if size >= chars:
                break
            kept.append(line)
            size += len(line) + 1
        return "\n".join(reversed(kept))[-chars:]

    def write(self, text: str) -> None:
        """Append program output (a ProgramText's clean text); shown within ~50 ms."""
        self.received += len(text)
        lines = self._wrap(text).split("\n")
        if len(lines) == 1:
            self._tail += lines[0]
        else:
            lines[0] = self._tail + lines[0]
            self._tail = lines.pop()
            overflow = len(self._pending) + len(lines) - self._max_lines
            if overflow > 0:
                self.dropped += overflow
                self._gap = True
            self._pending.extend(lines)
        if self._timer is None:
            delay = FLOOD_INTERVAL if self._flooding else FLUSH_INTERVAL
            self._timer = self.set_timer(delay, self.flush, name="output-flush")

    def flush(self) -> None:
        """Write the pending output to the log now, in one write."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self._pending and not self._tail:
            return
        log = self.query_one(Log)
        pieces = list(self._pending)
        self._flooding = len(pieces) >= FLOOD_LINES
        pieces.append(self._tail)
        if self._gap and log.lines and log.lines[-1]:
            pieces.insert(0, "")
        self._pending.clear()
        self._tail = ""
        self._gap = False
        log.write("\n".join(pieces))
        if self.dropped:
            self.query_one("#output-title", InfoLine).show(
                f"{TITLE} - {self.dropped:,} lines dropped (arrived faster than shown)")

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
