"""A one-cell bar between two panes that a mouse drags to move their split (Textual has none)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.widget import Widget


class Splitter(Widget, can_focus=False):
    """A bar between two panes: press the mouse on it and drag; each move posts :class:`Dragged`,
    the release posts :class:`Released`. ``split`` names the split it moves; ``vertical``
    bars (one column wide) move a split left and right, the others up and down."""

    DEFAULT_CSS = """
    Splitter { background: $panel; }
    Splitter.-vertical { width: 1; height: 1fr; }
    Splitter.-horizontal { height: 1; width: 1fr; }
    Splitter:hover, Splitter.-dragging { background: $accent 60%; }
    """

    @dataclass
    class Dragged(Message):
        """The mouse dragging ``splitter`` is at screen cell (``x``, ``y``)."""

        splitter: Splitter
        x: int
        y: int

    @dataclass
    class Released(Message):
        """The drag of ``splitter`` ended."""

        splitter: Splitter

    def __init__(self, split: str, *, vertical: bool, id: str | None = None) -> None:
        super().__init__(id=id, classes="-vertical" if vertical else "-horizontal")
        self.split = split
        self.tooltip = "drag to resize"

    def render(self) -> str:
        return ""

    def on_mouse_down(self, event: events.MouseDown) -> None:
        event.stop()
        self.capture_mouse()
        self.add_class("-dragging")

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self.app.mouse_captured is self:
            event.stop()
            self.post_message(self.Dragged(self, event.screen_x, event.screen_y))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self.app.mouse_captured is self:
            event.stop()
            self.release_mouse()
            self.remove_class("-dragging")
            self.post_message(self.Released(self))
