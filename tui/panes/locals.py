"""Locals and watch expressions: values, types, address spaces, what changed since the last stop."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import DataTable, Input

from cudatui.gdbbridge import StopState, Variable
from cudatui.tui.inline_input import InlineInput
from cudatui.tui.messages import WatchAdded, WatchRemoved

from .base import Cell, InfoLine, PaneTable, StatePane, sync_rows

CHANGED = "bold #ff8700"
"""Style of a value that changed since the last stop (readable on dark and light themes)."""


def value_text(variable: Variable, changed: bool) -> Text:
    """The value cell: ``<optimized out>`` dimmed, a changed value highlighted, ``{…}`` for an
    array or struct (gdb lists only simple values; add it as a watch to see it)."""
    value = variable.value.replace("\n", " ")
    if not value:
        return Text("{…}", style="dim")
    if variable.optimized_out:
        return Text(value, style="dim italic")
    if variable.value.startswith("<") and variable.value.endswith(">"):
        return Text(value, style="italic")
    return Text(value, style=CHANGED if changed else "")


def storage_space(type_text: str) -> str | None:
    """Where the variable itself lives: the last ``@space`` of its type (for
    ``const @generic float * @parameter`` the pointer is a parameter pointing to generic memory)."""
    spaces = [w[1:] for w in type_text.replace("*", " ").replace("(", " ").replace(")", " ").split() if w.startswith("@")]
    return spaces[-1] if spaces else None


def space_text(variable: Variable) -> Text:
    """The address space column: ``@shared``, ``@register`` ..."""
    space = storage_space(variable.type)
    return Text(f"@{space}" if space else "", style="bold cyan" if space == "shared" else "cyan")


def changed_names(state: StopState, previous: StopState | None) -> set[str]:
    """Variables whose value differs from the previous stop in the same function and frame."""
    if previous is None or previous.frame is None or state.frame is None:
        return set()
    if (previous.frame.func, previous.selected_frame) != (state.frame.func, state.selected_frame):
        return set()
    before = {v.name: v.value for v in previous.variables}
    return {v.name for v in state.variables if v.name in before and before[v.name] != v.value}


class LocalsPane(StatePane):
    """The selected frame's locals and arguments, then the watch expressions.

    | Key | Action |
    | :- | :- |
    | w | Add a watch expression (escape leaves the watch line) |
    | delete | Remove the watch under the cursor |
    """

    BINDINGS = [
        Binding("w", "add_watch", "Watch"),
        Binding("delete", "remove_watch", "Unwatch", show=False),
    ]

    DEFAULT_CSS = """
    LocalsPane { height: 1fr; layout: vertical; }
    LocalsPane > #locals-table { height: 1fr; min-height: 3; }
    LocalsPane > #watch-title { height: 1; background: $boost; padding: 0 1; }
    LocalsPane > #watch-table { height: auto; max-height: 8; }
    LocalsPane > Input { height: 1; border: none; padding: 0 1; }
    """

    COLUMNS = ("name", "value", "type", "space")

    watches: reactive[tuple[Variable, ...]] = reactive(())
    """The watch expressions' values at the shown stop."""

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._watch_generation = -1
        self._previous_watches: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        for table_id in ("locals-table", "watch-table"):
            if table_id == "watch-table":
                yield InfoLine("Watch expressions", id="watch-title")
            table: PaneTable[Cell] = PaneTable(id=table_id, cursor_type="row", zebra_stripes=True)
            for key, label in zip(self.COLUMNS, ("Name", "Value", "Type", "Space")):
                table.add_column(label, key=key)
            yield table
        yield InlineInput(placeholder="w: add a watch expression", id="watch-input", compact=True)

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        changed = changed_names(state, previous)
        rows: dict[str, tuple[Cell, ...]] = {}
        for var in state.variables:
            label = Text(var.name, style="bold" if var.name in changed else "")
            if var.is_arg:
                label.append(" (arg)", style="dim")
            rows[var.name] = (label, value_text(var, var.name in changed), var.type, space_text(var))
        sync_rows(self.query_one("#locals-table", DataTable), self.COLUMNS, rows)

    def show_watches(self, generation: int, watches: tuple[Variable, ...]) -> None:
        """Show the watch values evaluated at stop ``generation`` (older ones are dropped)."""
        if generation < self._watch_generation:
            return
        if generation > self._watch_generation:
            self._previous_watches = {w.name: w.value for w in self.watches}
        self._watch_generation = generation
        self.watches = watches

    def watch_watches(self, watches: tuple[Variable, ...]) -> None:
        rows: dict[str, tuple[Cell, ...]] = {}
        for var in watches:
            changed = var.name in self._previous_watches and self._previous_watches[var.name] != var.value
            rows[var.name] = (var.name, value_text(var, changed), var.type, space_text(var))
        sync_rows(self.query_one("#watch-table", DataTable), self.COLUMNS, rows)

    def action_add_watch(self) -> None:
        self.query_one("#watch-input", InlineInput).open()

    def action_remove_watch(self) -> None:
        table = self.query_one("#watch-table", DataTable)
        if table.has_focus and table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            if key is not None:
                self.post_message(WatchRemoved(key))

    @on(Input.Submitted, "#watch-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        expression = event.value.strip()
        if expression:
            self.post_message(WatchAdded(expression))
