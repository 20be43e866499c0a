"""Shared memory pane: the ``__shared__`` arrays in scope as typed tables, read page by page.

Arrays come from the locals whose type is ``@shared T [N]`` (or ``[R][C]``), then the arrays the
user adds (``a`` then ``sdata[256]``), then the ``__shared__`` declarations of the stopped
function's source (``extern __shared__`` arrays are never locals): an ``extern`` array sized at
launch is paged as blockDim.x elements of the current kernel (256 when unknown), and the title
says so (the array, its value formats and banks: :mod:`.shared_array`). The pane says which page
of which array it shows (:class:`~cudatui.tui.messages.PagesShown`; the app tells the Debugger while the
pane is on the screen), and shows what the stop's snapshot holds for it (``StopState.shared``):
the Debugger reads it with the stop through typed evaluation (``name[start]@count``), so a 48 KB
array costs one request per visible page, and a page turned or an array added is read and the
stop shown again with it (:mod:`cudatui.gdbbridge.debugger.parts.shared`). gdb's repeat
compression (``{0 <repeats 18 times>}``, nested in a 2-D array) is decoded by
:func:`~cudatui.gdbbridge.aggregates.decode`. 1-D arrays show index, value, hex and bank; 2-D
arrays are shown as a grid of numbers with the bank of each row's first element (``t`` shows
every cell's bank), from the address gdb gives for ``&name[0]`` (``&name[0][0]``). A value that
changed since the last place it was read is highlighted. Any array the user adds (``a``) is read
the same way, in a kernel or in a CPU program.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import DataTable, Input

from cudatui.gdbbridge import (
    Answer, SharedDecl, SharedPage, SharedWindow, StopState, find_source, page_of, read_source, shared_arrays,
)
from cudatui.tui.messages import PagesShown
from cudatui.tui.widgets.inline_input import InlineInput

from .base import InfoLine, PaneTable, StatePane, same_stop, sync_rows
from .shared_array import MODES, SharedArray, bank, bits, from_declaration, from_variable_type, parse_added, shown

STALE_OPACITY = 0.5
"""The text opacity of the rows shown before while the page shown now is read."""


class SharedMemoryPane(StatePane):
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

    def __init__(self, page_size: int = 256, *, search_dirs: Callable[[], tuple[str, ...]] = tuple,
                 recorded: bool = False, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
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
        """Why what the user typed is no array (shown in the title until the next array is added)."""
        self._said: tuple[tuple[SharedWindow, ...], int | None] | None = None
        """The windows said last, and the generation of the state that lacked them then (None: it held them)."""
        self._table_window: SharedWindow | None = None
        """The window whose rows the table holds."""
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

    def windows(self) -> tuple[SharedWindow, ...]:
        """The page the pane shows, as the Debugger reads it (none at an exit or with no array)."""
        array, state = self.current(), self.state
        if array is None or state is None or state.stop.exited:
            return ()
        start = self.page * self.page_size
        return (SharedWindow(array.name, start, min(self.page_size, array.units - start), array.grid),)

    def answer(self) -> Answer[SharedPage] | None:
        """What the stop shown holds for the page shown (None: not read yet)."""
        windows = self.windows()
        return page_of(self.state.shared, windows[0]) if windows and self.state is not None else None

    def values(self) -> tuple[str, ...]:
        """The values of the shown page (empty until read)."""
        answer = self.answer()
        return answer.value.values if answer is not None else ()

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
        self._say()
        if previous is not None and same_stop(state, previous) and state.kernels is previous.kernels \
                and state.shared is previous.shared:
            return  # a bump (breakpoints, watches, notes): nothing shown here changed
        self._show()

    def _load(self) -> None:
        """What the pane shows changed: say so, and show it."""
        if not self.is_mounted:
            return
        self._say()
        self._show()

    def _say(self) -> None:
        """Tell the app the windows shown when they changed, or when the state shown lacks them."""
        state = self.state
        if state is None:
            return
        windows = self.windows()
        lacking = any(page_of(state.shared, w) is None for w in windows)
        said = (windows, state.generation if lacking else None)
        if said != self._said:
            self._said = said
            self.post_message(PagesShown(windows))

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
            self._table_window = None
            sync_rows(table, (), {})
            return
        answer = self.answer()
        page = answer.value if answer is not None else None
        values, before = (page.values, page.before) if page is not None else ((), ())
        address = page.address if page is not None else None
        shape = "".join(f"[{d}]" for d in array.dims)
        typed = f"{array.element} " if array.element != "?" else ""
        pages = -(-array.units // self.page_size)
        where = f"@{address:#x}" if address is not None else "address ?"
        wanted = min(self.page_size, array.units - self.page * self.page_size) * array.per_unit
        failed = f"cannot read {array.name}: {answer.error}" if answer is not None and answer.error else ""
        status = self.message or failed or (
            "reading…" if not values else f"{sum(v != b for v, b in zip(values, before))} changed"
            + (f" · {len(values)} of {wanted} read" if len(values) < wanted else ""))
        note = f" · {array.note}" if array.note else ""
        title.show(Text(f"{typed}{array.name}{shape} {where} · page {self.page + 1}/{pages} · {self.mode} · {status}{note}"))
        # While the page shown is read (the pane came on the screen at a stop read without it), the
        # rows it showed of that page stay, faded: the table keeps its size (emptied and filled
        # again, it laid the screen out twice as its scrollbars went and came). Faded by the
        # table's text opacity, not a dim style on each cell: every cell was rendered again for
        # the fade, then again with the new values (~40-90 ms of a step at 160x48).
        window = next(iter(self.windows()), None)
        stale = answer is None and window is not None and self._table_window == window and table.row_count > 0
        table.styles.text_opacity = STALE_OPACITY if stale else 1.0
        if stale:
            return
        start = self.page * self.page_size * array.per_unit
        if array.grid:
            columns, rows = self._grid_rows(array, values, before, address)
        else:
            columns, rows = self._list_rows(array, values, before, start, address)
        self._table_window = window
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

