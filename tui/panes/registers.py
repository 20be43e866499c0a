"""Registers pane: the focused lane's registers by group (R, P, UR, UP, system), hex and decimal.

Registers that changed since the previous stop are highlighted (gdb-dashboard's register
module); names come already filtered by gdbbridge (no empty, duplicate or dummy names).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import DataTable

from cudatui.gdbbridge import Register, StopState

from .base import InfoLine, PaneTable, StatePane, same_stop, sync_rows

ORDER = ("system", "R", "P", "UR", "UP", "other")
"""Display order of the groups: pc and errorpc first."""

FILTERS = ("all",) + ORDER[:-1]
"""What the group filter cycles through."""

def decimal(register: Register) -> str:
    """The value in decimal: signed 32-bit for R/UR, plain for predicates and 64-bit system registers."""
    value = register.int_value
    if value is None:
        return register.value
    if register.group in ("R", "UR") and value < 1 << 32 and value >= 1 << 31:
        return str(value - (1 << 32))
    return str(value)


def changed_names(state: StopState, previous: StopState | None) -> frozenset[str]:
    """Names of registers whose value differs from the previous stop (none on the first stop)."""
    if previous is None or not previous.registers:
        return frozenset()
    before = {r.name: r.value for r in previous.registers}
    return frozenset(r.name for r in state.registers if r.name in before and before[r.name] != r.value)


class RegistersPane(StatePane):
    """The focused lane's registers.

    | Key | Action |
    | :- | :- |
    | v | Cycle the group filter (view): all, system, R, P, UR, UP. |
    | 0 | Show or hide the registers that have been zero at every stop in this function. |
    """

    BINDINGS = [
        Binding("v", "cycle_group", "Group"),
        Binding("0", "toggle_zeros", "Zeros"),
    ]

    DEFAULT_CSS = """
    RegistersPane {
        height: 1fr;
    }
    RegistersPane > #registers-title {
        height: 1;
        background: $panel;
        padding: 0 1;
    }
    RegistersPane > DataTable {
        height: 1fr;
    }
    """

    group: reactive[str] = reactive("all")
    """The group shown ("all" or one of R, P, UR, UP, system)."""

    hide_zeros: reactive[bool] = reactive(True)
    """Hide the registers that have been zero at every stop in this function (most of R0..R254 in a
    small kernel). A register shown once stays in its row while stepping: rows do not jump."""

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._changed: frozenset[str] = frozenset()
        self._seen: set[str] = set()
        self._unshown = False
        """The rows changed while the pane was hidden (they are built when it is shown)."""

    def compose(self) -> ComposeResult:
        yield InfoLine("Registers", id="registers-title")
        table: PaneTable[Text] = PaneTable(cursor_type="row", zebra_stripes=False)
        table.add_column("reg", key="reg", width=7)
        table.add_column("hex", key="hex", width=18)
        table.add_column("decimal", key="dec")
        yield table

    @property
    def changed(self) -> frozenset[str]:
        """Registers highlighted as changed since the previous stop."""
        return self._changed

    def on_mount(self) -> None:
        self._refill()

    def on_show(self) -> None:
        """Shown (its tab chosen): the rows of the stop shown."""
        if self._unshown:
            self._refill()

    def watch_group(self) -> None:
        self._refill()

    def watch_hide_zeros(self) -> None:
        self._refill()

    def action_cycle_group(self) -> None:
        self.group = FILTERS[(FILTERS.index(self.group) + 1) % len(FILTERS)]

    def action_toggle_zeros(self) -> None:
        self.hide_zeros = not self.hide_zeros

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        if same_stop(state, previous):
            return
        self._changed = changed_names(state, previous)
        function = state.frame.func if state.frame else None
        if previous is None or (previous.frame.func if previous.frame else None) != function:
            self._seen = set()
        seen = self._seen
        seen |= {r.name for r in state.registers if r.name not in seen and r.int_value != 0} | self._changed
        self._refill()

    def visible_registers(self) -> list[Register]:
        """The registers the table shows, in group order, after the filters."""
        state = self.state
        if state is None:
            return []
        order = {g: i for i, g in enumerate(ORDER)}
        regs = sorted(state.registers, key=lambda r: (order.get(r.group, len(order)), r.number))
        group, hide_zeros, seen = self.group, self.hide_zeros, self._seen
        return [
            r for r in regs
            if (group == "all" or r.group == group)
            and not (hide_zeros and r.name not in seen and r.group != "system")
        ]

    def _refill(self) -> None:
        if not self.is_mounted:
            return
        if not self.display:  # its tab is not shown: ~200 rows compared at each stop for nothing
            self._unshown = True
            return
        self._unshown = False
        state = self.state
        regs = self.visible_registers()
        title = self.query_one("#registers-title", InfoLine)
        if state is None or not state.registers:
            title.show("Registers: none at this stop" + (" (not in a kernel)" if state and not state.in_kernel else ""))
        else:
            shown = f"{len(regs)}/{len(state.registers)}"
            zeros = ", zeros hidden" if self.hide_zeros else ""
            title.show(Text(f"Registers [{self.group}] {shown}{zeros} · {len(self._changed)} changed  (v group, 0 zeros)"))
        sync_rows(self.query_one(DataTable), ("reg", "hex", "dec"), {r.name: self._cells(r) for r in regs})

    def _cells(self, register: Register) -> tuple[Text, Text, Text]:
        style = "bold yellow" if register.name in self._changed else ""
        mark = "*" if register.name in self._changed else " "
        return (
            Text(f"{mark}{register.name}", style=style),
            Text(register.value, style=style),
            Text(decimal(register), style=style),
        )
