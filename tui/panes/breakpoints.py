"""The breakpoints pane: enable/disable, delete, hit counts, editable conditions."""

from __future__ import annotations

import os

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input

from cudatui.gdbbridge import Breakpoint, StopState, short_name
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import Condition, Delete, Enable, OpenSource

from .base import Cell, PaneTable, StatePane, sync_rows


def location_text(bp: Breakpoint) -> str:
    """Where the breakpoint is: ``file:line``, the function, or what was asked for if pending."""
    if bp.pending or not (bp.file and bp.line):
        where = bp.original_location or short_name(bp.func or "") or "?"
        return f"{where} (pending)" if bp.pending else where
    extra = len([loc for loc in bp.locations if loc.enabled]) - 1
    return f"{os.path.basename(bp.file)}:{bp.line}" + (f" +{extra} more" if extra > 0 else "")


class BreakpointsPane(StatePane):
    """Every breakpoint with its hit count and condition.

    | Key | Action |
    | :- | :- |
    | enter | Show the breakpoint's file in the source pane |
    | space | Enable or disable |
    | e | Edit the condition (enter sets it, empty removes it; escape keeps it) |
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

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._editing: int | None = None
        """The number of the breakpoint whose condition is edited."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A follower's app refuses these keys (they would change the session): not offered."""
        return action not in getattr(self.app, "REFUSED_ACTIONS", ())

    def compose(self) -> ComposeResult:
        table: PaneTable[Cell] = PaneTable(cursor_type="row", zebra_stripes=True)
        for key, label in zip(self.COLUMNS, ("#", "On", "Hits", "Location", "Condition")):
            table.add_column(label, key=key)
        yield table
        yield InlineInput(placeholder="e.g. threadIdx.x == 5 && i > 3", transient=True, id="condition-input")

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
        self._editing = bp.number
        field = self.query_one("#condition-input", InlineInput)
        field.border_title = f"Condition of breakpoint {bp.number} (empty: none)"
        field.open(bp.condition or "")

    @on(Input.Submitted, "#condition-input")
    def _condition_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._editing is not None:
            self.post_message(Condition(self._editing, event.value.strip()))

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        bp = self.selected()
        if bp is not None and (bp.fullname or bp.file):
            self.post_message(OpenSource(bp.fullname or bp.file or "", bp.line))
