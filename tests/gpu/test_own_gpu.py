"""Programs nobody wrote for cudatui, live on the GPU box: the culprit lane of a warp-wide
illegal address in a cpp_extension kernel and in a CuPy RawKernel (lane 24 reads idx[24] = 2^34),
and CuPy's source found in its kernel cache (CUPY_CACHE_SAVE_CUDA_SOURCE=1, which cudatui sets).

Run: ``python -m pytest -m gpu tests/gpu/test_own_gpu.py -v`` (the extension compiles first: ~60 s
on a fresh box, cached after).
"""

from __future__ import annotations

import asyncio
import shutil

import pytest

from cudatui.gdbbridge import Debugger, LaunchConfig, Phase, PhaseChanged, find_source
from tests.support.paths import ROOT

pytestmark = pytest.mark.gpu

PROGRAMS = ROOT / "scripts" / "own_programs"
WAIT = 300.0


@pytest.mark.parametrize("program", ["ext_oob", "cupy_oob"])
async def test_the_culprit_lane_of_a_warp_wide_illegal_address(program: str) -> None:
    if shutil.which("cuda-gdb") is None:
        pytest.skip("cuda-gdb not found")
    pytest.importorskip("torch" if program == "ext_oob" else "cupy")
    debugger = Debugger(LaunchConfig(debugger=("cuda-gdb",), target=(str(PROGRAMS / f"{program}.py"),),
                                     cwd=str(PROGRAMS), source_dirs=(str(PROGRAMS),)))
    settled = asyncio.Event()
    debugger.subscribe(lambda e: isinstance(e, PhaseChanged) and e.status.phase in (Phase.STOPPED, Phase.EXITED,
                                                                                     Phase.DEAD) and settled.set())
    await debugger.start()
    try:
        await asyncio.wait_for(settled.wait(), WAIT)
        state = debugger.state
        assert state is not None and state.stop.exception is not None, debugger.status
        frame = next(f for f in state.frames if f.file)
        print(f"{program}: {state.stop.exception.name} at {frame.fullname}:{frame.line}, focus {state.focus}, "
              f"faulted lanes {[lane.number for lane in state.lanes if lane.exception]}", flush=True)
        assert find_source(frame.fullname or frame.file, (str(PROGRAMS),)) is not None  # the cache / build dir
        await debugger.find_culprit()  # the Warps pane's C: one state at the culprit lane, its warp watch walked there
        there = debugger.state
        assert there is not None and there is not state and there.stop is state.stop
        culprit = there.culprit
        print(f"{program}: culprit {culprit}; warp watch {there.lane_watch}", flush=True)
        assert culprit is not None and culprit.lane == 24 and culprit.expression is not None
        assert there.focus is not None and there.focus.lane == 24
        assert there.lane_watch is not None and there.lane_watch.asked == culprit.expression
        assert dict(there.lane_watch.value)[24] == culprit.values_of(culprit.expression)[24]
    finally:
        await debugger.close()
