"""The Debugger serialises a lane walk (the warp watch) and a step issued together.

Replayed: tests/fixtures/recorded/ui_divergence_v1.jsonl.gz, a real cuda-gdb 13.0 session on an
H200 made through the UI (the divergence lesson as recorded on 2026-11-29, commit 35d3ee8; the
packaged lesson has since been re-recorded along a longer path). After its first stop it switches to block (0,0,0) thread (32,0,0), the warp
watch walks the 32 lanes of that warp with ``-cuda-focus-switch "lane N"`` and
``threadIdx.x * 2``, and ``-exec-next`` stops at breakpoint 2 (divergence.cu:23), where only the
16 even lanes are active. The stand-in answers each request from the stop the front end is at,
so a walk whose lane switches went out after the step would read the stop after it (where the
odd lanes cannot be focused); without the lock both tests fail. The walk is the stop's warp watch
(``Debugger.watch_lanes``: the stop shown again with ``StopState.lane_watch``, and each stop after
it gathers it too); the last test: the watch said while the Warps pane is hidden, then shown, then cleared.
"""

from __future__ import annotations

import asyncio

import pytest

from cudatui.gdbbridge.debugger.debugger import Debugger, Step
from cudatui.gdbbridge.debugger.events import StateChanged
from cudatui.gdbbridge.models import StopState

from tests.support.debugger_watch import replayed
from tests.support.wait import until
from tests.support.paths import RECORDED

RECORDING = RECORDED / "ui_divergence_v1.jsonl.gz"
FOCUS = "block (0,0,0) thread (32,0,0)"
WATCH = "threadIdx.x * 2"


@pytest.fixture
async def at_thread_32():
    """The Debugger stopped at the recording's first breakpoint, focused on thread (32,0,0)."""
    debugger, watcher = replayed(RECORDING)
    try:
        await asyncio.wait_for(debugger.start(), 20)
        first = await watcher.next_stop()
        assert first.stop.breakpoint == 1 and first.focus is not None and first.focus.thread == (0, 0, 0)
        await asyncio.wait_for(debugger.switch_focus(FOCUS), 20)
        focused = await watcher.next_stop()
        assert focused.focus is not None and focused.focus.thread == (32, 0, 0) and focused.stop is first.stop
        yield debugger, watcher, focused
    finally:
        await debugger.close()


def published(debugger: Debugger) -> list[StopState]:
    """The states ``debugger`` publishes from now on."""
    states: list[StopState] = []
    debugger.subscribe(lambda e: states.append(e.state) if isinstance(e, StateChanged) else None)
    return states


def watched(state: StopState) -> dict[int, str]:
    """The warp watch's values in ``state``."""
    assert state.lane_watch is not None and state.lane_watch.asked == WATCH and not state.lane_watch.error, state.lane_watch
    return dict(state.lane_watch.value)


def lane_values(state: StopState) -> dict[int, str]:
    """What ``threadIdx.x * 2`` is in each active lane of ``state``'s warp."""
    return {lane.number: str(2 * lane.thread[0]) for lane in state.lanes if lane.state == "active" and lane.thread}


async def test_a_lane_walk_and_a_step_issued_together_run_one_after_the_other(at_thread_32) -> None:
    debugger, watcher, before = at_thread_32
    assert len(lane_values(before)) == 32  # the whole warp is active before the step
    sent_before = len(watcher.sent)
    states = published(debugger)

    debugger.watch_lanes(WATCH)  # the walk waits for the lock in a task of its own, then the step in another
    await asyncio.wait_for(asyncio.ensure_future(debugger.resume(Step.NEXT)), 20)
    after = await watcher.next_stop()

    # the watch read every lane it asked for, at the stop before the step (shown again with them)
    again = next(state for state in states if state.stop is before.stop)
    assert watched(again) == lane_values(before) == {n: str(2 * (32 + n)) for n in range(32)}
    # on the wire the walk is one block (no step or other query inside it), then the step
    sent = watcher.sent[sent_before:]
    walk = ["-cuda-info-lanes"] + [c for n in range(32) for c in (f'-cuda-focus-switch "lane {n}"',
                                                                   f'-data-evaluate-expression "{WATCH}"')]
    assert sent[: len(walk) + 2] == [*walk, '-cuda-focus-switch "lane 0"', "-exec-next"]
    # and the step happened: the recorded stop after it, at breakpoint 2 with half the warp active
    assert after.stop.reason == "breakpoint-hit" and after.stop.breakpoint == 2
    assert after.frame is not None and after.frame.line == 23
    assert after.focus is not None and after.focus.thread == (32, 0, 0)
    assert lane_values(after) == {n: str(2 * (32 + n)) for n in range(0, 32, 2)}
    assert watched(after) == lane_values(after)  # the stop after it walked the warp too
    assert not [n for n in watcher.notices if n.severity == "error"]


async def test_a_walk_issued_after_a_step_waits_for_it_and_walks_the_stop_after_it(at_thread_32) -> None:
    debugger, watcher, before = at_thread_32
    states = published(debugger)
    sent_before = len(watcher.sent)

    step = asyncio.ensure_future(debugger.resume(Step.NEXT))  # takes the lock first
    debugger.watch_lanes(WATCH)
    await asyncio.wait_for(step, 20)
    after = await watcher.next_stop()

    assert after.stop.breakpoint == 2 and after.frame is not None and after.frame.line == 23
    # the stop before the step is not walked: the walk reads the new stop's lanes, the 16 even ones
    assert not [state for state in states if state.stop is before.stop and state.lane_watch is not None]
    sent = watcher.sent[sent_before:]
    assert sent.index("-exec-next") < sent.index("-cuda-info-lanes")
    assert watched(after) == lane_values(after)
    assert len(lane_values(after)) == 16


async def test_a_watch_expression_shows_the_stop_again_with_the_lanes_values_while_the_warps_pane_is_shown(
        at_thread_32) -> None:
    """No Warps pane on the screen: the expression is kept and nothing is asked. The pane shown:
    the Debugger walks the lanes and shows the same stop again (one state, a new generation) with
    the values; the expression cleared, the stop is shown again without them, nothing asked."""
    debugger, watcher, before = at_thread_32
    states = published(debugger)
    sent_before = len(watcher.sent)
    debugger.show_parts(registers=True, threads=True, lanes=False)
    debugger.watch_lanes(WATCH)
    assert debugger.state is before and not states

    debugger.show_parts(registers=True, threads=True, lanes=True)
    again = await until(lambda: states[0] if states else None, why="the stop shown again")
    assert len(states) == 1 and again.stop is before.stop and again.focus == before.focus
    assert again.generation > before.generation and again.variables is before.variables
    assert watched(again) == lane_values(before)
    walk = ["-cuda-info-lanes"] + [c for n in range(32) for c in (f'-cuda-focus-switch "lane {n}"',
                                                                   f'-data-evaluate-expression "{WATCH}"')]
    assert watcher.sent[sent_before:] == [*walk, '-cuda-focus-switch "lane 0"']

    debugger.watch_lanes("")
    assert len(states) == 2 and states[1].lane_watch is None and states[1].stop is before.stop
    assert watcher.sent[sent_before:] == [*walk, '-cuda-focus-switch "lane 0"']
