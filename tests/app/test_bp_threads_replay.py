"""The threads-at-the-breakpoint line at a replayed cuda-gdb kernel breakpoint stop
(inspect.jsonl: ``reduce_racy``): it asks ``info cuda threads breakpoint 1`` through the console
when the stop is a kernel breakpoint hit; that recording predates the command, so the replay
refuses it and the line says so in one line, and T says there is no other thread to go to.
A recording with the answer is made on a GPU box by scripts/gpu_threads_at_bp.py."""

from __future__ import annotations

from cudatui.gdbbridge import RawLine
from cudatui.tui.app import DebuggerApp
from cudatui.tui.panes.bp_threads import BreakpointThreads
from tests.support.app import messages, no_internal_errors, stopped_at
from tests.support.paths import TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.wait import wait_for


async def test_a_kernel_breakpoint_stop_asks_for_its_threads_and_says_what_came_back() -> None:
    app = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    sent: list[str] = []
    app.debugger.subscribe(lambda e: sent.append(e.text) if isinstance(e, RawLine) and e.direction == "in" else None)
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, 9)
        threads = app.query_one(BreakpointThreads)
        line = threads.query_one("#bp-threads-line")
        await wait_for(pilot, lambda: "threads at breakpoint 1:" in str(line.render()))
        assert threads.display and threads.number == 1 and threads.ranges == ()
        assert any(t.endswith('-interpreter-exec console "info cuda threads breakpoint 1"') for t in sent)
        await pilot.press("T")
        await wait_for(pilot, lambda: any("no other thread sits at a breakpoint" in m for m in messages(app)))
        assert no_internal_errors(app)
