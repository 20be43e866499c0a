"""The console pane: type any gdb command, see its output; a view of the raw MI records."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Input, RichLog

from cudatui.gdbbridge import RawLine
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import Command
from cudatui.tui.textual_compat import rich_log_size_known, rich_log_trim_deferred

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


class BoundedLog(RichLog):
    """A :class:`RichLog` that keeps at most ``max_lines`` writes while it is hidden: RichLog
    defers every write until it has a size, without a bound (a flood of MI lines grew memory
    by hundreds of MB in the hidden MI log)."""

    _shown_width = 0
    """The width of the log's content when it was last laid out on the screen."""

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width:
            self._shown_width = self.scrollable_content_region.width or event.size.width
        super().on_resize(event)

    def write(self, content: object, *args: Any, **kwargs: Any) -> BoundedLog:
        if rich_log_size_known(self) and self._shown_width and not args and "width" not in kwargs \
                and not self.scrollable_content_region.width:
            kwargs["width"] = self._shown_width  # in a tab not shown: wrapped as shown last, not at 1 column
        super().write(content, *args, **kwargs)
        rich_log_trim_deferred(self, self.max_lines)
        return self


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
