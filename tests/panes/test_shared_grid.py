"""The shared-memory grid against a real GNU gdb on tests/fixtures/c/app/vars.c: ``float
tile[18][18]``, which gdb prints with nested repeats (``{{0 <repeats 18 times>} <repeats 18
times>}``), shown as 18 rows of 18 numbers with each row's bank from the array's address, the
cells a step changed highlighted, and every cell's bank on ``t``; and the tile lesson's replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from tests.support.app import gdb_config, stopped_at
from tests.support.paths import C_SOURCES
from tests.support.programs import compile_c, marked_line, needs_gdb
from tests.support.wait import wait_for

VARS = C_SOURCES / "app" / "vars.c"
FIRST = marked_line(VARS, "/* FIRST */")
SECOND = marked_line(VARS, "/* SECOND */")


@pytest.fixture(scope="module")
def vars_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_c(VARS, tmp_path_factory.mktemp("grid") / "vars")


def grid(pane: SharedMemoryPane) -> dict[str, list[str]]:
    table = pane.query_one(DataTable)
    return {str(k.value): [str(c) for c in table.get_row(k)] for k in table.rows}


def highlighted(pane: SharedMemoryPane, row: int, column: int) -> bool:
    return "bold" in str(pane.query_one(DataTable).get_cell(str(row), str(column)).style)


@needs_gdb
async def test_a_2d_array_with_repeats_is_a_grid_of_numbers_with_banks_and_changes(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{FIRST}", f"vars.c:{SECOND}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, FIRST)
        pane = app.show_pane("shared")  # as a user would (a hidden pane builds no rows)
        assert isinstance(pane, SharedMemoryPane)
        raw = await app.debugger.evaluate("tile[0]@18")
        assert raw == "{{0 <repeats 18 times>} <repeats 18 times>}"  # what the grid has to decode
        pane.action_add()
        await wait_for(pilot, lambda: app.focused is pane.query_one("#shared-add"), why="the add line")
        await pilot.press(*"tile[18][18]", "enter")
        await wait_for(pilot, lambda: len(grid(pane)) == 18, why="18 rows")
        rows = grid(pane)
        assert all(rows[str(r)][2:] == ["0"] * 18 for r in range(18))
        base = int((await app.debugger.evaluate("&tile[0][0]")).split()[0], 16)
        for r in (0, 1, 5, 17):
            at = int((await app.debugger.evaluate(f"&tile[{r}][0]")).split()[0], 16)
            assert at == base + r * 18 * 4
            assert rows[str(r)][:2] == [str(r), str((at // 4) % 32)]

        await pilot.press("c")  # fill(2): rows 0 and 1 hold 0..35
        await stopped_at(pilot, app, SECOND)
        await wait_for(pilot, lambda: grid(pane).get("1", ["", "", ""])[2] == "18", why="the second stop's values")
        rows = grid(pane)
        assert rows["0"][2:] == [str(v) for v in range(18)] and rows["1"][2:] == [str(v) for v in range(18, 36)]
        assert all(rows[str(r)][2:] == ["0"] * 18 for r in range(2, 18))
        assert highlighted(pane, 0, 1) and highlighted(pane, 1, 17)
        assert not highlighted(pane, 0, 0) and not highlighted(pane, 2, 3)  # 0 stayed 0
        assert "35 changed" in str(pane.query_one("#shared-title").render())

        pane.query_one(DataTable).focus()
        for _ in range(3):  # value -> int -> hex -> bank
            await pilot.press("t")
        assert pane.mode == "bank"
        rows = grid(pane)
        assert rows["1"][2:] == [str(((base + (18 + c) * 4) // 4) % 32) for c in range(18)]


@needs_gdb
async def test_paging_a_big_2d_array(vars_program: Path) -> None:
    app = DebuggerApp(gdb_config(vars_program, f"vars.c:{SECOND}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, SECOND)
        pane = app.show_pane("shared")  # as a user would (a hidden pane builds no rows)
        assert isinstance(pane, SharedMemoryPane)
        pane.page_size = 8
        pane.action_add()
        await wait_for(pilot, lambda: app.focused is pane.query_one("#shared-add"), why="the add line")
        await pilot.press(*"tile[18][18]", "enter")
        await wait_for(pilot, lambda: list(grid(pane)) == [str(r) for r in range(8)], why="the first page")
        assert grid(pane)["1"][2] == "18"
        pane.query_one(DataTable).focus()
        await pilot.press("right_square_bracket", "right_square_bracket")
        await wait_for(pilot, lambda: list(grid(pane)) == ["16", "17"], why="the last page")
        assert "page 3/3" in str(pane.query_one("#shared-title").render())
