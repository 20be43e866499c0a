"""The locals pane against a real GNU gdb on tests/fixtures/c/app/panes.c: values and types, the
arguments marked, a struct and an array folded (and whole as watches), what changed since the
last stop highlighted, and watch expressions added with ``w``, evaluated at every stop and
removed with delete."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.variables_tree import VariablesTree
from tests.support.app import gdb_config, phase, stopped_at, tree_changed, tree_rows
from tests.support.programs import PANES, marked_line, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb

LOOP = marked_line(PANES, "/* LOOP */")
CALL = marked_line(PANES, "/* CALL */")
PRINT = marked_line(PANES, "/* PRINT */")
END = marked_line(PANES, "/* END */")


def local(app: DebuggerApp) -> dict[str, list[str]]:
    return tree_rows(app, "local")


def watched(app: DebuggerApp) -> dict[str, list[str]]:
    return tree_rows(app, "watch")


def changed(app: DebuggerApp, name: str, root: str = "local") -> bool:
    return tree_changed(app, name, root)


async def add_watch(pilot, app: DebuggerApp, expression: str) -> None:
    """``w`` in the locals pane, type ``expression``, enter; then back to the source view (the
    input keeps the focus, and would take the debugger's keys)."""
    app.query_one(VariablesTree).focus()
    await pilot.press("w")
    await wait_for(pilot, lambda: app.focused is app.query_one("#watch-input", Input), why="the watch input")
    app.focused.value = expression  # type: ignore[union-attr]
    await pilot.press("enter")
    app.query_one("#source-view").focus()


async def test_arguments_are_marked_and_values_typed(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{LOOP}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, LOOP)
        table = local(app)
        assert list(table) == ["i", "sum", "next"]
        assert table["i"][:3] == ["i (arg)", "0", "int"] and table["sum"][:3] == ["sum (arg)", "0", "int"]
        assert table["next"][0] == "next" and table["next"][2] == "int"


async def test_a_struct_and_an_array_are_folded_and_shown_whole_as_watches(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{CALL}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, CALL)
        table = local(app)
        assert table["where"][1:3] == ["{…}", "struct point"]
        assert table["values"][1:3] == ["{…}", "int [4]"]
        assert table["sum"][1:3] == ["10", "int"]
        await add_watch(pilot, app, "where")
        await wait_for(pilot, lambda: "where" in watched(app), why="the watch row")
        assert watched(app)["where"][1:3] == ["{x = 3, y = 4}", "struct point"]
        await add_watch(pilot, app, "values")
        await wait_for(pilot, lambda: "values" in watched(app), why="the watch row")
        assert watched(app)["values"][1:3] == ["{1, 2, 3, 4}", "int [4]"]


async def test_what_changed_since_the_last_stop_is_highlighted(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{LOOP}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, LOOP)
        assert not changed(app, "i") and not changed(app, "sum")
        await pilot.press("c")  # add(1, 0): i changed, sum did not
        await wait_for(pilot, lambda: phase(app) == "stopped" and local(app)["i"][1] == "1", why="the second call")
        assert changed(app, "i") and not changed(app, "sum")
        await pilot.press("c")  # add(2, 1): both changed
        await wait_for(pilot, lambda: phase(app) == "stopped" and local(app)["i"][1] == "2", why="the third call")
        assert local(app)["sum"][1] == "1" and changed(app, "i") and changed(app, "sum")
        shown = app.debugger.state.generation
        await app.debugger.toggle_breakpoint(str(PANES), CALL)  # a breakpoint changes: the same stop again
        await wait_for(pilot, lambda: app.debugger.state.generation > shown and not app.debugger.busy, why="the bump")
        await pilot.pause()
        assert changed(app, "i") and changed(app, "sum"), "the stop's highlights went with a breakpoint change"


async def test_a_highlight_lasts_one_stop_and_the_changed_name_is_bold(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{CALL}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, CALL)
        assert local(app)["levels"][1] == "0" and not changed(app, "levels")
        await pilot.press("n")  # levels = depth(3)
        await stopped_at(pilot, app, PRINT)
        assert local(app)["levels"][1] == "3" and changed(app, "levels")
        await pilot.press("n")  # levels stays 3
        await stopped_at(pilot, app, END)
        await app.workers.wait_for_complete()
        assert local(app)["levels"][1] == "3"
        assert not changed(app, "levels"), "the highlight of the stop before is still shown"
        line = next(n for n in app.query_one(VariablesTree).lines() if n.data.path == ("levels",))
        assert not any("bold" in str(span.style) for span in line.label.spans), "the name is still bold"


async def test_a_watch_is_evaluated_at_every_stop_until_removed_with_delete(panes_program: Path) -> None:
    app = DebuggerApp(gdb_config(panes_program, f"panes.c:{LOOP}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, LOOP)
        await add_watch(pilot, app, "i * 10 + sum")
        await wait_for(pilot, lambda: "i * 10 + sum" in watched(app), why="the watch row")
        assert watched(app)["i * 10 + sum"][1:3] == ["0", "int"]
        await pilot.press("c")  # add(1, 0)
        await wait_for(pilot, lambda: watched(app)["i * 10 + sum"][1] == "10", why="the watch at the next stop")
        assert changed(app, "i * 10 + sum", "watch")
        await pilot.press("c")  # add(2, 1)
        await wait_for(pilot, lambda: watched(app)["i * 10 + sum"][1] == "21", why="the watch at the next stop")

        tree = app.query_one(VariablesTree)
        tree.focus()
        tree.move_cursor(next(n for n in tree.lines() if n.data.kind == "watch"))
        await pilot.press("delete")
        await wait_for(pilot, lambda: watched(app) == {}, why="the watch to go")
        await pilot.press("c")  # add(3, 3): the removed watch stays removed
        await wait_for(pilot, lambda: phase(app) == "stopped" and local(app)["i"][1] == "3", why="the fourth call")
        await app.workers.wait_for_complete()  # the stop's refresh, watches included, is done
        assert watched(app) == {}
