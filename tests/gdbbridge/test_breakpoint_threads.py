"""``info cuda threads breakpoint N``: its console table parsed into thread ranges.

No recording holds that command yet (scripts/gpu_threads_at_bp.py records one on a GPU box). Its
layout is cuda-gdb's console rendering of ``CoalescedInfoCudaThreadsTable`` (the column headers of
the recorded ``-cuda-info-threads`` answer in tests/fixtures/transcripts/inspect.jsonl), with a
``Kernel K`` line above each kernel's rows as the recorded ``info cuda lanes`` and ``info cuda
warps`` console answers have a ``Device 0 SM 0 Warp 0`` line; the samples below are in that
layout, with the values of the recorded table row.
"""

from __future__ import annotations

from cudatui.gdbbridge.cuda.breakpoint_threads import console_command, parse_breakpoint_threads

THREE_BLOCKS = """\
  BlockIdx ThreadIdx To BlockIdx To ThreadIdx Count         Virtual PC                  Filename Line
Kernel 0
*  (0,0,0)   (3,0,0)     (0,0,0)     (3,0,0)     1 0x00007ffd037a2560 /home/user/lesson/bugs.cu    9
   (1,0,0)   (3,0,0)     (1,0,0)     (3,0,0)     1 0x00007ffd037a2560 /home/user/lesson/bugs.cu    9
   (2,0,0)   (0,0,0)     (3,0,0)   (255,0,0)   512 0x00007ffd037a2560 /home/user/lesson/bugs.cu    9
Kernel 1
   (0,0,0)   (0,0,0)     (0,0,0)    (31,0,0)    32 0x00007ffd037a2600  my kernel.cu   12
"""


def test_three_ranges_of_one_kernel_and_a_second_kernel() -> None:
    ranges = parse_breakpoint_threads(THREE_BLOCKS)
    assert [(r.kernel, r.first_block, r.first_thread, r.last_block, r.last_thread, r.count) for r in ranges] == [
        (0, (0, 0, 0), (3, 0, 0), (0, 0, 0), (3, 0, 0), 1),
        (0, (1, 0, 0), (3, 0, 0), (1, 0, 0), (3, 0, 0), 1),
        (0, (2, 0, 0), (0, 0, 0), (3, 0, 0), (255, 0, 0), 512),
        (1, (0, 0, 0), (0, 0, 0), (0, 0, 0), (31, 0, 0), 32),
    ]
    assert [r.current for r in ranges] == [True, False, False, False]
    assert ranges[0].pc == 0x7FFD037A2560 and ranges[0].file == "/home/user/lesson/bugs.cu" and ranges[0].line == 9
    assert ranges[3].file == "my kernel.cu" and ranges[3].line == 12


def test_no_threads_and_messages_give_no_range() -> None:
    assert parse_breakpoint_threads("") == ()
    assert parse_breakpoint_threads("No CUDA threads.\n") == ()
    assert parse_breakpoint_threads('Invalid breakpoint number "7".\n') == ()


def test_a_row_without_line_information() -> None:
    (only,) = parse_breakpoint_threads("*  (0,0,0)   (0,0,0)     (0,0,0)    (31,0,0)    32 0x00007ffd037a2600\n")
    assert only.count == 32 and only.file is None and only.line is None and only.kernel == 0


def test_the_command_takes_a_number_only() -> None:
    assert console_command(3) == "info cuda threads breakpoint 3"

