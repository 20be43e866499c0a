"""The total MI parser gives pygdbmi's answer for every line gdb printed in the repository's
recordings, and ends (with a record or a refusal) on every fuzzed line, the lines that sent
pygdbmi into an endless loop included."""

from __future__ import annotations

import gzip
import json
import random
import sys

import pytest
from pygdbmi import gdbescapes, gdbmiparser

from cudatui.gdbbridge.session import mi_strings
from cudatui.gdbbridge.session.mi import parse_line, well_formed
from cudatui.gdbbridge.session.mi_values import MISyntaxError, parse_response
from tests.support.paths import ROOT

sys.path.insert(0, str(ROOT))
from bench.fuzz_mi import mutate

PYGDBMI_HANGS = (
    '*stopped,CudaFocus={device="0",sm="124",warp="",lane="0",ke*rnel="0",grid="2",blockIdx="(0,0,0)",'
    'threadIdx="(0,0,0)"},reason="end-stepping-range",frame={addr="0x00007ffd037a2510",func="divergent",'
    'args=[{name="out",value1"0x7ffcd9a05000"}],file="bugs.cu",fullname="/home/user/lesson/bugs.cu",line="33",'
    'arch="m68k"},thread-id="1",stopped-threads="all",core2="12"',
    '*stopped,CudaFocus={device="0",sm="124",warp="1",lane="0",kernel="0",grid="2",blockIdx="(0,0,0)",'
    'threadIdx="(0,0,0)"},reason="breakpoint-hit",disp="keep",bkptno="1",locno="1",frame={addr="0x00007ffd037a24a0",'
    'func="divergent",args=[{name="out",value@"0x7ffcd9a05000"}],file="bugs.cu",fullname="/home/user/lesson/bugs.cu",'
    'line="31",arch="m68k"},thread-id="1",stopped-threads="all",core="12"',
    "^done,a=[1,2", "^done,a=[", '=x,a=["b"', "^done,a=",
)
"""Lines on which pygdbmi's reader loops forever (the first two found by ``bench/fuzz_mi.py 100000 7``)."""


def recorded_lines() -> list[str]:
    """Every line a real debugger printed in the repository's recordings and transcripts."""
    paths = [*sorted((ROOT / "kernels" / "recordings").glob("*.jsonl.gz")),
             *sorted((ROOT / "tests" / "fixtures").rglob("*.jsonl"))]
    lines: set[str] = set()
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for text in handle:
                try:
                    entry = json.loads(text)
                except ValueError:
                    continue
                if isinstance(entry, dict) and entry.get("dir") == "out" and isinstance(entry.get("line"), str):
                    lines.add(entry["line"])
    return sorted(lines)


RECORDED = recorded_lines()


def test_the_corpus_is_large_and_varied() -> None:
    assert len(RECORDED) > 2000
    assert {line[:1] for line in RECORDED} >= set("^*=~&")


@pytest.mark.long  # seconds of parsing: started first (tests/conftest.py)
def test_same_answer_as_pygdbmi_on_every_recorded_line() -> None:
    different = [line for line in RECORDED if well_formed(line)
                 and parse_response(line) != gdbmiparser.parse_response(line)]
    assert different == []


@pytest.mark.parametrize("line", PYGDBMI_HANGS)
def test_lines_that_hang_pygdbmi_end(line: str) -> None:
    with pytest.raises(MISyntaxError):
        parse_response(line)
    assert parse_line(line).kind == "other"


def test_unclosed_records_are_not_mi() -> None:
    assert parse_response('*stopped,frame={addr="0x1"')["payload"] == {"frame": {"addr": "0x1"}}
    assert parse_line('*stopped,frame={addr="0x1"').kind == "other"


def test_every_fuzzed_line_ends_in_a_record() -> None:
    rng = random.Random(7)
    kinds = set()
    for _ in range(20000):
        record = parse_line(mutate(rng, rng.choice(RECORDED)))
        kinds.add(record.kind)
    assert {"result", "exec", "notify", "console", "other"} <= kinds


def test_nesting_deeper_than_the_recursion_limit_is_refused() -> None:
    line = "^done,a=" + "[" * 100_000 + "]" * 100_000
    assert well_formed(line) and parse_line(line).kind == "other"


def _outcome(read, *args, **kwargs):
    try:
        return read(*args, **kwargs)
    except ValueError:
        return ValueError


def test_strings_read_as_pygdbmi_reads_them() -> None:
    """Short strings (pygdbmi is quadratic, but fast on these) of escapes, octal runs, quotes and
    backslashes: the same value, the same end, or an error for both."""
    rng = random.Random(18)
    pieces = ["a", "é", " ", '"', "\\", "\\\\", '\\"', "\\n", "\\e", "\\q", "\\1", "\\101", "\\303\\251", "\\377",
              "\\777", "\\303", "0", "7", "\r", "\t"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        assert _outcome(mi_strings.unescape, text) == _outcome(gdbescapes.unescape, text), repr(text)
        start = rng.randint(0, len(text))
        assert _outcome(mi_strings.advance_past_string, text, start) == \
            _outcome(gdbescapes.advance_past_string_with_gdb_escapes, text, start=start), (repr(text), start)


@pytest.mark.long  # seconds of parsing: started first (tests/conftest.py)
def test_megabytes_without_an_escape_end() -> None:
    """gdb stopped in the middle of ``print`` flushes a console record without its ``\\n``;
    pygdbmi's escape reader took 22 s on 30 KB of such text (quadratic, holding the GIL)."""
    console = parse_line('~"' + "1, " * 3_000_000 + '"')
    assert console.kind == "console" and console.payload == "1, " * 3_000_000
    for cut in ('~"' + "1, " * 3_000_000, '^done,value="' + "x" * 9_000_000, '^done,a={b="' + "x" * 9_000_000 + '\\"'):
        assert parse_line(cut).kind == "other"


def test_a_token_of_thousands_of_digits_is_no_token() -> None:
    """int() refuses more than 4,300 digits: such a line raised ValueError out of parse_line."""
    for line in ("1" * 5000 + "^done", "1" * 5000 + '^done,value="1"', "2" * 19 + "*stopped"):
        assert parse_line(line).kind == "other"
