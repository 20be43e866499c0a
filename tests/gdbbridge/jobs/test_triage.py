"""``cudatui triage``'s run (gdbbridge/jobs/triage.py) on real programs: what it arms, for the
program alone; its output streaming while it runs; how it ended; the Python stack that
faulthandler prints when the process is aborted (as the CUDA driver does after a GPU coredump),
read back as the host stack of the post-mortem."""

from __future__ import annotations

import os
import resource
import signal
import stat
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.host import post_mortem_stack
from cudatui.gdbbridge.jobs import triage
from cudatui.gdbbridge.jobs.dump_limits import CorePlace, core_place
from tests.support.paths import FIXTURES
from tests.support.programs import marked_line

ABORTS = FIXTURES / "python" / "triage" / "aborts.py"
EXITS = FIXTURES / "python" / "triage" / "exits.py"


def test_an_aborted_program_leaves_its_output_and_python_stack_and_no_core(tmp_path: Path) -> None:
    directory = triage.private_directory(str(tmp_path / "dumps"))
    seen = tmp_path / "seen"
    said: list[bytes] = []

    def echo(chunk: bytes) -> None:  # the first line arrives while the program still runs: it waits for this file
        said.append(chunk)
        if b"armed" in b"".join(said):
            seen.touch()

    result = triage.run_armed([sys.executable, str(ABORTS), str(seen)], directory, cwd=str(tmp_path), echo=echo)
    assert result.returncode == -signal.SIGABRT and result.signal_name == "SIGABRT" and result.exit_status == 134
    assert result.dump is None
    assert "no GPU coredump" in result.summary("aborts.py")
    first = b"".join(said).decode().splitlines()[0].split(" ", 4)
    assert first[1:4] == ["1", str(directory / "gpu.%p.nvcudmp"), "None"]  # a full dump: cuda-gdb 13.0 opens no other
    assert first[4].strip() == "(0, 0)"  # no CPU core
    assert "CUDA_ENABLE_COREDUMP_ON_EXCEPTION" not in os.environ  # armed for the program alone
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(result.output).st_mode) == 0o600
    assert "Fatal Python error: Aborted" in result.output.read_text()

    config = LaunchConfig(debugger=("cuda-gdb",), target=(str(ABORTS),), cwd=str(tmp_path),
                          core=str(directory / "gpu.4242.nvcudmp"), program_output=str(result.output))
    stack = post_mortem_stack(config)
    assert stack is not None and stack.pid == 4242 and stack.thread is not None and stack.thread.tid == 4242
    frame = stack.user_frame
    assert frame is not None and (frame.file, frame.function) == (str(ABORTS), "sync_point")
    assert frame.line == marked_line(ABORTS, "# THE ABORT") and frame.code == "os.abort()  # THE ABORT"
    assert [f.line for f in stack.thread.frames][1] == marked_line(ABORTS, "# THE CALL")


def test_a_program_that_exits_is_told_with_its_code(tmp_path: Path) -> None:
    said: list[bytes] = []
    result = triage.run_armed([sys.executable, str(EXITS), "3"], triage.private_directory(None), echo=said.append)
    try:
        assert result.returncode == 3 and result.exit_status == 3 and result.dump is None
        assert b"ran to the end" in b"".join(said)
        assert result.summary("exits.py") == "exits.py exited with code 3 and no GPU fault (the driver wrote no coredump)"
    finally:
        triage.remove_run(result.directory)
    assert not result.directory.exists()


def test_keep_makes_an_existing_directory_private_and_refuses_a_file(tmp_path: Path) -> None:
    open_dir = tmp_path / "open"
    open_dir.mkdir(mode=0o755)
    os.chmod(open_dir, 0o755)
    assert stat.S_IMODE(os.stat(triage.private_directory(str(open_dir))).st_mode) == 0o700
    (tmp_path / "file").write_text("x")
    with pytest.raises(triage.TriageError, match="not a directory"):
        triage.private_directory(str(tmp_path / "file"))


def test_a_program_that_cannot_start_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(triage.TriageError, match="cannot run"):
        triage.run_armed([str(tmp_path / "missing")], triage.private_directory(str(tmp_path / "d")))


def test_with_a_rank_only_that_rank_of_the_job_is_armed(tmp_path: Path) -> None:
    """``cudatui triage --rank 1 -- LAUNCHER``: the launcher (a real one, starting each rank through
    ``$PYTHON_EXEC`` as torchrun does) and the other ranks run unarmed; rank 1 runs armed."""
    directory = triage.private_directory(str(tmp_path / "dumps"))
    said: list[bytes] = []
    launcher = [sys.executable, str(FIXTURES / "c" / "jobs" / "launcher.py"), "--nproc", "3",
                str(FIXTURES / "python" / "triage" / "armed_rank.py")]
    result = triage.run_armed(launcher, directory, cwd=str(tmp_path), echo=said.append, rank=1)
    lines = sorted(line for line in b"".join(said).decode().splitlines() if line.startswith("rank "))
    dump = directory / "gpu.%p.nvcudmp"
    assert lines == ["rank 0 armed None file None faulthandler None",
                     f"rank 1 armed 1 file {dump} faulthandler 1",
                     "rank 2 armed None file None faulthandler None"]
    assert result.returncode == 0 and result.dump is None
    assert "CUDA_ENABLE_COREDUMP_ON_EXCEPTION" not in os.environ
    assert stat.S_IMODE(os.stat(directory / "rank-python").st_mode) == 0o700


def test_with_a_cpu_core_the_python_stack_comes_from_it_where_the_output_has_none(tmp_path: Path) -> None:
    """``--cpu-core``: a program whose fault handler is off prints no Python stack when aborted; the
    post-mortem reads it from the CPU core triage moved into the run's directory (pystack's core
    analysis)."""
    pytest.importorskip("pystack")
    quiet = FIXTURES / "python" / "triage" / "aborts_quietly.py"
    if not isinstance(core_place(str(tmp_path)), CorePlace) or resource.getrlimit(resource.RLIMIT_CORE)[1] == 0:
        pytest.skip("the kernel writes no CPU core file here")
    directory = triage.private_directory(str(tmp_path / "dumps"))
    result = triage.run_armed([sys.executable, str(quiet)], directory, cwd=str(tmp_path), echo=lambda _: None,
                              core_limit=1 << 30)
    assert result.returncode == -signal.SIGABRT and result.cpu_core == directory / "cpu.core"
    assert "Fatal Python error" not in result.output.read_text()
    config = LaunchConfig(debugger=("cuda-gdb",), target=(str(quiet),), cwd=str(tmp_path),
                          core=str(directory / "gpu.1.nvcudmp"), program_output=str(result.output),
                          host_core=str(result.cpu_core))
    stack = post_mortem_stack(config)
    assert stack is not None and stack.error is None
    frame = stack.user_frame
    assert frame is not None and (frame.file, frame.function) == (str(quiet), "sync_point")
    assert frame.line == marked_line(quiet, "# THE ABORT")
