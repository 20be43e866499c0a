"""Smoke test of bench/: each module runs with a tiny N and prints well-formed result lines.

Asserts on structure only (names, units, verdicts, the summary table), never on timings.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.paths import ROOT

LINE = re.compile(r"^BENCH (\w+) \| ([^|]+) \| (-?[\d.,]+|nan)(x| ms| cmd/s| MB/s| passes) \| goal (-|[<>]= [\d.,]+(x| ms| passes)) \| "
                  r"(MET|MISSED|-) \| (.*)$")


def run_module(*args: str, timeout: float = 240) -> str:
    out = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def bench_lines(stdout: str) -> list[re.Match[str]]:
    found = [LINE.match(line) for line in stdout.splitlines() if line.startswith("BENCH ")]
    assert found and all(found), stdout
    return [m for m in found if m]


def check_missed_have_fix(stdout: str) -> None:
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("BENCH ") and "| MISSED |" in line:
            assert lines[i + 1].startswith("  WHY/FIX: "), line


needs_gdb = pytest.mark.skipif(shutil.which("gdb") is None, reason="needs GNU gdb")


@needs_gdb
def test_mi_roundtrip() -> None:
    stdout = run_module("bench.mi_roundtrip", "--quick")
    lines = bench_lines(stdout)
    names = [m.group(2) for m in lines]
    assert "GdbSession sequential / raw sequential" in names
    assert "GdbSession 16 in flight / raw sequential" in names
    assert "pygdbmi GdbController / raw sequential" in names
    goals = {m.group(2): m.group(5) for m in lines}
    assert goals["GdbSession sequential / raw sequential"] == ">= 0.50x"
    assert goals["GdbSession 16 in flight / raw sequential"] == ">= 1.00x"
    check_missed_have_fix(stdout)


def test_parse_big() -> None:
    stdout = run_module("bench.parse_big", "--quick")
    lines = bench_lines(stdout)
    parses = [m for m in lines if m.group(2).startswith("pygdbmi parse ")]
    stalls = [m for m in lines if m.group(2).startswith("longest UI stall")]
    assert {m.group(4) for m in parses} == {" MB/s"} and len(parses) == 3
    assert len(stalls) == 3 and all(m.group(5) == "<= 50.0 ms" for m in stalls)
    check_missed_have_fix(stdout)


@pytest.mark.long(2)
def test_stop_to_screen() -> None:
    stdout = run_module("bench.stop_to_screen", "--quick")
    lines = {m.group(2).strip(): m for m in bench_lines(stdout)}
    for size in ("160x48", "80x24"):
        assert lines[f"UI part median {size}"].group(5) == "<= 50.0 ms"
        assert lines[f"UI part p95 {size}"].group(5) == "<= 80.0 ms"
        detail = lines[f"UI part median {size}"].group(8)
        assert re.search(rf"\d+ steps \(by kind, with their median: .*key n x\d+ [\d.,]+ ms.*\) of 1 lesson recording x 1 replayed, {size}", detail), detail
        assert "layout passes per step" in detail and "x the goal" in detail
        passes = lines[f"layout passes per step {size}"]
        assert passes.group(5) == "<= 1.20 passes" and "the passes were for: " in passes.group(8)
        assert re.search(r"\^error answers in \d+ steps", lines[f"MI part median {size}"].group(8))
    check_missed_have_fix(stdout)


def test_stop_to_screen_rejects_unknown_lesson() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.stop_to_screen", "--lesson", "nope"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "no lesson recording 'nope'" in out.stderr and "Traceback" not in out.stderr


def test_scale() -> None:
    lines = bench_lines(run_module("bench.scale", "--quick"))
    names = [m.group(2) for m in lines]
    assert names == [
        "navigator: expand kernel -> block ranges shown",
        "navigator: expand block range -> thread ranges shown",
        "navigator: page down, median until idle",
        "shared memory: first page shown",
        "shared memory: next page, median until shown",
    ]
    assert "grid (64,1,1) x (256,1,1); 64 rows" in lines[0].group(8)


@needs_gdb
def test_gpu_set_runs_with_gnu_gdb(tmp_path: Path) -> None:
    program = tmp_path / "steps"
    subprocess.run(["gcc", "-g", "-O0", "-o", str(program), str(ROOT / "tests/fixtures/c/bridge/steps.c")], check=True)
    stdout = run_module("bench.gpu", "--debugger", "gdb", "--program", str(program), "--break", "steps.c:15",
                        "--rounds", "1", "--steps", "2", "--record", str(tmp_path / "sessions"))
    lines = bench_lines(stdout)
    assert [m.group(2) for m in lines] == [
        "first breakpoint: gdbbridge *stopped / bare -batch",
        "first breakpoint: first StopState shown / bare -batch",
        "step (-exec-next): GdbSession / raw MI pipe",
        "key to screen (n): the app / raw MI round trip",
        "key to screen (n): the app / raw -exec-next alone",
        "key to idle (n, the batch 39 measure): the app / raw MI round trip",
        "key to state (n): the Debugger's new state / raw MI round trip",
        "key taken to the command written (n)"]  # GNU gdb has no CUDA focus to switch
    # the baseline is the same MI commands as the app's: -exec-next, then the stop's batch outside a
    # kernel, without the registers (the Registers pane is not on the app's screen at 160x48) nor the
    # breakpoint table (a step's stop keeps it)
    assert ("the same 3 MI commands as the app's (-exec-next, -stack-list-frames, -stack-list-variables)"
            in lines[3].group(8)), lines[3].group(8)
    assert "key taken -> last screen update of the stop" in lines[3].group(8)
    # where the time after each of the app's stops went, read from its recording
    assert re.search(r"^app1\.jsonl: \d+ states published$", stdout, re.M), stdout
    assert re.search(r"^  next +x2 +queries 2, gdb [\d.]+, trips 1, ", stdout, re.M), stdout


def test_gpu_set_reports_missing_debugger_in_one_line() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.gpu", "--debugger", "no-such-debugger"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip() == "bench.gpu: debugger 'no-such-debugger' not found on PATH"


@needs_gdb
def test_run_prints_summary_table() -> None:
    stdout = run_module("bench.run", "--quick", "--only", "mi_roundtrip")
    assert "== summary" in stdout
    header = next(line for line in stdout.splitlines() if line.startswith("bench "))
    assert header.split() == ["bench", "measurement", "value", "goal", "verdict"]
    assert re.search(r"^mi_roundtrip\s+GdbSession sequential / raw sequential\s+\S+x\s+>= 0.50x\s+(MET|MISSED)$",
                     stdout, re.M)


def test_host_stack() -> None:
    """Each pystack method's read of a waiting Python program, against AUTO (the product's), and
    AUTO's read from a thread beside busy Python."""
    lines = bench_lines(run_module("bench.host_stack", "--rounds", "2", "--plain"))
    assert [m.group(2).strip() for m in lines] == ["read (AUTO, the product's)", "read (ELF_DATA) / AUTO",
                                                   "read (SYMBOLS) / AUTO", "read (BSS) / AUTO",
                                                   "read (AUTO) in a thread beside busy Python / alone"]
    assert lines[0].group(8).startswith("plain; median of 2; ") and lines[0].group(8).endswith(" frames")


def test_stop_queries_reads_a_lesson_recording() -> None:
    """Per published state of the race lesson's H200 recording: what led to it and what built it."""
    stdout = run_module("bench.stop_queries", "--steps", str(ROOT / "kernels/recordings/race.jsonl.gz"))
    assert stdout.splitlines()[0] == "race.jsonl.gz: 7 states published"
    # the first stop: -exec-run, then the batch of 11 queries in one write (one trip), the host stack waited for
    first = stdout.splitlines()[1]
    assert re.match(r"^  run +step [\d.]+ \| 11 q, gdb [\d.]+, trips 1, idle [\d.]+, serial [\d.]+, host [\d.]+, "
                    r"publish [\d.]+ ms \| stack-list-frames=[\d.]+ ", first), first
    assert "threads=" in first and "break-list=" in first
    assert re.search(r"^  cuda-focus-switch +x1 +queries 10, gdb [\d.]+, trips 2, ", stdout, re.M), stdout
    assert re.search(r"^  cuda-gdb per query \(median ms, count\): .*data-list-register-values [\d.]+ x7", stdout, re.M)
