"""The console pane: type any gdb command, see its output; a view of the raw MI records."""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Input, RichLog

from cudatui.gdbbridge import RawLine
from cudatui.tui.textual_compat import InPlaceScrollView
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import Command

from .base import InfoLine

STYLES = {"command": "bold", "error": "bold red", "log": "yellow", "target": "magenta", "stderr": "red", "console": ""}
"""Style per kind of text: what was typed, gdb's errors, its log (``&``), target (``@``) output."""


RAW_STYLES = {"in": "bold cyan", "out": "", "err": "red"}
"""Style of a raw MI line by direction: what cudatui sent, what gdb printed, gdb's stderr."""

SHOWN = 4096
"""Characters shown of one line; the rest is cut (sanitising and laying out a line of
megabytes, as gdb may print, held the event loop for seconds)."""


def shown(line: str, cut: int = 0) -> str:
    """``line`` cut to :data:`SHOWN` characters (with the count of those cut, ``cut`` more)."""
    cut += max(len(line) - SHOWN, 0)
    return f"{line[:SHOWN]}… ({cut:,} more characters)" if cut else line


class BoundedLog(InPlaceScrollView, RichLog):
    """A :class:`RichLog` that renders nothing while it is not on the screen.

    A write renders its text at the log's width and grows the log, and a log that grows asks
    for a layout pass of the whole screen: the console, written at most stops and most often in
    a tab not shown, laid the screen out about ten times a step for nothing shown (and wrapped
    its lines at a width it did not know). While the log is not on the screen (a tab not chosen,
    the other log of the console) its writes are held, the last ``max_lines`` of them (a flood of
    MI lines once grew memory by hundreds of MB in the hidden MI log), and written, in order,
    when it is shown.
    """

    def __init__(self, *, max_lines: int, **kwargs: Any) -> None:
        super().__init__(max_lines=max_lines, **kwargs)
        self._held: deque[tuple[object, tuple[Any, ...]]] = deque(maxlen=max_lines)
        """Writes made while the log was not on the screen: content and ``write``'s other arguments."""

    @property
    def held(self) -> int:
        """How many writes wait for the log to be shown."""
        return len(self._held)

    def write(self, content: object, width: int | None = None, expand: bool = False, shrink: bool = True,
              scroll_end: bool | None = None, animate: bool = False) -> BoundedLog:
        """As :meth:`RichLog.write`; held while the log is not on the screen."""
        if self._held or not self.window_region.area:
            self._held.append((content, (width, expand, shrink, scroll_end, animate)))
            return self
        super().write(content, width, expand, shrink, scroll_end, animate)
        return self

    def on_show(self) -> None:
        self._write_held()

    def on_resize(self) -> None:
        self._write_held()

    def _write_held(self) -> None:
        """Write what was held, now that the log is on the screen with a size."""
        if not self._held or not self.window_region.area:
            return
        held = list(self._held)
        self._held.clear()
        for content, args in held:
            super().write(content, *args)


class ConsolePane(Widget):
    """gdb's console: type a command (``:`` focuses the input), read what gdb printed.

    | Key | Action |
    | :- | :- |
    | enter | Run the typed command; alone, run the last command again (as gdb does) |
    | up/down | Command history |
    | escape | Leave the command line |
    | ctrl+t | Switch between the console and the MI record log |
    """

    BINDINGS = [Binding("ctrl+t", "toggle_log", "MI log")]

    DEFAULT_CSS = """
    ConsolePane { height: 1fr; layout: vertical; }
    ConsolePane > #console-mode { height: 1; background: $boost; padding: 0 1; }
    ConsolePane > ContentSwitcher { height: 1fr; }
    ConsolePane RichLog { height: 1fr; background: $surface; }
    ConsolePane > InlineInput { height: 1; border: none; padding: 0 1; }
    """

    show_mi: reactive[bool] = reactive(False)
    """Show the MI record log instead of the console."""

    def __init__(self, *, max_lines: int = 5000, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._max_lines = max_lines
        self._partial: dict[str, tuple[str, int]] = {}
        """A line not ended yet, by kind: its first :data:`SHOWN` characters and how many more came."""

    def compose(self) -> ComposeResult:
        yield InfoLine("console · ctrl+t: MI log", id="console-mode")
        with ContentSwitcher(initial="console-log"):
            # min_width=1: wrap at the pane's width (RichLog's default 78 columns made a horizontal
            # scrollbar appear after it had scrolled to the end, leaving the last line hidden)
            yield BoundedLog(max_lines=self._max_lines, wrap=True, markup=False, min_width=1, id="console-log")
            yield BoundedLog(max_lines=self._max_lines, wrap=False, markup=False, id="mi-log")
        yield InlineInput(placeholder=": gdb command (up/down: history, enter alone: again)", command_line=True,
                          id="console-input", compact=True)

    def write(self, text: str, kind: str = "console") -> None:
        """Append gdb text of ``kind`` (whole lines are shown; a partial line waits)."""
        held, cut = self._partial.pop(kind, ("", 0))
        *lines, rest = (held + text).split("\n")
        if rest:
            self._partial[kind] = (rest[:SHOWN], max(len(rest) - SHOWN, 0) + (0 if lines else cut))
        log = self.query_one("#console-log", RichLog)
        for i, line in enumerate(lines):
            log.write(Text(shown(line, cut if i == 0 else 0), style=STYLES.get(kind, "")))

    def log_raw(self, line: RawLine) -> None:
        """Append one raw MI line (as it crossed the pipe) to the MI record log."""
        text = shown(line.text.rstrip("\n")).replace("\n", "\\n")
        self.query_one("#mi-log", RichLog).write(Text(text, style=RAW_STYLES.get(line.direction, "")))

    def focus_input(self) -> None:
        """Open the command line (``:``)."""
        self.query_one(InlineInput).open()

    def watch_show_mi(self, show_mi: bool) -> None:
        self.query_one(ContentSwitcher).current = "mi-log" if show_mi else "console-log"
        self.query_one("#console-mode", InfoLine).show(
            "MI records · ctrl+t: console" if show_mi else "console · ctrl+t: MI log"
        )

    def action_toggle_log(self) -> None:
        self.show_mi = not self.show_mi

    @on(Input.Submitted, "#console-input")
    def _submitted(self, event: Input.Submitted) -> None:
        """Run the command; an empty line runs the last one again (gdb's habit: ``next``, ``x``)."""
        event.stop()
        history = self.query_one("#console-input", InlineInput).history
        command = event.value.strip() or (history[-1] if history else "")
        if command:
            self.post_message(Command(command))
