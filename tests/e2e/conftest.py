"""The lesson walks' claim counts, in the terminal summary (tests/e2e/test_lesson_paths_tmux.py)."""

from __future__ import annotations

import pytest

COUNTS: dict[str, str] = {}
"""Per lesson and size: how many of the guide's claims were checked on the screen, and which
await a re-recording."""


@pytest.fixture
def claim_counts() -> dict[str, str]:
    return COUNTS


def pytest_terminal_summary(terminalreporter) -> None:
    if COUNTS:
        terminalreporter.section("lesson claims on the screen")
        for key in sorted(COUNTS):
            terminalreporter.write_line(f"[{key}] {COUNTS[key]}")
