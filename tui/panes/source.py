"""The source pane: the current frame's file, the current line, a breakpoint gutter and a cursor."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rich.segment import Segment
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from cudatui.gdbbridge import (
    Breakpoint, HostStack, StopState, find_source, missing_reason, no_source_lines, read_source,
)
from cudatui.tui.messages import BreakpointToggled, GutterClicked

from .base import InfoLine, StatePane

LEXERS = {".cu": "cuda", ".cuh": "cuda", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp",
          ".py": "python"}
"""Lexers by file suffix: guessing one loads every Pygments plugin (seconds, with IPython installed)."""

MAX_HIGHLIGHT = 2 * 1024 * 1024
"""Files larger than this are shown without syntax colours."""


def display_path(path: Path) -> str:
    """``path`` relative to the current directory when it lies below it, else as it is."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_lines(path: Path) -> list[Text]:
    """The file's lines, cleaned and syntax-coloured (ANSI colours: dark and light themes)."""
    code = read_source(path)
    if len(code) > MAX_HIGHLIGHT:
        return [Text(line) for line in code.split("\n")]
    lexer = LEXERS.get(path.suffix.lower()) or Syntax.guess_lexer(str(path), code)
    return Syntax(code, lexer, theme="ansi_dark").highlight(code).split("\n", allow_blank=True)


@dataclass(frozen=True)
class Shown:
    """The file shown: the name gdb knows it by and the local file read (None if missing)."""

    debugger_path: str
    local: Path | None


