"""The text a Pilot app shows, as a person reads it: the screen's rows, toasts and dialogs included."""

from __future__ import annotations

import io
import re

from rich.cells import cell_len
from rich.console import Console, RenderableType
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.screen import Screen

from .terminal import ANSI


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


_MOVE_TO = re.compile(r"\x1b\[(\d+);(\d+)H")


class Painted:
    """What the app's screen updates left on a terminal, for an app run headless (Pilot).

    A headless app renders each update (a whole screen, or only the lines that were marked for
    repaint) and writes none; this applies each one to a grid of cells as a terminal does, so a
    line the app rendered but never sent shows what was there before (:func:`screen_text`
    renders every line again, and shows it as it should be)."""

    def __init__(self, app: App[object]) -> None:
        width, height = app.size
        self.cells = [[" "] * width for _ in range(height)]
        self.console = Console(width=width, height=height, file=io.StringIO(), color_system=None,
                               legacy_windows=False, force_terminal=True)
        display = app._display

        def recorded(screen: Screen[object], renderable: RenderableType | None) -> None:
            if isinstance(renderable, CompositorUpdate) and not app._batch_count:  # what App._display writes
                self.apply(renderable.render_segments(self.console))
            display(screen, renderable)

        app._display = recorded  # type: ignore[method-assign]

    def apply(self, sequence: str) -> None:
        """Write ``sequence`` (cursor moves and text) on the grid."""
        x = y = 0
        for index, token in enumerate(_MOVE_TO.split(sequence)):  # text, row, column, text, ...
            if index % 3 == 1:
                y = int(token) - 1
            elif index % 3 == 2:
                x = int(token) - 1
            else:
                for char in ANSI.sub("", token).replace("\n", ""):  # a new line is followed by a move
                    width = cell_len(char)
                    if 0 <= y < len(self.cells) and 0 <= x + width <= len(self.cells[y]) and width:
                        self.cells[y][x:x + width] = [char] + [""] * (width - 1)
                    x += width

    def rows(self) -> list[str]:
        """The grid's rows, as text."""
        return ["".join(row) for row in self.cells]
