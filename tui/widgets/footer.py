"""The key bar: Textual's Footer, whose keys are one line of text that changes without a layout.

Textual's Footer composes all of its keys again after the next refresh whenever the screen's
bindings are refreshed: at every focus change, dialog and reactive with ``bindings=True``, also
when the keys are the same. Each time is a layout pass over the whole screen (about 20 ms at
160x48 on a 2-core box), and more as the new keys mount and then take their style, apart from
the pass of what changed the bindings (a stop that moves the focus, a console command typed).
Without the command palette's key, the key bar shows its keys as one line of text
(:class:`KeyLine`, as wide as the bar): new keys repaint that line and lay nothing out; a key
is clicked as on Footer, and its tooltip shows under the pointer.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from cudatui.gdbbridge import tr


class Key(NamedTuple):
    """One key the bar shows (the first key bound to each action, as Footer shows them)."""

    key: str
    display: str
    description: str
    disabled: bool
    tooltip: str


def shown_keys(screen: Screen) -> tuple[Key, ...]:
    """The keys ``screen``'s bindings show, in order (groups are shown key by key), each
    description in the language in use (they are in the catalogue)."""
    keys: dict[str, Key] = {}
    for _, binding, enabled, tooltip in screen.active_bindings.values():
        if binding.show:
            keys.setdefault(binding.action, Key(binding.key, screen.app.get_key_display(binding),
                                                tr(binding.description) if binding.description else "",
                                                not enabled, tooltip or binding.tooltip))
    return tuple(keys.values())


KEPT = frozenset({"question_mark", "q"})
"""The keys the bar keeps when not all fit: help and quit."""


class KeyLine(Widget):
    """The keys as one line: showing other keys repaints it (its size never follows them)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description"}
    DEFAULT_CSS = """
    KeyLine {
        width: 1fr;
        height: 1;
        text-wrap: nowrap;
        text-overflow: clip;
        background: $footer-item-background;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, compact: bool) -> None:
        super().__init__()
        self.compact = compact
        self.keys: tuple[Key, ...] = ()
        """The keys shown."""
        self.spans: tuple[tuple[int, int, Key], ...] = ()
        """Each key's first and past-last column on the line."""

    def show(self, keys: tuple[Key, ...]) -> None:
        """Show ``keys`` (a repaint of the line when they differ from those shown)."""
        if keys != self.keys:
            self.keys = keys
            self.refresh()

    def render(self) -> Text:
        line, spans = Text(no_wrap=True, overflow="crop", end=""), []
        gap = " " if self.compact else ""
        for key, part in self._fitting([(key, self._part(key)) for key in self.keys]):
            start = line.cell_len
            line.append_text(part)
            spans.append((start, line.cell_len, key))
            line.append(gap)
        self.spans = tuple(spans)
        return line

    def _part(self, key: Key) -> Text:
        key_style = self.get_component_rich_style("footer-key--key")
        description_style = self.get_component_rich_style("footer-key--description")
        if self.compact:
            part = Text.assemble((key.display, key_style),
                                 (f" {key.description}" if key.description else "", description_style))
        else:
            part = Text.assemble((f" {key.display} ", key_style),
                                 (f"{key.description} " if key.description else "", description_style))
        if key.disabled:
            part.stylize("dim")
        return part

    def _fitting(self, parts: list[tuple[Key, Text]]) -> list[tuple[Key, Text]]:
        """The keys that fit the bar's width, each whole (never "Co" for Console): where not all
        fit, help and quit stay (how to learn the rest and how to leave) and the others are
        taken in order while they fit."""
        gap = 1 if self.compact else 0
        width = self.size.width
        if not width or sum(part.cell_len + gap for _, part in parts) - gap <= width:
            return parts
        budget = width + gap - sum(part.cell_len + gap for key, part in parts if key.key in KEPT)  # no gap after the last
        chosen = []
        for key, part in parts:
            if key.key in KEPT:
                chosen.append((key, part))
            elif part.cell_len + gap <= budget:
                chosen.append((key, part))
                budget -= part.cell_len + gap
            else:
                budget = 0  # in order: a later, shorter key does not jump the queue
        return chosen

    def key_at(self, x: int) -> Key | None:
        """The key shown at column ``x``."""
        return next((key for start, end, key in self.spans if start <= x < end), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self.key_at(event.x)
        if key is None:
            return
        if key.disabled:
            self.app.bell()
        else:
            self.app.simulate_key(key.key)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        key = self.key_at(event.x)
        tooltip = (key.tooltip or None) if key is not None else None
        if self.tooltip != tooltip:
            self.tooltip = tooltip


class KeyBar(Footer):
    """A Footer that shows its keys as one :class:`KeyLine` (without the command palette's key),
    or recomposes only when what it would show differs from what it shows (with it)."""

    _shown: Hashable = None

    def compose(self) -> ComposeResult:
        if self.one_line:
            yield KeyLine(compact=self.compact)
        else:
            for widget in super().compose():  # each description in the language in use
                description = getattr(widget, "description", None)
                if isinstance(description, str) and description:
                    widget.description = tr(description)  # type: ignore[attr-defined]
                yield widget

    @property
    def one_line(self) -> bool:
        """Whether the keys are one line (Footer docks the command palette's key on the right)."""
        return not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE)

    def bindings_changed(self, screen: Screen) -> None:
        if self.one_line:
            if screen.app.app_focus and self.is_attached and screen is self.screen:
                self.query_one(KeyLine).show(shown_keys(screen))
            return
        keys = self._keys(screen)
        if keys == self._shown and self.children:
            return
        self._shown = keys
        super().bindings_changed(screen)

    def _keys(self, screen: Screen) -> Hashable:
        """What compose reads of the screen's bindings: each shown key, its action, label, tooltip,
        group and whether it is enabled, in order."""
        return tuple(
            (binding.key, binding.key_display, binding.action, binding.description, binding.tooltip,
             binding.group, enabled, tooltip)
            for _, binding, enabled, tooltip in screen.active_bindings.values()
            if binding.show
        ) + (screen.app.app_focus,)
