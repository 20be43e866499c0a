"""The source pane's view: scrollable source lines with a gutter (breakpoint, current-line arrow,
line number), a cursor and the matches of a search highlighted."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from cudatui.tui.messages import GutterClicked
from cudatui.tui.widgets.source_search import Search

MATCH = Style(bgcolor="#875f00", color="#ffffff")
"""A search match."""
CURRENT_MATCH = Style(bgcolor="#d7af00", color="#000000", bold=True)
"""The match the cursor is on."""


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
        self.search: Search | None = None
        """The search whose matches are highlighted."""
        self._spans: dict[int, list[tuple[int, int]]] = {}
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

    def highlight(self, search: Search | None) -> None:
        """Highlight the matches of ``search`` (None: none), its current match in its own colour."""
        lines = set(self._spans)
        self.search = search
        self._spans = search.by_line() if search else {}
        for number in lines | set(self._spans):
            self._segments.pop(number, None)
            self.refresh_line(number - 1)
        self._strips.clear()

    def on_resize(self) -> None:
        """Keep the cursor line in sight when the view shrinks (a banner appears, a split moves)."""
        if self.lines and not self._well_inside(self.cursor):
            self.center(self.cursor)

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
            segments = self._segments[number] = list(self._marked(number).render(self.app.console, end=""))
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

    def _marked(self, number: int) -> Text:
        """Line ``number`` with its search matches highlighted."""
        text = self.lines[number - 1]
        spans = self._spans.get(number)
        if not spans:
            return text
        text = text.copy()
        current = self.search.current if self.search else None
        for start, end in spans:
            here = current is not None and (current.line, current.start) == (number, start)
            text.stylize(CURRENT_MATCH if here else MATCH, start, end)
        return text

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
