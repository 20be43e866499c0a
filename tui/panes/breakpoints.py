"""The breakpoints pane: enable/disable, delete, hit counts, editable conditions."""

from __future__ import annotations

import os

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label

from cudatui.gdbbridge import Breakpoint, StopState
from cudatui.tui.messages import Condition, Delete, Enable, OpenSource

from .base import Cell, PaneTable, StatePane, sync_rows


def location_text(bp: Breakpoint) -> str:
    """Where the breakpoint is: ``file:line``, the function, or what was asked for if pending."""
    if bp.pending or not (bp.file and bp.line):
        where = bp.original_location or bp.func or "?"
        return f"{where} (pending)" if bp.pending else where
    extra = len([loc for loc in bp.locations if loc.enabled]) - 1
    return f"{os.path.basename(bp.file)}:{bp.line}" + (f" +{extra} more" if extra > 0 else "")


class ConditionScreen(ModalScreen[str | None]):
    """Asks for a breakpoint condition; dismissed with the text (may be empty) or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    ConditionScreen { align: center middle; }
    ConditionScreen > #box { width: 70; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, number: int, condition: str) -> None:
        super().__init__()
        self._number = number
        self._condition = condition

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Label(f"Condition of breakpoint {self._number} (empty: none)")
            yield Input(self._condition, placeholder="e.g. threadIdx.x == 5 && i > 3")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class BreakpointsPane(StatePane):
    """Every breakpoint with its hit count and condition.

    | Key | Action |
    | :- | :- |
    | enter | Show the breakpoint's file in the source pane |
    | space | Enable or disable |
    | e | Edit the condition |
    | delete / d | Delete |
    """

    BINDINGS = [
        Binding("space", "toggle_enabled", "On/off"),
        Binding("e", "edit_condition", "Condition"),
        Binding("delete,d", "delete", "Delete"),
    ]

    DEFAULT_CSS = """
    BreakpointsPane { height: 1fr; }
    BreakpointsPane > DataTable { height: 1fr; }
    """

    COLUMNS = ("number", "enabled", "hits", "location", "condition")

    def compose(self) -> ComposeResult:
        table: PaneTable[Cell] = PaneTable(cursor_type="row", zebra_stripes=True)
        for key, label in zip(self.COLUMNS, ("#", "On", "Hits", "Location", "Condition")):
            table.add_column(label, key=key)
        yield table

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        old = {bp.number: bp.hits for bp in previous.breakpoints} if previous else {}
        rows: dict[str, tuple[Cell, ...]] = {}
        for bp in state.breakpoints:
            hit_now = bp.hits > old.get(bp.number, bp.hits)
            rows[str(bp.number)] = (
                str(bp.number),
                Text("●", style="bold red") if bp.enabled else Text("○", style="dim"),
                Text(str(bp.hits), style="bold reverse" if hit_now else ""),
                location_text(bp),
                bp.condition or "",
            )
        sync_rows(self.query_one(DataTable), self.COLUMNS, rows)

    def selected(self) -> Breakpoint | None:
        """The breakpoint under the cursor."""
        table = self.query_one(DataTable)
        if self.state is None or not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((bp for bp in self.state.breakpoints if str(bp.number) == key), None)

    def action_toggle_enabled(self) -> None:
        if (bp := self.selected()) is not None:
            self.post_message(Enable(bp.number, not bp.enabled))

    def action_delete(self) -> None:
        if (bp := self.selected()) is not None:
            self.post_message(Delete(bp.number))

    def action_edit_condition(self) -> None:
        bp = self.selected()
        if bp is None:
            return

        def done(condition: str | None) -> None:
            if condition is not None:
                self.post_message(Condition(bp.number, condition))

        self.app.push_screen(ConditionScreen(bp.number, bp.condition or ""), done)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        bp = self.selected()
        if bp is not None and (bp.fullname or bp.file):
            self.post_message(OpenSource(bp.fullname or bp.file or "", bp.line))
