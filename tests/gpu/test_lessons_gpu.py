"""Every lesson on a real GPU: the buggy demo fails the way its metadata says, the fixed one is clean.

For each outcome in ``cudatui.kernels.lessons`` the buggy demo runs under that tool
(compute-sanitizer, or cuda-gdb in batch mode) and the test asserts the exact
finding text and the ``file:line`` resolved from the lesson's marker. The
fixed demo runs under the same tool: no finding points into the lesson's
source, no CUDA exception, and the demo prints its numeric check as OK.

Needs a GPU with the CUDA toolkit (nvcc, compute-sanitizer, cuda-gdb) and
PyTorch with CUDA. Run: ``python -m pytest -m gpu tests/gpu/test_lessons_gpu.py -v``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.kernels.lessons import LESSONS, Lesson, Outcome, sanitizer_options

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("built_lessons")]

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 600
PRINT_LIMIT = "20"

BUGGY = [(lesson, outcome) for lesson in LESSONS for outcome in lesson.outcomes]
BUGGY_IDS = [f"{lesson.name}-{outcome.tool}" for lesson, outcome in BUGGY]


def _run(command: list[str]) -> str:
    done = subprocess.run(
        command, cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    return f"{done.stdout}\n{done.stderr}\n[exit {done.returncode}]"


def run_sanitizer(tool: str, demo: Path, *flags: str) -> str:
    """Text output of the demo under compute-sanitizer's ``tool``."""
    options = sanitizer_options(tool)
    return _run(["compute-sanitizer", *options, "--print-limit", PRINT_LIMIT, sys.executable, str(demo), *flags])


def run_cuda_gdb(demo: Path, *flags: str, stop_at: str | None = None) -> str:
    """Console output of ``cuda-gdb -batch``: run (to ``stop_at`` if given), then bt."""
    commands = ["set breakpoint pending on", "set confirm off"]
    if stop_at:
        commands.append(f"break {stop_at}")
    commands += ["run", "bt", "info cuda lanes"]
    argv = ["cuda-gdb", "-batch"]
    for command in commands:
        argv += ["-ex", command]
    return _run([*argv, "--args", sys.executable, str(demo), *flags])


def run_under(lesson: Lesson, outcome: Outcome, *flags: str, fixed: bool = False) -> str:
    """Run the lesson's demo under the outcome's tool."""
    flags = (*flags, "--fixed") if fixed else flags
    if outcome.tool != "cuda-gdb":
        return run_sanitizer(outcome.tool, lesson.demo_path, *flags)
    breakpoint = None if outcome.finding.startswith("CUDA_EXCEPTION") or fixed else lesson.resolve(outcome.marker)
    return run_cuda_gdb(lesson.demo_path, *flags, stop_at=breakpoint.location if breakpoint else None)


@pytest.mark.parametrize(("lesson", "outcome"), BUGGY, ids=BUGGY_IDS)
def test_buggy_demo_fails_as_the_lesson_says(lesson: Lesson, outcome: Outcome) -> None:
    output = run_under(lesson, outcome)
    place = lesson.resolve(outcome.marker)
    assert outcome.finding in output, output[-6000:]
    assert place.location in output, output[-6000:]


@pytest.mark.parametrize(("lesson", "outcome"), BUGGY, ids=BUGGY_IDS)
def test_fixed_demo_is_clean_and_right(lesson: Lesson, outcome: Outcome) -> None:
    output = run_under(lesson, outcome, fixed=True)
    assert f"{lesson.source.name}:" not in output, output[-6000:]
    assert "CUDA_EXCEPTION" not in output, output[-6000:]
    assert ": OK (" in output and ": WRONG (" not in output, output[-6000:]
    if outcome.tool == "cuda-gdb":
        assert "exited normally" in output, output[-6000:]
    else:
        assert "[exit 0]" in output, output[-6000:]


def test_torch_indexing_stops_with_warp_assert_under_cuda_gdb() -> None:
    demo = next(lesson for lesson in LESSONS if lesson.name == "assert").demo_path
    output = run_cuda_gdb(demo, "--torch")
    assert "CUDA_EXCEPTION_12, Warp Assert" in output, output[-6000:]
    assert "index_elementwise_kernel" in output, output[-6000:]
    fixed = run_cuda_gdb(demo, "--torch", "--fixed")
    assert "CUDA_EXCEPTION" not in fixed and "exited normally" in fixed, fixed[-6000:]
    assert ": OK (" in fixed, fixed[-6000:]


def test_fixed_reduction_is_right_every_time() -> None:
    race = next(lesson for lesson in LESSONS if lesson.name == "race")
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, str(race.demo_path), "--fixed"], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0 and "sum == torch.sum: OK" in done.stdout, done.stdout + done.stderr
