"""The ``!`` dialog: every notice the app said, the newest last, with the time it was said."""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cudatui.gdbbridge import tr
from cudatui.tui.widgets.notices import Entry


def log_text(entries: Sequence[Entry]) -> Text:
    """One line per notice (wrapped when long): ``12:04:31 ⚠ the message``."""
    if not entries:
        return Text(tr("Nothing was said yet."), style="dim")
    lines = []
    for entry in entries:
        line = Text(time.strftime("%H:%M:%S ", time.localtime(entry.at)), style="dim")
        lines.append(line + entry.text())
    return Text("\n").join(lines)


class NoticesScreen(ModalScreen[None]):
    """The notices log; escape, q or ! closes it. A notice said while it is open is added
    (:meth:`show_entries`): the answer to a key typed just before ``!`` comes in there.

    | Key | Action |
    | :- | :- |
    | escape / q / ! | Close |
    """

    BINDINGS = [Binding("escape,q,exclamation_mark", "close", "Close")]

    DEFAULT_CSS = """
    NoticesScreen { align: center middle; }
    NoticesScreen > VerticalScroll { width: 90%; height: auto; max-height: 90%; max-width: 140;
                                     border: round $accent; padding: 0 1; background: $panel; }
    """

    def __init__(self, entries: Sequence[Entry]) -> None:
        super().__init__()
        self.entries = tuple(entries)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(tr("Notices (newest last; escape closes)"), style="bold"), markup=False)
            yield Static(log_text(self.entries), markup=False, id="notices-text")

    def on_mount(self) -> None:
        scroll = self.query_one(VerticalScroll)
        scroll.focus()
        scroll.scroll_end(animate=False)

    def show_entries(self, entries: Sequence[Entry]) -> None:
        """Show ``entries`` instead (the newest kept in view when it was)."""
        self.entries = tuple(entries)
        for scroll in self.query(VerticalScroll):  # none before compose, which shows self.entries
            at_end = scroll.scroll_y >= scroll.max_scroll_y
            scroll.query_one("#notices-text", Static).update(log_text(self.entries))
            if at_end:
                scroll.call_after_refresh(scroll.scroll_end, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
