"""The blocks ``T`` visits at a kernel breakpoint: one per block of each thread range cuda-gdb
lists (a coalesced range spans several blocks), in its order; the focus request of each."""

from __future__ import annotations

from cudatui.gdbbridge.models.cuda import ThreadRange
from cudatui.tui.panes.bp_threads import Target, range_text, targets


def span(kernel: int, first: tuple, first_thread: tuple, last: tuple, last_thread: tuple, count: int) -> ThreadRange:
    return ThreadRange(kernel, first, first_thread, last, last_thread, count, 0x7FFD037A2560, "bugs.cu", 9, False)


RANGES = (
    span(0, (0, 0, 0), (5, 0, 0), (0, 0, 0), (63, 0, 0), 59),
    span(0, (1, 0, 0), (0, 0, 0), (3, 0, 0), (63, 0, 0), 192),
    span(1, (0, 0, 0), (0, 0, 0), (0, 1, 0), (31, 0, 0), 64),
)


def test_one_target_per_block_of_each_range() -> None:
    ranges = RANGES
    found = targets(ranges)
    assert found == (
        Target(0, (0, 0, 0), (5, 0, 0)), Target(0, (1, 0, 0), (0, 0, 0)), Target(0, (2, 0, 0), (0, 0, 0)),
        Target(0, (3, 0, 0), (0, 0, 0)), Target(1, (0, 0, 0), (0, 0, 0)),
    )  # the range over y (kernel 1) gives its first block only
    assert found[2].request(0) == "block (2,0,0) thread (0,0,0)"
    assert found[4].request(0) == "kernel 1 block (0,0,0) thread (0,0,0)"
    assert range_text(ranges[1]) == "block (1,0,0) thread (0,0,0) … block (3,0,0) thread (63,0,0) (192 threads)"
