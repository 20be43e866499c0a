"""Shared setup of the GPU tests (run only where the ``gpu`` marker is not skipped)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def built_lessons() -> None:
    """Every lesson built first, so no tool has to trace nvcc; skips without the CUDA tools."""
    for tool in ("nvcc", "compute-sanitizer", "cuda-gdb"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH")
    done = subprocess.run([sys.executable, "-m", "kernels.build", "--all"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
