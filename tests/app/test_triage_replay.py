"""The post-mortem of ``cudatui triage`` recorded on the H200 (scripts/record_triage.py through the
real UI; tests/fixtures/recorded/own/triage_*.jsonl) replayed as a user opens it: the faulting
thread of PyTorch's index kernel, the Python line where the host waited (the sync point, with
its note) in the Stack pane, and the device assert the program printed before the driver's dump
in the Output pane. A program of 20,000 launches (launch_heavy) likewise."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.stack import StackPane
from cudatui.tui.apps.replay_app import ReplayApp
from cudatui.tui.plans.replay_plan import plan_replay
from tests.support.paths import RECORDED
from tests.support.wait import wait_for


@pytest.mark.parametrize("name, line, code", [
    ("torch_index", 7, 'print("sum", y.sum().item())'),
    ("launch_heavy", 17, 'print("sum", z.sum().item())'),
])
async def test_the_post_mortem_shows_the_thread_the_python_line_and_the_assert(name: str, line: int, code: str) -> None:
    plan = plan_replay(str(RECORDED / "own" / f"triage_{name}.jsonl"), (), (), 0.0)
    assert plan.config.core is not None
    app = ReplayApp(plan.config, "replay", plan.why, plan.recording)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.host is not None, why="the stop")
        state = app.debugger.state
        assert state.focus is not None and state.focus.software == "block (0,0,0) thread (2,0,0)"
        frame = state.host.user_frame
        assert frame is not None and frame.file.endswith(f"{name}.py") and frame.line == line
        assert state.host_note is not None and f"line {line}" in state.host_note
        table = app.query_one(StackPane).query_one("#host-table", DataTable)
        rows = [" ".join(str(cell) for cell in table.get_row(key)) for key in table.rows]
        assert any(f"{name}.py:{line}" in row and code in row for row in rows), rows
        output = app.query_one(OutputPane)
        await wait_for(pilot, lambda: "index out of bounds" in output.text, why="the device assert in the Output pane")
        await app.action_quit()


@pytest.mark.parametrize("name, line, code", [
    ("cupy_oob", 20, "cp.cuda.Device().synchronize()"),
    ("ext_oob", 26, "print(ext.run(x, idx).sum().item())"),
])
async def test_the_post_mortem_of_a_fault_names_the_exception(name: str, line: int, code: str) -> None:
    """A CuPy RawModule's and a cpp_extension's out-of-bounds read (H200 batch 27): the driver's dump
    holds no signal, cuda-gdb only says "CUDA Exception: Warp Illegal Address"; the banner and the
    status bar name it, and the Stack pane has the Python line the faulthandler printed."""
    plan = plan_replay(str(RECORDED / "own" / f"triage_{name}.jsonl"), (), (), 0.0)
    app = ReplayApp(plan.config, "replay", plan.why, plan.recording)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.host is not None, why="the stop")
        banner = app.query_one(ExceptionBanner)
        await wait_for(pilot, lambda: banner.display and "Warp Illegal Address" in banner.render().plain,
                       why="the exception banner")
        assert app.debugger.status.detail.startswith("CUDA_EXCEPTION_14 Warp Illegal Address")
        table = app.query_one(StackPane).query_one("#host-table", DataTable)
        rows = [" ".join(str(cell) for cell in table.get_row(key)) for key in table.rows]
        assert any(f"{name}.py:{line}" in row and code in row for row in rows), rows
        await app.action_quit()
