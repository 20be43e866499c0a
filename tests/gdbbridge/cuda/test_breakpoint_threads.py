"""The threads at a breakpoint: the ``-cuda-info-threads`` ranges at its lines, from the answer
cuda-gdb 13.0 gave on the H200 at a breakpoint whose condition was true in three resident blocks
(tests/fixtures/recorded/threads_at_bp.jsonl, scripts/gpu_threads_at_bp.py, batch 14); and
cuda-gdb's refusal of the filter in the session of batch 12 (threads_at_bp_filter.jsonl)."""

from __future__ import annotations

from dataclasses import replace

from cudatui.gdbbridge.cuda.breakpoint_threads import at_breakpoint, places
from cudatui.gdbbridge.cuda.tables import parse_threads
from cudatui.gdbbridge.models import Breakpoint, BreakpointLocation
from cudatui.gdbbridge.record.transcript import load
from cudatui.gdbbridge.session.mi import parse_line
from tests.support.paths import RECORDED

RECORDING = RECORDED / "threads_at_bp.jsonl"
REFUSED = RECORDED / "threads_at_bp_filter.jsonl"


def recorded_threads():
    exchange = next(x for x in load(str(RECORDING)).exchanges if x.command == "-cuda-info-threads")
    return parse_threads(parse_line(exchange.result).payload)


def test_cuda_gdb_13_has_no_breakpoint_filter_for_threads() -> None:
    asked = [x for x in load(str(REFUSED)).exchanges if "info cuda threads breakpoint 1" in x.command]
    assert asked and "Incorrect filter: ' breakpoint 1'." in "".join(e.line for e in asked[0].output)


BP = Breakpoint(number=1, type="breakpoint", enabled=True, original_location="three_blocks.cu:7", pending=False, hits=1,
                file="/tmp/elsewhere/three_blocks.cu", line=7)


def test_the_recorded_threads_at_the_breakpoint_line_are_its_range() -> None:
    ranges = recorded_threads()
    (at,) = at_breakpoint(ranges, BP)
    assert (at.first_block, at.last_block, at.count, at.line) == ((0, 0, 0), (3, 0, 0), 256, 7)
    assert at.current and at.file.endswith("/three_blocks.cu")


def test_another_line_or_file_has_no_thread() -> None:
    ranges = recorded_threads()
    assert at_breakpoint(ranges, replace(BP, line=8)) == ()
    assert at_breakpoint(ranges, replace(BP, file="other.cu")) == ()
    assert at_breakpoint(ranges, replace(BP, file=None, line=None)) == ()


def test_every_location_of_a_breakpoint_counts() -> None:
    loc = BreakpointLocation(number="1.2", enabled=True, addr=None, func="k", file="three_blocks.cu",
                             fullname=None, line=7)
    multi = replace(BP, file=None, line=None, locations=(loc,))
    assert places(multi) == {("three_blocks.cu", 7)} and len(at_breakpoint(recorded_threads(), multi)) == 1
