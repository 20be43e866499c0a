"""Fuzzing the MI line parser and the session reader (hypothesis; small example counts for CI).

bench/fuzz_mi.py runs the same idea over >=100k generated lines.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.mi import Record, parse_line, quote
from cudatui.gdbbridge.record.transcript import canonical
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.mi import REAL, no_hang

MI_CHARS = st.sampled_from(list('^*=+~@&"\\{}[],=abcxyz0123456789 ()\t\x00\x1b\x7f'))
LINE_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=200)


def parse(line: str) -> Record:
    with no_hang():
        record = parse_line(line)
    assert isinstance(record, Record) and record.raw == line.rstrip("\r\n")
    return record


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(REAL), st.floats(0, 1))
def test_truncated_real_records_never_raise_or_hang(line, fraction):
    record = parse(line[: int(len(line) * fraction)])
    if record.kind == "result":
        assert isinstance(record.payload, dict)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from("^*=~@&"), st.text(MI_CHARS, max_size=120))
def test_mi_shaped_noise(sigil, body):
    parse(sigil + body)
    parse("12" + sigil + body)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes(data):
    parse(data.decode("utf-8", "replace"))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["q", "x", "u12", "777", "\\", "8", ""]))
def test_invalid_escapes(escape):
    record = parse(f'^done,value="a\\{escape}"')
    assert record.kind in ("result", "other")
    assert parse(f'~"text \\{escape}"').kind in ("console", "other")


def test_giant_lines():
    values = ",".join(f'{{number="{i}",value="0x{i:x}"}}' for i in range(8000))
    record = parse(f"5^done,register-values=[{values}]")
    assert record.kind == "result" and len(record.payload["register-values"]) == 8000
    assert parse("~" + '"' + "x" * 1_000_000).kind == "other"
    assert parse("^done,a=" + "[" * 5000).kind == "other"


def test_known_pygdbmi_hangs_are_refused():
    for line in ("^done,a=[1,2", "^done,a=[", '*stopped,frame={addr="0x1"', '=x,a=["b"'):
        assert parse(line).kind == "other"


@settings(max_examples=200, deadline=None)
@given(LINE_TEXT)
def test_quote_round_trips(text):
    quoted = quote(text)
    assert "\n" not in quoted and quoted.startswith('"') and quoted.endswith('"')
    assert canonical("-x " + quoted) == ("-x", _unescape_octal(text))
    record = parse(f"~{quoted}")
    assert record.kind == "console" and record.payload == text


def _unescape_octal(text: str) -> str:
    """What replay.canonical reads back: it drops backslashes, so octal/letter escapes stay raw."""
    return "".join({"\n": "n", "\r": "r", "\t": "t"}.get(ch, f"{ord(ch):03o}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch) for ch in text)


# -- the session reader fed garbage by a stand-in debugger ------------------------------------

STAND_IN = r"""
import json, sys
garbage = json.load(open(sys.argv[1], encoding="utf-8"))
for line in sys.stdin:
    token, _, op = line.strip().partition("-")
    if op == "gdb-exit":
        sys.stdout.write(token + "^exit\n")
        break
    for g in garbage:
        sys.stdout.write(g + "\n")
    sys.stdout.write(token + '^done,op="-' + op.split(" ")[0] + '"\n')
    sys.stdout.flush()
"""


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(LINE_TEXT, st.sampled_from(REAL).map(lambda s: s[: len(s) // 2])), max_size=12))
def test_session_reports_garbage_and_keeps_working(tmp_path_factory, garbage):
    garbage = [g for g in garbage if parse_line(g).kind != "result"]
    path = tmp_path_factory.mktemp("garbage") / "lines.json"
    path.write_text(json.dumps(garbage), encoding="utf-8")
    asyncio.run(_drive(path, garbage))


async def _drive(path: Path, garbage: list[str]) -> None:
    session = GdbSession([sys.executable, "-c", STAND_IN, str(path)], inferior_tty=False)
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    await asyncio.wait_for(session.start(), 20)
    try:
        seen.clear()
        assert await asyncio.wait_for(session.command("-first"), 20) == {"op": "-first"}
        assert await asyncio.wait_for(session.command("-second", "x"), 20) == {"op": "-second"}
        expected = [g for g in garbage if parse_line(g).kind == "other" and g.strip()]
        assert [e.line for e in seen if isinstance(e, ev.NonMI)] == expected * 2
        assert session.alive
    finally:
        await session.close()
