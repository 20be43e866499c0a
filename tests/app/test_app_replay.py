"""Pilot tests of the debugger app against replayed real cuda-gdb sessions (no GPU needed).

``recorded/tours/*.jsonl`` are cuda-gdb 13.0 sessions of the bundled lessons recorded on an H200
with this refresh batch; ``transcripts/*.jsonl`` are the older reference recordings.
"""

from __future__ import annotations

from textual.widgets import Input

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.breakpoints import BreakpointsPane
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.locals import LocalsPane
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.stack import StackPane
from tests.support.app import goto_focus, rows, status, stopped_at, tree_changed, tree_rows
from tests.support.paths import ROOT, TOURS, TRANSCRIPTS
from tests.support.replay import TILE_BREAKS, replay_config, sequential
from tests.support.wait import wait_for


async def test_kernel_stop_source_stack_breakpoints_locals_and_steps(tmp_path) -> None:
    tour = sequential(TOURS / "tile.jsonl", tmp_path)
    app = DebuggerApp(replay_config(tour, *TILE_BREAKS, source_dirs=(str(ROOT / "kernels"),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, 37)
        source = app.query_one(SourcePane)
        assert source.shown is not None and source.shown.local == ROOT / "kernels" / "tile.cu"
        assert "sum += tile[cy + dy][cx + dx];" in source.view.lines[36].plain
        assert source.view.marks == {37: True, 51: True}
        assert status(app) == ("stopped", "breakpoint 2")
        assert app.debugger.status.kernel == "blur_racy"
        assert app.debugger.status.focus == "block (0,0,0) thread (0,6,0)"
        assert [r[2] for r in rows(app, StackPane).values()] == ["box3x3", "blur_racy"]
        assert rows(app, StackPane)["1"][3] == "tile.cu:51"
        breaks = rows(app, BreakpointsPane)
        assert breaks["2"][2:4] == ["1", "tile.cu:37"] and breaks["1"][2:5] == ["0", "tile.cu:51", "threadIdx.x == 0 && threadIdx.y == 0"]
        local = tree_rows(app)
        assert local["cy"][1:] == ["7", "@register int", "@register"]
        assert local["tile"][2:] == ["@generic float (* @register)[18]", "@register"]

        await goto_focus(pilot, app, "block (1,0,0) thread (7,0,0)")
        await stopped_at(pilot, app, 28)
        assert app.debugger.status.focus == "block (1,0,0) thread (7,0,0)"
        assert tree_rows(app)["tx"][1] == "11"
        await goto_focus(pilot, app, "warp 2 lane 3")
        await wait_for(pilot, lambda: tree_rows(app)["tx"][1] == "7")
        assert tree_changed(app, "tx")
        assert not tree_changed(app, "height")

        await pilot.press("n")
        await stopped_at(pilot, app, 22)
        assert status(app) == ("stopped", "step")
        await pilot.press("f10")
        await stopped_at(pilot, app, 30)
        await pilot.press("s")
        await stopped_at(pilot, app, 48)
        local = tree_rows(app)
        assert local["tile"][2:] == ["@shared float [18][18]", "@shared"]
        assert local["y"][1] == "optimized out" and local["in"][3] == "@parameter"
        assert list(rows(app, StackPane)) == ["0"]

        await pilot.press("c")
        await wait_for(pilot, lambda: status(app)[0] == "exited")
        assert status(app) == ("exited", "1")
        output = app.query_one(OutputPane).text
        assert "[tile] GPU: NVIDIA H200" in output and "WRONG (77 of 2000 pixels differ)" in output
        await pilot.press("q")
    assert app.debugger.debugger_pid is not None and not app.debugger.alive


async def test_inspect_locals_watch_console_and_mi_log() -> None:
    app = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, 9)
        # the reference recording has no -stack-list-frames / -break-list: said, not hidden
        assert any("not in this recording" in n.message for n in app.notices.entries)
        assert rows(app, BreakpointsPane)["1"][2] == "1"
        # the recording took the watch and the console command at this first stop
        locals_pane = app.query_one(LocalsPane)
        locals_pane.query_one("#watch-input", Input).focus()
        await pilot.pause()
        app.focused.value = "sdata[0]@8"  # type: ignore[union-attr]
        await pilot.press("enter")
        await wait_for(pilot, lambda: "sdata[0]@8" in tree_rows(app, "watch"))
        assert tree_rows(app, "watch")["sdata[0]@8"][2:] == ["@shared float [8]", "@shared"]

        app.query_one(SourcePane).view.focus()
        await pilot.press("colon")
        console = app.query_one(ConsolePane)
        await wait_for(pilot, lambda: app.focused is console.query_one(Input))
        app.focused.value = "x/16xw (@shared float*)0"  # type: ignore[union-attr]
        await pilot.press("enter")
        log = console.query_one("#console-log")
        await wait_for(pilot, lambda: any("0x30 <add_kernel+48>:" in line.text for line in log.lines))
        assert any(line.text == "(gdb) x/16xw (@shared float*)0" for line in log.lines)
        await pilot.press("ctrl+t")
        mi = console.query_one("#mi-log")
        assert any(line.text.startswith("*stopped") for line in mi.lines)
        await pilot.press("ctrl+t")

        app.query_one(SourcePane).view.focus()
        await goto_focus(pilot, app, "block (3,0,0) thread (200,0,0)")
        await wait_for(pilot, lambda: "tid" in tree_rows(app))
        assert tree_rows(app)["tid"][1:] == ["optimized out", "@register int", "@register"]
        for _ in range(3):
            await pilot.press("n")
        await stopped_at(pilot, app, 12)
        local = tree_rows(app)
        assert local["tid"][1] == "200" and local["idx"][1] == "968"
        # a watch value of another stop is never shown as this stop's
        await wait_for(pilot, lambda: tree_rows(app, "watch")["sdata[0]@8"][1] != "[8]")
        assert "not in this recording" in tree_rows(app, "watch")["sdata[0]@8"][1]


async def test_cuda_exception_stop_is_announced() -> None:
    app = DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl", source_dirs=(str(TRANSCRIPTS),)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: status(app)[0] == "stopped")
        await wait_for(pilot, lambda: any("CUDA_EXCEPTION_14" in n.message for n in app.notices.entries),
                       why="the exception's notification")
        await pilot.pause()
        assert status(app) == ("stopped", "CUDA_EXCEPTION_14 Warp Illegal Address")
        assert any("CUDA_EXCEPTION_14" in n.message and n.severity == "error" for n in app.notices.entries)
        assert app.query_one(ExceptionBanner).display
        assert app.query_one(SourcePane).view.current == 5


async def test_cuda_exception_offers_the_explanation_and_shift_e_shows_it() -> None:
    from cudatui.tui.screens.explain_screen import ExplainScreen

    app = DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl", source_dirs=(str(TRANSCRIPTS),)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: status(app)[0] == "stopped")
        await wait_for(pilot, lambda: any("press E" in n.message for n in app.notices.entries))
        offer = next(n.message for n in app.notices.entries if "press E" in n.message)
        assert offer.startswith("Warp Illegal Address (CUDA_EXCEPTION_14)")
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, ExplainScreen))


async def test_focus_moved_by_cuda_gdb_is_announced(tmp_path) -> None:
    breaks = ("race.cu:25 if threadIdx.x == 5", "race.cu:30")
    app = DebuggerApp(replay_config(sequential(TOURS / "race.jsonl", tmp_path), *breaks, source_dirs=(str(ROOT / "kernels"),)))
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, 25)
        await goto_focus(pilot, app, "block (1,0,0) thread (7,0,0)")
        await wait_for(pilot, lambda: app.debugger.status.focus == "block (1,0,0) thread (7,0,0)")
        await goto_focus(pilot, app, "warp 2 lane 3")
        await wait_for(pilot, lambda: app.debugger.status.focus == "block (1,0,0) thread (3,0,0)")
        assert not any("moved the focus" in n.message for n in app.notices.entries)
        for key in "nns":
            await pilot.press(key)
            await wait_for(pilot, lambda: status(app)[0] == "stopped")
        await wait_for(pilot, lambda: app.debugger.status.focus == "block (0,0,0) thread (5,0,0)")
        assert any(n.message == "cuda-gdb moved the focus to block (0,0,0) thread (5,0,0)" for n in app.notices.entries)
