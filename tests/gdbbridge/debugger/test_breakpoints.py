"""Deferred CUDA breakpoint conditions, over transcripts derived from real cuda-gdb output.

tests/fixtures/c/bridge/derived_launch_condition.jsonl strings together real cuda-gdb 13.0
lines (shared/reference/more mi.txt, mi2.txt, mi4.txt): ``-break-insert -c`` refused with
"No symbol "threadIdx" in current context.", the pending insert, ``break_on_launch``, the
application kernel entry stop and the conditional hit at block 1 thread 33.
derived_deferred_condition.jsonl has no ``-gdb-set cuda`` answer (the stand-in refuses it, as a
gdb without CUDA support does): the condition is applied at the breakpoint's first hit instead.
Both are replayed by the stand-in debugger, so the session code path is the real one.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints, BreakpointSpec, _needs_kernel
from cudatui.gdbbridge.session.mi import parse_line
from cudatui.gdbbridge.models import Breakpoint
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.paths import FIXTURES, TRANSCRIPTS

DERIVED = FIXTURES / "c" / "bridge" / "derived_deferred_condition.jsonl"
LAUNCH = FIXTURES / "c" / "bridge" / "derived_launch_condition.jsonl"
RECORDED_LAUNCH = FIXTURES / "recorded" / "bridge_kernel_launch.jsonl"
CONDITION = "threadIdx.x==33 && blockIdx.x==1"


async def stopped_after(session: GdbSession, q, operation: str):
    await session.command(operation)
    while True:
        event = await asyncio.wait_for(q.get(), 20)
        if isinstance(event, ev.Stopped):
            return event.stop


@pytest.fixture
async def derived_session():
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(DERIVED)], ["./t"], inferior_tty=False)
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    yield session, q
    await session.close()


async def test_condition_deferred_to_the_kernel_launch_stop_then_holds_from_the_first_hit():
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(LAUNCH)], ["./t"], inferior_tty=False)
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    try:
        bps = Breakpoints(session)
        bp = await bps.insert("t.cu:6", CONDITION)
        assert bp.number == 1 and bps.deferred == {1: CONDITION} and bps.launch_armed

        launch = await stopped_after(session, q, "-exec-run")
        assert launch.reason == "breakpoint-hit" and launch.breakpoint is None and launch.focus.thread == (0, 0, 0)
        assert await bps.should_skip(launch) is True  # the launch stop was ours: resume
        assert bps.deferred == {} and not bps.launch_armed

        hit = await stopped_after(session, q, "-exec-continue")
        assert hit.breakpoint == 1 and hit.focus.thread == (33, 0, 0) and hit.focus.block == (1, 0, 0)
        assert await bps.should_skip(hit) is False
    finally:
        await session.close()


async def test_recorded_h200_session_condition_applied_at_launch_holds_from_the_first_hit():
    """tests/gpu/test_bridge_gpu.py recorded on an H200 (batch 6): breakpoint 1 has no condition,
    breakpoint 2's condition is refused before the kernel loads."""
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(RECORDED_LAUNCH)], ["./bridge_kernel"],
                         inferior_tty=False)
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    try:
        bps = Breakpoints(session)
        plain = await bps.insert("bridge_kernel.cu:10")
        store = await bps.insert("bridge_kernel.cu:13", "threadIdx.x == 7 && blockIdx.x == 1")
        assert (plain.number, store.number) == (1, 2) and bps.deferred == {2: "threadIdx.x == 7 && blockIdx.x == 1"}
        assert bps.launch_armed

        launch = await stopped_after(session, q, "-exec-run")
        assert (launch.reason, launch.breakpoint, launch.frame.func) == ("breakpoint-hit", None, "fill")
        assert await bps.should_skip(launch) is True and bps.deferred == {} and not bps.launch_armed

        first = await stopped_after(session, q, "-exec-continue")
        assert first.breakpoint == 1 and await bps.should_skip(first) is False
        stepped = await stopped_after(session, q, "-exec-next")
        assert stepped.reason == "end-stepping-range" and await bps.should_skip(stepped) is False
        await bps.delete(1)
        hit = await stopped_after(session, q, "-exec-continue")
        assert hit.breakpoint == 2 and (hit.focus.block, hit.focus.thread) == ((1, 0, 0), (7, 0, 0))
        assert await bps.should_skip(hit) is False
    finally:
        await session.close()


