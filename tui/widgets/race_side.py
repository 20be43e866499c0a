"""Both sides of a race, as lines a person reads, and the dialog ``d`` opens to pick the side to
debug.

racecheck names two accesses for each hazard: the write and the read (or two writes), each at
its own line and, in its hazard report, in its own thread of the hazard's block. "Debug this
finding" can stop at either one; when they are different places to stop (:func:`debug_sides`),
``d`` asks which.
"""

from __future__ import annotations

import posixpath

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from cudatui.gdbbridge import N_, Finding, cells, function_name, tr

ACCESS_LABELS = {"read": N_("Read"), "write": N_("Write"), "atomic": N_("Atomic")}
"""How a side's access is named on screen (racecheck's own words, lowercased by the parsers)."""


def fit(text: str, width: int | None) -> str:
    """``text`` cut to ``width`` terminal columns, ending in "…" when cut (None: as it is)."""
    if width is None or cells(text) <= width:
        return text
    kept = ""
    for char in text:
        if cells(kept + char) > width - 1:
            break
        kept += char
    return kept.rstrip() + "…"


def side_text(finding: Finding, index: int, width: int | None = None) -> str:
    """One side of a race: ``Write  race.cu:23  block (0,0,0) thread (5,0,0)  reduce_racy``
    (block and thread when the report gives them, the hazard count of an analysis report), cut to
    ``width`` columns."""
    access = finding.accesses[index]
    label = tr(ACCESS_LABELS.get(access.access, access.access or "?"))
    place = f"{posixpath.basename(access.file)}:{access.line}" if access.file else "?"
    parts = [label + " " * max(2, 7 - cells(label)) + place]
    if finding.block is not None:
        parts.append(f"block {finding.block}" + (f" thread {access.thread}" if access.thread else ""))
    elif access.thread is not None:
        parts.append(f"thread {access.thread}")
    if access.function:
        parts.append(function_name(access.function) or access.function)
    if access.hazards:
        parts.append(tr("[{count} hazards]").format(count=f"{access.hazards:,}"))
    return fit("  ".join(parts), width)


class RaceSideScreen(ModalScreen[int | None]):
    """Asks which side of a race to debug; dismissed with the side's index into the finding's
    ``accesses``, or None.

    | Key | Action |
    | :- | :- |
    | 1 / 2 | Debug that side |
    | enter | Debug the highlighted side |
    | escape | Cancel |
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("1", "pick(1)", "Debug the first side"),
        Binding("2", "pick(2)", "Debug the second side"),
    ]
    """A third side (an analysis report's write racing with reads on two lines) is picked with
    the arrows and enter."""

    DEFAULT_CSS = """
    RaceSideScreen { align: center middle; }
    RaceSideScreen > Vertical { width: 90%; max-width: 100; height: auto; border: round $accent;
                                padding: 0 1; background: $surface; }
    RaceSideScreen OptionList, RaceSideScreen OptionList:focus { height: auto; max-height: 12; border: none;
                                                                padding: 0; }
    """

    def __init__(self, finding: Finding, sides: tuple[int, ...]) -> None:
        super().__init__()
        self.finding = finding
        self.sides = sides
        """The indexes (into ``finding.accesses``) offered, in the report's order."""

    def compose(self) -> ComposeResult:
        width = max(20, min(100, self.app.size.width * 9 // 10) - 4 - 3)  # border and padding, "1  "
        with Vertical():
            yield Label(tr("Debug which side of the race?"))
            yield OptionList(*(Option(Text(f"{n}  {side_text(self.finding, side, width)}"), id=str(side))
                               for n, side in enumerate(self.sides, 1)))
            yield Static(Text(tr("1 / 2 or enter: debug that side · escape: cancel"),
                              style="dim"), markup=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def action_pick(self, number: int) -> None:
        """Debug the side numbered ``number`` (from 1) in the list."""
        if 1 <= number <= len(self.sides):
            self.dismiss(self.sides[number - 1])

    def action_cancel(self) -> None:
        self.dismiss(None)
