"""The Locals tree against a real GNU gdb on tests/fixtures/c/app/vars.c (and optimized.c at -O2):
a struct, a nested struct, an array and a pointer to a struct opened with the keys and the mouse,
kept open across stops with what changed highlighted, 14 locals all reachable at 80x24 with a
watch added, an optimized-out local said in words, a long value elided and shown whole with v;
no varobj left behind when the frame changes; a line opened read by the Debugger, which shows the
stop again with its members, and nothing read while the tree is hidden."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.messages import WatchAdded
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.variables_tree import VariablesTree
from cudatui.tui.widgets.value_screen import ValueScreen
from tests.support.app import gdb_config, phase, stopped_at, tree_changed, tree_rows
from tests.support.paths import C_SOURCES
from tests.support.programs import compile_c, marked_line, needs_gdb
from tests.support.wait import wait_for
from tests.support.sent import commands_sent

pytestmark = needs_gdb

VARS = C_SOURCES / "app" / "vars.c"
OPTIMIZED = C_SOURCES / "app" / "optimized.c"
FIRST = marked_line(VARS, "/* FIRST */")
SECOND = marked_line(VARS, "/* SECOND */")
MANY = marked_line(VARS, "/* MANY */")
END = marked_line(VARS, "/* END */")


@pytest.fixture(scope="module")
def vars_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_c(VARS, tmp_path_factory.mktemp("vars") / "vars")



async def cursor_to(pilot, app: DebuggerApp, key: str) -> None:
    """Focus the tree and put its cursor on the line ``key`` (a path joined with ``.``)."""
    tree = app.query_one(VariablesTree)
    tree.focus()
    await wait_for(pilot, lambda: any(".".join(n.data.path) == key for n in tree.lines()), why=f"the line {key}")
    node = next(n for n in tree.lines() if ".".join(n.data.path) == key)
    tree.move_cursor(node)
    await pilot.pause()


def sent(app: DebuggerApp, command: str) -> list[str]:
    """The ``command`` lines the Debugger sends from now on."""
    return commands_sent(app.debugger, command)


async def test_structs_arrays_and_pointers_open_with_the_keys_and_stay_open(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{FIRST}", f"vars.c:{SECOND}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, FIRST)
        local = tree_rows(app)
        assert local["frame"][1:3] == ["{…}", "struct box"] and local["at"][2] == "struct point *"
        await cursor_to(pilot, app, "frame")
        await pilot.press("right")
        await wait_for(pilot, lambda: "frame.corner" in tree_rows(app), why="the members of frame")
        assert [k for k in tree_rows(app) if k.startswith("frame.")] == ["frame.corner", "frame.size", "frame.label"]
        await pilot.press("right")  # to the first member, then open it
        await pilot.press("right")
        await wait_for(pilot, lambda: "frame.corner.x" in tree_rows(app), why="the nested struct")
        assert tree_rows(app)["frame.corner.x"][1:3] == ["1", "int"] and tree_rows(app)["frame.corner.y"][1] == "2"
        await pilot.press("left")  # close corner
        await wait_for(pilot, lambda: "frame.corner.x" not in tree_rows(app), why="corner to close")
        await pilot.press("enter")  # enter opens it again
        await wait_for(pilot, lambda: "frame.corner.x" in tree_rows(app), why="corner to open again")

        await cursor_to(pilot, app, "at")
        await pilot.press("space")
        await wait_for(pilot, lambda: "at.x" in tree_rows(app), why="the pointee of at")
        assert tree_rows(app)["at.x"][1] == "30" and tree_rows(app)["at.y"][1] == "40"
        tree = app.query_one(VariablesTree)
        values_line = next(n for n in tree.lines() if n.data.path == ("values",))
        await pilot.click(VariablesTree, offset=(1, values_line.line - tree.scroll_offset.y))
        await wait_for(pilot, lambda: "values.3" in tree_rows(app), why="the array opened by a click")
        assert [tree_rows(app)[f"values.{i}"][1] for i in range(4)] == ["1", "2", "3", "4"]
        assert len(app.debugger.variables.roots) == 3

        await pilot.press("c")  # to SECOND: step is 1 now, what was open is open again
        await stopped_at(pilot, app, SECOND)
        await wait_for(pilot, lambda: tree_rows(app).get("step", [""])[1] == "1", why="step at the second stop")
        assert tree_changed(app, "step") and not tree_changed(app, "frame.corner.x")
        await wait_for(pilot, lambda: {"frame.corner.x", "at.x", "values.3"} <= set(tree_rows(app)),
                       why="the opened lines at the second stop")
        assert tree_rows(app)["frame.corner.x"][1] == "1"


async def test_a_value_that_changed_inside_an_opened_struct_is_highlighted(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{FIRST}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, FIRST)
        await cursor_to(pilot, app, "at")
        await pilot.press("right")
        await wait_for(pilot, lambda: "at.x" in tree_rows(app), why="the pointee of at")
        app.query_one("#source-view").focus()
        await pilot.press("colon")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        app.focused.value = "set var at->x = 31"  # type: ignore[union-attr]
        await pilot.press("enter")  # the console command refreshes the stop: -var-update sees it
        await wait_for(pilot, lambda: tree_rows(app).get("at.x", ["", ""])[1] == "31", why="the new value")
        assert tree_changed(app, "at.x") and not tree_changed(app, "at.y")


async def test_fourteen_locals_are_all_reachable_at_80x24_with_a_watch(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{MANY}"))
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, MANY)
        names = ["a", "b", *(f"l{i:02d}" for i in range(1, 13)), "far"]
        await wait_for(pilot, lambda: set(names) <= set(tree_rows(app)), why="the 15 locals")
        app.query_one(LocalsPane).post_message(WatchAdded("l01 + far"))
        await wait_for(pilot, lambda: "l01 + far" in tree_rows(app, "watch"), why="the watch")
        assert set(names) <= set(tree_rows(app)), "a watch took a local's line"
        tree = app.query_one(VariablesTree)
        tree.focus()
        tree.move_cursor(tree.lines()[0])
        await pilot.pause()
        seen = set()
        for _ in range(len(tree.lines())):
            node = tree.cursor_node
            assert node is not None
            top = tree.scroll_offset.y
            assert top <= node.line < top + tree.scrollable_content_region.height, f"{node.data.path} is off screen"
            seen.add(".".join(node.data.path))
            await pilot.press("down")
        assert set(names) | {"l01 + far"} <= seen


async def test_an_optimized_out_local_is_said_in_words(tmp_path: Path) -> None:
    program = compile_c(OPTIMIZED, tmp_path / "optimized", "-O2")
    app = DebuggerApp(gdb_config(program, "work"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and "gone" in tree_rows(app), why="the stop in work")
        assert tree_rows(app)["gone"][1] == "optimized out"
        assert not next(n for n in app.query_one(VariablesTree).lines() if n.data.path == ("gone",)).allow_expand


async def test_a_long_value_is_elided_and_v_shows_it_whole(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{SECOND}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, SECOND)
        app.query_one(LocalsPane).post_message(WatchAdded("tile[1]"))
        await wait_for(pilot, lambda: "tile[1]" in tree_rows(app, "watch"), why="the watch")
        whole = tree_rows(app, "watch")["tile[1]"][1]
        assert whole.startswith("{18, 19, 20") and whole.endswith("35}")
        line = next(n for n in app.query_one(VariablesTree).lines() if n.data.path == ("tile[1]",))
        assert "…" in line.label.plain and "35}" not in line.label.plain
        await cursor_to(pilot, app, "tile[1]")
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ValueScreen), why="the value dialog")
        assert str(app.screen.query_one("#value-text").render()) == whole
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ValueScreen), why="the dialog to close")


async def test_varobjs_are_deleted_when_the_frame_changes(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{FIRST}", f"vars.c:{MANY}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, FIRST)
        await cursor_to(pilot, app, "frame")
        await pilot.press("right")
        await wait_for(pilot, lambda: "frame.corner" in tree_rows(app), why="the members of frame")
        assert len(app.debugger.variables.roots) == 1
        await pilot.press("c")
        await stopped_at(pilot, app, MANY)
        await app.workers.wait_for_complete()
        assert app.debugger.variables.roots == ()
        answer = await app.debugger.session.command("-var-update", "*")
        assert answer.get("changelist") in ([], None), "a varobj of main outlived its frame"


async def test_a_line_opened_comes_with_the_stop_shown_again_and_a_hidden_tree_reads_nothing(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{FIRST}", f"vars.c:{MANY}", f"vars.c:{END}"))
    async with app.run_test(size=(80, 24)) as pilot:  # Locals is a tab: on the screen first
        await stopped_at(pilot, app, FIRST)
        listed, created = sent(app, "-var-list-children"), sent(app, "-var-create")
        first = app.debugger.state
        assert first.members is None and listed == []
        await cursor_to(pilot, app, "frame")
        await pilot.press("right")
        await wait_for(pilot, lambda: "frame.corner" in tree_rows(app), why="the members of frame")
        again = app.debugger.state
        assert again.stop is first.stop and again.generation > first.generation, "not the same stop shown again"
        assert [path for path, _ in again.members] == [("frame",)]
        assert [n.name for n in dict(again.members)[("frame",)].value] == ["corner", "size", "label"]
        assert len(listed) == 1 and len(created) == 1

        app.show_pane("console")  # the tree is hidden; frame stays open in it
        await wait_for(pilot, lambda: not app.query_one(LocalsPane).display, why="Locals hidden")
        app.query_one("#source-view").focus()
        await pilot.press("c")
        await stopped_at(pilot, app, MANY)  # another frame: the varobjs of main are deleted
        await pilot.press("c")
        await stopped_at(pilot, app, END)  # main again, frame open in its tree
        await wait_for(pilot, lambda: not app.debugger.busy, why="the stop's refresh")
        await app.workers.wait_for_complete()
        end = app.debugger.state
        assert end.members is None and len(listed) == 1 and len(created) == 1, "a hidden tree read its lines"

        app.show_pane("locals")
        await wait_for(pilot, lambda: "frame.corner" in tree_rows(app), why="frame opened again when shown")
        assert app.debugger.state.stop is end.stop and [p for p, _ in app.debugger.state.members] == [("frame",)]
        assert len(listed) == 2 and len(created) == 2
