"""Notices stay out of the way: what a pane or the banner already shows is not toasted (at a CUDA
exception no toast at all; the host sync-point note is the Stack pane's), a warning is the status
bar's notices line, ``!`` opens the log of everything said, and the toasts left (errors) sit above
the status bar in a corner away from the focused pane - at 80x24, 120x36 and 160x48, read on the
screen."""

from __future__ import annotations

import pytest
from textual.geometry import Region

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.noticing import focused_pane
from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.status import StatusBar
from cudatui.tui.screens.notices_screen import NoticesScreen
from cudatui.tui.textual_compat import Toast
from tests.support.app import phase
from tests.support.notices_log import log_rows, squeezed
from tests.support.paths import RECORDED, ROOT, TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.screen import screen_rows, screen_text
from tests.support.wait import wait_for

SIZES = [(80, 24), (120, 36), (160, 48)]


def oob() -> DebuggerApp:
    return DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl", source_dirs=(str(TRANSCRIPTS),)))


def toasts(app: DebuggerApp) -> list[Toast]:
    return list(app.screen.query(Toast))


@pytest.mark.parametrize("size", SIZES)
async def test_an_exception_stop_toasts_nothing_and_the_banner_says_it(size) -> None:
    app = oob()
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(ExceptionBanner).display)
        await wait_for(pilot, lambda: any("press E" in e.message for e in app.notices.entries), why="the offer logged")
        await pilot.pause()
        assert toasts(app) == []
        text = screen_text(app)
        assert "CUDA_EXCEPTION_14" in text and "E for more" in text
        said = [e.message for e in app.notices.entries]
        assert "CUDA_EXCEPTION_14: Warp Illegal Address" in said
        await app.action_quit()


@pytest.mark.parametrize("size", SIZES)
async def test_the_host_sync_note_is_the_stack_panes_not_a_toast(size) -> None:
    """PyTorch's assert: the note that the host waits at line 7 is no toast and nowhere else on
    the screen; the Stack pane (5) says it in one line, and the notices log (!) holds all of it."""
    app = DebuggerApp(LaunchConfig.replay(RECORDED / "own" / "ui_torch_index.jsonl",
                                          source_dirs=(str(ROOT / "scripts" / "own_programs"),)))
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.host_note, why="the host note")
        await wait_for(pilot, lambda: any("waiting for the GPU" in e.message for e in app.notices.entries))
        await pilot.pause()
        assert not [t for t in toasts(app) if "waiting for the GPU" in str(t.render())]
        assert "waiting for the GPU" not in screen_text(app)
        await pilot.press("5")
        await wait_for(pilot, lambda: "⚠ line 7 is where the host waits, not the launch · L: launch blocking"
                       in screen_text(app), why="the Stack pane's short note on the screen")
        assert "waiting for the GPU" not in screen_text(app) and toasts(app) == []
        await pilot.press("!")
        await wait_for(pilot, lambda: isinstance(app.screen, NoticesScreen))
        await pilot.pause()
        said = squeezed("".join(log_rows(screen_text(app))))
        assert squeezed("The host is waiting for the GPU at line 7 of torch_index.py (.item())") in said
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, NoticesScreen))
        await app.action_quit()


@pytest.mark.parametrize("size", SIZES)
async def test_a_warning_is_the_notices_line_and_bang_opens_the_log(size) -> None:
    app = oob()
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("T")  # no other thread at a breakpoint here: a warning
        await wait_for(pilot, lambda: app.query_one(StatusBar).notice is not None
                       and "no other thread" in app.query_one(StatusBar).notice.message)
        await pilot.pause()
        status_row = screen_rows(app)[-2]
        if size[0] >= 120:  # room beside the status: the notice itself
            assert "⚠ no other th" in status_row and status_row.rstrip().endswith(("…", ")")), status_row
        else:  # the status first, then the mark that a notice came
            assert status_row.rstrip().endswith("⚠ !") and "CUDA_EXCEPTION_14 Warp Illegal Address" in status_row, status_row
        assert status_row.lstrip().startswith("stopped")
        assert toasts(app) == []
        await pilot.press("!")
        await wait_for(pilot, lambda: isinstance(app.screen, NoticesScreen))
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "Notices (newest last; escape closes)" in text
        assert "CUDA_EXCEPTION_14: Warp Illegal Address" in text and "no other thread sits at a breakpoint" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, NoticesScreen))
        await app.action_quit()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("pane", ["source", "locals", "warps"])
async def test_a_toast_covers_neither_the_status_bar_nor_the_focused_pane(size, pane) -> None:
    app = oob()
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        widget = app.show_pane(pane) if pane != "source" else app.query_one("#source")
        target = next(w for w in [widget, *widget.query("*")] if w.focusable)
        target.focus()
        await wait_for(pilot, lambda: focused_pane(app.focused) is widget)
        app.notify("the debugger said no", severity="error")
        await wait_for(pilot, lambda: toasts(app) and toasts(app)[0].region.height > 0, why="the toast")
        await pilot.pause()
        toast = toasts(app)[0].region
        status = app.query_one(StatusBar).region
        assert not toast.overlaps(status) and toast.bottom <= status.y
        assert not toast.overlaps(widget.region), (toast, widget.region)
        row = next(r for r in screen_rows(app) if "the debugger said no" in r)
        assert row  # on the screen, where the region says
        assert Region(0, 0, *app.size).contains_region(toast)
        await app.action_quit()


async def test_a_notice_said_while_the_log_is_open_comes_in_there() -> None:
    app = oob()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("!")
        await wait_for(pilot, lambda: isinstance(app.screen, NoticesScreen))
        await pilot.pause()
        assert "no other thread sits at a breakpoint" not in " ".join(screen_text(app).split())
        app.log_notice("no other thread sits at a breakpoint here", "warning")  # as T says it, the log open
        await wait_for(pilot, lambda: "no other thread sits at a breakpoint" in " ".join(screen_text(app).split()),
                       why="the new notice in the open log")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, NoticesScreen))
        await app.action_quit()
