"""The call stack pane: one row per frame; selecting a frame makes locals and source follow."""

from __future__ import annotations

import os
from typing import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import DataTable

from gdbbridge.models import Frame, StopState

from .base import FrameSelected, StatePane

Cell = str | Text


def sync_rows(table: DataTable, columns: Sequence[str], rows: dict[str, tuple[Cell, ...]]) -> None:
    """Show ``rows`` (key -> cells) in ``table``: cells are updated in place when the keys are the
    same as shown (the cursor stays put), the table is refilled when they differ."""
    shown = [row_key.value for row_key in table.rows]
    with table.app.batch_update():
        if shown == list(rows):
            for key, cells in rows.items():
                for column, cell in zip(columns, cells):
                    table.update_cell(key, column, cell)  # type: ignore[arg-type]
            return
        cursor_key = shown[table.cursor_row] if 0 <= table.cursor_row < len(shown) else None
        table.clear()
        for key, cells in rows.items():
            table.add_row(*cells, key=key)  # type: ignore[arg-type]
        if cursor_key in rows:
            table.move_cursor(row=list(rows).index(cursor_key))


def frame_location(frame: Frame) -> str:
    """``file:line`` or the address when there is no line information."""
    if frame.file and frame.line:
        return f"{os.path.basename(frame.file)}:{frame.line}"
    return hex(frame.addr) if frame.addr is not None else "??"


class StackPane(StatePane):
    """The call stack at the current stop.

    | Key | Action |
    | :- | :- |
    | enter | Select the frame under the cursor (locals and source follow) |
    | up/down | Move the cursor |
    """

    DEFAULT_CSS = """
    StackPane { height: 1fr; }
    StackPane > DataTable { height: 1fr; }
    """

    COLUMNS = ("mark", "level", "function", "location")

    def compose(self) -> ComposeResult:
        table: DataTable[Cell] = DataTable(cursor_type="row", zebra_stripes=True)
        for key, label in zip(self.COLUMNS, ("", "#", "Function", "Location")):
            table.add_column(label, key=key)
        yield table

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        frames = state.frames or ((state.stop.frame,) if state.stop.frame else ())
        rows: dict[str, tuple[Cell, ...]] = {}
        for frame in frames:
            selected = frame.level == state.selected_frame
            style = "bold" if selected else ""
            rows[str(frame.level)] = (
                Text("▶" if selected else " ", style="bold"),
                Text(str(frame.level), style=style),
                Text(frame.func, style=style),
                Text(frame_location(frame), style=style),
            )
        sync_rows(self.query_one(DataTable), self.COLUMNS, rows)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(FrameSelected(int(event.row_key.value)))
