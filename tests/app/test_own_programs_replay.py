"""Programs nobody wrote for cudatui, recorded through the UI on the H200 (scripts/record_own.py,
GPU batch 9) and replayed: PyTorch's own kernel assert and a Triton fault show the script's
Python line behind the stop, the sync-point note, the short kernel name; ``L`` re-runs with
CUDA_LAUNCH_BLOCKING=1 and the line becomes the launch, without the note."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from cudatui.gdbbridge import LaunchConfig, StateChanged, StopState
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.stack import StackPane
from cudatui.tui.panes.warps import WarpsPane
from tests.support.app import phase, rows, tree_rows
from tests.support.paths import RECORDED, ROOT
from tests.support.wait import wait_for

OWN = RECORDED / "own"
PROGRAMS = ROOT / "scripts" / "own_programs"


def host_rows(app: DebuggerApp) -> list[list[str]]:
    table = app.query_one(StackPane).query_one("#host-table", DataTable)
    return [[str(cell) for cell in table.get_row(key)] for key in table.rows] if table.display else []


def note(app: DebuggerApp) -> str:
    """The whole sync-point note (the pane shows one line of it, the rest is its tooltip)."""
    widget = app.query_one(StackPane).query_one("#host-note", Static)
    return str(widget.tooltip) if widget.display else ""


def replay(name: str) -> DebuggerApp:
    return DebuggerApp(LaunchConfig.replay(OWN / f"ui_{name}.jsonl", source_dirs=(str(PROGRAMS),)))


async def test_pytorch_index_assert_sync_line_then_launch_line() -> None:
    app = replay("torch_index")
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and host_rows(app), why="the first stop's host stack")
        assert app.debugger.status.detail == "CUDA_EXCEPTION_12 Warp Assert"
        assert app.debugger.status.kernel == "at::native::index_elementwise_kernel<128, 4, …>"
        assert rows(app, StackPane)["0"][2] == "at::native::index_elementwise_kernel<128, 4, …>"
        user = next(row for row in host_rows(app) if row[0] == "•")
        assert user[2:] == ["<module>", 'torch_index.py:7  print("sum", y.sum().item())']
        assert note(app).startswith("The host is waiting for the GPU at line 7 of torch_index.py (.item())")
        assert "CUDA_LAUNCH_BLOCKING=1" in note(app)
        shown = str(app.query_one(StackPane).query_one("#host-note", Static).render())
        assert shown == "⚠ line 7 is where the host waits, not the launch · L: launch blocking"
        await wait_for(pilot, lambda: any(n.message == note(app) for n in app.notices.entries),
                       why="the sync-point note as a notification")
        first = app.debugger.state.generation
        await pilot.press("L")
        await wait_for(pilot, lambda: app.debugger.state.generation > first and phase(app) == "stopped"
                       and any(row[0] == "•" and ":6 " in row[3] for row in host_rows(app)), why="the launch line")
        user = next(row for row in host_rows(app) if row[0] == "•")
        assert user[2:] == ["<module>", "torch_index.py:6  y = x[idx]"]
        assert note(app) == ""
        await wait_for(pilot, lambda: "python: torch_index.py:6  y = x[idx]" in kernel_note(app), why="the launch line")
        assert python_shown(app) == ("torch_index.py", 6)
        await app.action_quit()


async def test_triton_fault_stops_at_its_python_source_line() -> None:
    app = replay("triton_fault")
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and host_rows(app), why="the stop's host stack")
        assert app.debugger.status.detail == "CUDA_EXCEPTION_14 Warp Illegal Address"
        frame = app.debugger.state.frames[0]
        assert (frame.func, frame.file.rsplit("/", 1)[-1], frame.line) == ("scale", "triton_fault.py", 12)
        user = next(row for row in host_rows(app) if row[0] == "•")
        assert user[3] == "triton_fault.py:18  torch.cuda.synchronize()"
        assert "(synchronize())" in note(app)
        source = app.query_one(SourcePane)  # Triton's line info names the kernel's Python file
        assert source.shown is not None and source.shown.local == PROGRAMS / "triton_fault.py"
        assert source.view.current == 12 and "tl.store(" in source.view.lines[11].plain
        await app.action_quit()


def kernel_note(app: DebuggerApp) -> str:
    """The no-source lines of a kernel stop shown above the user's Python code (the note says the
    first, its tooltip all)."""
    widget = app.query_one(SourcePane).query_one("#source-note", Static)
    return str(widget.tooltip) if widget.display and widget.tooltip else ""


def python_shown(app: DebuggerApp) -> tuple[str, int | None]:
    source = app.query_one(SourcePane)
    local = source.shown.local if source.shown is not None else None
    return (local.name if local is not None else "", source.view.current if source.view.display else None)


def missing(app: DebuggerApp) -> str:
    widget = app.query_one(SourcePane).query_one("#source-missing", Static)
    return str(widget.render()) if widget.display else ""


async def test_pytorch_kernel_without_source_says_why_with_the_assert_sass_and_python_line() -> None:
    """PyTorch's index kernel has no line information: the source pane says so in its first line
    (whose kernel, which library), then the assert message the program printed for the focused
    thread, the errorpc SASS marks, the script's line from the host stack and the build advice;
    the banner says where and the assert (its three lines; E has the no-source line too)."""
    app = replay("torch_index")
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and "python:" in kernel_note(app), why="the no-source lines")
        lines = kernel_note(app).split("\n")
        assert lines[0] == ("no source for at::native::index_elementwise_kernel<128, 4, …>: PyTorch's kernel "
                            "(libtorch_cuda.so) has no line information")
        assert lines[1] == ('the program printed: Assertion `-sizes[i] <= index && index < sizes[i] && "index out of '
                            'bounds"` failed at IndexKernel.cu:111 (block (0,0,0) thread (2,0,0))')
        # an assert has no errorpc (cuda-gdb lists none at this stop): SASS marks the stop's pc
        assert lines[2] == "SASS pane: the instruction it stopped at, pc 0x7ffd037a44f0 (no errorpc at this stop)"
        assert lines[3] == 'python: torch_index.py:7  print("sum", y.sum().item()) (the Stack pane has the whole stack)'
        assert 'extra_cuda_cflags=["-G", "-g"]' in lines[4] and "nvcc -G -lineinfo" in lines[4]
        assert "CUPY_CUDA_COMPILE_WITH_DEBUG=1" in lines[4]
        banner = str(app.query_one(ExceptionBanner).render())
        assert "at::native::index_elementwise_kernel<128, 4, …>" in banner and "IndexKernel.cu:111" in banner
        await app.action_quit()


async def test_pytorch_index_assert_at_80x24_keeps_the_banners_verdict_and_says_why_no_locals() -> None:
    """At 80x24 the three-line banner leaves the no-source lines to the source pane (there they all
    are) and keeps whether the program can go on, the assert and the pointer to E; Locals says why
    it is empty."""
    app = replay("torch_index")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and "python:" in kernel_note(app), why="the no-source lines")
        banner = str(app.query_one(ExceptionBanner).render()).split("\n")
        assert banner[0] == " CUDA_EXCEPTION_12  Warp Assert · recoverable: c resumes after the assert"
        assert len(banner) == 3 and banner[2].startswith("Assertion `") and banner[2].endswith("E for more")
        assert app.query_one(ExceptionBanner).size.height == 3  # each line cut to the width, never wrapped
        assert kernel_note(app).startswith("no source for at::native::index_elementwise_kernel<128, 4, …>: PyTorch's")
        note_line = "no locals: at::native::index_elementwise_kernel<128, 4, …> has no debug information"
        assert tree_rows(app, "frame") == {"none": ["none", note_line, "", ""]} and tree_rows(app) == {}
        await app.action_quit()


def recorded(name: str) -> Path:
    """A recording of `bash scripts/gpu_box.sh own-programs`; the test is skipped until the GPU box made it."""
    path = OWN / f"ui_{name}.jsonl"
    if not path.is_file():
        pytest.skip(f"{path.name} not recorded yet: run `bash scripts/gpu_box.sh own-programs` on the GPU box")
    return path


@pytest.mark.parametrize("program", ["ext_oob", "cupy_oob"])
async def test_the_culprit_lane_of_a_warp_wide_fault_is_found_and_focused(program: str, tmp_path, monkeypatch) -> None:
    """cuda-gdb focuses lane 0 of the faulted warp; C evaluates the faulting line in every lane
    and moves the focus to lane 24, whose idx[i] is 2^34 (the H200 case); the values become the
    warp watch. The Debugger shows ONE state for it: at lane 24, with its culprit and the warp
    watch walked there (as the recording's Warps pane walked it). CuPy's source is found in its
    kernel cache (a copy kept beside the recording)."""
    path = recorded(program)
    kept = OWN / f"{program}.source"  # the file the source pane showed on the GPU box
    monkeypatch.setenv("CUPY_CACHE_DIR", str(kept))  # CuPy's cache: <sha1>.cubin.cu
    extensions = tmp_path / "torch_extensions"  # TORCH_EXTENSIONS_DIR/<name>/cuda.cu
    if (kept / "cuda.cu").is_file():
        (extensions / "ext_oob").mkdir(parents=True)
        (extensions / "ext_oob" / "cuda.cu").write_bytes((kept / "cuda.cu").read_bytes())
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(extensions))
    app = DebuggerApp(LaunchConfig.replay(path, source_dirs=(str(PROGRAMS),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and host_rows(app), why="the fault's host stack")
        source = app.query_one(SourcePane)
        assert source.shown is not None and source.shown.local is not None, missing(app)
        warps = app.query_one(WarpsPane)
        shown: list[StopState] = []
        app.debugger.subscribe(lambda e: shown.append(e.state) if isinstance(e, StateChanged) else None)
        warps.action_culprit()
        line = warps.query_one("#culprit-line", Static)
        await wait_for(pilot, lambda: str(line.render()).startswith("culprit: lane"), why="the culprit lane")
        found = str(line.render())  # j itself where -G keeps it (CuPy?), else what it was assigned: idx[i]
        assert found.startswith(("culprit: lane 24: j = 17179869184", "culprit: lane 24: idx[i] = 17179869184"))
        assert "is outside 0..63" in found
        await wait_for(pilot, lambda: app.debugger.state.focus.lane == 24, why="the focus on lane 24")
        assert warps.watch_expression in ("j", "idx[i]")
        assert len(shown) == 1, shown  # one state: the culprit, the lane and its warp watch
        state = shown[0]
        assert state.focus is not None and state.focus.lane == 24 and state.culprit is not None
        assert state.culprit.lane == 24 and state.culprit.expression == warps.watch_expression
        assert state.lane_watch is not None and state.lane_watch.asked == warps.watch_expression, state.lane_watch
        assert dict(state.lane_watch.value)[24] == "17179869184" and warps.watch_values[24] == "17179869184"
        await app.action_quit()


async def test_a_quiet_out_of_bounds_write_exits_0_and_offers_memcheck() -> None:
    app = DebuggerApp(LaunchConfig.replay(recorded("triton_quiet_oob"), source_dirs=(str(PROGRAMS),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited" and missing(app), why="the exit line")
        assert missing(app).startswith("the program exited with code 0; no kernel faulted under the debugger")
        assert "m runs memcheck" in missing(app)
        await app.action_quit()


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)])
async def test_pytorch_sass_title_is_the_demangled_kernel_and_lists_the_pc(size) -> None:
    """SASS of PyTorch's kernel (``func-name`` is its 270-character linker symbol): the title reads
    the pc and the C++ name, short, and the listing holds the pc the title names (8 shows the pane)."""
    from tests.support.screen import screen_text

    app = replay("torch_index")
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.debugger.state.in_kernel, why="the kernel stop")
        await pilot.press("8")
        pane = app.query_one("#disassembly")
        await wait_for(pilot, lambda: pane.status == "" and pane.query_one(DataTable).row_count, why="the SASS")
        await pilot.pause()
        text = screen_text(app)
        # the pc first: where the pane is narrower than the title (120x36) the name's end is cut, not the pc
        assert "SASS pc 0x7ffd037a44f0 · at::native::index_elementwise_kernel<128," in text
        assert "_ZN2at" not in text and "(not in view)" not in text
        assert any(" ".join(line.replace("│", " ").split()).startswith("=> 0x7ffd037a44f0") for line in text.splitlines())
        await app.action_quit()


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)])
async def test_no_pane_shows_the_kernels_mangled_name(size) -> None:
    """PyTorch's kernel is ``_ZN2at6native...`` to the linker: every pane (its key shows it), the
    banner and the status bar name it as C++ does."""
    from cudatui.tui.apps.pane_keys import PaneKeysApp
    from tests.support.screen import screen_text

    app = replay("torch_index")
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.debugger.state.in_kernel, why="the kernel stop")
        named = 0
        for binding in PaneKeysApp.BINDINGS:
            await pilot.press(binding.key)
            await pilot.pause()
            text = screen_text(app)
            assert "_ZN" not in text and "_Z2" not in text, (binding.key, text)
            named += "index_elementwise_kernel" in text
        assert named == len(PaneKeysApp.BINDINGS)  # the banner names it at every pane
        await app.action_quit()


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)])
async def test_a_kernel_without_source_shows_the_users_python_line_under_its_no_source_line(size) -> None:
    """PyTorch's assert: the source pane shows the script at the line the host waits at, titled as
    the user's code behind the kernel, the kernel's no-source line above it; L makes it the launch line."""
    from tests.support.screen import screen_rows

    app = replay("torch_index")
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and python_shown(app) == ("torch_index.py", 7),
                       why="the sync line shown")
        await pilot.pause()
        source = app.query_one(SourcePane).region
        rows = [row[source.x:source.right] for row in screen_rows(app)[source.y:source.bottom]]
        title = next(i for i, row in enumerate(rows) if "torch_index.py:7 · your Python code behind the kernel" in row)
        note = next(i for i, row in enumerate(rows) if "no source for at::native::index_elementwise_kernel" in row)
        line = next(i for i, row in enumerate(rows) if 'print("sum", y.sum().item())' in row)
        assert title < note < line, rows
        assert "▶" in rows[line] and "8: SASS" in " ".join(r.strip() for r in rows[note:line])
        first = app.debugger.state.generation
        await pilot.press("L")
        await wait_for(pilot, lambda: app.debugger.state.generation > first and python_shown(app) == ("torch_index.py", 6),
                       why="the launch line shown")
        await pilot.pause()
        assert any("y = x[idx]" in row and "▶" in row for row in screen_rows(app))
        await app.action_quit()
