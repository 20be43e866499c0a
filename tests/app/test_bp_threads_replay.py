"""The threads-at-the-breakpoint line at a replayed cuda-gdb kernel breakpoint stop
(inspect.jsonl: ``reduce_racy``): it asks ``-cuda-info-threads`` when the stop is a kernel
breakpoint hit and keeps the ranges at the breakpoint's line (cuda-gdb 13.0 refuses ``info cuda
threads breakpoint N``)."""

from __future__ import annotations

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.bp_threads import BreakpointThreads
from cudatui.tui.plans.replay_plan import plan_replay
from tests.support.app import messages, no_internal_errors, stopped_at
from tests.support.paths import RECORDED, ROOT, TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.wait import wait_for
from tests.support.sent import commands_sent


async def test_a_kernel_breakpoint_stop_asks_for_its_threads_and_says_what_came_back() -> None:
    app = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    sent = commands_sent(app.debugger)
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, 9)
        threads = app.query_one(BreakpointThreads)
        line = threads.query_one("#bp-threads-line")
        await wait_for(pilot, lambda: "at breakpoint 1: 1024 threads in 4 blocks" in str(line.render()),
                       why="the threads at the breakpoint's line")
        assert threads.display and threads.number == 1 and len(threads.ranges) == 1
        assert any(t.endswith("-cuda-info-threads") for t in sent)
        assert not any("info cuda threads breakpoint" in t for t in sent)
        await pilot.press("T")  # block (1,0,0): the recording has no answer for that switch, the app says so
        await wait_for(pilot, lambda: threads.index == 1 or any("not in this recording" in m for m in messages(app)))
        assert no_internal_errors(app)


async def test_t_visits_the_blocks_cuda_gdb_reported_once_on_the_h200() -> None:
    """threads_at_bp.jsonl (scripts/gpu_threads_at_bp.py, H200): a condition true in three resident
    blocks, one stop; the line counts the 256 threads of blocks 0-3 at the line, T visits each."""
    recording = RECORDED / "threads_at_bp.jsonl"
    app = DebuggerApp(plan_replay(str(recording), extra_dirs=(str(ROOT / "scripts" / "own_programs"),)).config)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.focus is not None, why="the stop")
        threads = app.query_one(BreakpointThreads)
        line = threads.query_one("#bp-threads-line")
        await wait_for(pilot, lambda: "256 threads in 4 blocks" in str(line.render()), why="the threads line")
        for block in ((1, 0, 0), (2, 0, 0), (3, 0, 0), (0, 0, 0)):
            await pilot.press("T")
            await wait_for(pilot, lambda: app.debugger.state.focus is not None and app.debugger.state.focus.block == block,
                           why=f"the focus on block {block}")
        assert no_internal_errors(app)
