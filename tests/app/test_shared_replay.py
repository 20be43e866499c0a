"""The shared-memory grid over the tile and race lessons' real cuda-gdb recordings
(kernels/recordings/tile.jsonl.gz, race.jsonl.gz; no GPU), each replayed along its recorded path
to the step where the Shared pane read the array: what cuda-gdb answered for ``tile[0]@18`` shown
as 18 rows of 18 numbers, the banks from the recorded ``&tile[0][0]``, and race's 1-D ``sdata``,
which cuda-gdb cut at 200 elements: the pane asked for the other 56 (``sdata[200]@56``, recorded
since batch 22) and shows all 256."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from textual.pilot import Pilot
from textual.widgets import DataTable

from cudatui.gdbbridge import decode, flatten
from cudatui.gdbbridge.record.transcript import load
from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, plan_demo
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from tests.support.app import goto_focus, phase
from tests.support.recorded_path import walk_path
from tests.support.wait import wait_for
from tests.support.sent import commands_sent


def recorded(lesson: str, command: str, after: str = "") -> str:
    """The value the lesson's recording answered to its first ``command`` (after the command ``after``)."""
    exchanges = load(str(RECORDINGS_DIR / f"{lesson}.jsonl.gz")).exchanges
    start = next(i for i, e in enumerate(exchanges) if e.command == after) if after else 0
    exchange = next(e for e in exchanges[start:] if e.command == command)
    line = next(o.line for o in exchange.output if o.dir == "out" and "^done" in o.line)
    return line.split('value="', 1)[1].rsplit('"', 1)[0]


RACE_FOCUS = '-cuda-focus-switch "block (3,0,0) thread (200,0,0)"'
"""Where the race recording read sdata (the lesson's guide)."""


