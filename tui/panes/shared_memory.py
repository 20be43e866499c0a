"""Shared memory pane: the ``__shared__`` arrays in scope as typed tables, read page by page.

Arrays come from the locals whose type is ``@shared T [N]`` (or ``[R][C]``), then the arrays the
user adds (``a`` then ``sdata[256]``), then the ``__shared__`` declarations of the stopped
function's source (``extern __shared__`` arrays are never locals): an ``extern`` array sized at
launch is paged as blockDim.x elements of the current kernel (256 when unknown), and the title
says so (the array, its value formats and banks: :mod:`.shared_array`). Values are read through
typed evaluation (``name[start]@count``) one page at a time, so a 48 KB array costs one request
per visible page; gdb's repeat compression (``{0 <repeats 18 times>}``, nested in a 2-D array) is
decoded by :func:`~cudatui.gdbbridge.aggregates.decode`. 1-D arrays show index, value, hex and
bank; 2-D arrays are shown as a grid of numbers with the bank of each row's first element (``t``
shows every cell's bank), from the address gdb gives for ``&name[0]`` (``&name[0][0]``). A value
that changed since the last stop is highlighted. Any array the user adds (``a``) is read the same
way, in a kernel or in a CPU program.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import DataTable, Input

from cudatui.gdbbridge import DebuggerQueries, MIError, SharedDecl, StopState, find_source, read_source, shared_arrays
from cudatui.tui.widgets.inline_input import InlineInput

from .base import InfoLine, PaneTable, QueryPane, Reading, same_stop, sync_rows
from .shared_array import MODES, SharedArray, bank, bits, from_declaration, from_variable_type, parse_added, shown

STALE_OPACITY = 0.5
"""The text opacity of the last stop's rows while the new stop's page is read."""


class SharedMemoryPane(QueryPane):
    """Shared arrays in scope, one at a time.

    | Key | Action |
    | :- | :- |
    | o | Other array: the next one in scope. |
    | t | Cycle the value format: as printed, int, hex, bank. |
    | ] / [ | Next / previous page of a large array. |
    | a | Add a shared array, or give an ``extern`` one its real size (``sdata[512]``). |
    """

    BINDINGS = [
        Binding("o", "next_array", "Array"),
        Binding("t", "cycle_mode", "Format"),
        Binding("right_square_bracket", "page(1)", "Page +"),
        Binding("left_square_bracket", "page(-1)", "Page -"),
        Binding("a", "add", "Add"),
    ]

    DEFAULT_CSS = """
    SharedMemoryPane {
        height: 1fr;
    }
    SharedMemoryPane > #shared-title {
        height: 1;
        padding: 0 1;
        background: $panel;
    }
    SharedMemoryPane > DataTable {
        height: 1fr;
    }
    """

    mode: reactive[str] = reactive("value")
    """The value format (see MODES)."""

    selected: reactive[int] = reactive(0)
    """Index of the array shown."""

    page: reactive[int] = reactive(0)
    """The page of the array shown."""

    def __init__(self, queries: DebuggerQueries | None = None, page_size: int = 256, *,
                 search_dirs: Callable[[], tuple[str, ...]] = tuple, recorded: bool = False, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(queries, name=name, id=id, classes=classes)
        self.page_size = page_size
        """Elements (rows, for a 2-D array) read per page."""
        self.added: list[SharedArray] = []
        self.search_dirs = search_dirs
        """Where a source file is looked for under the name the debugger gave: the Debugger's config
        says (D adds a folder), as for the Source pane."""
        self.recorded = recorded
        """True when the debugger's paths come from a recording."""
        self._declared: dict[tuple[str, str, tuple[str, ...]], tuple[SharedDecl, ...]] = {}
        self.message = ""
        self._values: dict[tuple[int, str, int], tuple[str, ...]] = {}
        self._reading = Reading()
        """The (place, array, page) key the page being read is for."""
        self._addresses: dict[str, int | None] = {}
        """The address of each array's first element at the stop shown."""
        self._stale_addresses: dict[str, int | None] = {}
        """The addresses at the stop shown before (its rows stay, faded, while the new ones are read)."""
        self._unshown = False
        """What the pane shows changed while it was hidden (its rows are built when it is shown)."""

    def compose(self) -> ComposeResult:
        yield InfoLine("Shared memory", id="shared-title")
        yield PaneTable(cursor_type="row")
        yield InlineInput(placeholder="shared array, e.g. sdata[256] or tile[18][18]", transient=True, id="shared-add")

    def arrays(self) -> list[SharedArray]:
        """Shared locals at the shown stop, then the added arrays, then those declared in the source."""
        found = [a for v in (self.state.variables if self.state else ()) if (a := from_variable_type(v.name, v.type))]
        found += [a for a in self.added if a.name not in {f.name for f in found}]
        return found + [a for a in self.declared() if a.name not in {f.name for f in found}]

    def declared(self) -> list[SharedArray]:
        """The ``__shared__`` arrays declared in the stopped function's source (when it is readable here)."""
        state = self.state
        frame = state.frame if state else None
        if state is None or frame is None or not frame.func or not (frame.fullname or frame.file):
            return []
        path = frame.fullname or frame.file or ""
        dirs = self.search_dirs()
        key = (path, frame.func, dirs)
        if key not in self._declared:
            local = find_source(path, dirs, recorded=self.recorded)
            try:
                text = read_source(local) if local else ""
            except OSError:
                text = ""
            self._declared[key] = shared_arrays(text, frame.func)
        kernel = next((k for k in state.kernels if k.current), None)
        block_x = kernel.block_dim[0] if kernel is not None and kernel.block_dim else None
        return [a for d in self._declared[key] if (a := from_declaration(d, block_x))]

    def current(self) -> SharedArray | None:
        arrays = self.arrays()
        return arrays[self.selected % len(arrays)] if arrays else None

    def values(self) -> tuple[str, ...]:
        """The values of the shown page (empty until read)."""
        array = self.current()
        if array is None or self.state is None:
            return ()
        return self._values.get((self.place, array.name, self.page), ())

    def watch_mode(self) -> None:
        self._show()

    def watch_selected(self) -> None:
        self.page = 0
        self._load()

    def watch_page(self) -> None:
        self._load()

    def action_next_array(self) -> None:
        self.selected += 1

    def action_cycle_mode(self) -> None:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]

    def action_page(self, delta: int) -> None:
        array = self.current()
        if array is not None:
            pages = -(-array.units // self.page_size)
            self.page = max(0, min(pages - 1, self.page + delta))

    def action_add(self) -> None:
        self.query_one("#shared-add", InlineInput).open()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            array = parse_added(event.value)
        except ValueError as exc:
            self.message = str(exc)
            self._show()
            return
        known = next((a for a in self.arrays() if a.name == array.name and a.element != "?"), None)
        if known is not None:  # its element type (a float's hex column is its IEEE bits, as the automatic view shows)
            array = SharedArray(array.name, known.element, array.dims)
        self.added = [a for a in self.added if a.name != array.name] + [array]
        self.message = ""
        self.selected = self.arrays().index(next(a for a in self.arrays() if a.name == array.name))
        self._load()

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        if previous is not None and same_stop(state, previous) and state.kernels is previous.kernels:
            return  # a bump (breakpoints, watches, notes): nothing shown here changed, no page to read
        if previous is None or state.stop is not previous.stop:
            self._stale_addresses, self._addresses = self._addresses, {}
        self._load()

    def _load(self) -> None:
        if not self.is_mounted:
            return
        array, state = self.current(), self.state
        if array is not None and state is not None and self.queries is not None and not state.stop.exited:
            key = (self.place, array.name, self.page)
            if key not in self._values and key not in self._reading:
                self._reading.start(key)
                self._read(array, self.page)
        self._show()

    @work(group="shared-read", exclusive=True)
    async def _read(self, array: SharedArray, page: int) -> None:
        """Read ``page`` of ``array`` for the key in ``_reading`` (shown when it is the place's)."""
        assert self.queries is not None
        start = page * self.page_size
        count = min(self.page_size, array.units - start)
        try:
            values = await self.queries.read_shared(array.name, start, count)
            self.message = ""
        except MIError as exc:
            self.message = f"cannot read {array.name}: {exc.message}"
            values = ()
        self._reading.answer(self._values, values)
        if array.name not in self._addresses:
            self._addresses[array.name] = await self._address(array)
        if self.answerable:  # else the app closed while gdb answered
            self._show()

    async def _address(self, array: SharedArray) -> int | None:
        """The address of the array's first element: ``&a[0]`` (``&a[0][0]``), else ``&a``."""
        assert self.queries is not None
        for expression in (f"&{array.name}[0][0]" if array.grid else f"&{array.name}[0]", f"&{array.name}"):
            try:
                found = re.search(r"0x[0-9a-fA-F]+", await self.queries.evaluate(expression))
            except MIError:
                continue
            if found:
                return int(found.group(0), 16)
        return None

    def _previous_values(self, array: SharedArray) -> tuple[str, ...]:
        earlier = [g for (g, name, page) in self._values if name == array.name and page == self.page
                   and g < self.place]
        return self._values[(max(earlier), array.name, self.page)] if earlier else ()

    def on_show(self) -> None:
        """Shown (its tab chosen): the rows of what changed while hidden."""
        if self._unshown:
            self._show()

    def _show(self) -> None:
        if not self.is_mounted:
            return
        if not self.display:  # its tab is not shown: rows built at each stop were ~10% of a step's UI part
            self._unshown = True
            return
        self._unshown = False
        title = self.query_one("#shared-title", InfoLine)
        table: DataTable[Text] = self.query_one(DataTable)
        array, state = self.current(), self.state
        if array is None or state is None:
            title.show(Text(self.message or "Shared memory: no __shared__ arrays in scope (a to add one)"))
            sync_rows(table, (), {})
            return
        values, before = self.values(), self._previous_values(array)
        address = self._addresses.get(array.name)
        shape = "".join(f"[{d}]" for d in array.dims)
        typed = f"{array.element} " if array.element != "?" else ""
        pages = -(-array.units // self.page_size)
        where = f"@{address:#x}" if address is not None else "address ?"
        wanted = min(self.page_size, array.units - self.page * self.page_size) * array.per_unit
        status = self.message or ("reading…" if not values else f"{sum(v != b for v, b in zip(values, before))} changed"
                                  + (f" · {len(values)} of {wanted} read" if len(values) < wanted else ""))
        note = f" · {array.note}" if array.note else ""
        title.show(Text(f"{typed}{array.name}{shape} {where} · page {self.page + 1}/{pages} · {self.mode} · {status}{note}"))
        start = self.page * self.page_size * array.per_unit
        # While a new stop's page is read, the last stop's rows stay, faded: the table keeps its
        # size (emptied and filled again, it laid the screen out twice as its scrollbars went and came).
        # Faded by the table's text opacity, not a dim style on each cell: every cell was rendered
        # again for the fade, then again with the new values (~40-90 ms of a step at 160x48).
        stale = not values and bool(before) and (self.place, array.name, self.page) in self._reading
        if stale:
            values, address = before, self._stale_addresses.get(array.name)
        if array.grid:
            columns, rows = self._grid_rows(array, values, before, address)
        else:
            columns, rows = self._list_rows(array, values, before, start, address)
        table.styles.text_opacity = STALE_OPACITY if stale else 1.0
        sync_rows(table, columns, dict(rows))

    def _cell(self, value: str, old: str | None, array: SharedArray, index: int, address: int | None) -> Text:
        changed = old is not None and old != value
        text = bank(address, index, array.element_size) if self.mode == "bank" else shown(value, self.mode, array.element)
        return Text(text, style="bold yellow" if changed else "", justify="right")

    def _list_rows(self, array: SharedArray, values: tuple[str, ...], before: tuple[str, ...], start: int,
                   address: int | None) -> tuple[list[str], list[tuple[str, list[Text]]]]:
        rows = []
        for i, value in enumerate(values):
            pattern = bits(value, array.element)
            rows.append((str(start + i), [
                Text(str(start + i)), self._cell(value, before[i] if i < len(before) else None, array, start + i, address),
                Text("?" if pattern is None else f"{pattern:#010x}"),
                Text(bank(address, start + i, array.element_size), justify="right"),
            ]))
        return ["index", "value", "hex", "bank"], rows

    def _grid_rows(self, array: SharedArray, values: tuple[str, ...], before: tuple[str, ...],
                   address: int | None) -> tuple[list[str], list[tuple[str, list[Text]]]]:
        cols = array.dims[1]
        first_row = self.page * self.page_size
        rows = []
        for r in range(len(values) // cols):
            first = (first_row + r) * cols
            cells = [self._cell(values[r * cols + c], before[r * cols + c] if r * cols + c < len(before) else None,
                                array, first + c, address) for c in range(cols)]
            row_bank = Text(bank(address, first, array.element_size), style="dim", justify="right")
            rows.append((str(first_row + r), [Text(str(first_row + r)), row_bank, *cells]))
        return ["row", "bank", *map(str, range(cols))], rows

