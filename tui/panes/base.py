"""What every debugger pane shares: it renders one immutable StopState and drops stale ones.

Panes never talk to gdb themselves, nor keep what it answered. They post intent messages
(:mod:`cudatui.tui.messages`) that the app turns into calls of its
:class:`~cudatui.gdbbridge.debugger.debugger.Debugger`; what a pane shows beyond the stop's batch
(SASS, shared memory, the Locals tree's members, block ranges, the warp watch) it says through
such a message, and the Debugger reads it with each stop into the one state the pane is given
(:mod:`cudatui.gdbbridge.debugger.on_demand`).
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import Any
from collections.abc import Iterator, Mapping, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.css.scalar import Scalar, Unit
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import DataTable, Static
from textual.widgets.data_table import CellType, ColumnKey, RowKey

from cudatui.gdbbridge import StopState
from cudatui.tui.textual_compat import (
    DataTableHooks, SegmentLines, forget_arrangements, table_bump_update_count, table_cell_key, table_has_cell, table_render_inputs,
    table_row_index, table_set_cell_quietly,
)


class StatePane(Widget):
    """A pane showing one StopState. Subclasses implement :meth:`render_state`."""

    state: reactive[StopState | None] = reactive(None, always_update=True, repaint=False)
    """The state shown; set through :meth:`show_state`. Setting it repaints nothing by itself: a
    pane updates the widgets that changed (repainting the whole pane would redraw all of them)."""

    place = 0
    """The generation at which the place shown (the stop, its CUDA focus and frame) was first
    shown; a bump (the same place with other breakpoints, watches or notes) keeps it. What a pane
    reads on demand is kept under its place, so a bump finds it again."""

    def show_state(self, state: StopState) -> None:
        """Show ``state`` unless an equal or newer generation is already shown."""
        if self.state is not None and state.generation <= self.state.generation:
            return
        self.state = state

    def watch_state(self, old: StopState | None, new: StopState | None) -> None:
        if new is not None:
            if not same_place(new, old):
                self.place = new.generation
            self.render_state(new, old)

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        raise NotImplementedError


def same_stop(state: StopState, previous: StopState | None) -> bool:
    """Whether ``state`` is ``previous`` again with other breakpoints or notes: a bump, which no
    refresh built (the program has not moved, nor the focus or the frame); a pane that shows none
    of what a bump changes has nothing to redo, and would lose what changed at the stop."""
    return (previous is not None and state.stop is previous.stop and state.frames is previous.frames
            and state.registers is previous.registers and state.variables is previous.variables
            and state.focus == previous.focus and state.selected_frame == previous.selected_frame)


def same_place(state: StopState, previous: StopState | None) -> bool:
    """Whether ``state`` shows the place ``previous`` showed: :func:`same_stop`, or the same stop
    shown again with a part it had left out (the registers a pane now on the screen shows, asked
    then: ``StopState.unasked``), which moves nothing and asks the panes for nothing again."""
    return same_stop(state, previous) or (
        previous is not None and not previous.registers and "registers" in previous.unasked
        and same_stop(state, replace(previous, registers=state.registers)))


def set_in_pass(widget: Widget, rule: str, value: int | str | None) -> None:
    """Set a size rule (``"height"``, ``"max_height"``: cells, ``"1fr"``, ``"auto"``, None for the
    CSS's) of ``widget`` from a container's ``arrange``, within the layout pass that gives the
    container its size: the pass lays ``widget`` out as set and asks for no other (a style set
    as usual asks for a layout pass; set on the Resize after a pass, it was a second one)."""
    scalar = None if value is None else Scalar.parse(str(value))
    if widget.styles.get_rule(rule) != scalar:
        widget.styles.set_rule(rule, scalar)
        forget_arrangements(widget)  # an arrangement cached for the old rule is stale


class InfoLine(Static):
    """A pane's title, notice or summary line that repaints without a screen layout pass.

    ``Static.update()`` lays out the whole screen (~80 ms at 160x48); :meth:`show` skips content
    that did not change and asks for a layout only when the line's height can change: never for
    a fixed CSS height, and for an ``auto`` height only when the new content needs another
    number of rows.
    """

    DEFAULT_CSS = """
    InfoLine { height: 1; }
    """

    def __init__(self, content: str | Text = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(content, id=id, classes=classes, markup=False)
        self.shown: str | Text = content
        """The content shown."""

    def show(self, content: str | Text) -> None:
        """Show ``content`` (nothing happens when it is what is shown)."""
        if type(content) is type(self.shown) and content == self.shown:
            return
        self.shown = content
        height = self.styles.height
        if height is not None and height.unit == Unit.CELLS or not self.display or not self.is_mounted:
            self.update(content, layout=False)
            return
        before, width = self.content_size.height, self.content_size.width
        self.update(content, layout=False)
        after = self.get_content_height(self.size, self.app.size, width) if width else -1
        limit = self.styles.max_height
        if limit is not None and limit.unit == Unit.CELLS:
            after = min(after, int(limit.value) - self.styles.gutter.height)
        if after != before:
            self.refresh(layout=True)


Cell = str | Text
"""What a table cell holds."""


def cell_look(value: object) -> object:
    """What a cell's lines depend on in its value (None: unknown, the value itself is kept):
    values that look the same render the same, so a cell is rendered once per look it takes at
    its place (a shared array's cells dimmed while a stop's page is read, then the same values
    again: each cell was rendered twice per stop, ~0.2 ms each)."""
    if type(value) is str:
        return value
    if type(value) is Text:
        return (value.plain, value.style, tuple(value.spans), value.justify, value.overflow, value.no_wrap,
                value.end, value.tab_size)
    return None


def cell_width(value: object) -> int:
    """The cells a table value takes on one line (its widest line)."""
    if isinstance(value, Text):
        return max((cell_len(line) for line in value.plain.split("\n")), default=0)
    return max((cell_len(line) for line in str(value).split("\n")), default=0)


class PaneTable(DataTableHooks[CellType]):
    """A DataTable whose cell updates repaint only their row and re-render only the changed cells.

    ``DataTable.update_cell`` repaints the whole table, and every render cache of DataTable is
    keyed on a counter that each update bumps, so one changed cell re-renders every visible cell
    (~0.3 ms each on 2 cores: a stop changed a few cells of a table and re-rendered all of them).
    Here an update repaints its row only (and widens its column when the value is wider: DataTable
    kept the width of the first value, showing ``depth ==`` of ``depth == 3``), and a rendered cell is kept by its place
    and its look (:func:`cell_look`; :func:`sync_rows` rewrites only the cells that changed). Relies on DataTable internals
    of the pinned textual, through :mod:`cudatui.tui.textual_compat`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._kept: LRUCache[tuple[object, ...], tuple[object, SegmentLines]] = LRUCache(10000)
        self._stale = False
        """A cell changed while the table was hidden."""
        self._rows_to_repaint: set[RowKey] | None = None
        """Within :meth:`repainting_rows_once`: the rows whose cells changed."""
        super().__init__(*args, **kwargs)

    @contextmanager
    def repainting_rows_once(self) -> Iterator[None]:
        """Cells updated inside repaint their rows once, at the end. A row's region is found from
        the table's ordered rows, which DataTable builds again (over every row) after each cell
        update: a row refreshed per update was quadratic in the rows (a shared array of 256
        elements: 60-80% of the UI part of a step, ``python -m bench.stop_to_screen --profile``).
        More changed rows than the table shows repaint the table once."""
        self._rows_to_repaint = set()
        try:
            yield
        finally:
            rows, self._rows_to_repaint = self._rows_to_repaint, None
            indices = [index for index in (table_row_index(self, row) for row in rows) if index is not None]
            if len(indices) > self.size.height:  # more than it shows: the window repainted once
                self.refresh()  # (a row's place is a sum over the rows above it)
            else:
                for index in sorted(indices):
                    self.refresh_row(index)

    def update_cell(self, row_key: RowKey | str, column_key: ColumnKey | str, value: CellType, *,
                    update_width: bool = False) -> None:
        """As :meth:`DataTable.update_cell`, repainting only the cell's row unless widths change."""
        row = RowKey(row_key) if isinstance(row_key, str) else row_key
        column = ColumnKey(column_key) if isinstance(column_key, str) else column_key
        known = self.columns.get(column)
        if known is not None and known.auto_width and cell_width(value) > known.content_width:
            update_width = True  # a wider value (a condition, file:line) is shown whole, not cut at the old width
        if update_width or not table_has_cell(self, row, column):
            super().update_cell(row, column, value, update_width=update_width)
            return
        table_set_cell_quietly(self, row, column, value)
        self._stale = self._stale or not self.window_region.area
        if self._rows_to_repaint is not None:
            self._rows_to_repaint.add(row)
        else:
            self.refresh_row(table_row_index(self, row))

    def on_show(self) -> None:
        """Shown again (its tab chosen): repaint what changed while hidden, whose row refreshes
        DataTable dropped (the row's old lines would be shown)."""
        if self._stale:
            self._stale = False
            self.refresh()

    def render_table_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                          cursor: bool = False, hover: bool = False) -> SegmentLines:
        if row_index < 0 or column_index < 0:
            return super().render_table_cell(row_index, column_index, base_style, width, cursor, hover)
        row, column, value = table_cell_key(self, row_index, column_index)
        hover_cursor, pseudo_classes = table_render_inputs(self)
        look = cell_look(value)
        key = (row, column, row_index, column_index, base_style, width, cursor, hover, hover_cursor,
               pseudo_classes, self.rows[row].height, look)
        kept = self._kept.get(key)
        if kept is not None and (look is not None or kept[0] is value):
            return kept[1]
        lines = super().render_table_cell(row_index, column_index, base_style, width, cursor, hover)
        self._kept[key] = (value, lines)
        return lines

    def caches_cleared(self) -> None:
        self._kept.clear()

    @contextmanager
    def measuring_columns(self) -> Iterator[None]:
        """Columns measured (at idle) to other widths: the rows painted before, at the old widths,
        are stale. DataTable keys a row's render on its update count, which measuring leaves as it
        is: a new row painted before its table's idle stayed cut at the labels' widths (``(2379``
        for ``(2379,0,0)`` in the Warps pane, under load)."""
        before = [column.content_width for column in self.columns.values()]
        yield
        if [column.content_width for column in self.columns.values()] != before:
            table_bump_update_count(self)
            self.refresh()

    def notify_style_update(self) -> None:
        self._kept.clear()
        super().notify_style_update()