@asynccontextmanager
async def shared_pane_at(lesson: str, step: int) -> AsyncIterator[tuple[DemoApp, Pilot, SharedMemoryPane]]:
    """The lesson's recording replayed at 160x48 along its recorded path to ``step``, then the
    Shared pane shown; ``q`` at the end."""
    app = DemoApp(plan_demo(lesson, "replay"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await walk_path(app, pilot, RECORDINGS_DIR / f"{lesson}.jsonl.gz", step)
        pane = app.show_pane("shared")
        assert isinstance(pane, SharedMemoryPane)
        yield app, pilot, pane
        await pilot.press("q")


def grid(pane: SharedMemoryPane) -> dict[str, list[str]]:
    table = pane.query_one(DataTable)
    return {str(k.value): [str(c) for c in table.get_row(k)] for k in table.rows}


async def test_the_tile_lessons_grid_is_the_recorded_answer_decoded() -> None:
    """The tile lesson as re-recorded on the H200 (2026-12-04, batch 30), at its step 5 (after `c`,
    inside box3x3; Stack: frame 1, blur_racy, where tile is in scope): the Shared pane reads
    tile[18][18] (gdb's repeats, where it printed them, are decoded: tests/panes/test_shared_grid.py
    checks them on real gdb); the grid holds the values recorded there, each row's bank from its
    address."""
    answer = recorded("tile", '-data-evaluate-expression "tile[0]@18"', after="-stack-select-frame 1")
    expected = decode(answer).items
    assert len(expected) == 18 and all(len(row) == 18 for row in expected)
    async with shared_pane_at("tile", 5) as (app, pilot, pane):
        await wait_for(pilot, lambda: len(grid(pane)) == 18, why="the 18 rows of tile")
        await wait_for(pilot, lambda: "reading" not in str(pane.query_one("#shared-title").render()))
        rows = grid(pane)
        assert [rows[str(r)][2:] for r in range(18)] == [list(row) for row in expected]
        base = int(recorded("tile", '-data-evaluate-expression "&tile[0][0]"', after="-stack-select-frame 1").split()[0], 16)
        assert [rows[str(r)][1] for r in range(18)] == [str(((base + r * 72) // 4) % 32) for r in range(18)]


async def test_the_race_lessons_sdata_is_a_list_with_banks() -> None:
    """The race lesson at its step 4 (focus block (3,0,0) thread (200,0,0)), where the Shared pane,
    given sdata[256] at step 1, read it again in that thread's block: cuda-gdb's first answer cut at
    200 elements (its print elements), then the rest."""
    cut = decode(recorded("race", '-data-evaluate-expression "sdata[0]@256"', RACE_FOCUS))
    rest = decode(recorded("race", '-data-evaluate-expression "sdata[200]@56"', RACE_FOCUS))
    assert cut.truncated and len(flatten(cut.items)) == 200 and not rest.truncated
    expected = flatten(cut.items) + flatten(rest.items)
    assert len(expected) == 256
    async with shared_pane_at("race", 4) as (app, pilot, pane):
        await wait_for(pilot, lambda: [r[1] for r in grid(pane).values()] == list(expected), why="the recorded values")
        await wait_for(pilot, lambda: "@0x" in str(pane.query_one("#shared-title").render()), why="the address")
        rows = grid(pane)
        base = int(recorded("race", '-data-evaluate-expression "&sdata[0]"', RACE_FOCUS).split()[0], 16)
        shown = (0, 1, 31, 32, 199, 200, 255)
        assert [rows[str(i)][3] for i in shown] == [str((base // 4 + i) % 32) for i in shown]
        assert " of 256 read" not in str(pane.query_one("#shared-title").render())


async def test_shown_at_a_stop_read_without_it_the_rows_before_stay_faded_then_the_new_ones_show(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The race lesson's focus switch to block (3,0,0) (step 4) while the Shared pane, which
    showed sdata at the block before, is hidden: the switch asks for no shared memory. Shown again,
    while the Debugger reads that block's values (held here until :data:`go` is set: the answer is
    then gdb's, as recorded) the rows of the block before stay, in fainter text (the table's text
    opacity: no cell is rendered again for it), and the title says reading; then the recorded
    values of the new block show, in full colour."""
    async with shared_pane_at("race", 3) as (app, pilot, pane):
        title = pane.query_one("#shared-title")
        await wait_for(pilot, lambda: len(grid(pane)) == 256 and "reading" not in str(title.render()),
                       why="sdata of the block before")
        await app.workers.wait_for_complete()
        await pilot.pause()
        before = grid(pane)
        table = pane.query_one(DataTable)
        x, y = table.region.x + table.region.width // 4, table.region.y + 2  # a value of the first row
        shown = app.screen.get_style_at(x, y).color
        asked = commands_sent(app.debugger, "sdata")
        go = asyncio.Event()
        session = app.debugger.session
        assert session is not None
        command = session.command

        async def held(operation: str, *args: Any) -> dict[str, Any]:
            if args and str(args[0]).startswith("sdata["):
                await go.wait()
            return await command(operation, *args)

        monkeypatch.setattr(session, "command", held)
        app.show_pane("stack")
        await goto_focus(pilot, app, "block (3,0,0) thread (200,0,0)")
        await wait_for(pilot, lambda: app.debugger.state.focus.block == (3, 0, 0), why="the focus switch")
        assert not asked, "the hidden Shared pane's array was read"
        app.show_pane("shared")
        await wait_for(pilot, lambda: "reading" in str(title.render()), why="the new block's page read")
        await pilot.pause()
        assert grid(pane) == before and table.styles.text_opacity == 0.5
        assert app.screen.get_style_at(x, y).color != shown, "the last rows are not faded on the screen"
        go.set()
        await wait_for(pilot, lambda: "reading" not in str(title.render()), why="the new block's values")
        cut = flatten(decode(recorded("race", '-data-evaluate-expression "sdata[0]@256"', RACE_FOCUS)).items)
        await wait_for(pilot, lambda: [r[1] for r in grid(pane).values()][:200] == list(cut), why="the recorded values")
        await pilot.pause()
        assert table.styles.text_opacity == 1.0
        assert app.screen.get_style_at(x, y).color == shown or grid(pane)["0"] != before["0"]
        assert len([line for line in asked if "sdata[0]@256" in line]) == 1, asked
