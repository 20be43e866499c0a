"""Hostile debuggees: output that imitates MI or drives the terminal, floods, bad bytes.

The programs live in tests/fixtures/c/hostile/ and run under a real GNU gdb inside the app
(Pilot). What they print must stay program output: the state, breakpoints and console come
from gdb only, escapes never reach the screen, and the output pane stays bounded.
"""

from __future__ import annotations

import time

import pytest

from gdbbridge.text import TerminalFilter, sanitize


@pytest.mark.parametrize("run", ["\x9d", "\x9dA", "\x1b]", "\x1bP", "\x9b1", "\x1b[1", "\x9d\x1b]"])
def test_unterminated_escape_runs_are_filtered_in_linear_time(run: str) -> None:
    """A 64 KB chunk (one pty read) of unfinished escape introducers must not stall the UI:
    the 8-bit OSC pattern used to rescan to the chunk end from every introducer (O(n^2))."""
    chunk = run * (65536 // len(run))
    started = time.monotonic()
    stream = TerminalFilter()
    shown = stream.feed(chunk) + stream.feed(chunk) + stream.flush()
    assert time.monotonic() - started < 2.0
    assert "\x1b" not in shown and not any(0x80 <= ord(c) < 0xA0 for c in shown)
