"""Issue 36: two restarts in one recorded session: the recording keeps every run, each appended
after the ones before and numbered.

GNU gdb on steps.c with ``--record`` in a real terminal (tmux): it stops at the breakpoint, ``r``
runs it again (the same gdb: kill, then ``-exec-run``), twice. The screen says each restart
(``run 2 is recorded after the others in r.jsonl``, then ``run 3``); the recording, read after q,
holds one session whose marks ``run 1``, ``run 2``, ``run 3`` come in order, each followed by
its own ``-exec-run`` and a stop at the breakpoint, and what was written before each restart is
kept as it was (the file only grows). The file still replays (``load``).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge import load
from tests.reliability.test_record_targets import Terminal
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.wait import wait_until

pytestmark = [needs_gdb, pytest.mark.skipif(not shutil.which("tmux"), reason="needs tmux")]
WAIT = 60.0
HIT = '*stopped,reason="breakpoint-hit"'


def entries(record: Path) -> list[dict]:
    return [json.loads(line) for line in record.read_text().split("\n")[:-1]]  # whole lines only


def hits(record: Path) -> int:
    return sum(e["dir"] == "out" and e["line"].startswith(HIT) for e in entries(record)) if record.exists() else 0


def test_two_restarts_append_numbered_runs_to_the_recording(tmp_path: Path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    record = tmp_path / "r.jsonl"
    terminal = Terminal(tmp_path, [sys.executable, "-m", "cudatui", "--debugger", "gdb", "--record", record.name,
                                   "-b", f"steps.c:{BREAK_LINE}", str(program)])
    before: list[str] = []
    try:
        for run in (1, 2, 3):
            if run > 1:
                terminal("send-keys", "-t", "t", "r")
                terminal.wait_for_all(f"run {run} is recorded after the others in r.jsonl", timeout=WAIT)
            wait_until(lambda run=run: hits(record) == run, WAIT, lambda: f"stop {run} in the recording: {hits(record)}")
            terminal.wait_for_all("stopped breakpoint 1", timeout=WAIT)
            text = record.read_text()
            assert all(text.startswith(earlier) for earlier in before), "what was recorded is kept as it was"
            before.append(text)
        terminal("send-keys", "-t", "t", "q")
        screen = terminal.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
    finally:
        terminal("kill-server")
    lines = entries(record)
    assert [e["dir"] for e in lines].count("meta") == 1, "one gdb: one session"
    marks = [i for i, e in enumerate(lines) if e["dir"] == "mark" and e["line"].startswith("run ")]
    assert [lines[i]["line"] for i in marks] == ["run 1", "run 2", "run 3"]
    for start, end in zip(marks, [*marks[1:], len(lines)]):
        run = lines[start:end]
        assert sum(e["dir"] == "in" and e["line"].split(" ")[0].endswith("-exec-run") for e in run) == 1, run
        assert sum(e["dir"] == "out" and e["line"].startswith(HIT) for e in run) == 1, run
    assert load(str(record)).sessions == 1
