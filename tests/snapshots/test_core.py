"""Snapshots of each debugger-core pane at 80x24 (its tab shown, focused) and of the 160x48
layout (the source, Locals' column with Focus and Warps, the tabbed panes under the source: at
a stop, and after the exit for the status bar), and of a pane zoomed with ``z`` at both sizes;
all at real kernel stops replayed from the tile lesson's cuda-gdb recording."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from cudatui.tui.apps.debugger_app import DebuggerApp
from tests.support.app import stopped_at
from tests.support.paths import ROOT, TOURS
from tests.support.replay import TILE_BREAKS, replay_config, sequential
from tests.support.wait import wait_for

PANES = ("source", "stack", "breakpoints", "locals", "console", "output", "status")
SIZES = {"80x24": (80, 24), "160x48": (160, 48)}
CASES = [(pane, "80x24") for pane in PANES] + [("source", "160x48"), ("status", "160x48"), ("locals", "160x48"),
                                               ("zoom", "80x24"), ("zoom", "160x48")]


@pytest.mark.parametrize(("pane", "size"), CASES)
def test_pane(snap_compare, tmp_path, pane: str, size: str) -> None:
    tour = sequential(TOURS / "tile.jsonl", tmp_path)
    app = DebuggerApp(replay_config(tour, *TILE_BREAKS, source_dirs=(str(ROOT / "kernels"),)))

    async def run_before(pilot: Pilot) -> None:
        await stopped_at(pilot, app, 37)
        for key, line in (("n", 22), ("n", 30), ("s", 48)):
            await pilot.press(key)
            await stopped_at(pilot, app, line)
        if pane == "status":
            await pilot.press("c")
            await wait_for(pilot, lambda: app.debugger.status.phase == "exited")
        elif pane == "source":
            app.query_one("#source-view").focus()
        elif pane == "zoom":
            app.query_one("#locals-tree").focus()
            await pilot.press("z")
            await wait_for(pilot, lambda: app.screen.maximized is app.query_one("#locals"))
        else:
            widget = app.show_pane(pane)
            target = next(w for w in widget.query("*") if w.focusable or w.can_focus and not isinstance(w, Input))
            target.focus()
        for field in app.query(Input):
            field.cursor_blink = False
        await app.workers.wait_for_complete()
        log = app.query_one("#console-log")
        await wait_for(pilot, lambda: log.is_vertical_scroll_end)  # the console follows its last line
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
