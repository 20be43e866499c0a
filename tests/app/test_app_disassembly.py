"""The SASS pane in the app: a side pane whose SASS the Debugger reads only while it is shown."""

from __future__ import annotations

from cudatui.tui.apps.debugger_app import SIDE_PANES, DebuggerApp
from cudatui.tui.panes.disassembly import DisassemblyPane
from tests.support.app import stopped_at
from tests.support.paths import TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.wait import wait_for
from tests.support.sent import commands_sent


async def test_sass_tab_read_only_once_shown() -> None:
    assert "disassembly" in [spec.id for spec in SIDE_PANES]
    app = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    sent = commands_sent(app.debugger, "-data-disassemble")
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, 9)
        pane = app.query_one(DisassemblyPane)
        await wait_for(pilot, lambda: pane.state is not None, why="the hidden pane to have the stop")
        assert not pane.display and not sent and pane.state.sass is None
        app.show_pane("disassembly")
        await wait_for(pilot, lambda: pane.state.sass is not None, why="the stop shown again with its SASS")
        assert len(sent) == 1 and "$pc+128" in sent[0]
        # the recording answered `$pc+48`, not the pane's range: the error is shown on its line
        assert pane.status.startswith("cannot disassemble at 0x7ffd037a2560") and "\n" not in pane.status
