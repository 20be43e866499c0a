"""``cudatui --rank N -- LAUNCHER ...``: one rank of a job under real GNU gdb, the others run as
usual (Pilot). The launcher is tests/fixtures/c/jobs/launcher.py, a small real launcher that
starts its ranks as torchrun does (RANK, WORLD_SIZE, LOCAL_RANK; their Python is $PYTHON_EXEC)."""

from __future__ import annotations

import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.jobs.ranks import exit_status, launcher_python
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.output import OutputPane
from tests.support.app import no_internal_errors, phase, status, value
from tests.support.cli import run_main
from tests.support.jobs import JOBS, RANK_SCRIPT, launcher_argv, rank_library
from tests.support.processes import alive
from tests.support.programs import needs_gdb
from tests.support.wait import wait_for, wait_until

pytestmark = needs_gdb


@pytest.fixture(autouse=True)
def job_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The jobs' private directories (kept after a job, for its log) in a short folder of pytest's."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path_factory.mktemp("jobs")))


def rank_config(library: Path, cwd: Path, **changes: object) -> LaunchConfig:
    fields = dict(debugger=("gdb",), target=launcher_argv(library, **changes), rank=1,  # type: ignore[arg-type]
                  breakpoints=("rank_work",), cwd=str(cwd), source_dirs=(str(JOBS),))
    return LaunchConfig(**fields)  # type: ignore[arg-type]


def log_text(app: DebuggerApp) -> str:
    assert app.debugger.job is not None
    return app.debugger.job.log.read_text()


async def test_rank_1_stops_in_its_work_its_output_apart_and_its_exit_code_reaches_the_launcher(tmp_path: Path) -> None:
    app = DebuggerApp(rank_config(rank_library(tmp_path), tmp_path, rank1_exit=3))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: status(app) == ("stopped", "breakpoint 1"))
        assert value(app, "rank") == "1"
        job = app.debugger.job
        assert job is not None and job.name == "launcher.py"
        assert app.debugger.status.context == f"rank 1 · other ranks' output: {job.log}"
        # one launch config: what the app runs a sanitizer on is the rank's program, not the launcher
        assert app.config is app.debugger.config and "launcher.py" not in " ".join(app.config.target)
        assert stat.S_IMODE(job.dir.stat().st_mode) == 0o700 and stat.S_IMODE((job.dir / "rank.sock").stat().st_mode) == 0o600
        output = app.query_one(OutputPane)
        await wait_for(pilot, lambda: "rank 1 of 2 (local 1) starts" in output.text)
        wait_until(lambda: "rank 0 done: 1" in log_text(app), why="rank 0 to run on while rank 1 is stopped")
        assert "rank 1" not in log_text(app) and "rank 0" not in output.text

        await pilot.press("c")
        await wait_for(pilot, lambda: status(app) == ("exited", "3"))
        assert "rank 1 done: 11" in output.text
        wait_until(lambda: "launcher: rank 1 exited 3" in log_text(app), why="the launcher to see rank 1's exit code")
        await pilot.press("q")
    assert no_internal_errors(app)
    assert job.log.is_file() and not (job.dir / "rank.sock").exists() and not (job.dir / "python").exists()


async def test_quitting_while_the_rank_is_stopped_ends_the_whole_job(tmp_path: Path) -> None:
    app = DebuggerApp(rank_config(rank_library(tmp_path), tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        job = app.debugger.job
        assert job is not None and job.launcher_pid is not None
        launcher = job.launcher_pid
        assert alive(launcher)
        await pilot.press("q")
    assert not alive(launcher) and not (job.dir / "rank.sock").exists()


async def test_a_launcher_that_never_starts_the_rank_is_a_startup_failure(tmp_path: Path) -> None:
    app = DebuggerApp(rank_config(rank_library(tmp_path), tmp_path, ranks=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.failure is not None)
    assert app.failure is not None and app.failure.startswith("launcher.py ended (exit code 0) before starting rank 1: "
                                                              "launcher: rank 0 exited 0 (does it run")


def test_the_launcher_s_python_and_exit_statuses(tmp_path: Path) -> None:
    script = tmp_path / "torchrun"
    script.write_text("#!/usr/bin/env python3\nprint('hi')\n")
    assert launcher_python([str(script)]).endswith("/python3")
    script.write_text("#!/opt/venv/bin/python3.12 -E\n")
    assert launcher_python([str(script)]) == "/opt/venv/bin/python3.12"
    assert launcher_python(["/usr/bin/python3", "-m", "torch.distributed.run"]) == "/usr/bin/python3"
    assert exit_status(3, None) == 3 and exit_status(None, "SIGSEGV") == 139 and exit_status(None, None) == 1


def test_rank_option_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run_main(capsys, "--rank", "-1", "--", "torchrun", "x.py")
    assert (rc, out) == (2, "") and err.startswith("cudatui: error: --rank N needs N >= 0") and err.count("\n") == 1
    rc, _, err = run_main(capsys, "--rank", "1")
    assert rc == 2 and err.startswith("cudatui: error: --rank N needs N >= 0 and the launcher as PROGRAM")


async def test_rank_1_of_a_real_torchrun_job(tmp_path: Path) -> None:
    """The same with torchrun itself, where torch is installed (not on the CI machine)."""
    pytest.importorskip("torch")
    torchrun = shutil.which("torchrun")
    if torchrun is None:
        pytest.skip("torchrun is not on PATH")
    library = rank_library(tmp_path)
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(torchrun, "--nproc-per-node", "2", str(RANK_SCRIPT),
                                                              str(library), "0"),
                                   rank=1, breakpoints=("rank_work",), cwd=str(tmp_path), source_dirs=(str(JOBS),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: status(app) == ("stopped", "breakpoint 1"), 120)
        assert value(app, "rank") == "1"
        await wait_for(pilot, lambda: "rank 1 of 2 (local 1) starts" in app.query_one(OutputPane).text)
        await pilot.press("c")
        await wait_for(pilot, lambda: status(app) == ("exited", "0"))
        wait_until(lambda: "rank 0 done: 1" in log_text(app), why="rank 0's output in the log")
        await pilot.press("q")
