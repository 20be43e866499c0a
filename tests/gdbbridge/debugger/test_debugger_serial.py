"""The Debugger serialises a lane walk (the warp watch) and a step issued together.

Replayed: tests/fixtures/recorded/ui_divergence_v1.jsonl.gz, a real cuda-gdb 13.0 session on an
H200 made through the UI (the divergence lesson as recorded on 2026-11-29, commit 35d3ee8; the
packaged lesson has since been re-recorded along a longer path). After its first stop it switches to block (0,0,0) thread (32,0,0), the warp
watch walks the 32 lanes of that warp with ``-cuda-focus-switch "lane N"`` and
``threadIdx.x * 2``, and ``-exec-next`` stops at breakpoint 2 (divergence.cu:23), where only the
16 even lanes are active. The stand-in answers each request from the stop the front end is at,
so a walk whose lane switches went out after the step would read the stop after it (where the
odd lanes cannot be focused); without the lock both tests fail.
"""

from __future__ import annotations

import asyncio

import pytest

from cudatui.gdbbridge.debugger.debugger import Step
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.session.errors import MIError

from tests.support.debugger_watch import replayed
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


def lane_values(state: StopState) -> dict[int, str]:
    """What ``threadIdx.x * 2`` is in each active lane of ``state``'s warp."""
    return {lane.number: str(2 * lane.thread[0]) for lane in state.lanes if lane.state == "active" and lane.thread}


async def test_a_lane_walk_and_a_step_issued_together_run_one_after_the_other(at_thread_32) -> None:
    debugger, watcher, before = at_thread_32
    assert len(lane_values(before)) == 32  # the whole warp is active before the step
    sent_before = len(watcher.sent)

    walked, _ = await asyncio.wait_for(asyncio.gather(debugger.evaluate_in_lanes(WATCH), debugger.resume(Step.NEXT)), 20)
    after = await watcher.next_stop()

    # the watch read every lane it asked for, at the stop before the step
    assert dict(walked) == lane_values(before) == {n: str(2 * (32 + n)) for n in range(32)}
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
    assert not [n for n in watcher.notices if n.severity == "error"]


async def test_a_walk_issued_after_a_step_waits_for_it_and_is_refused_until_the_stop_is_shown(at_thread_32) -> None:
    debugger, watcher, _ = at_thread_32

    stepped, refused = await asyncio.wait_for(
        asyncio.gather(debugger.resume(Step.NEXT), debugger.evaluate_in_lanes(WATCH), return_exceptions=True), 20)
    after = await watcher.next_stop()

    assert stepped is None
    assert isinstance(refused, MIError) and refused.message == "the program is running"
    assert after.stop.breakpoint == 2 and after.frame is not None and after.frame.line == 23
    # asked again at the new stop, the walk reads that stop's lanes: the 16 even ones
    assert dict(await asyncio.wait_for(debugger.evaluate_in_lanes(WATCH), 20)) == lane_values(after)
    assert len(lane_values(after)) == 16
