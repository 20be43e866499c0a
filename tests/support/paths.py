"""Where things are: the repository root, the tests' fixtures and the recorded sessions."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository root (the checkout, not the installed package)."""

TESTS = ROOT / "tests"
FIXTURES = TESTS / "fixtures"
TRANSCRIPTS = FIXTURES / "transcripts"
"""The older reference cuda-gdb recordings (inspect, oob, assert, divergent ...) and bugs.cu."""

RECORDED = FIXTURES / "recorded"
TOURS = RECORDED / "tours"
"""cuda-gdb 13.0 sessions of the bundled lessons recorded on an H200 with the refresh batch."""

C_SOURCES = FIXTURES / "c"
"""Small C (and CUDA) programs the tests compile."""


def record_to(name: str, tmp_path: Path) -> str:
    """Where a tier-3 test records its session: ``$CUDATUI_RECORD_DIR/NAME.jsonl`` when that is set
    (kept for a replay test, or to read after a failure on the GPU box), else in ``tmp_path``."""
    folder = Path(os.environ.get("CUDATUI_RECORD_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / f"{name}.jsonl")
