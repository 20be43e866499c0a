"""Disassembly pane: SASS around pc interleaved with source lines, pc and errorpc marked.

``-data-disassemble`` costs ~0.7 s on cuda-gdb, so the pane fetches only while it is visible,
shows a loading line meanwhile, and caches the instructions by address range: a step that
stays inside a fetched range costs nothing.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, work
from textual.geometry import Region
from textual.app import ComposeResult
from textual.widgets import DataTable

from cudatui.gdbbridge import DebuggerQueries, Instruction, MIError, StopState, read_source, short_name

from .base import InfoLine, PaneTable, QueryPane, sync_rows

INSTRUCTION_BYTES = 16
"""SASS instructions are 16 bytes on sm_70 and newer."""

PC_MARK = "=>"
"""Marks the pc (gdb's own marker)."""

ERRORPC_MARK = "!>"
"""Marks errorpc, the instruction that raised the CUDA exception."""

LONGEST_NAME = 60
"""A function name longer than this is shown short in the title (``short_name``)."""


def source_line(path: str | None, line: int | None, cache: dict[str, list[str]]) -> str:
    """The text of ``path:line`` if the file is readable here (it often is not, over SSH)."""
    if not path or not line:
        return ""
    if path not in cache:
        try:
            cache[path] = read_source(path).splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


class DisassemblyPane(QueryPane):
    """SASS of the selected frame around its pc.

    It has no key bindings of its own; the table scrolls with the usual keys.
    """

    DEFAULT_CSS = """
    DisassemblyPane {
        height: 1fr;
    }
    DisassemblyPane > #disasm-title {
        height: 1;
        padding: 0 1;
        background: $panel;
    }
    DisassemblyPane > DataTable {
        height: 1fr;
    }
    """

    def __init__(self, queries: DebuggerQueries | None = None, before: int = 0, after: int = 128, *,
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(queries, name=name, id=id, classes=classes)
        self.before = before
        """Bytes fetched before pc."""
        self.after = after
        """Bytes fetched after pc."""
        self.ranges: dict[tuple[int, int], tuple[Instruction, ...]] = {}
        """Fetched instructions by [first address, end address)."""
        self.fetches = 0
        """How many disassembly requests were sent (each ~0.7 s on cuda-gdb)."""
        self.status = ""
        self._sources: dict[str, list[str]] = {}
        self._pending = False

    def compose(self) -> ComposeResult:
        yield InfoLine("Disassembly", id="disasm-title")
        table: PaneTable[Text] = PaneTable(cursor_type="row", show_header=False)
        table.add_column("mark", key="mark", width=2)
        table.add_column("address", key="address")
        table.add_column("instruction", key="text")
        yield table

    @property
    def pc(self) -> int | None:
        frame = self.state.frame if self.state else None
        return frame.addr if frame else None

    @property
    def errorpc(self) -> int | None:
        reg = next((r for r in self.state.registers if r.name == "errorpc"), None) if self.state else None
        return reg.int_value if reg else None

    def cached(self, pc: int) -> tuple[Instruction, ...] | None:
        """Instructions of a fetched range that holds ``pc``."""
        return next((insns for (lo, hi), insns in self.ranges.items() if lo <= pc < hi), None)

    def on_show(self, event: events.Show) -> None:
        if self._pending:
            self._update()

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        self._update()

    def _visible(self) -> bool:
        return self.is_mounted and self.display and self.region.area > 0

    def _update(self) -> None:
        if not self.is_mounted:
            return
        pc = self.pc
        if self.state is None or pc is None or not self.state.in_kernel:
            self._show((), "Disassembly: no kernel pc at this stop")
            return
        insns = self.cached(pc)
        if insns is not None:
            self._show(insns, "")
        elif not self._visible():
            self._pending = True
        elif self.queries is not None:
            self._pending = False
            self._show((), f"disassembling around {pc:#x}… (cuda-gdb takes ~0.7 s)", keep_rows=True)
            self._fetch(pc)

    @work(group="disassembly", exclusive=True)
    async def _fetch(self, pc: int) -> None:
        assert self.queries is not None
        errorpc = self.errorpc
        start, end = ("$pc" if self.before == 0 else f"$pc-{self.before}"), f"$pc+{self.after}"
        if self.state is not None and self.state.stop.exception and errorpc and errorpc < pc:
            start = f"{errorpc - 2 * INSTRUCTION_BYTES:#x}"  # the faulting instruction (!>) is before pc: show it
        self.fetches += 1
        try:
            insns = await self.queries.disassemble(start, end)
        except MIError as exc:
            if self.answerable:
                self._show((), f"cannot disassemble at {pc:#x}: {exc.message}")
            return
        if not self.answerable:  # the app closed while gdb answered
            return
        if insns:
            self.ranges[(min(i.address for i in insns), max(i.address for i in insns) + INSTRUCTION_BYTES)] = insns
        if self.pc == pc:
            self._show(insns, "" if insns else f"no instructions at {pc:#x}")

    def forget(self) -> None:
        """Drop the fetched ranges: the next stop shown fetches its SASS again."""
        self.ranges.clear()

    def _show(self, insns: tuple[Instruction, ...], status: str, keep_rows: bool = False) -> None:
        """Show ``insns`` (or ``status`` on the title line); ``keep_rows`` leaves the rows shown
        while a fetch runs (no flicker, no table churn)."""
        self.status = status
        pc, errorpc = self.pc, self.errorpc
        title = self.query_one("#disasm-title", InfoLine)
        if status:
            title.show(Text(status, style="italic"))
        else:
            func = insns[0].function if insns else "?"
            func = func if len(func) <= LONGEST_NAME else short_name(func)
            outside = errorpc is not None and not any(i.address == errorpc for i in insns)
            extra = f" · errorpc {errorpc:#x} (not in view)" if outside else ""
            missing = "" if any(i.address == pc for i in insns) else " (not in view)"
            # the pc first: a title too long for the pane loses the end of the name, never the pc
            title.show(Text(f"SASS pc {pc:#x}{missing}{extra} · {func}  ({PC_MARK} pc, {ERRORPC_MARK} errorpc)"))
        if keep_rows:
            return
        rows: dict[str, tuple[Text, Text, Text]] = {}
        last_line: tuple[str | None, int | None] = (None, None)
        for insn in insns:
            if insn.line is not None and (insn.file, insn.line) != last_line:
                last_line = (insn.file, insn.line)
                name = (insn.file or "?").rsplit("/", 1)[-1]
                code = source_line(insn.file, insn.line, self._sources)
                rows[f"src:{insn.address}"] = (Text(""), Text(f"{name}:{insn.line}", style="bold cyan"),
                                               Text(code, style="cyan"))
            mark, style = "", ""
            if insn.address == errorpc:
                mark, style = ERRORPC_MARK, "bold red"
            if insn.address == pc:
                mark, style = PC_MARK, "bold green"
            rows[str(insn.address)] = (Text(mark, style=style), Text(f"{insn.address:#x} <+{insn.offset}>", style=style),
                                       Text(insn.text, style=style))
        table: DataTable[Text] = self.query_one(DataTable)
        sync_rows(table, ("mark", "address", "text"), rows)
        if str(pc) in rows:
            table.move_cursor(row=list(rows).index(str(pc)), scroll=False)
            self.call_after_refresh(self._marks_in_view)

    def on_resize(self) -> None:
        self.call_after_refresh(self._marks_in_view)

    def _marks_in_view(self) -> None:
        """Scroll pc, and the faulting instruction above it at an exception, into view, once the
        table has its height: a scroll done before (the pane just shown, a loaded machine) put pc
        on the top row and the !> row out of sight."""
        table: DataTable[Text] = self.query_one(DataTable)
        rows = [table.get_row_index(key) for key in (str(self.errorpc), str(self.pc)) if key in table.rows]
        if rows and table.size.height:
            top = min(rows)
            table.scroll_to_region(Region(0, top, max(table.size.width, 1), max(rows) - top + 1), animate=False, force=True)
