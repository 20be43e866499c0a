"""`cudatui triage` on the command line, as a user runs it (a subprocess): a program that exits
without a GPU fault is run to its end, its output passes through and cudatui exits with its
code; what cannot work is said in one line before the program runs (too little room for the
dumps, a file the CPU core would replace); a CPU core cut by ``--max-dump-size`` is said in one line."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.jobs.dump_limits import CorePlace, core_place
from tests.support.paths import C_SOURCES, FIXTURES, ROOT
from tests.support.programs import compile_c

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


def test_a_size_the_dumps_directory_has_not_free_is_refused_before_the_program_runs(tmp_path: Path) -> None:
    """``--max-dump-size`` above what the filesystem has free (a petabyte here): one line, exit 2,
    the program never started and the run's directory removed."""
    marker = tmp_path / "ran"
    script = tmp_path / "prog.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    run = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--debugger", "gdb", "--max-dump-size", "1024T",
                          str(script)], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and not marker.exists()
    line, = run.stderr.splitlines()
    assert " free where the dumps go (" in line and "less than --max-dump-size 1024.0 TiB" in line
    directory = line.split("where the dumps go (", 1)[1].split(")", 1)[0]
    assert not Path(directory).exists()
    bad = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--max-dump-size", "4 gigs", str(script)],
                         cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and not marker.exists()
    assert bad.stderr.splitlines() == ["cudatui: --max-dump-size: '4 gigs' is no size: write it as 4G, 512M or a "
                                       "number of bytes"]


def test_a_cpu_core_cut_by_the_size_is_said_and_kept(tmp_path: Path) -> None:
    """``--cpu-core --max-dump-size 1M`` on a C program that touches 16 MiB and segfaults: its core
    is capped by RLIMIT_CORE, moved into the kept directory, and the cut is one line."""
    if shutil.which("gcc") is None or not isinstance(core_place(str(tmp_path)), CorePlace):
        pytest.skip("needs gcc and a core_pattern that writes files")
    program = compile_c(C_SOURCES / "triage" / "segfaults.c", tmp_path / "segfaults")
    run = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--debugger", "gdb", "--cpu-core",
                          "--max-dump-size", "1M", "--keep", "dumps", str(program), "16"],
                         cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert run.returncode == 128 + signal.SIGSEGV, run.stderr
    lines = run.stderr.splitlines()
    assert "the CPU core too (at most 1.0 MiB) into dumps" in lines[0]
    assert lines[1].endswith("was ended by SIGSEGV and the driver wrote no GPU coredump (a fault on the CPU side, "
                             "or one the driver does not dump)")
    assert lines[2].startswith("cudatui triage: the CPU core is cut short at ") and "(--max-dump-size 1.0 MiB)" in lines[2]
    assert lines[3] == "cudatui triage: the dumps and the output are kept in dumps"
    assert (tmp_path / "dumps" / "cpu.core").is_file() and not list(tmp_path.glob("core*"))


def test_a_file_the_cpu_core_would_replace_is_said_before_the_program_runs(tmp_path: Path) -> None:
    place = core_place(str(tmp_path))
    if not isinstance(place, CorePlace) or not place.exact:
        pytest.skip("this kernel's core_pattern names no single file")
    theirs = place.directory / place.glob
    theirs.write_text("kept")
    marker = tmp_path / "ran"
    script = tmp_path / "prog.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    run = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--debugger", "gdb", "--cpu-core", str(script)],
                         cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and not marker.exists() and theirs.read_text() == "kept"
    assert run.stderr.splitlines() == [f"cudatui: the CPU core would replace {theirs} (the kernel's core_pattern names "
                                       "that file): move it away, or leave out --cpu-core"]
    with_rank = subprocess.run([sys.executable, "-m", "cudatui", "triage", "--cpu-core", "--rank", "1", "--", "torchrun",
                                "x.py"], env=ENV, capture_output=True, text=True, timeout=120)
    assert with_rank.returncode == 2 and with_rank.stderr.splitlines() == [
        "cudatui: --cpu-core is for one program, not with --rank"]
