"""`cudatui triage` on the command line, as a user runs it (a subprocess): a program that exits
without a GPU fault is run to its end, its output passes through and cudatui exits with its
code; what cannot work is said in one line before the program runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import FIXTURES, ROOT

EXITS = FIXTURES / "python" / "triage" / "exits.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def test_a_program_without_a_fault_runs_through_and_gives_its_code(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--debugger", "gdb", "--keep", "dumps",
                          str(EXITS), "3"], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert run.returncode == 3
    assert run.stdout.strip() == "ran to the end"
    lines = run.stderr.splitlines()
    assert lines[0].startswith("cudatui triage: running ") and "(full) into dumps" in lines[0]
    assert lines[1] == f"cudatui triage: {EXITS} exited with code 3 and no GPU fault (the driver wrote no coredump)"
    assert lines[2] == "cudatui triage: the dumps and the output are kept in dumps"
    assert (tmp_path / "dumps" / "output.txt").read_text().strip() == "ran to the end"


def test_a_missing_debugger_is_said_before_the_program_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    script = tmp_path / "prog.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    run = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--debugger", str(tmp_path / "no-gdb\x1b]2;x\x07"),
                          str(script)], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and not marker.exists()
    assert len(run.stderr.splitlines()) == 1 and "not found" in run.stderr and "\x1b" not in run.stderr


def test_rank_n_of_a_job_runs_the_launcher_with_that_rank_armed(tmp_path: Path) -> None:
    launcher = FIXTURES / "c" / "jobs" / "launcher.py"
    rank = FIXTURES / "python" / "triage" / "armed_rank.py"
    run = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--debugger", "gdb", "--rank", "1", "--",
                          sys.executable, str(launcher), "--nproc", "2", str(rank)],
                         cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    armed = sorted(line.split(" file ")[0] for line in run.stdout.splitlines() if line.startswith("rank "))
    assert armed == ["rank 0 armed None", "rank 1 armed 1"]
    lines = run.stderr.splitlines()
    assert "rank 1's GPU fault is dumped (full)" in lines[0]
    assert lines[1] == f"cudatui triage: rank 1 of {sys.executable} exited with code 0: no GPU fault"


def test_a_negative_rank_is_one_line() -> None:
    run = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--rank", "-1", "--", "torchrun", "x.py"],
                         env=ENV, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1 and "--rank N needs N >= 0" in run.stderr
