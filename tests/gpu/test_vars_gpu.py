"""The H200 check of issue 16 (Locals tree, shared grid) against real cuda-gdb, through the app:
tests/fixtures/cuda_vars/stencil.cu built with nvcc -g -G, stopped at LOAD in thread (0,0,0) of
a block: all 15 locals on screen at 160x48, the struct ``p`` opened, the 18x18 tile a grid of
zeros that holds the warp's pixels after ``n`` (see tests/support/stencil.py).

With ``CUDATUI_RECORD_VARS=FILE`` the session's MI is recorded there; copied to
tests/fixtures/recorded/vars_stencil.jsonl it turns on tests/app/test_vars_replay.py."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.kernels.build import detect_arch
from cudatui.tui.apps.debugger_app import DebuggerApp
from tests.support.stencil import BREAK, STENCIL, check_stencil


@pytest.mark.gpu
async def test_locals_tree_and_shared_grid_on_real_cuda_gdb(tmp_path) -> None:
    if shutil.which("cuda-gdb") is None or shutil.which("nvcc") is None:
        pytest.skip("needs cuda-gdb and nvcc on PATH")
    binary = tmp_path / "stencil"
    subprocess.run(["nvcc", "-g", "-G", f"-arch={detect_arch()}", "-o", str(binary), str(STENCIL)], check=True)
    record = os.environ.get("CUDATUI_RECORD_VARS") or None
    app = DebuggerApp(LaunchConfig(debugger=("cuda-gdb",), target=(str(binary),), breakpoints=(BREAK,),
                                   cwd=str(tmp_path), source_dirs=(str(STENCIL.parent),), record=record))
    async with app.run_test(size=(160, 48)) as pilot:
        await check_stencil(pilot, app, first_stop=180.0)
        await pilot.press("q")