async def test_without_cuda_settings_the_condition_is_applied_at_the_first_hit(derived_session):
    session, q = derived_session
    bps = Breakpoints(session)
    bp = await bps.insert("t.cu:6", CONDITION)
    assert bp.number == 1 and bp.condition is None and bps.deferred == {1: CONDITION}
    assert not bps.launch_armed  # "-gdb-set cuda ..." was refused
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
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(path)], inferior_tty=False)
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
def test_breakpoint_spec_parses_and_prints_location_if_condition(spec, expected):
    parsed = BreakpointSpec.parse(spec)
    assert (parsed.location, parsed.condition) == expected
    assert BreakpointSpec.parse(str(parsed)) == parsed


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


# -- every shape gdb answers a breakpoint in (tests/fixtures/breakpoints/answers.json: real lines)

ANSWERS = {a["shape"]: a for a in json.loads((FIXTURES / "breakpoints" / "answers.json").read_text())}


def _payloads(shape: str) -> list[tuple[str, dict]]:
    """(record class or name, payload) of each real line recorded for ``shape``."""
    return [(r.message or "", r.payload) for r in map(parse_line, ANSWERS[shape]["lines"])]


def test_answer_pending():
    bp = Breakpoint.from_answer(_payloads("pending")[0][1])
    assert (bp.number, bp.pending, bp.original_location, bp.locations) == (1, True, "race.cu:25", ())


def test_answer_single_with_condition():
    bp = Breakpoint.from_answer(_payloads("single with condition")[0][1])
    assert (bp.number, bp.pending, bp.condition) == (1, False, "threadIdx.x==33 && blockIdx.x==1")
    assert (bp.file, bp.line, bp.func) == ("t.cu", 6, "k(int*)")


def test_answer_multiple_with_locations():
    bp = Breakpoint.from_answer(_payloads("multiple with locations")[0][1])
    assert (bp.number, bp.pending, bp.original_location) == (1, False, "t.cu:6")
    assert [(loc.number, loc.enabled, loc.line) for loc in bp.locations] == [("1.1", False, 8)]


def test_answer_multiple_with_a_pending_location():
    bp = Breakpoint.from_answer(_payloads("multiple, one location pending")[0][1])
    assert bp.number == 1 and not bp.pending
    assert [(loc.number, loc.addr, loc.line) for loc in bp.locations] == [("1.1", None, None), ("1.2", 0x7FFFBFE5CF67, 3)]
    assert (bp.file, bp.line) == (None, None)  # the only resolved location is disabled


def test_answer_created_notification():
    name, payload = _payloads("created notification")[0]
    assert name == "breakpoint-created"
    bp = Breakpoint.from_answer(payload)
    assert (bp.number, bp.line, bp.func, bp.pending) == (2, 7, "k(int*)", False)


def test_answer_mi2_locations_after_the_record():
    bp = Breakpoint.from_answer(_payloads("mi2 multiple, locations after the record")[0][1])
    assert (bp.number, bp.original_location, bp.pending) == (1, "h.h:2", False)


def test_mi2_break_list_rows_are_grouped_into_one_breakpoint():
    body = _payloads("mi2 break-list rows as a list")[0][1]["BreakpointTable"]["body"]
    assert [row["number"] for row in body] == ["1", "1.1", "1.2"]
    (bp,) = Breakpoint.from_records(body)
    assert bp.number == 1 and [loc.number for loc in bp.locations] == ["1.1", "1.2"] and bp.line == 2
    listed = Breakpoint.from_answer({"bkpt": body})  # the same records as a bkpt list
    assert listed == bp


