"""The job of ``--rank`` without a debugger (gdbbridge/jobs/ranks.py, relay.py): a real launcher
(a shell script) starts rank 1 through $PYTHON_EXEC; the relay hands its command line,
environment and directory over; the exit code cudatui sends is the rank's exit for the
launcher; a second start of the rank (a restarted job) runs as usual."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from cudatui.gdbbridge.jobs.ranks import RankJob
from tests.support.wait import until

LAUNCHER = r"""
RANK=0 "$PYTHON_EXEC" -c 'print("rank 0 ran")'
RANK=1 STAMP=first "$PYTHON_EXEC" -c 'print("never run: handed to cudatui")' x y &
first=$!
while [ ! -e go ]; do sleep 0.05; done
RANK=1 "$PYTHON_EXEC" -c 'print("second start runs as usual")'
wait $first
echo "first rank 1 exited $?"
"""


@pytest.fixture(autouse=True)
def job_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The jobs' private directories (kept after a job, for its log) in a short folder of pytest's."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path_factory.mktemp("jobs")))


async def test_the_rank_is_handed_over_its_exit_code_goes_back_a_second_start_runs(tmp_path: Path) -> None:
    job = RankJob(["sh", "-c", LAUNCHER], 1, cwd=str(tmp_path), env={"CUDATUI_TEST": "1"})
    try:
        await job.start()
        run = await job.wait_rank()
        python = run.argv[0]
        assert run.argv == (python, "-c", 'print("never run: handed to cudatui")', "x", "y")
        assert Path(python).name.startswith("python") and python == sys.executable  # sh: no #! Python, so ours
        env = dict(run.env)
        assert (env["RANK"], env["STAMP"], env["CUDATUI_TEST"]) == ("1", "first", "1") and "PYTHON_EXEC" not in env
        assert run.cwd == str(tmp_path)
        (tmp_path / "go").touch()
        await until(lambda: "second start runs as usual" in job.log.read_text(), why="the second start of rank 1")
        job.finished(7)
        await until(lambda: "first rank 1 exited 7" in job.log.read_text(), why="the launcher to see exit code 7")
        assert "rank 0 ran" in job.log.read_text() and "never run" not in job.log.read_text()
    finally:
        await job.close()
    assert job.log.is_file() and not (job.dir / "rank.sock").exists() and not (job.dir / "python").exists()


def test_the_relay_imports_only_the_standard_library() -> None:
    """The launcher runs the relay as ``python -I relay.py``, with the rank's Python: cudatui is not
    importable there (an import of cudatui in it ended rank 1 of a torchrun job at once on the H200,
    batch 26)."""
    import ast
    import sys

    from cudatui.gdbbridge.jobs import relay

    tree = ast.parse(Path(relay.__file__).read_text())
    names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert names <= set(sys.stdlib_module_names), names - set(sys.stdlib_module_names)
