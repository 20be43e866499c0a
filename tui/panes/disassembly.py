"""Disassembly pane: SASS around pc interleaved with source lines, pc and errorpc marked.

It shows the stop's SASS (``StopState.sass``), which the Debugger reads with the stop while this
pane is on the screen (:mod:`cudatui.gdbbridge.debugger.on_demand`: ~0.7 s on cuda-gdb, kept by
address range, so a step that stays inside a range read before costs nothing); a stop shown
before the pane came on the screen says it is being read until the Debugger shows it again.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.app import ComposeResult
from textual.widgets import DataTable

from cudatui.gdbbridge import Instruction, StopState, read_source, short_name

from .base import InfoLine, PaneTable, StatePane, sync_rows

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


class DisassemblyPane(StatePane):
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

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.status = ""
        """What the title line says instead of the SASS (empty while it shows SASS)."""
        self._sources: dict[str, list[str]] = {}

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
        return self.state.errorpc if self.state else None

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        pc, sass = self.pc, state.sass
        if pc is None or not state.in_kernel:
            self._show((), "Disassembly: no kernel pc at this stop")
        elif sass is None:
            self._show((), f"disassembling around {pc:#x}… (cuda-gdb takes ~0.7 s)", keep_rows=True)
        elif sass.error:
            self._show((), f"cannot disassemble at {pc:#x}: {sass.error}")
        else:
            self._show(sass.value, "" if sass.value else f"no instructions at {pc:#x}")

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
