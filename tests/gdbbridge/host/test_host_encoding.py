"""A host stack as an MI result (gdbbridge/host/encoding.py): built with session/mi.py's one
quoting builder, read back by its parser, equal after the round trip for any text (hostile file
names included), never raising on a payload it did not write, and served per stop by the
replay stand-in from a recording that holds it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cudatui.gdbbridge.host.encoding import COMMAND, RECORD_TOKEN, decode, encode, record, result_line
from cudatui.gdbbridge.models.host import HostFrame, HostStack, HostThread
from cudatui.gdbbridge.session.recorder import Recorder
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession, MIError
from cudatui.gdbbridge.session.mi import parse_line

WAIT = 20.0

REAL = HostStack(6037, (
    HostThread(6051, "python", (
        HostFrame("/usr/lib/python3.11/threading.py", 327, "wait", "waiter.acquire()", False),
        HostFrame("/w/script.py", 15, "idle", "done.wait()", True),
    )),
    HostThread(6037, None, (
        HostFrame("/w/script.py", 7, "<module>", 'print("sum", y.sum().item())', True),
    )),
))

HOSTILE = [
    'quote " inside',
    'ends with a backslash \\',
    '\\" an escaped quote that is not',
    "two\nlines\r\nand a tab\t",
    "\x1b[2J\x1b[31mred\x1b]0;title\x07 escape sequences",
    "nul \x00 del \x7f bell \x07",
    "line separators \u2028 \u2029 \u0085",
    "non-ASCII: café 中文 😀",
    '",user="1"}]}],error="injected',
    "\\n \\033 \\x41 written as text",
]


def round_trip(stack: HostStack) -> HostStack:
    line = result_line(stack, 12)
    assert "\n" not in line and "\r" not in line
    parsed = parse_line(line)
    assert (parsed.kind, parsed.token, parsed.message) == ("result", 12, "done")
    return decode(parsed.payload)


def test_a_read_stack_reads_back_equal() -> None:
    assert round_trip(REAL) == REAL
    assert encode(REAL).startswith('pid="6037",threads=[{id="6051",name="python",frames=[{file="/usr/lib/python3.11/')


def test_an_error_or_an_empty_stack_reads_back_equal() -> None:
    failed = HostStack(12, error="the Python stack needs pystack (Linux only): pip install pystack")
    assert round_trip(failed) == failed and encode(failed).endswith(',error="the Python stack needs pystack '
                                                                    '(Linux only): pip install pystack"')
    assert round_trip(HostStack(0)) == HostStack(0) and encode(HostStack(0)) == 'pid="0",threads=[]'


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_in_every_field_reads_back_as_it_was(text: str) -> None:
    stack = HostStack(5, (HostThread(5, text, (HostFrame(f"/w/{text}.py", 3, text, text, True),)),), error=text)
    assert round_trip(stack) == stack


def test_text_that_is_not_utf8_is_replaced() -> None:
    name = os.fsdecode(b"/w/caf\xe9\xff.py")
    stack = HostStack(5, (HostThread(5, None, (HostFrame(name, 1, "f\udc80", "x = '\udcfe'", True),)),))
    line = result_line(stack, 1)
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in line)  # a recording writes it as UTF-8
    frame = round_trip(stack).threads[0].frames[0]
    assert (frame.file, frame.function, frame.code) == ("/w/caf\ufffd\ufffd.py", "f\ufffd", "x = '\ufffd'")


@settings(max_examples=300, deadline=None)
@given(st.text(), st.text(), st.text(), st.one_of(st.none(), st.text()), st.integers(0, 2**31), st.booleans())
def test_any_text_reads_back(file: str, function: str, code: str, error: str | None, line: int, user: bool) -> None:
    fix = lambda s: "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in s)  # noqa: E731
    stack = HostStack(1, (HostThread(2, fix(function), (HostFrame(fix(file), line, fix(function), fix(code), user),)),),
                      None if error is None else fix(error))
    assert round_trip(stack) == stack


@pytest.mark.parametrize("line, why", [
    ("^done", "not a number"),
    ('^done,pid="1",threads="none"', "threads is not a list"),
    ('^done,pid="1",threads=["a"]', "a thread is not a tuple"),
    ('^done,pid="1",threads=[{id="x",frames=[]}]', "not a number"),
    ('^done,pid="1",threads=[{id="1",frames={}}]', "frames is not a list"),
    ('^done,pid="1",threads=[{id="1",frames=[{file="a",func="f",code="",user="yes"}]}]', "lacks"),
    ('^done,pid="1",threads=[{id="1",frames=[{file="a",func="f",code="",user="1",line="²"}]}]', "not a number"),
    ('^done,pid="1",threads=[],error={a="b"}', "error is not a string"),
])
def test_a_payload_it_did_not_write_gives_an_error_not_an_exception(line: str, why: str) -> None:
    stack = decode(parse_line(line).payload)
    assert stack.threads == () and stack.error is not None
    assert stack.error.startswith("the recorded host stack cannot be read: ") and why in stack.error
    assert stack.pid == (1 if 'pid="1"' in line else 0)


def write_recording(path: Path, at_breakpoint: HostStack, at_exit: HostStack) -> None:
    """A session transcript: run to a breakpoint, the host stack read there, continue to the
    exit, the host stack read there (written as a live session records them)."""
    recorder = Recorder(path, ["gdb", "--args", "python", "t.py"])
    for direction, line in [
        ("in", "1-gdb-set mi-async on"), ("out", "1^done"),
        ("in", "2-exec-run"), ("out", "2^running"), ("out", '*running,thread-id="all"'),
        ("out", '*stopped,reason="breakpoint-hit",disp="keep",bkptno="1",frame={addr="0x00007ffff7fb9100",'
                'func="cudatui_hook",args=[],file="hook.c",fullname="/w/hook.c",line="1"},thread-id="1",'
                'stopped-threads="all",core="3"'),
    ]:
        recorder.write(direction, line)
    record(recorder.write, at_breakpoint)
    for direction, line in [("in", "3-exec-continue"), ("out", "3^running"),
                            ("out", '*running,thread-id="all"'), ("out", '*stopped,reason="exited-normally"')]:
        recorder.write(direction, line)
    record(recorder.write, at_exit)
    recorder.close()


async def test_a_replay_serves_each_stop_its_own_host_stack(tmp_path: Path) -> None:
    hostile = HostStack(6037, (HostThread(6037, None, tuple(HostFrame(f"/w/{t}.py", i, t, t, True)
                                                            for i, t in enumerate(HOSTILE, 1))),))
    gone = HostStack(6037, error="cannot read the Python stack of process 6037: No such process id: 6037")
    path = tmp_path / "host.jsonl"
    write_recording(path, hostile, gone)
    assert f'"{RECORD_TOKEN}{COMMAND}"' in path.read_text()

    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(path)])
    q = session.queue()
    try:
        await asyncio.wait_for(session.start(), WAIT)
        with pytest.raises(MIError, match="not in this recording"):
            await session.command(COMMAND)  # before the program ran: no host stack was recorded
        for operation, expected in (("-exec-run", hostile), ("-exec-continue", gone)):
            await session.command(operation)
            while not isinstance(await asyncio.wait_for(q.get(), WAIT), ev.Stopped):
                pass
            assert decode(await session.command(COMMAND)) == expected
    finally:
        await session.close()
