"""The post-mortem of ``cudatui triage`` recorded on the H200 (scripts/record_triage.py through the
real UI; tests/fixtures/recorded/own/triage_*.jsonl) replayed as a user opens it: the faulting
thread of PyTorch's index kernel, the Python line where the host waited (the sync point, with
its note) in the Stack pane, and the device assert the program printed before the driver's dump
in the Output pane. A program of 20,000 launches (launch_heavy) likewise. The culprit lane the
post-mortem finds by itself: the one faulted lane of the assert, none where the kernel has no
debug information, lane 24 of the cpp_extension's warp-wide fault."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.stack import StackPane
from cudatui.tui.panes.warps import WarpsPane
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
async def test_the_post_mortem_of_a_fault_names_the_exception(name: str, line: int, code: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A CuPy RawModule's and a cpp_extension's out-of-bounds read (H200 batches 27 and 34): the
    driver's dump holds no signal, cuda-gdb only says "CUDA Exception: Warp Illegal Address"; the
    banner and the status bar name it, and the Stack pane has the Python line the faulthandler
    printed. (The extension's source is where it was recorded: its culprit walk reads it.)"""
    if name == "ext_oob":
        app = ext_oob_app(tmp_path, monkeypatch)
    else:
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


def culprit_line(app: ReplayApp) -> str:
    """The Warps pane's culprit line as it is drawn (the pane shown)."""
    pane = app.show_pane("warps")
    assert isinstance(pane, WarpsPane)
    line = pane.query_one("#culprit-line", Static)
    return str(line.render()) if line.display else ""


def walked(name: str) -> bool:
    """Whether the recording holds the post-mortem's lane walk (made since the post-mortem searches
    the culprit lane itself; the recordings of H200 batch 27 predate it)."""
    return '-cuda-focus-switch \\"lane ' in (RECORDED / "own" / f"triage_{name}.jsonl").read_text()


@pytest.mark.parametrize("name", ["torch_index", "launch_heavy"])
async def test_the_post_mortem_names_the_one_faulted_lane_as_the_culprit(name: str) -> None:
    """PyTorch's index assert: one lane of the warp reports the exception; the post-mortem names it
    the culprit without a walk (the recording holds no other command) and the focus is on it."""
    plan = plan_replay(str(RECORDED / "own" / f"triage_{name}.jsonl"), (), (), 0.0)
    app = ReplayApp(plan.config, "replay", plan.why, plan.recording)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.host is not None, why="the stop")
        await wait_for(pilot, lambda: culprit_line(app) == "culprit: lane 2: only lane 2 faulted", why="the culprit line")
        assert app.debugger.state.focus is not None and app.debugger.state.focus.lane == 2
        await app.action_quit()


async def test_a_kernel_without_debug_information_has_no_culprit_and_says_why() -> None:
    """The CuPy kernel of the triage run was built without -G (no line, no locals): the culprit line
    says that nothing could be evaluated and why, in one line; the focus stays where cuda-gdb put it."""
    plan = plan_replay(str(RECORDED / "own" / "triage_cupy_oob.jsonl"), (), (), 0.0)
    app = ReplayApp(plan.config, "replay", plan.why, plan.recording)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.host is not None, why="the stop")
        await wait_for(pilot, lambda: culprit_line(app).startswith("culprit: nothing to evaluate"), why="the culprit line")
        assert "built without -G" in culprit_line(app) and "\n" not in culprit_line(app)
        assert app.debugger.state.focus is not None and app.debugger.state.focus.lane == 0
        await app.action_quit()


def ext_oob_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ReplayApp:
    """The cpp_extension's triage replayed, its source (kept beside the live recording of the same
    program) where torch_extensions keeps it."""
    extensions = tmp_path / "torch_extensions"
    (extensions / "ext_oob").mkdir(parents=True)
    (extensions / "ext_oob" / "cuda.cu").write_bytes((RECORDED / "own" / "ext_oob.source" / "cuda.cu").read_bytes())
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(extensions))
    plan = plan_replay(str(RECORDED / "own" / "triage_ext_oob.jsonl"), (), (), 0.0)
    return ReplayApp(plan.config, "replay", plan.why, plan.recording)


async def test_the_post_mortem_of_a_warp_wide_fault_opens_at_the_culprit_lane(tmp_path: Path, monkeypatch) -> None:
    """All 32 lanes of the gather's warp report Warp Illegal Address and cuda-gdb focuses lane 0;
    opening the dump, the Debugger walks the faulting line over the lanes (the search behind C) and
    the stop is shown at lane 24, whose idx[i] is 2^34: the banner and the Warps pane name it, and
    the walked values are the warp watch."""
    if not walked("ext_oob"):
        pytest.skip("triage_ext_oob.jsonl predates the post-mortem's culprit walk: record it again on the GPU box "
                    "(bash scripts/gpu_box.sh triage ext_oob)")
    app = ext_oob_app(tmp_path, monkeypatch)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.host is not None, why="the stop")
        state = app.debugger.state
        assert state.focus is not None and state.focus.lane == 24 and state.focus.thread == (24, 0, 0)
        banner = app.query_one(ExceptionBanner)
        await wait_for(pilot, lambda: banner.display and "culprit: lane 24 (" in banner.render().plain, why="the banner")
        assert "warp 3 lane 24" in banner.render().plain
        await wait_for(pilot, lambda: culprit_line(app).startswith("culprit: lane 24: "), why="the culprit line")
        assert "is outside 0..63" in culprit_line(app)
        warps = app.query_one(WarpsPane)
        assert warps.watch_expression in ("j", "idx[i]") and warps.watch_values.get(24) == "17179869184"
        await app.action_quit()


async def test_a_recording_without_the_lane_walk_says_so_in_one_line(tmp_path: Path, monkeypatch) -> None:
    """A triage recorded before the post-mortem searched the culprit (H200 batch 27) holds no lane
    walk: the replay refuses it, the culprit line says so in one line, and the stop stays at the lane
    cuda-gdb focused, with everything else shown."""
    if walked("ext_oob"):
        pytest.skip("triage_ext_oob.jsonl holds the lane walk (see the test above)")
    app = ext_oob_app(tmp_path, monkeypatch)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.host is not None, why="the stop")
        await wait_for(pilot, lambda: culprit_line(app).startswith("culprit: not found: "), why="the culprit line")
        assert "not in this recording" in culprit_line(app) and "\n" not in culprit_line(app)
        state = app.debugger.state
        assert state.focus is not None and state.focus.lane == 0 and state.frame is not None and state.frame.line == 9
        await app.action_quit()
