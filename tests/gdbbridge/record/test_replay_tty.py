"""Where the replay stand-in writes the recorded program output: to the tty the front end named
with ``-inferior-tty-set`` while the front end is there, and nowhere once it has gone (its pty's
number may be another terminal's by then: a replay that outlived its front end once wrote a
lesson's output over another app's screen)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import RECORDED

RECORDING = RECORDED / "bridge_kernel_launch.jsonl"
PROGRAM_LINE = "fill -> 0\n"


def commands(tty: Path) -> list[str]:
    """The recording's commands, in order (``-gdb-exit`` left out), naming ``tty`` for the program."""
    entries = [json.loads(line) for line in RECORDING.read_text().splitlines()]
    assert {"dir": "program", "line": PROGRAM_LINE} in [{"dir": e.get("dir"), "line": e.get("line")} for e in entries]
    sent = [e["line"] for e in entries if e.get("dir") == "in" and not e["line"].startswith("-gdb-exit")]
    return [f"1-inferior-tty-set {json.dumps(str(tty))}" if line.startswith("1-inferior-tty-set") else line
            for line in sent]


def replay(stdin: int | None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(RECORDING)],
                            stdin=stdin if stdin is not None else subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_program_output_goes_to_the_named_tty_while_the_front_end_is_there(tmp_path: Path) -> None:
    tty = tmp_path / "tty"
    tty.write_text("before\n")
    proc = replay(None)
    assert proc.stdin is not None and proc.stdout is not None
    sent = commands(tty)
    proc.stdin.write("\n".join(sent) + "\n")
    proc.stdin.flush()
    last = sent[-1].split("-", 1)[0]
    for line in proc.stdout:
        if line.startswith(f"{last}^"):
            break
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    assert tty.read_text() == "before\n" + PROGRAM_LINE  # appended, never truncated


def test_nothing_is_written_once_the_front_end_has_gone(tmp_path: Path) -> None:
    """The front end wrote its commands and went away (its end of the pipe closed) before the
    stand-in read them: the tty it named is left alone."""
    tty = tmp_path / "tty"
    tty.write_text("another terminal's\n")
    read, write = os.pipe()
    os.write(write, ("\n".join(commands(tty)) + "\n").encode())
    os.close(write)
    try:
        proc = replay(read)
    finally:
        os.close(read)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and err == ""
    assert "^running" in out  # it did serve the commands
    assert tty.read_text() == "another terminal's\n"
