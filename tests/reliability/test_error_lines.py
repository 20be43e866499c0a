"""Issue 36: every error line of the command line is one harmless line.

A file name holding an OSC window title and clipboard write, a CSI, a DCS string, C1 controls
(UTF-8 and a raw 8-bit byte) and a newline is given to every error path of ``cudatui`` and its
sub-commands; the raw bytes on stderr hold no ESC, no BEL, no C1 control, and the message is one
line (the newline is shown as ``^J``). Names too long for the system (a 5,000-character program,
a 300-character path component) are one line and exit 2; stdout on a full disk
(``> /dev/full``) is one line; a recording whose stop-state record is malformed is reported as a
bad record. Real processes, real files.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

WAIT = 60.0
HOSTILE = (b"\x1b]2;PWN\x07\x1b]52;c;UFdO\x07\x1b[31m\x1bP1$qm\x1b\\" + "\u009b2J\u009d0;T\u0085".encode()
           + b"\x9b\x07\nsecond")
"""OSC title, OSC 52 clipboard, CSI colour, DCS request, UTF-8 C1 (CSI, OSC, NEL), a raw 8-bit CSI
byte (not UTF-8), a BEL and a newline."""
LESSON_RECORDING = ROOT / "kernels" / "recordings" / "assert.jsonl.gz"
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def cudatui(*args: bytes | str, stdin: int | None = subprocess.DEVNULL, stdout: int | None = subprocess.PIPE,
            cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "cudatui", *args], cwd=cwd, stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=WAIT, env={**os.environ, "TERM": "dumb"})


def error_line(done: subprocess.CompletedProcess[bytes], code: int = 2) -> str:
    """The one line on stderr, checked to be harmless: no ESC, BEL or C1 byte, valid UTF-8."""
    raw = done.stderr
    assert done.returncode == code, (done.returncode, raw[-600:])
    assert b"\x1b" not in raw and b"\x07" not in raw, raw
    text = raw.decode("utf-8")  # strict: a raw 8-bit C1 byte would not decode
    assert text.endswith("\n") and text.count("\n") == 1, text
    assert not _CONTROL.search(text[:-1]), text
    assert "Traceback" not in text
    return text


@pytest.fixture
def hostile(tmp_path: Path) -> bytes:
    """A directory whose name is HOSTILE (bytes), under tmp_path; returns its path."""
    path = os.fsencode(tmp_path) + b"/" + HOSTILE
    os.mkdir(path)
    return path


def _paths(hostile: bytes, tmp_path: Path) -> dict[str, list[bytes | str]]:
    """Each error path of the command line and a command line that takes it with ``hostile``."""
    program = hostile + b"/prog"
    with open(program, "wb") as f:
        f.write(b"#!/bin/sh\n")  # not executable
    script = hostile + b".py"
    with open(script, "wb") as f:
        f.write(b"def (:\n")
    garbage = hostile + b".jsonl"
    with open(garbage, "wb") as f:
        f.write(b"not a recording\n")
    missing = hostile + b"/missing"
    true = os.fsencode(sys.executable)
    return {
        "missing-program": [missing],
        "directory": [hostile],
        "not-executable": [program],
        "syntax-error": ["--debugger", "gdb", script],
        "missing-recording": ["replay", missing],
        "unreadable-recording": ["replay", garbage],
        "recording-is-a-directory": ["replay", hostile],
        "bad-record-target": ["--debugger", "gdb", "--record", missing + b"/x.jsonl", true],
        "missing-core": ["--debugger", "gdb", "--core", missing],
        "bad-pid": [b"--pid", hostile],
        "bad-debugger": ["--debugger", missing, true],
        "bad-lang": [b"--lang", hostile, true],
        "unknown-lesson": ["demo", hostile],
        "missing-demo-recording": ["demo", "assert", "--replay", "--recording", missing],
        "follow-missing": ["follow", missing],
        "sanitize-missing-report": ["sanitize", "--read", missing],
        "stats-missing-replay": ["stats", "--once", "--replay", missing],
        "explain-unknown-option": ["explain", b"--" + hostile],
        "doctor-bad-timeout": [b"doctor", b"--timeout", hostile],
        "replay-unknown-option": ["replay", b"--x=" + hostile, garbage],
    }


CASES = ("missing-program", "directory", "not-executable", "syntax-error", "missing-recording", "unreadable-recording",
         "recording-is-a-directory", "bad-record-target", "missing-core", "bad-pid", "bad-debugger", "bad-lang",
         "unknown-lesson", "missing-demo-recording", "follow-missing", "sanitize-missing-report",
         "stats-missing-replay", "explain-unknown-option", "doctor-bad-timeout", "replay-unknown-option")
EXIT = {"stats-missing-replay": 1}


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_name_on_any_error_path_is_one_harmless_line(hostile: bytes, tmp_path: Path, case: str) -> None:
    text = error_line(cudatui(*_paths(hostile, tmp_path)[case]), EXIT.get(case, 2))
    assert text.startswith("cudatui"), text


def test_the_escapes_are_shown_not_dropped(hostile: bytes) -> None:
    """The name stays recognisable: ESC as ^[, BEL as ^G, the newline as ^J."""
    text = error_line(cudatui(hostile + b"/missing"))
    assert "^[]2;PWN^G^[]52;c;UFdO^G" in text and "^Jsecond" in text, text


@pytest.mark.parametrize("where", ["program", "component", "replay", "core", "record", "follow", "sanitize",
                                   "demo-recording"])
def test_names_too_long_for_the_system_are_one_line(tmp_path: Path, where: str) -> None:
    """A 5,000-character program name; a 300-character path component (File name too long)."""
    long_component = str(tmp_path / ("a" * 300) / "x")
    argv: list[str] = {
        "program": ["b" * 5000],
        "component": [long_component],
        "replay": ["replay", long_component],
        "core": ["--debugger", "gdb", "--core", long_component],
        "record": ["--debugger", "gdb", "--record", long_component, sys.executable],
        "follow": ["follow", long_component],
        "sanitize": ["sanitize", "--read", long_component],
        "demo-recording": ["demo", "assert", "--replay", "--recording", long_component],
    }[where]
    text = error_line(cudatui(*argv))
    assert len(text) < 1000, len(text)


@pytest.mark.parametrize("argv", [["demo", "--list"], ["explain", "CUDA error: an illegal memory access"]],
                         ids=["demo-list", "explain"])
def test_stdout_on_a_full_disk_is_one_line(argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "cudatui", *argv], cwd=ROOT, stdin=subprocess.DEVNULL,
                              stdout=full, stderr=subprocess.PIPE, timeout=WAIT)
    text = error_line(done, done.returncode)
    assert done.returncode == 1 and text == "cudatui: cannot write the output: No space left on device\n", text


def _with_a_malformed_stop_state(target: Path, answer: str) -> Path:
    lines = gzip.decompress(LESSON_RECORDING.read_bytes()).decode().splitlines()
    for i, line in enumerate(lines):
        entry = json.loads(line)
        if entry.get("dir") == "out" and str(entry.get("line", "")).startswith("999999999^done,reason="):
            lines[i] = json.dumps({**entry, "line": f"999999999^done,{answer}"})
            break
    else:
        raise AssertionError("the lesson recording has no stop state")
    target.write_text("\n".join(lines) + "\n")
    return target


@pytest.mark.parametrize("answer", ['"a string"', "[1,2]", 'reason=["a","b"]', "reason={func=\"f\"}"],
                         ids=["string", "list", "field-is-a-list", "field-is-a-tuple"])
@pytest.mark.parametrize("command", ["replay", "demo"])
def test_a_malformed_stop_state_is_a_bad_record(tmp_path: Path, answer: str, command: str) -> None:
    bad = _with_a_malformed_stop_state(tmp_path / "bad.jsonl", answer)
    argv = ["replay", str(bad)] if command == "replay" else ["demo", "assert", "--replay", "--recording", str(bad)]
    text = error_line(cudatui(*argv))
    assert f"{bad}: the -cudatui-stop-state record of exchange" in text and "is malformed" in text, text


def test_the_error_path_names_are_real_files(hostile: bytes, tmp_path: Path) -> None:
    """The hostile names above are files on disk, not only words (the checks stat them)."""
    _paths(hostile, tmp_path)
    assert stat.S_ISDIR(os.stat(hostile).st_mode) and os.path.isfile(hostile + b".py")
