"""Where things are: the repository root, the tests' fixtures and the recorded sessions."""

from __future__ import annotations

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
