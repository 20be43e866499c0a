"""Programs cudatui did not start: a running C program to attach to (its heartbeat file grows
while it runs), a debugger that traces it first, and the small launcher of a distributed job
with its rank script (tests/fixtures/c/jobs/)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.jobs.attach import attach_problem

from .paths import C_SOURCES
from .processes import alive
from .programs import compile_c
from .wait import wait_until

JOBS = C_SOURCES / "jobs"
BEAT = JOBS / "beat.c"
"""Loops until killed, appending a line to the file argv[1] every round (~20 ms)."""
HUNG = JOBS / "hung.py"
"""A Python program waiting forever in ``wait_for_peer``, appending to the file argv[1]."""
LAUNCHER = JOBS / "launcher.py"
"""``launcher.py --nproc N SCRIPT ARGS``: starts N ranks as torchrun does (see its docstring)."""
RANK_SCRIPT = JOBS / "rank.py"
"""One rank: prints who it is, calls ``rank_work`` of the library argv[1]; rank 1 exits argv[2]."""
RANK_WORK = JOBS / "rank_work.c"


def beats(path: Path) -> int:
    """How many heartbeats the program wrote so far."""
    try:
        return len(path.read_text().splitlines())
    except OSError:
        return 0


def keeps_beating(path: Path, process: subprocess.Popen[bytes]) -> None:
    """The program runs (not stopped, not traced) and its heartbeat grows: five more lines."""
    assert process.poll() is None and alive(process.pid)
    status = Path(f"/proc/{process.pid}/status").read_text()
    assert "TracerPid:\t0" in status, status
    start = beats(path)
    wait_until(lambda: beats(path) >= start + 5, why="the program to go on writing its heartbeat")


class Beating:
    """The heartbeat program started from ``folder``: ``process``, ``file``; killed by :meth:`stop`."""

    def __init__(self, folder: Path) -> None:
        program = compile_c(BEAT, folder / "beat")
        self.file = folder / "beat.txt"
        self.process = subprocess.Popen([str(program), str(self.file)], cwd=folder)
        wait_until(lambda: beats(self.file) > 0, why="the first heartbeat")
        problem = attach_problem(self.process.pid)
        if problem:
            self.stop()
            pytest.skip(f"cannot attach here: {problem}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def traced_by_gdb(pid: int) -> subprocess.Popen[bytes]:
    """A GNU gdb that attaches to ``pid`` and holds it (until killed): another tracer."""
    gdb = subprocess.Popen(["gdb", "-q", "-nx", "-batch", "-p", str(pid), "-ex", "shell sleep 600"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    wait_until(lambda: f"TracerPid:\t{gdb.pid}" in Path(f"/proc/{pid}/status").read_text(),
               why="gdb to trace the program")
    return gdb


def untrace(gdb: subprocess.Popen[bytes]) -> None:
    """Kill the gdb of :func:`traced_by_gdb` and its ``shell sleep`` (its process group)."""
    try:
        os.killpg(gdb.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    gdb.wait()


def rank_library(folder: Path) -> Path:
    """tests/fixtures/c/jobs/rank_work.c as a shared library (what each rank loads)."""
    return compile_c(RANK_WORK, folder / "librank.so", "-shared", "-fPIC")


def launcher_argv(library: Path, ranks: int = 2, rank1_exit: int = 0) -> tuple[str, ...]:
    """The job: the launcher running ``ranks`` ranks of the rank script."""
    return (sys.executable, str(LAUNCHER), "--nproc", str(ranks), str(RANK_SCRIPT), str(library), str(rank1_exit))
