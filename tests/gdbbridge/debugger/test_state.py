"""The refresh batch (StateBuilder) over replays of real cuda-gdb sessions."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.cuda.focus import switch_focus
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.mi import Flag
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.models import StopEvent
from cudatui.gdbbridge.session.errors import DebuggerGone
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.debugger.state import StateBuilder, focus_from_tables
from tests.support.paths import ROOT, TRANSCRIPTS

RECORDINGS = ROOT / "kernels" / "recordings"


async def replay_session(name: str):
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(TRANSCRIPTS / name)], ["python3", "x.py"])
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    return session, q


async def run_to_stop(session: GdbSession, q, operation: str, *args) -> StopEvent:
    await session.command(operation, *args)
    while True:
        event = await asyncio.wait_for(q.get(), 20)
        if isinstance(event, ev.Stopped):
            return event.stop


async def test_state_at_kernel_breakpoint_and_after_focus_switch():
    session, q = await replay_session("inspect.jsonl")
    try:
        await session.command("-break-insert", Flag("-f"), "reduce_racy")
        stop = await run_to_stop(session, q, "-exec-run")
        builder = StateBuilder(session)
        state = await asyncio.wait_for(builder.refresh(stop), 20)

        assert state.generation == 1 and state.in_kernel and state.focus == stop.focus
        assert state.frame == stop.frame and state.frame.func == "reduce_racy"
        assert state.devices[0].name == "NVIDIA H200" and state.kernels[0].grid_dim == (4, 1, 1)
        assert len(state.warps) == 8 and len(state.lanes) == 32 and state.lanes[0].current
        regs = {r.name: r for r in state.registers}
        assert regs["pc"].int_value == stop.frame.addr and regs["R3"].int_value == 1000
        assert len(regs) == len(state.registers) and "" not in regs
        # Not recorded in this session: reported per request, the rest of the state still shown.
        assert sorted(e.what for e in state.errors) == ["breakpoints", "locals", "stack"]
        assert all(e.not_recorded and e.message.startswith("not in this recording") for e in state.errors)

        moved = await switch_focus(session, "block 3 thread 200")
        assert moved.focus == CudaFocus(0, 126, 6, 8, 0, 2, (3, 0, 0), (200, 0, 0))
        switched = await asyncio.wait_for(builder.refresh(stop, focus=moved.focus), 20)
        assert switched.generation == 2 and switched.focus == moved.focus
        tid = {v.name: v for v in switched.variables}["tid"]
        assert tid.optimized_out and tid.address_space == "register"
        assert [v.name for v in switched.variables if v.is_arg] == ["in", "out", "n"]

        requeried = await asyncio.wait_for(builder.refresh(stop, requery_focus=True), 20)
        assert requeried.focus == CudaFocus(0, 128, 0, 0, 0, 2, (0, 0, 0), (0, 0, 0))
        bumped = builder.bump(requeried, selected_frame=0)
        assert bumped.generation == 4 and bumped.focus == requeried.focus
    finally:
        await session.close()


async def test_state_at_exception_stop():
    session, q = await replay_session("oob.jsonl")
    try:
        await session.command("-gdb-set", Flag("cuda"), Flag("api_failures"), Flag("stop"))
        stop = await run_to_stop(session, q, "-exec-run")
        state = await asyncio.wait_for(StateBuilder(session).refresh(stop), 20)
        assert state.stop.exception.code == 14 and not state.stop.exception.recoverable
        assert [f.func for f in state.frames] == ["add_kernel"] and state.frames[0].line == 5
        assert {v.name: v.value for v in state.variables}["idx"] == "609024"
        assert state.focus.block == (2379, 0, 0)
        assert state.registers == () and any(e.what == "register names" for e in state.errors)

        end = await run_to_stop(session, q, "-exec-continue")
        final = await asyncio.wait_for(StateBuilder(session).refresh(end), 20)
        assert final.stop.reason == "exited-signalled" and final.frames == () and session.state == "exited"
    finally:
        await session.close()


async def test_refresh_fails_cleanly_when_debugger_is_gone():
    session, q = await replay_session("assert.jsonl")
    stop = await run_to_stop(session, q, "-exec-run")
    await session.close()
    with pytest.raises(DebuggerGone):
        await StateBuilder(session).refresh(stop)


def test_focus_from_tables_needs_current_warp_and_lane():
    assert focus_from_tables((), (), (), (), ()) is None


def sent_since(recording: Path, mark: int) -> list[str]:
    """The MI operations the session sent after its ``mark``-th command (from its own recording)."""
    sent = [json.loads(line)["line"] for line in recording.read_text().splitlines()
            if json.loads(line).get("dir") == "in" and not json.loads(line)["line"].startswith("999999999")]
    return [line.split()[0].lstrip("0123456789") for line in sent[mark:]]


async def test_a_frame_or_focus_change_asks_only_what_it_can_change(tmp_path: Path):
    """At the same stop a frame change asks for no breakpoint table and no CUDA table (the focus is
    kept: they cannot have changed), so no frame to select again after them; a focus switch asks for
    the tables again, not the breakpoints. Both keep what they did not ask for."""
    record = tmp_path / "tile.jsonl"
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(RECORDINGS / "tile.jsonl.gz")],
                         ["python3", "tile.py"], record=record)
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    try:
        for location in ("tile.cu:51", "tile.cu:37"):
            await session.command("-break-insert", Flag("-f"), location)
        builder = StateBuilder(session)
        first = await run_to_stop(session, q, "-exec-run")
        at_hit = await asyncio.wait_for(builder.refresh(first, threads=True), 20)
        moved = await switch_focus(session, "block (1,1,0) thread (15,15,0)")
        mark = len(sent_since(record, 0))
        switched = await asyncio.wait_for(builder.refresh(first, focus=moved.focus, shown=at_hit), 20)
        assert sent_since(record, mark) == ["-stack-list-frames", "-stack-list-variables", "-data-list-register-values",
                                            *(f"-cuda-info-{what}" for what in ("devices", "sms", "kernels", "warps", "lanes"))]
        assert switched.focus == moved.focus and switched.breakpoints == at_hit.breakpoints and not switched.errors
        assert any(w.block == (1, 1, 0) for w in switched.warps) and switched.warps != at_hit.warps

        stop = await run_to_stop(session, q, "-exec-continue")
        shown = await asyncio.wait_for(builder.refresh(stop, threads=True), 20)
        assert len(shown.frames) > 1 and shown.warps and shown.lanes and shown.breakpoints and not shown.errors

        mark = len(sent_since(record, 0))
        up = await asyncio.wait_for(builder.refresh(stop, selected_frame=1, focus=shown.focus, select=True, shown=shown), 20)
        assert sent_since(record, mark) == [
            "-stack-select-frame", "-stack-list-frames", "-stack-list-variables", "-data-list-register-values"]
        assert up.selected_frame == 1 and up.frame is not None and up.frame.level == 1 and not up.errors
        assert (up.devices, up.kernels, up.warps, up.lanes, up.breakpoints) == \
            (shown.devices, shown.kernels, shown.warps, shown.lanes, shown.breakpoints)
    finally:
        await session.close()