def sync_rows(table: DataTable, columns: Sequence[str], rows: Mapping[str, Sequence[Cell]],
              labels: Sequence[str] | None = None) -> None:
    """Show ``rows`` (row key -> cells, in display order) in ``table`` by diffing on row keys.

    Rows whose key is gone are removed, rows in the same order keep their place and get only
    their changed cells rewritten, and the rest are appended; the cursor stays on its row key.
    The columns (``columns`` keys, headed by ``labels`` or the keys) are rebuilt only when their
    keys differ from the table's.
    """
    with table.app.batch_update():
        if [str(key.value) for key in table.columns] != list(columns):
            table.clear(columns=True)
            for key, label in zip(columns, labels or columns):
                table.add_column(label, key=key)
        shown = [str(row.key.value) for row in table.ordered_rows]
        cursor_key = shown[table.cursor_row] if 0 <= table.cursor_row < len(shown) else None
        wanted = list(rows)
        kept = [key for key in shown if key in rows]
        if not kept and shown:
            table.clear()  # nothing in common (and remove_row would lay the screen out per row)
        for key in set(shown) - set(kept) if kept else ():
            table.remove_row(key)
        same = 0
        while same < min(len(kept), len(wanted)) and kept[same] == wanted[same]:
            same += 1
        for key in kept[same:]:
            table.remove_row(key)
        changed: dict[str, list[tuple[str, Cell]]] = {}
        for key in wanted[:same]:
            for column, cell in zip(columns, rows[key]):
                if table.get_cell(key, column) != cell:
                    changed.setdefault(column, []).append((key, cell))
        with table.repainting_rows_once() if isinstance(table, PaneTable) else nullcontext():
            for column, cells in changed.items():
                # The column's width follows its values, measured once: DataTable measures a cell
                # updated with update_width, and the whole column when that cell is narrower than
                # it; so only the widest changed cell asks for it.
                widest = max(range(len(cells)), key=lambda i: cell_width(cells[i][1]))
                for index, (key, cell) in enumerate(cells):
                    table.update_cell(key, column, cell, update_width=index == widest)
        for key in wanted[same:]:
            table.add_row(*rows[key], key=key)
        if cursor_key in rows and table.cursor_row != wanted.index(cursor_key):
            table.move_cursor(row=wanted.index(cursor_key), scroll=False)
