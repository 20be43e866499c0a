"""The default screen of every app: a widget inside a hidden pane lays nothing out.

A widget that changes size or content asks its screen for a layout pass, and Textual lays the
whole screen out for it, also when the widget is inside a container that is not displayed (a
tab not chosen, a pane of the other layout): a table of a hidden tab filled at a stop, a log
written in a hidden tab, each cost a pass over every widget on the screen (~20-30 ms at 160x48
on a 2-core box), for nothing on the screen changed. Here such a request is dropped when it is
posted. Nothing is lost: the widget's containers forgot their arrangement when it asked (Textual
does that before posting), and showing the container is itself a layout pass, which lays the
widget out with what it holds then.
"""

from __future__ import annotations

from textual import messages
from textual.message import Message
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.widget import Widget

from cudatui.tui.textual_compat import SameSizeScreen


def displayed_within(widget: Widget) -> bool:
    """Whether every container of ``widget`` is displayed (``widget`` itself may not be: its own
    ``display`` turned off is a layout change of its container)."""
    for ancestor in widget.ancestors:
        if isinstance(ancestor, Screen) or not isinstance(ancestor, Widget):
            return True
        if not ancestor.display:
            return False
    return True


def lays_out(widget: Widget) -> bool:
    """Whether a layout request of ``widget`` lays the screen out (:class:`AppScreen` drops it
    otherwise)."""
    return not isinstance(widget, (ScrollBar, ScrollBarCorner)) and displayed_within(widget)


class AppScreen(SameSizeScreen):
    """A Screen that drops the layout requests of widgets inside a container not displayed, and
    those of scrollbars: a scrollbar's place is its widget's, which asks for a layout itself when
    it shows or hides one; the scrollbar's own requests (its styles applied again at each focus
    change, its size set by a layout pass) were a second pass for nothing."""

    def post_message(self, message: Message) -> bool:
        if isinstance(message, messages.Layout) and isinstance(message.widget, Widget) and not lays_out(message.widget):
            return True
        return super().post_message(message)
