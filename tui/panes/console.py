"""The console pane: type any gdb command, see its output; a view of the raw MI records."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Input, RichLog

from cudatui.gdbbridge import RawLine, sanitize
from cudatui.tui.messages import Command

from .base import InfoLine

STYLES = {"command": "bold", "error": "bold red", "log": "yellow", "target": "magenta", "stderr": "red", "console": ""}
"""Style per kind of text: what was typed, gdb's errors, its log (``&``), target (``@``) output."""


RAW_STYLES = {"in": "bold cyan", "out": "", "err": "red"}
"""Style of a raw MI line by direction: what cudatui sent, what gdb printed, gdb's stderr."""


class HistoryInput(Input):
    """An input line with command history on up/down.

    | Key | Action |
    | :- | :- |
    | up | Previous command |
    | down | Next command |
    """

    BINDINGS = [
        Binding("up", "history(-1)", "Previous", show=False),
        Binding("down", "history(1)", "Next", show=False),
    ]

    def __init__(self, *, limit: int = 500, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.history: list[str] = []
        self._limit = limit
        self._index = 0

    def remember(self, command: str) -> None:
        """Add ``command`` to the history (not twice in a row)."""
        if command and (not self.history or self.history[-1] != command):
            self.history.append(command)
            del self.history[: -self._limit]
        self._index = len(self.history)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self._index = max(0, min(self._index + step, len(self.history)))
        self.value = self.history[self._index] if self._index < len(self.history) else ""
        self.cursor_position = len(self.value)


class ConsolePane(Widget):
    """gdb's console: type a command (``:`` focuses the input), read what gdb printed.

    | Key | Action |
    | :- | :- |
    | enter | Run the typed command |
    | up/down | Command history |
    | ctrl+t | Switch between the console and the MI record log |
    """

    BINDINGS = [Binding("ctrl+t", "toggle_log", "MI log")]

    DEFAULT_CSS = """
    ConsolePane { height: 1fr; layout: vertical; }
    ConsolePane > #console-mode { height: 1; background: $boost; padding: 0 1; }
    ConsolePane > ContentSwitcher { height: 1fr; }
    ConsolePane RichLog { height: 1fr; background: $surface; }
    ConsolePane > HistoryInput { height: 1; border: none; padding: 0 1; }
    """

    show_mi: reactive[bool] = reactive(False)
    """Show the MI record log instead of the console."""

    def __init__(self, *, max_lines: int = 5000, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._max_lines = max_lines
        self._partial: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield InfoLine("console · ctrl+t: MI log", id="console-mode")
        with ContentSwitcher(initial="console-log"):
            # min_width=1: wrap at the pane's width (RichLog's default 78 columns made a horizontal
            # scrollbar appear after it had scrolled to the end, leaving the last line hidden)
            yield RichLog(max_lines=self._max_lines, wrap=True, markup=False, min_width=1, id="console-log")
            yield RichLog(max_lines=self._max_lines, wrap=False, markup=False, id="mi-log")
        yield HistoryInput(placeholder=": gdb command (up/down: history)", id="console-input", compact=True)

    def write(self, text: str, kind: str = "console") -> None:
        """Append gdb text of ``kind`` (whole lines are shown; a partial line waits)."""
        text = self._partial.pop(kind, "") + sanitize(text)
        *lines, rest = text.split("\n")
        if rest:
            self._partial[kind] = rest
        log = self.query_one("#console-log", RichLog)
        for line in lines:
            log.write(Text(line, style=STYLES.get(kind, "")))

    def log_raw(self, line: RawLine) -> None:
        """Append one raw MI line (as it crossed the pipe) to the MI record log."""
        text = sanitize(line.text.rstrip("\n")).replace("\n", "\\n")
        self.query_one("#mi-log", RichLog).write(Text(text, style=RAW_STYLES.get(line.direction, "")))

    def focus_input(self) -> None:
        self.query_one(HistoryInput).focus()

    def watch_show_mi(self, show_mi: bool) -> None:
        self.query_one(ContentSwitcher).current = "mi-log" if show_mi else "console-log"
        self.query_one("#console-mode", InfoLine).show(
            "MI records · ctrl+t: console" if show_mi else "console · ctrl+t: MI log"
        )

    def action_toggle_log(self) -> None:
        self.show_mi = not self.show_mi

    @on(Input.Submitted, "#console-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        command = event.value.strip()
        field = self.query_one(HistoryInput)
        field.value = ""
        if command:
            field.remember(command)
            self.post_message(Command(command))
