"""The instructor's status bar shows how many follow (issue 34): the debugger app on real GNU gdb
with ``--record``, one and then two followers' Debuggers on the file, the bar's text as painted."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.session.recorder import prepare
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.status import StatusBar
from tests.support.app import gdb_config, stopped_at
from tests.support.programs import BREAK_LINE, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb


async def test_the_status_bar_counts_the_followers(steps: Path, tmp_path: Path) -> None:
    record = tmp_path / "class.jsonl"
    prepare(record)
    app = DebuggerApp(replace(gdb_config(steps, f"steps.c:{BREAK_LINE}"), record=str(record)))
    followers: list[Debugger] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await stopped_at(pilot, app, BREAK_LINE)
        bar = app.query_one(StatusBar)
        assert "following" not in bar.render().plain
        for count in (1, 2):
            followers.append(Debugger(LaunchConfig.following(record)))
            await asyncio.wait_for(followers[-1].start(), 30)
            await wait_for(pilot, lambda count=count: f"{count} following" in bar.render().plain,
                           why=lambda: f"'{count} following' in the status bar: {bar.render().plain!r}")
        await followers.pop().close()
        await wait_for(pilot, lambda: "1 following" in bar.render().plain, why="one follower left")
        for follower in followers:
            await follower.close()
        await app.action_quit()
