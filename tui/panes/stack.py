"""The call stack pane: one row per frame; selecting a frame makes locals and source follow."""

from __future__ import annotations

import os
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import DataTable

from cudatui.gdbbridge import Frame, StopState

from .base import Cell, FrameSelected, PaneTable, StatePane, sync_rows

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
        table: PaneTable[Cell] = PaneTable(cursor_type="row", zebra_stripes=True)
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
