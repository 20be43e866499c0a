"""Short C++ names with the whole one on demand, replaying PyTorch's own index assert recorded
through the UI on the H200 (``at::native::index_elementwise_kernel<128, 4, …>``, a name of
hundreds of characters): the banner and the Stack pane show the short name, the banner's tooltip
and the Stack pane's ``i`` the whole one; and against real gdb, the Breaks pane shows a whole
condition set after the breakpoint (its column widens), at 80x24 and 160x48."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.breakpoints import BreakpointsPane
from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.stack import StackPane
from tests.support.app import gdb_config, phase, rows, stopped_at
from tests.support.paths import RECORDED, ROOT
from tests.support.programs import NAV_WALK, compile_nav, marked_line, needs_gdb
from tests.support.wait import wait_for

SHORT = "at::native::index_elementwise_kernel<128, 4, …>"


@pytest.fixture(scope="module")
def nav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_nav(tmp_path_factory.mktemp("nav") / "nav")


async def test_the_banner_and_stack_shorten_the_kernel_name_and_give_the_whole_on_demand() -> None:
    config = LaunchConfig.replay(RECORDED / "own" / "ui_torch_index.jsonl",
                                 source_dirs=(str(ROOT / "scripts" / "own_programs"),))
    app = DebuggerApp(config)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.debugger.state is not None
                       and app.debugger.state.frames, why="the assert stop")
        whole = app.debugger.state.frames[0].func
        assert len(whole) > 300 and whole.startswith("void at::native::index_elementwise_kernel<128, 4,")
        banner = app.query_one(ExceptionBanner)
        await wait_for(pilot, lambda: banner.display)
        text = str(banner.render())
        assert SHORT in text and whole not in text and "gpu_index_kernel" not in text
        assert banner.tooltip == whole
        assert rows(app, StackPane)["0"][2] == SHORT
        stack = app.query_one(StackPane)
        stack.query_one("#stack-table", DataTable).focus()
        await pilot.press("i")
        await wait_for(pilot, lambda: any(n.message.startswith(f"Frame: #0 {whole}(") for n in app.notices.entries),
                       why=lambda: f"the whole name in the notices: {[n.message[:80] for n in app.notices.entries]}")
        await app.action_quit()


@needs_gdb
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_breaks_shows_a_whole_condition(nav: Path, size: tuple[int, int]) -> None:
    app = DebuggerApp(gdb_config(nav, "leaf"))
    async with app.run_test(size=size) as pilot:
        await stopped_at(pilot, app, marked_line(NAV_WALK, "/* LEAF */"))
        pane = app.show_pane("breakpoints")
        table = pane.query_one(DataTable)
        table.focus()
        await pilot.press("e")
        await wait_for(pilot, lambda: app.focused is pane.query_one("#condition-input"))
        await pilot.press(*"value == 2 && doubled != 12345", "enter")
        await wait_for(pilot, lambda: rows(app, BreakpointsPane)["1"][4] == "value == 2 && doubled != 12345")
        await pilot.pause()
        assert table.columns["condition"].content_width >= len("value == 2 && doubled != 12345")  # type: ignore[index]
