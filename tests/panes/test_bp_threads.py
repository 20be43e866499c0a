"""The blocks ``T`` visits at a kernel breakpoint: one per block of each thread range cuda-gdb
lists (a coalesced range spans several blocks), in its order; the focus request of each."""

from __future__ import annotations

from cudatui.gdbbridge.cuda.breakpoint_threads import parse_breakpoint_threads
from cudatui.tui.panes.bp_threads import Target, range_text, targets

LISTED = """\
  BlockIdx ThreadIdx To BlockIdx To ThreadIdx Count         Virtual PC                  Filename Line
Kernel 0
*  (0,0,0)   (5,0,0)     (0,0,0)    (63,0,0)    59 0x00007ffd037a2560 /home/user/lesson/bugs.cu    9
   (1,0,0)   (0,0,0)     (3,0,0)    (63,0,0)   192 0x00007ffd037a2560 /home/user/lesson/bugs.cu    9
Kernel 1
   (0,0,0)   (0,0,0)     (0,1,0)    (31,0,0)    64 0x00007ffd037a2600  my kernel.cu   12
"""


def test_one_target_per_block_of_each_range() -> None:
    ranges = parse_breakpoint_threads(LISTED)
    found = targets(ranges)
    assert found == (
        Target(0, (0, 0, 0), (5, 0, 0)), Target(0, (1, 0, 0), (0, 0, 0)), Target(0, (2, 0, 0), (0, 0, 0)),
        Target(0, (3, 0, 0), (0, 0, 0)), Target(1, (0, 0, 0), (0, 0, 0)),
    )  # the range over y (kernel 1) gives its first block only
    assert found[2].request(0) == "block (2,0,0) thread (0,0,0)"
    assert found[4].request(0) == "kernel 1 block (0,0,0) thread (0,0,0)"
    assert range_text(ranges[1]) == "block (1,0,0) thread (0,0,0) … block (3,0,0) thread (63,0,0) (192 threads)"
