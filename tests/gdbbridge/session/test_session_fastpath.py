"""The fast paths of gdbbridge: plain result lines parsed without pygdbmi, stdout read by a protocol.

The plain-result parse must give exactly the record pygdbmi gives (fuzzed near the shape it
accepts, and over every recorded line); the protocol reader must cut any chunking of the
bytes into the same lines, and keep gdb's order of lines, events and results, big lines
(parsed in a thread) included, up to the debugger's death.
"""

from __future__ import annotations

import asyncio
import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.errors import DebuggerGone
from cudatui.gdbbridge.session.mi import BIG_LINE, Record, _parse_mi, _plain_result, parse_line
from cudatui.gdbbridge.session.pipes import LineReader
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.mi import REAL, no_hang
from tests.support.paths import RECORDED
from tests.support.wait import until

TOKENS = st.one_of(st.just(""), st.integers(0, 10**12).map(str), st.sampled_from(["007", "\u0661\u0662", " 1", "1 "]))
CLASSES = st.sampled_from(["done", "running", "connected", "error", "exit", "Done", "don", "done2", "stopped", ""])
KEYS = st.one_of(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True),
                 st.sampled_from(["value", "msg", "thread-id", "Value", "a b", "", "1a", "a=b", "é"]))
VALUE_CHARS = st.one_of(st.characters(blacklist_categories=("Cs",)), st.sampled_from(list('"\\\n\r\t ,={}[]~^')))
VALUES = st.text(VALUE_CHARS, max_size=24)
PAIRS = st.lists(st.tuples(KEYS, VALUES), max_size=4)
TAILS = st.sampled_from(["", "", "", ",", " ", "\r", "\r\n", "\n", '"', "{", "}", ",a=", ',a={b="1"}', ',a=["1"]'])


def plain_line(token: str, message: str, pairs: list[tuple[str, str]], tail: str) -> str:
    return f"{token}^{message}" + "".join(f',{key}="{value}"' for key, value in pairs) + tail


def pygdbmi_record(line: str) -> Record:
    """What parse_line gave before the fast path: pygdbmi on the line without its line break."""
    with no_hang():
        return _parse_mi(line.rstrip("\r\n"))


@pytest.mark.long  # thousands of examples against pygdbmi: started first (tests/conftest.py)
@settings(max_examples=3000, deadline=None)
@given(TOKENS, CLASSES, PAIRS, TAILS)
def test_plain_result_is_what_pygdbmi_gives(token, message, pairs, tail):
    line = plain_line(token, message, pairs, tail)
    with no_hang():
        record = parse_line(line)
    assert record == pygdbmi_record(line)


@pytest.mark.long  # thousands of examples against pygdbmi: started first (tests/conftest.py)
@settings(max_examples=1000, deadline=None)
@given(TOKENS, st.sampled_from(["done", "running", "error", "exit", "connected"]),
       st.lists(st.tuples(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True),
                          st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters='"\\\n')))),
       st.sampled_from(["", "\r", "\n", "\r\n"]))
def test_plain_result_is_taken_when_no_escape_and_no_repeated_name(token, message, pairs, end):
    """The generator above mostly misses the shape; here every line has it."""
    line = plain_line(token.strip() if token.isascii() else "", message, pairs, "") + end
    fast = _plain_result(line.rstrip("\r\n"))
    unique = len({key for key, _ in pairs}) == len(pairs)
    assert (fast is not None) == unique
    if fast is not None:
        assert fast == pygdbmi_record(line)


def test_plain_result_examples():
    assert _plain_result('123^done,value="2"') == Record("result", 123, "done", {"value": "2"}, '123^done,value="2"')
    assert _plain_result("5^running") == Record("result", 5, "running", {}, "5^running")
    assert _plain_result('^error,msg="No symbol \\"x\\" in current context."') is None  # escapes: pygdbmi
    assert _plain_result('1^done,a="1",a="2"') is None and pygdbmi_record('1^done,a="1",a="2"').payload == {"a": ["1", "2"]}
    assert _plain_result('1^done,bkpt={number="1"}') is None
    assert parse_line("(gdb) ").kind == "prompt"


def recorded_out_lines() -> list[str]:
    lines = list(REAL)
    for path in sorted(RECORDED.rglob("*.jsonl")):
        for text in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(text)
            if entry.get("dir") == "out":
                lines.append(str(entry.get("line", "")))
    return lines


