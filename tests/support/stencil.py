"""The H200 check of the Locals tree and the shared grid on tests/fixtures/cuda_vars/stencil.cu,
driven through the app as a user does: shared by the GPU test (real cuda-gdb, which may record
it) and the replay test of that recording."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import DataTable

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from cudatui.tui.panes.variables_tree import VariablesTree

from .app import stopped_at, tree_changed, tree_rows
from .paths import FIXTURES
from .programs import marked_line
from .wait import wait_for

STENCIL = FIXTURES / "cuda_vars" / "stencil.cu"
LOAD = marked_line(STENCIL, "/* LOAD */")
LOADED = marked_line(STENCIL, "/* LOADED */")
BREAK = f"stencil.cu:{LOAD} if threadIdx.x == 0 && threadIdx.y == 0"
LOCALS = ("lx", "ly", "x", "y", "gx", "gy", "w", "up", "down", "far", "result", "inside", "in", "out", "p")
"""The kernel's locals and arguments (15, as the stencil kernel of issue 16 had)."""
WIDTH = 64
"""``p.width`` in stencil.cu's main."""


def expected_input(gy: int, gx: int) -> str:
    """``in[gy * 64 + gx]`` as gdb prints the float (main fills 1 + i % 97)."""
    return str(1 + (gy * WIDTH + gx) % 97)


def grid(pane: SharedMemoryPane) -> dict[str, list[str]]:
    table = pane.query_one(DataTable)
    return {str(k.value): [str(c) for c in table.get_row(k)] for k in table.rows}


async def check_stencil(pilot: Pilot, app: DebuggerApp, first_stop: float = 30.0) -> None:
    """At LOAD: every local on screen without scrolling, the struct ``p`` opened, the tile as 18
    rows of numbers; after ``n``: the focused warp's pixels in the tile, highlighted."""
    await wait_for(pilot, lambda: app.query_one("#source-view").current == LOAD, timeout=first_stop, why="the LOAD stop")
    await stopped_at(pilot, app, LOAD)
    await wait_for(pilot, lambda: set(LOCALS) <= set(tree_rows(app)), why="the 15 locals")
    tree = app.query_one(VariablesTree)
    height = tree.scrollable_content_region.height
    lines = {".".join(n.data.path): n.line for n in tree.lines()}
    hidden = [name for name in LOCALS if not tree.scroll_offset.y <= lines[name] < tree.scroll_offset.y + height]
    assert not hidden, f"locals off screen at {app.size}: {hidden} (the tree shows {height} lines)"

    tree.focus()
    tree.move_cursor(next(n for n in tree.lines() if n.data.path == ("p",)))
    await pilot.press("right")
    await wait_for(pilot, lambda: "p.scale" in tree_rows(app), why="the members of p")
    rows = tree_rows(app)
    assert rows["p.width"][1:3] == ["64", "@local int"] and rows["p.height"][1] == "48"  # as cuda-gdb 13.0 types it
    assert rows["p.scale"][1].startswith("0.2")

    pane = app.query_one(SharedMemoryPane)
    app.show_pane("shared")
    if "tile" not in {a.name for a in pane.arrays()}:
        pane.action_add()
        await wait_for(pilot, lambda: app.focused is pane.query_one("#shared-add"), why="the add line")
        await pilot.press(*"tile[18][18]", "enter")
    await wait_for(pilot, lambda: len(grid(pane)) == 18 and "reading" not in str(pane.query_one("#shared-title").render()),
                   why="the tile's 18 rows")
    before = grid(pane)
    assert all(len(row) == 20 for row in before.values())
    assert all(float(v) == 0 for r in before.values() for v in r[2:]), "the tile is zeroed before LOAD"
    focus = app.debugger.state.focus
    assert focus is not None and focus.thread == (0, 0, 0)

    app.query_one("#source-view").focus()
    await pilot.press("n")
    await stopped_at(pilot, app, LOADED)
    bx, by = focus.block[0], focus.block[1]
    row1 = [expected_input(by * 16, min(bx * 16 + c, WIDTH - 1)) for c in range(16)]
    await wait_for(pilot, lambda: grid(pane)["1"][3:19] == row1, why="the warp's pixels in tile row 1")
    after = grid(pane)
    assert after["2"][3:19] == [expected_input(by * 16 + 1, min(bx * 16 + c, WIDTH - 1)) for c in range(16)]
    assert "bold" in str(pane.query_one(DataTable).get_cell("1", "1").style), "a changed cell is not highlighted"
    assert not tree_changed(app, "p.width")
