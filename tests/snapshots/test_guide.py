"""Snapshots of the lesson guide at 80x24 and 160x48: the strip above the status bar (Tab reaches
it) and the full-screen guide (h), for the race lesson replayed from its packaged recording."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from cudatui.tui.panes.guide import GuidePane
from tests.support.guide_host import GuideHost

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", ["strip", "full"])
def test_guide(snap_compare, view: str, size: str) -> None:
    app = GuideHost("race", full=view == "full")

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        if view == "strip":
            app.query_one(GuidePane).focus()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
