"""The key bar: Textual's Footer, whose keys are updated in place when the keys it shows change.

Textual's Footer composes all of its keys again after the next refresh whenever the screen's
bindings are refreshed: at every focus change, dialog and reactive with ``bindings=True``, also
when the keys are the same. Each time is a layout pass over the whole screen (about 20 ms at
160x48 on a 2-core box) and more as the new keys mount and then take their style, apart from the
pass of what changed the bindings (a stop that moves the focus, a console step, a dialog).
The key bar keeps its key widgets: it gives them the new keys at once, adds those missing, hides
those left over, so that the bar is laid out in the same pass as the change that moved them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from textual.screen import Screen
from textual.widgets import Footer

from cudatui.tui.textual_compat import FooterKey, footer_key_disable


class Key(NamedTuple):
    """One key the bar shows, as Footer's compose shows a key that is not in a group."""

    key: str
    display: str
    description: str
    action: str
    disabled: bool
    tooltip: str


class KeyBar(Footer):
    """A Footer that changes only what differs from what it shows, in place."""

    _shown: Hashable = None

    def bindings_changed(self, screen: Screen) -> None:
        keys = self._keys(screen)
        if keys == self._shown and self.children:
            return
        if not (screen.app.app_focus and self.is_attached and screen is self.screen and self.children
                and self._update(screen)):
            super().bindings_changed(screen)
        self._shown = keys

    def _keys(self, screen: Screen) -> Hashable:
        """What compose reads of the screen's bindings: each shown key, its action, label, tooltip,
        group and whether it is enabled, in order."""
        return tuple(
            (binding.key, binding.key_display, binding.action, binding.description, binding.tooltip,
             binding.group, enabled, tooltip)
            for _, binding, enabled, tooltip in screen.active_bindings.values()
            if binding.show
        ) + (screen.app.app_focus,)

    def _update(self, screen: Screen) -> bool:
        """Show the screen's keys in the key widgets shown (the first key of each action, as
        compose does); False, changing nothing, where a group or the command palette's key is
        shown or to be shown (compose lays those out)."""
        if self.show_command_palette and screen.app.ENABLE_COMMAND_PALETTE:
            return False
        keys: dict[str, Key] = {}
        for _, binding, enabled, tooltip in screen.active_bindings.values():
            if not binding.show:
                continue
            if binding.group is not None:
                return False
            keys.setdefault(binding.action, Key(binding.key, screen.app.get_key_display(binding),
                                                binding.description, binding.action, not enabled, tooltip))
        widgets = list(self.children)
        if not all(type(widget) is FooterKey for widget in widgets):
            return False
        shown = list(keys.values())
        for widget, key in zip(widgets, shown):
            show(widget, key)
        for widget in widgets[len(shown):]:
            widget.display = False
        if len(shown) > len(widgets):
            compact = "-compact" if self.compact else ""
            self.mount_all([FooterKey(*key, classes=compact).data_bind(compact=Footer.compact)
                            for key in shown[len(widgets):]])
        return True


def show(widget: FooterKey, key: Key) -> None:
    """Make ``widget`` show ``key`` (a layout only when its width changes or it was hidden)."""
    before = (widget.key_display, widget.description, widget.display)
    widget.key, widget.key_display, widget.description, widget.action = key.key, key.display, key.description, key.action
    footer_key_disable(widget, key.disabled)
    if widget.tooltip != (key.tooltip or None):
        widget.tooltip = key.tooltip or None
    widget.display = True
    if (len(before[0]), len(before[1])) != (len(key.display), len(key.description)):
        widget.refresh(layout=True)
    elif before != (key.display, key.description, True):
        widget.refresh()
