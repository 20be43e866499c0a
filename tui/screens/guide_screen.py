"""The full-screen lesson guide (``h`` in ``cudatui demo``): every section, scrollable.

Each section is focusable, so Tab and shift+Tab move from one to the next (scrolling it into
view); the wheel, up/down and pageup/pagedown scroll; ``h`` or escape goes back to the debugger.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cudatui.gdbbridge import tr
from cudatui.tui.widgets.footer import KeyBar
from cudatui.tui.panes.guide import Guide, sections


class GuideSection(Static, can_focus=True):
    """One section of the guide (Tab reaches it)."""

    DEFAULT_CSS = """
    GuideSection { height: auto; padding: 0 1; margin-bottom: 1; }
    GuideSection:focus { background: $boost; }
    """


class GuideScreen(ModalScreen[None]):
    """The whole guide of the lesson, over the debugger.

    | Key | Action |
    | :- | :- |
    | tab / shift+tab | Next / previous section |
    | up / down, pageup / pagedown, home / end | Scroll (the wheel too) |
    | h / escape | Back to the debugger |
    """

    BINDINGS = [
        Binding("h,escape", "close", "Back to the debugger"),
        Binding("tab", "app.focus_next", "Next section", show=False),
        Binding("shift+tab", "app.focus_previous", "Previous section", show=False),
        Binding("up", "scroll(-1)", "Scroll up", show=False),
        Binding("down", "scroll(1)", "Scroll down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "Top", show=False),
        Binding("end", "edge(1)", "Bottom", show=False),
    ]

    DEFAULT_CSS = """
    GuideScreen { background: $surface; }
    GuideScreen > #guide-title { height: 1; background: $panel; padding: 0 1; text-style: bold; }
    GuideScreen > VerticalScroll { height: 1fr; padding: 1 1 0 1; }
    """

    def __init__(self, guide: Guide) -> None:
        super().__init__()
        self.guide = guide

    def compose(self) -> ComposeResult:
        yield Static(tr("Lesson guide: {name} (h or escape: back to the debugger; tab: next section)").format(
            name=self.guide.name),
                     id="guide-title")
        with VerticalScroll(id="guide-scroll", can_focus=False):
            for section, text in sections(self.guide):
                yield GuideSection(text, id=f"section-{section}")
        yield KeyBar(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(GuideSection).focus(scroll_visible=False)

    @property
    def scroller(self) -> VerticalScroll:
        return self.query_one("#guide-scroll", VerticalScroll)

    def action_scroll(self, lines: int) -> None:
        self.scroller.scroll_relative(y=lines, animate=False)

    def action_page(self, direction: int) -> None:
        self.scroller.scroll_relative(y=direction * max(1, self.scroller.size.height - 1), animate=False)

    def action_edge(self, end: int) -> None:
        scroller = self.scroller
        scroller.scroll_to(y=scroller.max_scroll_y if end else 0, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
