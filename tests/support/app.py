"""Reading the debugger app in a Pilot test: its phase, its tables, its notifications."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.variables_tree import CHANGED, name_text, storage_space, value_words

from .programs import STEPS
from .wait import wait_for


def gdb_config(program: Path, *breakpoints: str) -> LaunchConfig:
    """The app driving GNU gdb on ``program`` (built from tests/fixtures/c/app/), run in its
    directory, with ``-b`` ``breakpoints`` and the sources found in tests/fixtures/c/app/."""
    return LaunchConfig(debugger=("gdb",), target=(str(program),), breakpoints=breakpoints,
                        cwd=str(program.parent), source_dirs=(str(STEPS.parent),))


def phase(app: DebuggerApp) -> str:
    """starting, running, stopped, exited or dead."""
    return app.debugger.status.phase


def status(app: DebuggerApp) -> tuple[str, str]:
    """The phase and its detail, as the status bar shows them (``("stopped", "breakpoint 1")``)."""
    return app.debugger.status.phase, app.debugger.status.detail


def posted(app: DebuggerApp) -> list[tuple[str, str]]:
    """Call before the app runs: the (message, severity) of every notification it posts from then
    on, kept after the toast has gone (a toast lives 5 s: a loaded run may look later than that).
    ``app.notify`` still shows each one."""
    kept: list[tuple[str, str]] = []
    notify = app.notify

    def keep(message: str, **options: Any) -> None:
        kept.append((message, options.get("severity", "information")))
        notify(message, **options)

    app.notify = keep  # type: ignore[method-assign]
    return kept


def messages(app: DebuggerApp, severity: str | None = None) -> list[str]:
    """The notifications shown so far (of ``severity`` only, if given)."""
    return [n.message for n in app.notices.entries if severity is None or n.severity == severity]


def no_internal_errors(app: DebuggerApp) -> bool:
    return not [m for m in messages(app) if "internal error" in m or "Traceback" in m]


def rows(app: DebuggerApp, pane: type, table: str = "DataTable") -> dict[str, list[str]]:
    """A pane's table: row key -> the cells as text."""
    grid = app.query_one(pane).query_one(table, DataTable)
    return {str(key.value): [str(c) for c in grid.get_row(key)] for key in grid.rows}


def cell(app: DebuggerApp, pane: type, row: str, column: str, table: str = "DataTable") -> Text:
    """One cell of a pane's table, as rich Text (with its style)."""
    value = app.query_one(pane).query_one(table, DataTable).get_cell(row, column)
    return value if isinstance(value, Text) else Text(str(value))


def tree_rows(app: DebuggerApp, root: str = "local") -> dict[str, list[str]]:
    """The Locals tree's lines under ``root`` (``local`` or ``watch``), keyed by their path joined
    with ``.`` (``where``, ``frame.corner.x``): name, value (as said), type, address space."""
    pane = app.query_one(LocalsPane)
    out = {}
    for path, row in pane.rows(root).items():
        space = storage_space(row.type)
        out[".".join(path)] = [name_text(row).plain, value_words(row)[0], row.type, f"@{space}" if space else ""]
    return out


def tree_changed(app: DebuggerApp, key: str, root: str = "local") -> bool:
    """Whether the Locals tree's line ``key`` (see :func:`tree_rows`) is highlighted as changed."""
    row = next(r for p, r in app.query_one(LocalsPane).rows(root).items() if ".".join(p) == key)
    return row.changed and CHANGED in value_words(row)[1]


def value(app: DebuggerApp, name: str) -> str:
    """The value of local ``name`` in the locals pane."""
    return tree_rows(app)[name][1]


async def stopped_at(pilot: Pilot, app: DebuggerApp, line: int) -> None:
    """Until the program is stopped with the source pane's current line at ``line``."""
    await wait_for(pilot, lambda: status(app)[0] == "stopped" and app.query_one(SourcePane).view.current == line)
    await pilot.pause()


async def goto_focus(pilot: Pilot, app: DebuggerApp, request: str) -> None:
    """``g``, type ``request`` (e.g. "warp 2 lane 3"), enter."""
    await pilot.press("g")
    await wait_for(pilot, lambda: isinstance(app.focused, Input))
    app.focused.value = request  # type: ignore[union-attr]
    await pilot.press("enter")