def test_answer_only_via_breakpoint_created():
    (created_name, created), (done_name, done) = _payloads("only via breakpoint-created")
    assert (created_name, done_name, done) == ("breakpoint-created", "done", {})
    assert Breakpoint.from_answer(done) is None
    bp = Breakpoint.from_answer(created)
    assert bp.number == 1 and len(bp.locations) == 2 and bp.original_location == "twice"


def test_record_without_number_is_refused_not_zero():
    record = dict(_payloads("pending")[0][1]["bkpt"])
    del record["number"]
    assert Breakpoint.from_answer({"bkpt": record}) is None and Breakpoint.from_answer({}) is None
    with pytest.raises(ValueError, match="without a number"):
        Breakpoint.from_mi(record)


def _insert_transcript(tmp_path: Path, lines: list[str]) -> Path:
    """A transcript answering ``-break-insert -f "x.cu:4"`` with ``lines`` (token 1)."""
    entries = [
        {"t": 0.0, "dir": "meta", "format": "cudatui-transcript", "version": 1, "argv": ["cuda-gdb"]},
        {"t": 0.0, "dir": "in", "line": '1-break-insert -f "x.cu:4"'},
        *({"t": 0.0, "dir": "out", "line": line if not line.startswith("^") else "1" + line} for line in lines),
    ]
    path = tmp_path / "insert.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


@pytest.mark.parametrize(
    ("shape", "number", "locations"),
    [
        ("multiple with locations", 1, 1),
        ("mi2 multiple, locations after the record", 1, 0),
        ("only via breakpoint-created", 1, 2),
    ],
)
async def test_insert_accepts_each_answer_shape(tmp_path, shape, number, locations):
    lines = [line.lstrip("0123456789") for line in ANSWERS[shape]["lines"]]
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(_insert_transcript(tmp_path, lines))], inferior_tty=False)
    await asyncio.wait_for(session.start(), 20)
    try:
        bp = await asyncio.wait_for(Breakpoints(session).insert("x.cu:4"), 20)
        assert bp.number == number and len(bp.locations) == locations
    finally:
        await session.close()


@pytest.mark.parametrize("answer", ["^done", '^done,bkpt={type="breakpoint",disp="keep",enabled="y"}'])
async def test_insert_without_a_number_raises_with_the_raw_answer(tmp_path, answer):
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(_insert_transcript(tmp_path, [answer]))],
                         inferior_tty=False)
    await asyncio.wait_for(session.start(), 20)
    try:
        with pytest.raises(MIError) as caught:
            await asyncio.wait_for(Breakpoints(session).insert("x.cu:4"), 20)
        token = caught.value.command.split("-", 1)[0]
        assert caught.value.command.endswith('-break-insert -f "x.cu:4"')
        assert caught.value.message == f"-break-insert gave no breakpoint number: (gdb answered: {token}{answer})"
    finally:
        await session.close()


async def test_condition_answered_without_breakpoint_falls_back_to_pending_and_deferred():
    """cuda-gdb 13.0 on a native binary (H200): ``-break-insert -c "threadIdx..."`` before run logs
    "No symbol threadIdx", auto-answers its pending question with N and says ^done with NO
    breakpoint. The insert must fall back to an unconditional pending one and defer the condition."""
    transcript = FIXTURES / "c" / "bridge" / "derived_pending_question.jsonl"
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(transcript)], ["./bridge_kernel"],
                         inferior_tty=False)
    await asyncio.wait_for(session.start(), 20)
    try:
        bps = Breakpoints(session)
        bp = await bps.insert("bridge_kernel.cu:10", "threadIdx.x == 7 && blockIdx.x == 1")
        assert bp.number == 1 and bp.original_location == "bridge_kernel.cu:10"
        assert bps.deferred == {1: "threadIdx.x == 7 && blockIdx.x == 1"}
    finally:
        await session.close()
