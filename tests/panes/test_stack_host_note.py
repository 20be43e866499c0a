"""The Stack pane's one-line sync-point note on PyTorch's assert (the H200 recording
ui_torch_index.jsonl), read on the screen at 80x24, 120x36 and 160x48: started here it offers
``L`` (launch blocking); attached (``--pid``: ``r`` and ``L`` are refused) the note the Debugger
makes then (no re-run advice) is shown without it, and its tooltip is that whole note."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cudatui.gdbbridge.host.view import sync_point
from cudatui.tui.panes.stack import StackPane
from tests.support.panes import PaneApp, Replay, Script
from tests.support.paths import RECORDED
from tests.support.screen import screen_text
from tests.support.wait import wait_for

TORCH = RECORDED / "own" / "ui_torch_index.jsonl"
SHORT = "⚠ line 7 is where the host waits, not the launch"


def at_the_assert(attached: bool) -> Script:
    """Run to the assert and show its state; ``attached``: with the note an attached Debugger
    makes of the same host stack (stop_refresh.py: ``can_rerun`` is False with ``--pid``)."""
    async def script(app: PaneApp, replay: Replay) -> None:
        state = await replay.state(await replay.resume())
        assert state.host is not None and state.host_note is not None
        app.show(replace(state, host_note=sync_point(state.host, {}, can_rerun=False)) if attached else state)
    return script


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("attached", [False, True], ids=["started", "attached"])
async def test_the_sync_point_note_offers_l_only_when_the_program_can_be_run_again(size, attached) -> None:
    pane = StackPane()
    app = PaneApp(pane, str(TORCH), at_the_assert(attached))  # an absolute path: TRANSCRIPTS / it is it
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.ready and SHORT in screen_text(app), why="the note on the screen")
        await pilot.pause()
        row = next(r for r in screen_text(app).splitlines() if SHORT in r)
        assert row.strip() == SHORT + ("" if attached else " · L: launch blocking")
        tooltip = str(pane.query_one("#host-note").tooltip)
        assert tooltip.startswith("The host is waiting for the GPU at line 7 of torch_index.py (.item())")
        assert ("CUDA_LAUNCH_BLOCKING" in tooltip) is not attached and ("Re-run" in tooltip) is not attached
        assert 'print("sum", y.sum().item())' in screen_text(app)  # the host row the note is about
