"""scripts/record_demos.py, the lesson recorder, tested without a GPU: its driving code over a C
program with real GNU gdb (``--program``), the recording it writes replayed along its path, and
a batch whose lessons cannot start (no such debugger) ending with a summary instead of a crash."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge import load
from cudatui.gdbbridge.record.stop_state import COMMAND, recorded_path
from tests.support.nvml import NO_DRIVER_REASON, NVML_WORKS
from tests.support.paths import C_SOURCES, ROOT
from tests.support.programs import compile_c, marked_line
from tests.support.recorded_path import replay_along

SCRIPT = ROOT / "scripts" / "record_demos.py"
PANES = C_SOURCES / "app" / "panes.c"
STEPS = [["start", ""], ["console", "print i"], ["key", "n"], ["frame", "1"], ["console", "print sum"],
         ["pane", "disassembly"], ["condition", "1 i == 3"], ["key", "c"], ["delete", "1"], ["key", "c"]]


def run_script(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, check=False)


@pytest.mark.long(2)
@pytest.mark.skipif(not all(shutil.which(t) for t in ("gdb", "gcc")), reason="needs gdb and gcc")
async def test_program_mode_records_the_path_with_gdb_and_the_replay_matches(tmp_path: Path) -> None:
    program = compile_c(PANES, tmp_path / "panes")
    (tmp_path / "steps.json").write_text(json.dumps(STEPS))
    out = tmp_path / "out"
    done = run_script("--debugger", "gdb", "--program", str(program), "--break",
                      f"panes.c:{marked_line(PANES, '/* LOOP */')}", "--steps", str(tmp_path / "steps.json"),
                      "--name", "panes", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    log = json.loads((out / "panes.steps.json").read_text())
    assert [s["ok"] for s in log["steps"]] == [True] * len(STEPS), log
    if not NVML_WORKS:  # each step says why it recorded no GPU sample: what the GPU pane says
        assert {s["gpu"] for s in log["steps"]} == {NO_DRIVER_REASON}, log
    recording = out / "panes.jsonl.gz"
    with gzip.open(recording, "rt") as handle:
        meta = json.loads(handle.readline())
    assert meta["dir"] == "meta" and meta["lesson"] == "panes" and "gdb" in meta["debugger"].lower()
    path = recorded_path(load(str(recording)))
    assert [[s.kind, s.arg] for s in path] == STEPS
    states = [s.state for s in path]
    assert all(states), path
    assert states[0].func == "add" and states[0].line == str(marked_line(PANES, "/* LOOP */"))
    assert states[2].line == str(marked_line(PANES, "/* LOOP */") + 1)
    assert (states[3].func, states[3].frame) == ("main", "1")
    assert (states[4].func, states[4].frame) == ("main", "1"), "a console command keeps the frame gdb has selected"
    assert states[-1].exit == "0"
    assert sum(x.key[:1] == (COMMAND,) for x in load(str(recording)).exchanges) >= 5
    assert not await replay_along(recording)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc to build the lessons")
def test_a_lesson_that_cannot_start_fails_alone_and_the_batch_ends_with_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run_script("oob", "leak", "--debugger", str(tmp_path / "no-such-cuda-gdb"), "--out", str(out),
                      "--jobs", "2", "--lesson-timeout", "120")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    summary = (out / "summary.txt").read_text().splitlines()
    assert [line.split()[0] for line in summary[1:3]] == ["oob", "leak"]
    assert all("ok" not in line.split()[1:2] for line in summary[1:3]), summary
    for name in ("oob", "leak"):
        steps = json.loads((out / f"{name}.steps.json").read_text())["steps"]
        assert not steps[0]["ok"] and "gone" in steps[0]["note"], steps
        assert all(not s["ok"] for s in steps[1:]) and len(steps) > 1
        assert "no-such-cuda-gdb" in (out / f"{name}.log").read_text()
