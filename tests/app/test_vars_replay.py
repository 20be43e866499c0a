"""The H200 check of the Locals tree and the shared grid (tests/support/stencil.py) replayed from
the recording tests/gpu/test_vars_gpu.py makes with CUDATUI_RECORD_VARS (no GPU needed)."""

from __future__ import annotations

import pytest

from cudatui.tui.apps.debugger_app import DebuggerApp
from tests.support.paths import RECORDED, ROOT
from tests.support.replay import replay_config
from tests.support.stencil import BREAK, STENCIL, check_stencil

RECORDING = RECORDED / "vars_stencil.jsonl"


@pytest.mark.skipif(not RECORDING.exists(), reason="record it on a GPU box: CUDATUI_RECORD_VARS=... tests/gpu/test_vars_gpu.py")
async def test_locals_tree_and_shared_grid_replayed() -> None:
    app = DebuggerApp(replay_config(RECORDING, BREAK, source_dirs=(str(STENCIL.parent), str(ROOT))))
    async with app.run_test(size=(160, 48)) as pilot:
        await check_stencil(pilot, app)
        await pilot.press("q")
