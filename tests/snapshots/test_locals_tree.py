"""Snapshots of the Locals tree opened at a real GNU gdb stop in tests/fixtures/c/app/vars.c
(a struct and its nested struct, a pointer to a struct and an array open), at 80x24 (the Locals
tab) and 160x48 (every pane)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.variables_tree import VariablesTree
from tests.support.app import gdb_config, stopped_at, tree_rows
from tests.support.paths import C_SOURCES
from tests.support.programs import compile_c, marked_line, needs_gdb
from tests.support.wait import wait_for

VARS = C_SOURCES / "app" / "vars.c"
SECOND = marked_line(VARS, "/* SECOND */")
OPEN = ("frame", "frame.corner", "at", "values")
"""The lines opened, in order."""


@needs_gdb
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_locals_tree_opened(snap_compare, tmp_path, size) -> None:
    program = compile_c(VARS, tmp_path / "vars")
    app = DebuggerApp(gdb_config(program, f"vars.c:{SECOND}"))

    async def run_before(pilot: Pilot) -> None:
        await stopped_at(pilot, app, SECOND)
        app.show_pane("locals")
        tree = app.query_one(VariablesTree)
        tree.focus()
        for key in OPEN:
            await wait_for(pilot, lambda: key in tree_rows(app), why=key)
            tree.move_cursor(next(n for n in tree.lines() if ".".join(n.data.path) == key))
            await pilot.press("right")
            await wait_for(pilot, lambda: any(k.startswith(key + ".") for k in tree_rows(app)), why=f"{key} open")
        tree.move_cursor(tree.lines()[0])
        for field in app.query(Input):
            field.cursor_blink = False
        await app.workers.wait_for_complete()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
