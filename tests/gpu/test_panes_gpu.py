"""The CUDA panes' on-demand queries against real cuda-gdb, recorded for the replay tests.

On a GPU box (``gpu`` marker): the `tile` lesson (2-D grid, 2-D shared ``float tile[18][18]``,
device functions) stops at its ``window`` breakpoint, and the Debugger runs exactly the requests
the panes make with their defaults: the shared tile page and its address, SASS from ``$pc`` to
``$pc+128``, the block table (cuda-gdb 13.0 marks no current block range: the focused block is
looked up in the ranges) and the thread table (which marks the current range), and the warp
watch of ``threadIdx.x * 2``. With
``CUDATUI_RECORD_PANES=DIR`` the MI transcript is kept as ``DIR/panes_tile.jsonl``; copied to
``tests/fixtures/recorded/``, it turns on the replay test at the end of this module.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.cuda.tables import info, parse_lanes
from cudatui.gdbbridge.models.shared import SharedWindow, page_of

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.parts.sass import SASS_AFTER
from cudatui.gdbbridge.debugger.events import PhaseChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.tui.panes.shared_array import from_variable_type
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from cudatui.tui.panes.warps import WarpsPane
from tests.support import paths
from tests.support.panes import PaneApp, Replay
from tests.support.paths import ROOT
from tests.support.wait import until, wait_for

RECORDED = paths.RECORDED / "panes_tile.jsonl"


def _linear(block: tuple[int, int, int], grid: tuple[int, int, int]) -> int:
    """A block's position in cuda-gdb's coalescing order (x fastest, then y, then z)."""
    return block[0] + grid[0] * (block[1] + grid[1] * block[2])


@pytest.mark.gpu
async def test_pane_queries_on_real_cuda_gdb(tmp_path):
    if shutil.which("cuda-gdb") is None:
        pytest.skip("cuda-gdb is not on PATH")
    from cudatui.kernels.lessons import get_lesson

    subprocess.run([sys.executable, "-m", "cudatui.kernels.build", "--all"], cwd=ROOT, check=True, capture_output=True)
    lesson = get_lesson("tile")
    out_dir = Path(os.environ.get("CUDATUI_RECORD_PANES", tmp_path))
    out_dir.mkdir(parents=True, exist_ok=True)
    spec = BreakpointSpec(*lesson.breakpoint_specs()[0])
    debugger = Debugger(LaunchConfig(debugger=("cuda-gdb",), target=(str(lesson.demo_path),), breakpoints=(str(spec),),
                                     record=str(out_dir / "panes_tile.jsonl"), cwd=str(lesson.source.parent)))
    settled = asyncio.Event()
    debugger.subscribe(lambda e: isinstance(e, PhaseChanged) and e.status.phase in (Phase.STOPPED, Phase.EXITED, Phase.DEAD)
                       and settled.set())
    await debugger.start()
    try:
        await asyncio.wait_for(settled.wait(), 120)
        state = debugger.state
        assert state is not None and state.in_kernel and state.lanes

        tile = next(a for v in state.variables if (a := from_variable_type(v.name, v.type)))
        assert tile.dims == (18, 18) and tile.element == "float"
        window = SharedWindow(tile.name, 0, min(SharedMemoryPane().page_size, tile.units), tile.grid)
        debugger.show_shared((window,))  # the Shared pane comes on the screen showing tile
        page = await until(lambda: page_of(debugger.state.shared, window), 60, "the stop shown again with tile")
        assert not page.error and len(page.value.values) == 18 * 18
        assert page.value.address is not None  # &tile[0][0]

        # the SASS pane comes on the screen, and the Focus pane opens a kernel
        debugger.show_parts(registers=True, threads=True, sass=SASS_AFTER, blocks=True)
        shown = await until(lambda: debugger.state if debugger.state.sass and debugger.state.blocks else None, 60,
                            "the stop shown again with its SASS and block ranges")
        sass = shown.sass
        assert not sass.error and sass.value and sass.value[0].address == state.frame.addr
        # cuda-gdb 13.0 marks no current row in the coalesced blocks table (H200, batch 2); the
        # focused block must still lie in one of its ranges. The threads table does mark one.
        assert not shown.blocks.error
        blocks = shown.blocks.value
        grid = next(k.grid_dim for k in state.kernels if k.number == state.focus.kernel)
        print(f"blocks table: {blocks}", flush=True)
        assert sum(b.current for b in blocks) <= 1
        assert [b for b in blocks if b.kernel == state.focus.kernel
                and _linear(b.first, grid) <= _linear(state.focus.block, grid) <= _linear(b.last, grid)]
        assert any(t.current for t in shown.threads) and not shown.threads_error

        # last: the lane walk moves the focus (the replay answers later reads from before it)
        debugger.show_parts(registers=True, threads=True, sass=SASS_AFTER, lanes=True)  # the Warps pane too
        debugger.watch_lanes("threadIdx.x * 2")
        walked = await until(lambda: debugger.state.lane_watch, 60, "the stop shown again with its warp watch")
        assert not walked.error, walked
        watch = dict(walked.value)
        active = [lane for lane in state.lanes if lane.state == "active"]
        assert watch == {lane.number: str(2 * lane.thread[0]) for lane in active if lane.thread}
        assert debugger.session is not None
        after = parse_lanes(await info(debugger.session, "lanes"))
        assert [lane.number for lane in after if lane.current] == [state.focus.lane]
    finally:
        await debugger.close()


@pytest.mark.skipif(not RECORDED.exists(), reason="record tests/fixtures/recorded/panes_tile.jsonl on a GPU box first")
async def test_tile_is_shown_as_an_18_by_18_grid():
    from cudatui.kernels.lessons import get_lesson

    pane = SharedMemoryPane()

    async def script(app: PaneApp, replay: Replay) -> None:
        app.show(await replay.state(await replay.resume()))

    spec = BreakpointSpec(*get_lesson("tile").breakpoint_specs()[0])
    app = PaneApp(pane, str(RECORDED), script, breakpoints=(str(spec),))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: bool(pane.values()))
        array = pane.current()
        assert array is not None and array.grid and array.dims == (18, 18)
        assert len(pane.values()) == 324
        # the values and the array's address are two requests: the title shows the address once both came
        title = pane.query_one("#shared-title")
        await wait_for(pilot, lambda: "@0x" in str(title.render()))
        assert str(title.render()).startswith("float tile[18][18] @0x")


@pytest.mark.skipif(not RECORDED.exists(), reason="record tests/fixtures/recorded/panes_tile.jsonl on a GPU box first")
async def test_warp_watch_shows_one_value_per_lane():
    from cudatui.kernels.lessons import get_lesson

    pane = WarpsPane()

    async def script(app: PaneApp, replay: Replay) -> None:
        app.show(await replay.state(await replay.resume()))

    spec = BreakpointSpec(*get_lesson("tile").breakpoint_specs()[0])
    app = PaneApp(pane, str(RECORDED), script, breakpoints=(str(spec),))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.ready and pane.state is not None and bool(pane.state.lanes))
        await pilot.press("w", *"threadIdx.x * 2", "enter")
        await wait_for(pilot, lambda: bool(pane.watch_values) or bool(pane.watch_error))
        expected = {lane.number: str(2 * lane.thread[0]) for lane in pane.state.lanes
                    if lane.state == "active" and lane.thread}
        assert pane.watch_error == "" and pane.watch_values == expected
