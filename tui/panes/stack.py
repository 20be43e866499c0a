"""The call stack pane: the device (gdb) frames, and below them the host Python frames of the
user's script at this stop; selecting a device frame makes locals and source follow, selecting a
Python frame opens its file."""

from __future__ import annotations

import os

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.layout import DockArrangeResult
from textual.widgets import DataTable

from cudatui.gdbbridge import Folded, Frame, HostFrame, HostStack, StopState, fold, short_name, tr
from cudatui.tui.messages import FrameSelected, OpenSource

from .base import Cell, InfoLine, PaneTable, StatePane, set_in_pass, sync_rows


def frame_location(frame: Frame) -> str:
    """``file:line`` or the address when there is no line information."""
    if frame.file and frame.line:
        return f"{os.path.basename(frame.file)}:{frame.line}"
    return hex(frame.addr) if frame.addr is not None else "??"


def host_rows(stack: HostStack) -> dict[str, tuple[Cell, ...]]:
    """One row per Python frame of the thread shown (innermost first), library runs folded."""
    thread = stack.thread
    if thread is None:
        return {"error": (Text(""), Text("py", style="dim"), Text(stack.error or "no Python thread"),
                          Text(""))}
    rows: dict[str, tuple[Cell, ...]] = {}
    for index, entry in enumerate(fold(thread.frames)):
        if isinstance(entry, Folded):
            rows[f"fold {index}"] = (Text(""), Text("py", style="dim"), Text(entry.text, style="dim"),
                                     Text(""))
            continue
        style = "bold" if entry.user else "dim"
        where = f"{os.path.basename(entry.file)}:{entry.line}"
        rows[f"frame {index}"] = (Text("•" if entry is thread.user_frame else " ", style="bold"),
                                  Text("py", style="dim"), Text(entry.function, style=style),
                                  Text(f"{where}  {entry.code}", style=style))
    return rows


class StackPane(StatePane):
    """The call stack at the current stop (device frames, then the host's Python frames).

    | Key | Action |
    | :- | :- |
    | enter | Select the frame under the cursor (locals and source follow); on a Python frame, open its file |
    | up/down | Move the cursor |
    | u / d | Up (caller) / down (callee) one frame |
    | i | The whole name and place of the frame under the cursor |
    """

    BINDINGS = [
        Binding("u", "app.frame(1)", "Up frame"),
        Binding("d", "app.frame(-1)", "Down frame"),
        Binding("i", "details", "Whole name", show=False),
    ]

    DEFAULT_CSS = """
    StackPane { height: 1fr; }
    StackPane > #stack-table { height: auto; max-height: 70%; }
    StackPane > #host-note { height: auto; color: $warning; display: none; }
    StackPane > #host-table { height: 1fr; display: none; }
    """

    COLUMNS = ("mark", "level", "function", "location")

    def __init__(self, **kwargs: str | None) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """The device frames take the rows they need, up to 70% of the pane (CSS), but never fewer
        than a header and three frames while there is room for them (the Python frames get the
        rest). The limit is set only where 70% is less (a pane under 6 rows), in the layout pass
        that sizes the pane (set on its Resize, it was a second pass each time the pane was shown
        at another size)."""
        for table in self.query("#stack-table"):
            set_in_pass(table, "max_height", 4 if int(size.height * 0.7) < 4 else None)
        return super().arrange(size, optimal)

    def compose(self) -> ComposeResult:
        for table_id, labels in (("stack-table", ("", "#", "Function", "Location")),
                                 ("host-table", ("", "", "Python", "Line"))):
            table: PaneTable[Cell] = PaneTable(cursor_type="row", zebra_stripes=True, id=table_id)
            for key, label in zip(self.COLUMNS, labels):
                table.add_column(label, key=key)
            if table_id == "host-table":
                yield InfoLine("", id="host-note")
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
                Text(short_name(frame.func), style=style),
                Text(frame_location(frame), style=style),
            )
        sync_rows(self.query_one("#stack-table", DataTable), self.COLUMNS, rows)
        if previous is None or state.host is not previous.host or state.host_note != previous.host_note:
            self._show_host(state.host, state.host_note)

    def _show_host(self, stack: HostStack | None, note: str | None) -> None:
        table = self.query_one("#host-table", DataTable)
        table.display = stack is not None
        message = self.query_one("#host-note", InfoLine)
        message.display = bool(note)
        frame = stack.user_frame if stack is not None else None
        line = tr("line {line}").format(line=frame.line) if frame is not None else tr("this line")
        if note and "CUDA_LAUNCH_BLOCKING=1" in note:
            said = tr("{line} is where the host waits, not the launch · L: launch blocking")
        else:  # attached: no re-run
            said = tr("{line} is where the host waits, not the launch")
        message.show(Text("⚠ " + said.format(line=line)))
        message.tooltip = note or None
        sync_rows(table, self.COLUMNS, host_rows(stack) if stack is not None else {})

    def action_details(self) -> None:
        """The whole (C++) name, arguments and file of the device frame under the cursor."""
        table = self.query_one("#stack-table", DataTable)
        frames = {str(f.level): f for f in (self.state.frames if self.state else ())}
        keys = [str(row.key.value) for row in table.ordered_rows]
        frame = frames.get(keys[table.cursor_row]) if 0 <= table.cursor_row < len(keys) else None
        if frame is None:
            self.app.notify("no frame under the cursor", severity="warning")
            return
        args = ", ".join(f"{name}={value}" for name, value in frame.args)
        place = f"{frame.fullname or frame.file}:{frame.line}" if frame.file else frame_location(frame)
        self.app.notify(f"#{frame.level} {frame.func}({args})\nat {place}", title="Frame", markup=False, timeout=15)

    @on(DataTable.RowSelected, "#stack-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(FrameSelected(int(event.row_key.value)))

    @on(DataTable.RowSelected, "#host-table")
    def _host_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value or ""
        host = self.state.host if self.state is not None else None
        thread = host.thread if host is not None else None
        if thread is None or not key.startswith("frame "):
            return
        entry = fold(thread.frames)[int(key.split()[1])]
        if isinstance(entry, HostFrame):
            self.post_message(OpenSource(entry.file, entry.line))
