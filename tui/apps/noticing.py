"""Notices that stay out of the way: what the app says goes to the status bar's notices line and
the notices log (``!``); a toast only for an error or a detail the user asked for, placed where it
covers neither the status bar nor the focused pane."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.notifications import SeverityLevel
from textual.widget import Widget

from cudatui.tui.apps.navigation import NavigatingApp
from cudatui.tui.panes.status import StatusBar
from cudatui.tui.screens.notices_screen import NoticesScreen
from cudatui.tui.widgets.notices import NoticeLog

TOAST_RACK = "#textual-toastrack"
"""Textual's toast container on every screen (its id is public: apps style it by it)."""
TOAST_ROWS = 6
"""The rows a toast of one or two lines takes (its margin and padding included)."""

BOTTOM_ROWS = 2
"""The rows under the panes: the status bar and the key bar (a toast stays above them)."""


def focused_pane(widget: Widget | None) -> Widget | None:
    """The pane (the source or a side pane) that holds ``widget``."""
    for node in ([widget, *widget.ancestors] if widget is not None else []):
        if isinstance(node, Widget) and (node.has_class("pane") or node.id == "source"):
            return node
    return None


def toast_corner(screen: Region, pane: Region | None) -> tuple[bool, bool]:
    """(bottom, right): the first corner of bottom-right, top-right, bottom-left, top-left where a
    toast does not cover ``pane``; bottom-right when every corner does (a zoomed pane)."""
    if pane is None:
        return True, True
    width = min(60, screen.width // 2)
    for bottom, right in ((True, True), (False, True), (True, False), (False, False)):
        x = screen.width - width if right else 0
        y = screen.height - BOTTOM_ROWS - TOAST_ROWS if bottom else 1
        if not Region(x, y, width, TOAST_ROWS).overlaps(pane):
            return bottom, right
    return True, True


class NoticesApp(NavigatingApp):
    """An app whose notices go to a line and a log, and whose few toasts keep out of the way.

    | Key | Action |
    | :- | :- |
    | ! | The notices log: everything said, with its time |
    """

    BINDINGS = [Binding("exclamation_mark", "notices", "Notices log", key_display="!", show=False)]

    def __init__(self) -> None:
        super().__init__()
        self.notices = NoticeLog()
        """Everything said (the ``!`` dialog shows it)."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True, toast: bool | None = None) -> None:
        """Log ``message`` and show it in the notices line; a toast too when ``toast`` (by
        default: for an error, or a message with a title: details the user asked for)."""
        said = Text.from_markup(message).plain if markup else message
        entry = self.notices.add(f"{title}: {said}" if title else said, severity)
        self.show_in_log()
        for bar in self.query(StatusBar):
            bar.notice = entry
        if toast if toast is not None else (severity == "error" or bool(title)):
            self.place_toasts()
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def log_notice(self, message: str, severity: str = "information") -> None:
        """Keep ``message`` in the log only (a pane already shows it)."""
        self.notices.add(message, severity)
        self.show_in_log()

    def show_in_log(self) -> None:
        """The notices log, when open, shows what was just said."""
        for screen in self.screen_stack:
            if isinstance(screen, NoticesScreen):
                screen.show_entries(self.notices.entries)

    def place_toasts(self) -> None:
        """Put the toasts in the corner where they cover neither the focused pane nor the status bar.
        The corner is a class of the toast rack, not of the screen: a class the screen changes
        restyles every widget on it (tens of ms at each focus change)."""
        screen = self.screen
        pane = focused_pane(screen.focused)
        bottom, right = toast_corner(screen.region, pane.region if pane is not None else None)
        for rack in screen.query(TOAST_RACK):
            rack.set_class(not bottom, "-top")
            rack.set_class(not right, "-left")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self.screen_stack:  # a focus change still queued while the app closes comes after its screens
            self.place_toasts()

    def action_notices(self) -> None:
        if not isinstance(self.screen, NoticesScreen):
            self.push_screen(NoticesScreen(self.notices.entries))