class SourceView(ScrollView, can_focus=True):
    """Scrollable source lines with a gutter (breakpoint, current-line arrow, line number).

    | Key | Action |
    | :- | :- |
    | up/down, pageup/pagedown, home/end | Move the cursor |
    | left/right | Scroll long lines |
    | click on a line | Move the cursor; on the gutter: toggle a breakpoint |
    """

    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "Top", show=False),
        Binding("end", "edge(1)", "Bottom", show=False),
        Binding("left", "scroll_left", "Left", show=False),
        Binding("right", "scroll_right", "Right", show=False),
    ]

    DEFAULT_CSS = """
    SourceView { height: 1fr; background: $surface; scrollbar-size: 0 1; }
    SourceView:focus { background-tint: $foreground 3%; }
    """

    cursor: reactive[int] = reactive(1, repaint=False)
    """The cursor line (1-based)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []
        self.current: int | None = None
        self.marks: dict[int, bool] = {}
        """Breakpoint lines -> enabled."""
        self._segments: dict[int, list[Segment]] = {}
        self._strips: dict[tuple[object, ...], Strip] = {}
        self._pending_center: int | None = None
        """A line to center once the view has a size (asked before its first layout)."""
        self._center_retries = 0

    @property
    def gutter_width(self) -> int:
        return len(str(max(len(self.lines), 1))) + 4

    def show(self, lines: list[Text], current: int | None, cursor: int | None, marks: dict[int, bool]) -> None:
        """Show ``lines`` with ``current`` and the breakpoint ``marks`` marked and the cursor (and
        view) on ``cursor``.

        The view scrolls only when the cursor line is not already well inside it, and without a
        scroll only the lines whose marks changed are repainted (stepping through a function
        repaints two lines, not the whole view)."""
        new_file = lines is not self.lines
        changed = {self.current, current, *(n for n in marks.keys() | self.marks.keys()
                                             if marks.get(n) != self.marks.get(n))}
        self.marks = marks
        if new_file:
            self.lines = lines
            self._segments.clear()
            self._strips.clear()
            width = max((t.cell_len for t in lines), default=0) + self.gutter_width
            self.virtual_size = Size(width, len(lines))
            self.refresh()
        self.current = current
        self.cursor = max(1, min(cursor or 1, max(len(lines), 1)))
        if new_file:
            # a new virtual size takes effect after the refresh: scrolling now would be clamped
            self._center_after_refresh(self.cursor)
        elif not self._well_inside(self.cursor):
            self.center(self.cursor)
        for number in changed - {None}:
            self.refresh_line(number - 1)

    def _well_inside(self, line: int) -> bool:
        """Whether ``line`` is shown with a few lines of context around it."""
        top, height = int(self.scroll_offset.y), self.size.height
        margin = min(3, height // 4)
        return top + margin <= line - 1 < top + height - margin or (top == 0 and line - 1 < height - margin)

    def center(self, line: int) -> None:
        """Scroll so that ``line`` is in the middle of the view. Before the view's first layout
        its height is unknown and any scroll would be clamped to 0: the latest line asked for is
        centered after the refresh that gives the view its size."""
        if not self.container_size.height:
            self._center_after_refresh(line)
            return
        self._pending_center = None
        target = max(0, line - 1 - self.size.height // 2)
        self.scroll_to(y=target, animate=False, immediate=True)
        reachable = min(target, max(0, len(self.lines) - self.container_size.height))
        if int(self.scroll_offset.y) < reachable and self._center_retries < 10:
            # clamped by a virtual size that has not taken effect yet: again after the next refresh
            self._center_retries += 1
            self._center_after_refresh(line)
        else:
            self._center_retries = 0

    def _center_after_refresh(self, line: int) -> None:
        """Center ``line`` after the next refresh; a later request replaces it."""
        if self._pending_center is None:
            self.call_after_refresh(self._center_pending)
        self._pending_center = line

    def _center_pending(self) -> None:
        if self._pending_center is not None:
            line, self._pending_center = self._pending_center, None
            self.center(line)

    def watch_cursor(self, old: int, new: int) -> None:
        top = int(self.scroll_offset.y)
        if new - 1 < top or new - 1 >= top + self.size.height:
            self.center(new)
        self.refresh_line(old - 1)
        self.refresh_line(new - 1)

    def render_line(self, y: int) -> Strip:
        number = int(self.scroll_offset.y) + y + 1
        if number > len(self.lines):
            return Strip.blank(self.size.width, self.rich_style)
        mark = self.marks.get(number)
        scroll_x = int(self.scroll_offset.x)
        key = (number, mark, number == self.current, number == self.cursor and self.has_focus, scroll_x,
               self.size.width, self.app.current_theme.dark, self.rich_style)
        cached = self._strips.get(key)
        if cached is None:
            if len(self._strips) > 4 * max(self.size.height, 16):
                self._strips.clear()
            cached = self._strips[key] = self._render_source_line(number, mark, scroll_x)
        return cached

    def _render_source_line(self, number: int, mark: bool | None, scroll_x: int) -> Strip:
        digits = self.gutter_width - 4
        gutter = [
            Segment(" ●" if mark else (" ○" if mark is False else "  "), Style(color="red", bold=True)),
            Segment("▶" if number == self.current else " ", Style(color="green", bold=True)),
            Segment(f"{number:>{digits}} ", Style(dim=number != self.current, bold=number == self.current)),
        ]
        segments = self._segments.get(number)
        if segments is None:
            segments = self._segments[number] = list(self.lines[number - 1].render(self.app.console, end=""))
        line_style = Style()
        if number == self.current:
            line_style += Style(bgcolor="#005f00" if self.app.current_theme.dark else "#afffaf")
        if number == self.cursor and self.has_focus:
            line_style += Style(underline=True)
        body = Segment.apply_style(segments, post_style=line_style) if line_style else segments
        strip = Strip(gutter + list(body))
        head = strip.crop(0, self.gutter_width)
        tail = strip.crop(self.gutter_width + scroll_x, self.gutter_width + scroll_x + self.size.width)
        return Strip.join([head, tail]).extend_cell_length(self.size.width, line_style).apply_style(self.rich_style)

    def action_cursor(self, delta: int) -> None:
        self.cursor = max(1, min(self.cursor + delta, max(len(self.lines), 1)))

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(self.size.height - 1, 1))

    def action_edge(self, end: int) -> None:
        self.cursor = len(self.lines) if end else 1

    def on_click(self, event: events.Click) -> None:
        line = int(self.scroll_offset.y) + event.y + 1
        if not 1 <= line <= len(self.lines):
            return
        self.cursor = line
        if event.x < self.gutter_width:
            self.post_message(GutterClicked(line))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class SourcePane(StatePane):
    """The source file of the selected frame, following every stop and focus change.

    | Key | Action |
    | :- | :- |
    | up/down, pageup/pagedown | Move the cursor |
    | b / F9 (app) | Toggle a breakpoint on the cursor line |
    | click the gutter | Toggle a breakpoint on that line |
    | m | Run memcheck on the program (the next step a note may offer) |
    """

    BINDINGS = [Binding("m", "app.sanitize", "memcheck", show=False)]

    DEFAULT_CSS = """
    SourcePane { height: 1fr; layout: vertical; }
    SourcePane > #source-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    SourcePane > #source-missing { height: auto; padding: 1 2; color: $text-warning; display: none; }
    SourcePane > #source-note { height: auto; padding: 0 1; color: $text-warning; background: $warning 10%; display: none; }
    """

    shown: reactive[Shown | None] = reactive(None)
    """The file shown."""

    def __init__(self, search_dirs: tuple[str, ...] = (), *, recorded: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.search_dirs = search_dirs
        self.recorded = recorded
        self._cache: dict[Path, list[Text]] = {}
        self._host: tuple[object, HostStack] | None = None
        """The host stack of a stop (its StopEvent) for the no-source lines."""

    def compose(self) -> ComposeResult:
        yield InfoLine("no source yet", id="source-title")
        yield InfoLine("", id="source-missing")
        yield InfoLine("", id="source-note")
        yield SourceView(id="source-view")

    @property
    def view(self) -> SourceView:
        return self.query_one(SourceView)

    def cursor_location(self) -> tuple[str, int] | None:
        """The debugger's name of the shown file and the cursor line, if a file is shown."""
        if self.shown is None or self.shown.local is None:
            return None
        return self.shown.debugger_path, self.view.cursor

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        frame = state.frame
        self._note("")
        if state.stop.exited:
            self._show_end(state)
            return
        if frame is None or not (frame.fullname or frame.file):
            host = self._host[1].user_frame if self._host and self._host[0] is state.stop else None
            self._show_missing("\n".join(no_source_lines(state, host)))
            return
        self.open(frame.fullname or frame.file or "", frame.line, current=True)

    def show_host(self, generation: int, stack: HostStack) -> None:
        """The host stack of the stop of ``generation``: its Python line joins the no-source lines."""
        state = self.state
        if state is None or state.generation < generation:
            return
        self._host = (state.stop, stack)
        frame = state.frame
        if not state.stop.exited and (frame is None or not (frame.fullname or frame.file)):
            self.render_state(state, None)

    def _show_end(self, state: StopState) -> None:
        """The program's end: the exception it died of at its frame (shown), or its exit code, and the next step."""
        code = state.stop.exit_code if state.stop.exit_code is not None else "?"
        error, step = state.notes.error, state.notes.next_step or "r runs it again"
        frame = error.frame if error is not None else None
        if error is None:
            self._show_missing(f"the program exited with code {code}; {step}")
        elif frame is None or find_source(frame.file, self.search_dirs, recorded=self.recorded) is None:
            where = f" at {frame.where}" if frame is not None else ""
            self._show_missing(f"the program exited with code {code}: {error.summary}{where}\n{step}")
        else:
            self.open(frame.file, frame.line, current=True)
            self._note(f"exited with code {code}: {error.summary} at {os.path.basename(frame.file)}:{frame.line}"
                       f"\n{step}")

    def _note(self, text: str) -> None:
        note = self.query_one("#source-note", InfoLine)
        note.show(text)
        if note.display != bool(text):
            note.display = bool(text)

    def open(self, path: str, line: int | None, *, current: bool = False) -> None:
        """Show ``path`` (as gdb names it) at ``line``; ``current`` marks it as the stop line."""
        local = find_source(path, self.search_dirs, recorded=self.recorded)
        self.shown = Shown(path, local)
        if local is None:
            self._show_missing(missing_reason(path, self.search_dirs))
            return
        if local not in self._cache:
            try:
                self._cache[local] = load_lines(local)
            except OSError as exc:
                self._show_missing(f"source not available: {local}: {exc.strerror or exc}")
                return
        self.query_one("#source-title", InfoLine).show(f"{display_path(local)}" + (f":{line}" if line else ""))
        missing = self.query_one("#source-missing")
        if missing.display:
            missing.display = False
        view = self.view
        if not view.display:
            view.display = True
        stop_line = line if current else (view.current if self._same_as_stop(path) else None)
        view.show(self._cache[local], stop_line, line, self._marks(self.state.breakpoints if self.state else ()))

    def _same_as_stop(self, path: str) -> bool:
        frame = self.state.frame if self.state else None
        name = frame.fullname or frame.file if frame else None
        return bool(name) and os.path.basename(name or "") == os.path.basename(path)

    def _show_missing(self, message: str) -> None:
        self.query_one("#source-title", InfoLine).show(message.split("\n")[0].split(": ", 1)[0])
        missing = self.query_one("#source-missing", InfoLine)
        missing.show(message)
        missing.display = True
        self.view.display = False

    def _marks(self, breakpoints: tuple[Breakpoint, ...]) -> dict[int, bool]:
        if self.shown is None:
            return {}
        name = os.path.basename(self.shown.debugger_path)
        marks: dict[int, bool] = {}
        for bp in breakpoints:
            places = [(loc.fullname or loc.file, loc.line, loc.enabled) for loc in bp.locations]
            places.append((bp.fullname or bp.file, bp.line, True))
            for file, line, enabled in places:
                if file and line and os.path.basename(file) == name:
                    marks[line] = marks.get(line, False) or (bp.enabled and enabled)
        return marks

    def on_source_pane_gutter_clicked(self, message: GutterClicked) -> None:
        message.stop()
        if self.shown is not None and self.shown.local is not None:
            self.post_message(BreakpointToggled(self.shown.debugger_path, message.line))
