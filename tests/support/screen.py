"""The text a Pilot app shows, as a person reads it: the screen's rows, toasts and dialogs included."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App


def screen_text(app: App[object]) -> str:
    """Every row of the app's screen as plain text (what ``export_screenshot`` draws, without its SVG)."""
    width, height = app.size
    console = Console(width=width, height=height, record=True, file=io.StringIO(), color_system=None,
                      legacy_windows=False, force_terminal=True)
    screen = app.screen
    console.print(screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def screen_rows(app: App[object]) -> list[str]:
    return screen_text(app).splitlines()
