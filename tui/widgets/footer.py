"""The key bar: Textual's Footer, composed again only when the keys it shows change.

Textual's Footer mounts all of its keys again whenever the screen's bindings are refreshed: at
every focus change, dialog and reactive with ``bindings=True``, also when the keys are the same.
Each time is a layout pass over the whole screen (about 20 ms at 160x48 on a 2-core box), and a
stop that moves the focus or closes a dialog paid for it.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from cudatui.gdbbridge import tr


class KeyBar(Footer):
    """A Footer that recomposes only when what it would show differs from what it shows."""

    _shown: Hashable = None

    def bindings_changed(self, screen: Screen) -> None:
        keys = self._keys(screen)
        if keys == self._shown and self.children:
            return
        self._shown = keys
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        """Textual's keys, each description in the language in use (they are in the catalogue)."""
        for widget in super().compose():
            description = getattr(widget, "description", None)
            if isinstance(description, str) and description:
                widget.description = tr(description)  # type: ignore[attr-defined]
            yield widget

    def _keys(self, screen: Screen) -> Hashable:
        """What compose reads of the screen's bindings: each shown key, its action, label, tooltip,
        group and whether it is enabled, in order."""
        return tuple(
            (binding.key, binding.key_display, binding.action, binding.description, binding.tooltip,
             binding.group, enabled, tooltip)
            for _, binding, enabled, tooltip in screen.active_bindings.values()
            if binding.show
        ) + (screen.app.app_focus,)
