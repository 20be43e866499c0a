"""Deferred CUDA breakpoint conditions, over a transcript derived from real cuda-gdb output.

tests/fixtures/c/bridge/derived_deferred_condition.jsonl strings together real cuda-gdb 13.0
lines (shared/reference/more mi.txt, mi2.txt, mi4.txt): ``-break-insert -c`` refused with
"No symbol "threadIdx" in current context.", the pending insert, a stop at thread 0 and one
at thread 33. It is replayed by the stand-in debugger, so the session code path is the real one.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from gdbbridge import events as ev
from gdbbridge.breakpoints import Breakpoints, _needs_kernel, split_condition
from gdbbridge.mi import parse_line
from gdbbridge.models import Breakpoint
from gdbbridge.session import GdbSession, MIError

DERIVED = Path(__file__).parent / "fixtures" / "c" / "bridge" / "derived_deferred_condition.jsonl"
TRANSCRIPTS = Path(__file__).parent / "fixtures" / "transcripts"
CONDITION = "threadIdx.x==33 && blockIdx.x==1"


async def stopped_after(session: GdbSession, q, operation: str):
    await session.command(operation)
    while True:
        event = await asyncio.wait_for(q.get(), 20)
        if isinstance(event, ev.Stopped):
            return event.stop


@pytest.fixture
async def derived_session():
    session = GdbSession([sys.executable, "-m", "gdbbridge.replay", str(DERIVED)], ["./t"], inferior_tty=False)
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    yield session, q
    await session.close()


async def test_condition_deferred_until_kernel_stop_then_applied(derived_session):
    session, q = derived_session
    bps = Breakpoints(session)
    bp = await bps.insert("t.cu:6", CONDITION)
    assert bp.number == 1 and bp.condition is None and bps.deferred == {1: CONDITION}
    assert bp.original_location == "t.cu:6" and len(bp.locations) >= 1

    first = await stopped_after(session, q, "-exec-run")
    assert first.breakpoint == 1 and first.focus.thread == (0, 0, 0)
    assert await bps.should_skip(first) is True  # thread 0 fails the condition: resume
    assert bps.deferred == {}  # the condition now lives in cuda-gdb

    second = await stopped_after(session, q, "-exec-continue")
    assert second.focus.thread == (33, 0, 0) and second.focus.block == (1, 0, 0)
    assert await bps.should_skip(second) is False


async def test_condition_still_refused_stays_deferred(tmp_path):
    lines = DERIVED.read_text().splitlines()
    refused = json.loads(lines[2])["line"]  # the real "No symbol threadIdx" error
    entries = [json.loads(line) for line in lines[:1]] + [
        {"t": 0, "dir": "in", "line": f"1-break-condition 1 {json.dumps(CONDITION)}"},
        {"t": 0, "dir": "out", "line": refused},
        {"t": 0, "dir": "in", "line": "2-break-condition 2 \"x > 1\""},
        {"t": 0, "dir": "out", "line": '2^error,msg="No symbol \\"x\\" in current context."'},
    ]
    path = tmp_path / "derived_refused.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    session = GdbSession([sys.executable, "-m", "gdbbridge.replay", str(path)], inferior_tty=False)
    await asyncio.wait_for(session.start(), 20)
    try:
        bps = Breakpoints(session)
        await bps.set_condition(1, CONDITION)
        assert bps.deferred == {1: CONDITION}
        with pytest.raises(MIError, match='No symbol "x"'):
            await bps.set_condition(2, "x > 1")
        assert 2 not in bps.deferred
    finally:
        await session.close()


def test_needs_kernel_on_real_messages():
    refused = parse_line(json.loads(DERIVED.read_text().splitlines()[2])["line"])
    assert refused.message == "error" and _needs_kernel(refused.payload["msg"])
    assert not _needs_kernel("Garbage 'if threadIdx.x == 5' at end of location")
    assert not _needs_kernel('No symbol "counter" in current context.')
    assert _needs_kernel('No symbol "blockIdx" in current context.')


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("bugs.cu:13 if threadIdx.x == 5", ("bugs.cu:13", "threadIdx.x == 5")),
        ("reduce_racy", ("reduce_racy", None)),
        ("  k  if  ", ("k", None)),
        ("my file.cu:3 if a == 1 if b", ("my file.cu:3", "a == 1 if b")),
    ],
)
def test_split_condition(spec, expected):
    assert split_condition(spec) == expected


def _bkpt(name: str, start: str, *parts: str) -> dict:
    """The bkpt of the first recorded line starting with ``start`` and containing ``parts``."""
    for text in (TRANSCRIPTS / name).read_text().splitlines():
        line = json.loads(text)["line"]
        if line.startswith(start) and all(p in line for p in parts):
            return parse_line(line).payload["bkpt"]
    raise AssertionError(start)


def test_breakpoint_models_from_real_records():
    pending = Breakpoint.from_mi(_bkpt("inspect.jsonl", "102^done"))
    assert pending.pending and pending.original_location == "reduce_racy" and pending.hits == 0
    modified = Breakpoint.from_mi(_bkpt("inspect.jsonl", "=breakpoint-modified", "<MULTIPLE>", 'times="1"'))
    assert not modified.pending and [loc.number for loc in modified.locations] == ["1.1", "1.2"]
    assert modified.hits == 1 and modified.locations[1].line == 7 and not modified.locations[1].enabled
    with_cond = Breakpoint.from_mi(parse_line(json.loads(DERIVED.read_text().splitlines()[5])["line"]).payload["bkpt"])
    assert with_cond.original_location == "t.cu:6"