def test_every_recorded_line_parses_as_with_pygdbmi():
    lines = [line for line in recorded_out_lines() if len(line) <= BIG_LINE]
    fast = [line for line in lines if _plain_result(line.rstrip("\r\n")) is not None]
    assert len(lines) > 500 and len(fast) > 50
    for line in lines:
        if line.strip() != "(gdb)":
            assert parse_line(line) == pygdbmi_record(line), line


# -- the stdout protocol: lines out of any chunking ------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=300).map(lambda b: b.replace(b"x", b"\n")), st.lists(st.integers(0, 300), max_size=12))
def test_reader_cuts_any_chunking_into_the_same_lines(data, cuts):
    got: list[bytes] = []
    rests: list[bytes] = []
    reader = LineReader(got.extend, rests.append)
    bounds = sorted({0, len(data), *(c for c in cuts if c <= len(data))})
    for start, end in zip(bounds, bounds[1:]):
        reader.data_received(data[start:end])
    reader.connection_lost(None)
    *lines, rest = data.split(b"\n")
    assert got == lines and rests == [rest]


# -- the session over a scripted stand-in debugger -----------------------------------------------

BIG = "y" * (BIG_LINE + 1000)
"""Stream text for big lines; it goes out with a final ``\\n`` as gdb's does (pygdbmi takes
quadratic time to unescape a long string holding no escape at all)."""

STAND_IN = r"""
import sys
BIG = sys.argv[1]
for line in sys.stdin:
    token, _, op = line.strip().partition("-")
    op = op.split(" ")[0]
    if op == "order":
        lines = ['=thread-group-added,id="i1"', '~"' + BIG + '\\n"', "not mi", '*running,thread-id="all"',
                 token + '^done,value="2"', '=after,n="1"', '@"' + BIG + '\\n"', "(gdb) "]
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
    elif op == "die":
        sys.stderr.write("warn 1\nlast words")
        sys.stderr.flush()
        sys.stdout.write('=last,n="1"')
        sys.stdout.flush()
        sys.exit(3)
    else:
        sys.stdout.write(token + "^done\n(gdb) \n")
        sys.stdout.flush()
"""


async def stand_in() -> tuple[GdbSession, list[ev.Event], list[ev.RawLine]]:
    session = GdbSession([sys.executable, "-c", STAND_IN, BIG], inferior_tty=False)
    seen: list[ev.Event] = []
    raw: list[ev.RawLine] = []
    session.subscribe(seen.append)
    session.subscribe_raw(raw.append)
    await asyncio.wait_for(session.start(), 20)
    seen.clear()
    raw.clear()
    return session, seen, raw


async def test_big_lines_keep_the_order_of_lines_events_and_results():
    session, seen, raw = await stand_in()
    try:
        before = [ev.Notify("thread-group-added", {"id": "i1"}), ev.Stream("console", BIG + "\n"), ev.NonMI("not mi"),
                  ev.Running("all")]
        after = [ev.Notify("after", {"n": "1"}), ev.Stream("target", BIG + "\n")]
        for _ in range(3):
            assert await asyncio.wait_for(session.command("-order"), 20) == {"value": "2"}
            assert seen[:4] == before  # everything gdb printed before the result
            await until(lambda: len(seen) == 6)
            assert seen == before + after
            await until(lambda: len(raw) == 9)
            assert [r.direction for r in raw] == ["in"] + ["out"] * 8
            assert [r.text for r in raw[1:]][1::5] == ['~"' + BIG + '\\n"', '@"' + BIG + '\\n"']
            seen.clear()
            raw.clear()
        assert session.alive and session.state == "running"
    finally:
        await session.close()


async def test_death_delivers_the_last_words_then_fails_what_is_pending():
    session, seen, raw = await stand_in()
    try:
        with_pending = asyncio.ensure_future(session.command("-die"))
        await until(lambda: any(isinstance(e, ev.DebuggerExited) for e in seen))
        assert [e for e in seen if not isinstance(e, ev.Stream)] == [ev.Notify("last", {"n": "1"}), ev.DebuggerExited(3, False)]
        try:
            await asyncio.wait_for(with_pending, 20)
        except DebuggerGone as exc:
            assert exc.message == "debugger exited with code 3"
        else:
            raise AssertionError("the request outlived its debugger")
        await until(lambda: [r.text for r in raw if r.direction == "err"] == ["warn 1", "last words"])
        assert [e.text for e in seen if isinstance(e, ev.Stream)] == ["warn 1\n", "last words"]
        assert session.state == "dead" and not session.alive and session.first_stderr == "warn 1"
    finally:
        await session.close()
