"""The MI command builder (quoting) and the line parser, on real cuda-gdb output."""

from __future__ import annotations

import json
import re

import pytest

from cudatui.gdbbridge.session.mi import Flag, MIBuildError, build, console, parse_line, quote, well_formed
from tests.support.paths import TRANSCRIPTS


def out_lines(name: str) -> list[str]:
    return [e["line"] for e in map(json.loads, (TRANSCRIPTS / name).read_text().splitlines()) if e["dir"] == "out"]


def in_lines(name: str) -> list[str]:
    return [e["line"] for e in map(json.loads, (TRANSCRIPTS / name).read_text().splitlines()) if e["dir"] == "in"]


# -- building commands ----------------------------------------------------------------------------


def test_build_quotes_strings_and_keeps_flags_and_numbers():
    assert build(7, "-break-insert", Flag("-f"), "bugs.cu:13") == '7-break-insert -f "bugs.cu:13"'
    assert build(None, "-data-list-register-values", Flag("x"), 2, 3) == "-data-list-register-values x 2 3"
    assert build(1, "-cuda-focus-switch", "block (3,0,0) thread (200,0,0)") == '1-cuda-focus-switch "block (3,0,0) thread (200,0,0)"'
    assert build(2, *console("info cuda lanes")) == '2-interpreter-exec console "info cuda lanes"'


@pytest.mark.parametrize(
    "text, quoted",
    [
        ('a"b', r'"a\"b"'),
        ("a\\b", r'"a\\b"'),
        ("x\n-gdb-exit", r'"x\n-gdb-exit"'),
        ("\r\t", r'"\r\t"'),
        ("\x01\x1b\x7f", r'"\001\033\177"'),
        ("é☃", '"é☃"'),
        ("", '""'),
    ],
)
def test_quote(text, quoted):
    assert quote(text) == quoted


def test_quoted_strings_read_back_by_the_parser():
    for text in ['say "hi"', "back\\slash\\", "line\nbreak", "\x01ctrl", "unicode é ☃", '"\n-gdb-exit\n"']:
        assert parse_line("~" + quote(text)).payload == text


@pytest.mark.parametrize("operation", ["break-insert", "-Break", "-a b", "-x;y", '-x"', "-x\n-gdb-exit", ""])
def test_bad_operations_refused(operation):
    with pytest.raises(MIBuildError, match="not an MI operation"):
        build(1, operation)


@pytest.mark.parametrize("word", ["", "a b", '"x"', "x\ny", "a;b", "$(id)"])
def test_bad_flags_refused(word):
    with pytest.raises(MIBuildError, match="not a valid MI flag"):
        Flag(word)


@pytest.mark.parametrize("value", [True, 1.5, None, b"x", ["x"]])
def test_bad_argument_types_refused(value):
    with pytest.raises(MIBuildError):
        build(1, "-x", value)  # type: ignore[arg-type]


def test_recorded_commands_rebuild_identically():
    """Every command the recordings sent, rebuilt through the builder, is the same line
    (where the recording quoted the same way we do)."""
    rebuilt = {
        "104-cuda-info-devices": build(104, "-cuda-info-devices"),
        '126-cuda-focus-switch "block (3,0,0) thread (200,0,0)"': build(126, "-cuda-focus-switch", "block (3,0,0) thread (200,0,0)"),
        '119-data-evaluate-expression "sdata[0]@32"': build(119, "-data-evaluate-expression", "sdata[0]@32"),
        "115-data-list-register-values x 2 3 4 5 6": build(115, "-data-list-register-values", Flag("x"), 2, 3, 4, 5, 6),
        '117-interpreter-exec console "info registers P0 P1 UR0 UR1"': build(117, *console("info registers P0 P1 UR0 UR1")),
    }
    recorded = set(in_lines("inspect.jsonl"))
    for line, ours in rebuilt.items():
        assert line in recorded and ours == line


# -- parsing -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["inspect.jsonl", "oob.jsonl", "assert.jsonl", "torch_assert.jsonl", "divergent.jsonl"])
def test_every_recorded_line_is_classified(name):
    """MI lines parse as MI; the only "other" lines are the debuggee's own output (no tty was set)."""
    for line in out_lines(name):
        record = parse_line(line)
        if record.kind == "other":
            assert not re.match(r"^\d*[\^*=+~@&]", line), line
        elif record.kind == "result":
            assert record.token is not None and 101 <= record.token < 200 and isinstance(record.payload, dict)
        elif record.kind in ("console", "log", "target"):
            assert isinstance(record.payload, str)
    others = [line for line in out_lines(name) if parse_line(line).kind == "other"]
    assert len(others) <= 2


def test_real_records_of_each_kind():
    lines = out_lines("inspect.jsonl")
    kinds = {parse_line(line).kind for line in lines}
    assert kinds >= {"result", "exec", "notify", "console", "log", "prompt", "other"}
    done = parse_line(next(line for line in lines if line.startswith("104^")))
    assert (done.token, done.message) == (104, "done") and "InfoCudaDevicesTable" in done.payload
    error = parse_line(next(line for line in lines if line.startswith("122^")))
    assert (error.message, error.payload) == ("error", {"msg": "Unable to read memory."})
    stopped = parse_line(next(line for line in lines if line.startswith("*stopped")))
    assert stopped.kind == "exec" and stopped.payload["CudaFocus"]["sm"] == "128"
    notify = parse_line(next(line for line in lines if line.startswith("=thread-group-started")))
    assert (notify.message, notify.payload["pid"]) == ("thread-group-started", "929")
    log = parse_line(next(line for line in lines if line.startswith('&"warning: Warp')))
    assert log.kind == "log" and log.payload.startswith("warning: Warp(s) other than the current warp")
    assert parse_line("launch(1) -> 0 no error").kind == "other"
    assert parse_line("(gdb) ").kind == "prompt" and parse_line("(gdb) \r\n").kind == "prompt"


def test_well_formed():
    assert well_formed('^done,a=[{b="]"}],c="\\""')
    assert not well_formed("^done,a=[1,2") and not well_formed('~"abc') and not well_formed("^done,a=}")
    assert not well_formed("^done,a={b=[}]")
