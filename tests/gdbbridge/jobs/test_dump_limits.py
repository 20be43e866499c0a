"""The room a triage run's dumps may take (gdbbridge/jobs/dump_limits.py), on real processes: a C
program that segfaults writes its CPU core capped at ``--max-dump-size`` with RLIMIT_CORE; the core
is moved into the run's private directory, a core cut by the cap is said in one line (and GNU gdb
reads a whole one); a user's file named like the core is never replaced; the free space of the
dumps' filesystem is checked against the size; a GPU dump begun and not written, empty or cut is
said in one line."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from cudatui.gdbbridge.jobs import triage
from cudatui.gdbbridge.jobs.dump_limits import (
    CorePlace, core_place, elf_cut, free_space, gpu_dump_notes, parse_size, space_problem,
)
from tests.support.paths import C_SOURCES
from tests.support.programs import compile_c, marked_line, needs_gdb

SEGFAULTS = C_SOURCES / "triage" / "segfaults.c"
MiB = 1 << 20


def cores_land_in_files() -> None:
    """Skip unless this machine's kernel writes CPU cores into files a user may get (its
    core_pattern is a file name, the hard core limit not 0)."""
    place = core_place(os.getcwd())
    if isinstance(place, str):
        pytest.skip(place)
    import resource
    if resource.getrlimit(resource.RLIMIT_CORE)[1] == 0:
        pytest.skip("the hard limit on cores is 0 here")


@pytest.fixture
def segfaults(tmp_path: Path) -> Path:
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc")
    return compile_c(SEGFAULTS, tmp_path / "bin" / "segfaults")


def test_a_cpu_core_over_the_size_is_cut_by_rlimit_core_and_said(tmp_path: Path, segfaults: Path) -> None:
    cores_land_in_files()
    directory = triage.private_directory(str(tmp_path / "dumps"))
    said: list[bytes] = []
    result = triage.run_armed([str(segfaults), "16"], directory, cwd=str(tmp_path), echo=said.append, core_limit=MiB)
    assert result.returncode == -signal.SIGSEGV and b"touched 16777216 bytes" in b"".join(said)
    assert result.cpu_core == directory / "cpu.core" and result.cpu_core.is_file()
    assert not list(tmp_path.glob("core*")), "the core is moved out of the program's directory"
    size, needed = elf_cut(result.cpu_core) or (0, 0)
    assert size < needed and needed > 16 * MiB
    cut = [note for note in result.notes if "CPU core is cut short" in note]
    assert len(cut) == 1 and "(--max-dump-size 1.0 MiB)" in cut[0] and "\n" not in cut[0]


@needs_gdb
def test_a_cpu_core_within_the_size_is_whole_and_gdb_reads_it(tmp_path: Path, segfaults: Path) -> None:
    cores_land_in_files()
    directory = triage.private_directory(str(tmp_path / "dumps"))
    result = triage.run_armed([str(segfaults), "2"], directory, cwd=str(tmp_path), echo=lambda _: None,
                              core_limit=64 * MiB)
    assert result.cpu_core == directory / "cpu.core" and result.notes == ()
    assert elf_cut(result.cpu_core) is None
    gdb = subprocess.run(["gdb", "-nx", "-batch", "-ex", "bt", str(segfaults), str(result.cpu_core)],
                         capture_output=True, text=True, timeout=120)
    assert f"segfaults.c:{marked_line(SEGFAULTS, 'THE FAULT')}" in gdb.stdout, gdb.stdout + gdb.stderr


def test_without_a_size_for_it_no_cpu_core_is_written(tmp_path: Path, segfaults: Path) -> None:
    directory = triage.private_directory(str(tmp_path / "dumps"))
    result = triage.run_armed([str(segfaults), "1"], directory, cwd=str(tmp_path), echo=lambda _: None)
    assert result.returncode == -signal.SIGSEGV and result.cpu_core is None and result.notes == ()
    assert not list(tmp_path.glob("core*")) and not (directory / "cpu.core").exists()


def test_a_users_file_the_core_would_replace_is_kept_and_nothing_runs(tmp_path: Path, segfaults: Path) -> None:
    cores_land_in_files()
    place = core_place(str(tmp_path))
    assert isinstance(place, CorePlace)
    if not place.exact:
        pytest.skip("this kernel's core_pattern names no single file")
    theirs = place.directory / place.glob
    theirs.write_text("the user's own file")
    marker = tmp_path / "ran"
    with pytest.raises(triage.TriageError, match="would replace"):
        triage.run_armed(["sh", "-c", f"touch {marker}"], triage.private_directory(str(tmp_path / "d")),
                         cwd=str(tmp_path), core_limit=MiB)
    assert theirs.read_text() == "the user's own file" and not marker.exists()


def test_the_dumps_filesystem_needs_the_size_free(tmp_path: Path) -> None:
    free = free_space(tmp_path)
    assert space_problem(tmp_path, 1) is None
    problem = space_problem(tmp_path, free + (1 << 40))  # more than this filesystem has free
    assert problem is not None and problem.startswith("only ") and "less than --max-dump-size" in problem
    assert str(tmp_path) in problem and "\n" not in problem


@pytest.mark.parametrize("text, size", [("4G", 4 << 30), ("512M", 512 * MiB), ("1.5GiB", 3 << 29), ("1000", 1000),
                                        ("64k", 64 << 10), ("2 TB", 2 << 40)])
def test_sizes_are_read_in_units_of_1024(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "12x", "-1G", "0", "G"])
def test_a_size_that_is_none_is_one_line(text: str) -> None:
    with pytest.raises(ValueError, match="no size: write it as 4G, 512M or a number of bytes"):
        parse_size(text)


@pytest.mark.parametrize("pattern, uses_pid, where", [
    ("core", False, ("/run/here", "core", True)),
    ("core", True, ("/run/here", "core.*", False)),
    ("core.%e.%p", True, ("/run/here", "core.*.*", False)),
    ("/var/crash/core.%t.%%", False, ("/var/crash", "core.*.%", False)),
])
def test_where_the_kernel_writes_a_core(pattern: str, uses_pid: bool, where: tuple[str, str, bool]) -> None:
    assert core_place("/run/here", pattern, uses_pid) == CorePlace(Path(where[0]), where[1], where[2])


def test_a_core_handed_to_a_handler_is_said() -> None:
    said = core_place("/run/here", "|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h", False)
    assert said == "the kernel hands CPU cores to /usr/lib/systemd/systemd-coredump (core_pattern), not to a file " \
                   "cudatui can move"


def test_a_gpu_dump_begun_missing_empty_or_cut_is_one_line(tmp_path: Path, segfaults: Path) -> None:
    """The driver's message with no dump; an empty dump; a dump shorter than its ELF headers say (a
    real core cut by RLIMIT_CORE stands for it: both are ELF files)."""
    begun = b"Starting GPU coredump generation, set the CUDA_COREDUMP_SHOW_PROGRESS environment variable\n"
    assert gpu_dump_notes(None, tmp_path, begun) == (f"the driver began a GPU coredump but none is in {tmp_path} "
                                                     "(a full disk?)",)
    assert gpu_dump_notes(None, tmp_path, b"exited") == ()
    empty = tmp_path / "gpu.1.nvcudmp"
    empty.touch()
    assert gpu_dump_notes(empty, tmp_path, begun) == ("the GPU coredump gpu.1.nvcudmp is empty (a full disk?): "
                                                      "cuda-gdb cannot open it",)
    cores_land_in_files()
    directory = triage.private_directory(str(tmp_path / "dumps"))
    result = triage.run_armed([str(segfaults), "8"], directory, cwd=str(tmp_path), echo=lambda _: None, core_limit=MiB)
    assert result.cpu_core is not None
    cut = result.cpu_core.rename(tmp_path / "gpu.2.nvcudmp")
    note, = gpu_dump_notes(cut, tmp_path, begun)
    assert note.startswith("the GPU coredump gpu.2.nvcudmp is cut short at ") and note.endswith("cuda-gdb may not open it")
