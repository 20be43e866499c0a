"""The source pane's file finder (``o``): a fuzzy search over the program's source files as gdb
lists them (``-file-list-exec-source-files``, through the Debugger).

Typing narrows the list to the files whose path holds the typed letters in order; the best first:
letters in the file's base name, in runs, at word starts, short paths.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from cudatui.tui.widgets.source_search import shorten_left

SHOWN = 200
"""Files listed at most (the best matches)."""


def fuzzy_score(query: str, path: str) -> tuple[float, tuple[int, ...]] | None:
    """How well ``path`` matches ``query`` (higher is better) and the matched positions, or None
    when the letters of ``query`` (spaces ignored, case-insensitive) are not in ``path`` in order."""
    letters = query.replace(" ", "").lower()
    if not letters:
        return 0.0, ()
    hay = path.lower()
    base = len(path) - len(os.path.basename(path))
    # match from the end, so that letters land in the base name where they can
    positions: list[int] = []
    at = len(hay)
    for ch in reversed(letters):
        at = hay.rfind(ch, 0, at)
        if at < 0:
            return None
        positions.append(at)
    positions.reverse()
    score = 0.0
    for i, pos in enumerate(positions):
        score += 2.0 if pos >= base else 0.5
        if i and positions[i - 1] == pos - 1:
            score += 1.5
        if pos == 0 or hay[pos - 1] in "/_-. ":
            score += 1.0
    if letters in os.path.basename(hay):
        score += 4.0
    return score - len(path) / 200.0, tuple(positions)


def rank(query: str, paths: Sequence[str]) -> list[tuple[str, tuple[int, ...]]]:
    """The paths matching ``query``, best first, with their matched positions."""
    scored = [(found[0], path, found[1]) for path in paths if (found := fuzzy_score(query, path)) is not None]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(path, positions) for _, path, positions in scored[:SHOWN]]


def labelled(path: str, positions: tuple[int, ...], width: int) -> Text:
    """``path`` shortened from the left to ``width``, its matched letters in bold."""
    shown = shorten_left(path, width)
    offset = len(path) - len(shown)
    text = Text(shown)
    lead = 1 if shown.startswith("…") else 0
    for pos in positions:
        at = pos - offset
        if at >= lead:
            text.stylize("bold underline", at, at + 1)
    return text


class FileFinder(ModalScreen[str | None]):
    """Picks one of ``files``; dismissed with the path (as gdb names it) or None.

    | Key | Action |
    | :- | :- |
    | (type) | Narrow the list |
    | up / down | Move in the list |
    | enter | Open the file |
    | escape | Close |
    """

    BINDINGS = [
        Binding("escape", "cancel", "Close"),
        Binding("down", "move(1)", "Next file", show=False, priority=True),
        Binding("up", "move(-1)", "Previous file", show=False, priority=True),
    ]
    DEFAULT_CSS = """
    FileFinder { align: center middle; }
    FileFinder > Vertical { width: 90%; max-width: 120; height: 80%; border: round $accent; padding: 0 1;
                            background: $surface; }
    FileFinder OptionList { height: 1fr; }
    """

    def __init__(self, files: Sequence[str]) -> None:
        super().__init__()
        self.files = tuple(files)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Open a source file ({len(self.files)} known to the debugger)")
            yield Input(placeholder="type letters of its name", id="finder-query")
            yield OptionList(id="finder-list")

    def on_mount(self) -> None:
        self._fill("")
        self.query_one(Input).focus()

    @on(Input.Changed, "#finder-query")
    def _changed(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def _fill(self, query: str) -> None:
        options = self.query_one(OptionList)
        width = max((options.size.width or self.app.size.width) - 4, 20)
        options.clear_options()
        options.add_options([Option(labelled(path, positions, width), id=path) for path, positions in rank(query, self.files)])
        if options.option_count:
            options.highlighted = 0

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if options.option_count:
            options.highlighted = max(0, min((options.highlighted or 0) + step, options.option_count - 1))

    @on(Input.Submitted, "#finder-query")
    def _submitted(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None and options.option_count:
            self.dismiss(options.get_option_at_index(options.highlighted).id)
        else:
            self.notify("no file matches", severity="warning")

    @on(OptionList.OptionSelected, "#finder-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
