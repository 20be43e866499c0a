"""Attach and one torchrun rank, recorded through the UI with real cuda-gdb 13.0 on the GPU box
(tests/gpu/test_jobs_gpu.py, `bash scripts/gpu_box.sh jobs`) and replayed: the attached spinning kernel's
warps, ctrl+c and the detach; rank 1 of a two-rank gloo job stopped in its cpp_extension kernel.
Each test waits for its recording in tests/fixtures/recorded/own/ (skipped until it is there)."""

from __future__ import annotations

import pytest

from cudatui.gdbbridge import LaunchConfig
from cudatui.gdbbridge.jobs.attach import attached_pid
from cudatui.gdbbridge.record.transcript import load
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.output import OutputPane
from tests.support.app import no_internal_errors, phase, status
from tests.support.jobs import JOBS
from tests.support.paths import RECORDED
from tests.support.wait import wait_for

ATTACH = RECORDED / "own" / "ui_attach.jsonl"
RANK1 = RECORDED / "own" / "ui_rank1.jsonl"


@pytest.mark.skipif(not ATTACH.is_file(), reason="ui_attach.jsonl is recorded on a GPU box (bash scripts/gpu_box.sh jobs)")
async def test_attached_to_a_spinning_kernel_warps_interrupt_and_detach() -> None:
    pid = attached_pid(load(ATTACH).meta.get("argv"))
    assert pid is not None
    app = DebuggerApp(LaunchConfig.replay(ATTACH, attach=pid, source_dirs=(str(JOBS),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: status(app) == ("stopped", "attached"))
        state = app.debugger.state
        assert state is not None and state.in_kernel and state.warps and app.debugger.status.kernel.startswith("spin")
        assert app.debugger.status.context == f"q detaches (it runs on) · pid {pid}"
        await wait_for(pilot, lambda: len(app.query_one("#warps-table").rows) > 0)  # type: ignore[attr-defined]
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "running")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.debugger.state is not state)
        assert app.debugger.state is not None and app.debugger.state.in_kernel and app.debugger.state.warps
        await pilot.press("q")
    assert no_internal_errors(app)


@pytest.mark.skipif(not RANK1.is_file(), reason="ui_rank1.jsonl is recorded on a GPU box (bash scripts/gpu_box.sh jobs)")
async def test_rank_1_stops_in_its_extension_kernel_then_ends() -> None:
    app = DebuggerApp(LaunchConfig.replay(RANK1, breakpoints=("bump",), source_dirs=(str(JOBS),)))
    async with app.run_test(size=(160, 48)) as pilot:
        kernel_stops = 0
        for _ in range(6):  # as recorded: c at each stop until the rank ends
            await wait_for(pilot, lambda: phase(app) in ("stopped", "exited", "dead"))
            if phase(app) != "stopped":
                break
            state = app.debugger.state
            assert state is not None and state.frame is not None and state.frame.func.startswith("bump")
            if state.in_kernel:
                kernel_stops += 1
                assert state.warps and app.debugger.status.kernel.startswith("bump")
            await pilot.press("c")
            await wait_for(pilot, lambda: app.debugger.state is not state or phase(app) == "dead")
        assert kernel_stops >= 1 and status(app) == ("exited", "0")
        await wait_for(pilot, lambda: "rank 1: sum 768.0" in app.query_one(OutputPane).text)
        await pilot.press("q")
    assert no_internal_errors(app)
