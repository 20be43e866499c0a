"""The exception banner takes three lines at every size (the exception, where, what it means and
"E for more"), read on the screen; E shows the rest of it in the explain view."""

from __future__ import annotations

import pytest

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.screens.explain_screen import ExplainScreen
from tests.support.app import phase
from tests.support.paths import RECORDED, ROOT, TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.screen import screen_rows, screen_text
from tests.support.wait import wait_for

SIZES = [(80, 24), (120, 36), (160, 48)]


def oob() -> DebuggerApp:
    return DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl", source_dirs=(str(TRANSCRIPTS),)))


def torch_assert() -> DebuggerApp:
    return DebuggerApp(LaunchConfig.replay(RECORDED / "own" / "ui_torch_index.jsonl",
                                           source_dirs=(str(ROOT / "scripts" / "own_programs"),)))


def banner_rows(app: DebuggerApp) -> list[str]:
    region = app.query_one(ExceptionBanner).region
    return screen_rows(app)[region.y:region.bottom]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("make, first, where", [
    (oob, "CUDA_EXCEPTION_14 Warp Illegal Address · fatal", "add_kernel at bugs.cu:5 · block (2379,0,0)"),
    (torch_assert, "CUDA_EXCEPTION_12 Warp Assert · recoverable", "index_elementwise_kernel"),
])
async def test_the_banner_is_three_lines_at_every_size(size, make, first, where) -> None:
    app = make()
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(ExceptionBanner).display)
        await pilot.pause()
        rows = banner_rows(app)
        assert len(rows) == 3, rows
        assert first in " ".join(rows[0].split())
        assert where in rows[1]
        assert rows[2].rstrip().endswith("E for more")
        await app.action_quit()


@pytest.mark.parametrize("size", SIZES)
async def test_e_shows_the_whole_banner_in_the_explain_view(size) -> None:
    app = oob()
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(ExceptionBanner).display)
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, ExplainScreen))
        await pilot.pause()
        text = " ".join(screen_text(app).replace("│", " ").split())
        assert "At this stop" in text
        assert "the CUDA context is lost and the program cannot continue" in text
        assert "the index in the faulting line with the size of the array" in text
        await app.action_quit()
