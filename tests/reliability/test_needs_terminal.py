"""Issue 36: the full-screen UI without a terminal is refused in one line, exit 2.

A valid command line run from cron or ``ssh host cudatui ...`` without ``-t`` (stdin on
/dev/null, stderr a pipe) hung and wrote screen codes to stderr. Every full-screen start is
run here with stdin on /dev/null (and stdout a pipe, or a real terminal), or with stdin a real
terminal and stdout a pipe: each ends with ``needs a terminal ...`` and exit 2 before any
screen code. The sub-commands that print need no terminal and still print.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import FIXTURES, RECORDED, ROOT

WAIT = 60.0
"""Generous: a refusal is immediate; the old behaviour hung until this ran out."""
NVML = FIXTURES / "nvml" / "h200_samples.jsonl"
REPORT = FIXTURES / "sanitizer" / "memcheck.xml"
RECORDING = RECORDED / "panes_tile.jsonl"


def full_screen(tmp_path: Path) -> dict[str, list[str]]:
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    return {
        "debugger": ["--debugger", "gdb", "--no-run", sys.executable],
        "replay": ["replay", str(RECORDING)],
        "follow": ["follow", str(empty)],
        "demo-lesson": ["demo", "assert", "--replay"],
        "demo-picker": ["demo"],
        "stats": ["stats", "--replay", str(NVML)],
        "sanitize-report": ["sanitize", "--read", str(REPORT)],
    }


def run(argv: list[str], stdin: int, stdout: int) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "cudatui", *argv], cwd=ROOT, stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=WAIT, env={**os.environ, "TERM": "xterm-256color"})


@pytest.fixture
def terminal():
    """A real pseudo-terminal: (the end a program gets, the other end); both closed after."""
    controller, device = pty.openpty()
    yield device
    os.close(device)
    os.close(controller)


CASES = ("debugger", "replay", "follow", "demo-lesson", "demo-picker", "stats", "sanitize-report")


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("where", ["stdin-devnull-stdout-pipe", "stdin-devnull-stdout-terminal",
                                   "stdin-terminal-stdout-pipe"])
def test_the_full_screen_ui_without_a_terminal_is_one_line(tmp_path: Path, terminal: int, case: str,
                                                           where: str) -> None:
    if case == "sanitize-report" and where.endswith("stdout-pipe"):
        pytest.skip("sanitize --read into a pipe prints the report as text: no UI")
    stdin = subprocess.DEVNULL if where.startswith("stdin-devnull") else terminal
    stdout = terminal if where.endswith("stdout-terminal") else subprocess.PIPE
    done = run(full_screen(tmp_path)[case], stdin, stdout)
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert b"\x1b" not in done.stderr and done.stderr.count(b"\n") == 1, done.stderr
    assert b": needs a terminal for the full-screen UI, and standard " in done.stderr, done.stderr
    assert done.stdout in (None, b""), done.stdout[:200]


@pytest.mark.parametrize("argv", [
    ["demo", "--list"], ["explain", "CUDA error: an illegal memory access was encountered"],
    ["doctor", "--json", "--no-build", "--timeout", "5"], ["stats", "--once", "--json", "--replay", str(NVML)],
    ["sanitize", "--read", str(REPORT)], ["sanitize", "--json", "--read", str(REPORT)],
], ids=["demo-list", "explain", "doctor-json", "stats-once-json", "sanitize-read", "sanitize-json"])
def test_the_printing_commands_need_no_terminal(argv: list[str]) -> None:
    done = run(argv, subprocess.DEVNULL, subprocess.PIPE)
    assert b"needs a terminal" not in done.stderr and b"Traceback" not in done.stderr, done.stderr[-500:]
    assert done.stdout.strip() and b"\x1b[" not in done.stdout, done.stdout[:300]
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-500:])
