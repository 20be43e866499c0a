"""Parsers and grouping on every real compute-sanitizer report recorded on an H200.

Values asserted here were read from the fixture files (copies of shared/reference recordings).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from cudatui.gdbbridge.sanitizer.findings import (
    API_ERROR, ASSERT, HAZARD, INVALID_ACCESS, LEAK, RACE, UNINITIALIZED_READ, Dim3, Finding,
)
from cudatui.gdbbridge.sanitizer.culprit_stop import debug_breakpoint_for, debug_sides
from cudatui.gdbbridge.sanitizer.grouping import group_findings, group_key
from cudatui.gdbbridge.sanitizer.report import read_report
from cudatui.gdbbridge.sanitizer.text_report import ReportError, TextReportParser
from cudatui.gdbbridge.sanitizer.xml_report import XmlReport
from tests.support import paths
from tests.support.paths import ROOT

FIXTURES = paths.FIXTURES / "sanitizer"


def text_findings(name: str) -> list[Finding]:
    parser = TextReportParser()
    found = [f for line in (FIXTURES / name).read_text().splitlines() for f in parser.feed(line)]
    return found + parser.finish()


def test_memcheck_out_of_bounds_read_with_python_frame():
    findings = [f for f in text_findings("sanitizer_text.txt") if f.kind == INVALID_ACCESS]
    assert len(findings) == 9
    first = findings[0]
    assert (first.tool, first.access, first.size, first.address_space) == ("memcheck", "read", 4, "global")
    assert (first.kernel, first.file, first.line, first.pc) == ("add_kernel", "bugs.cu", 5, 0x370)
    assert first.thread == Dim3(96, 0, 0) and first.block == Dim3(156, 0, 0)
    assert first.address == 0x7F4692E27180 and first.error == "out of bounds"
    d = first.distance
    assert (d.bytes, d.direction, d.allocation_address, d.allocation_size) == (135_553, "after", 0x7F4692E05000, 4096)
    assert first.backtrace_saved_at == "kernel launch time"
    launch, module = first.host_backtrace
    assert (launch.function, launch.file, launch.line, launch.pc, launch.module) == (
        "launch", "bugs.cu", 45, 0x8EBD, "libbugs.so")
    assert (module.function, module.file, module.line, module.module) == ("<module>", "bugs.py", 4, None)
    assert module.is_python and first.python_frame == module
    # the ninth record is cut by the recording (no blank line, no Python frame): still parsed
    assert findings[-1].thread == Dim3(104, 0, 0) and len(findings[-1].host_backtrace) == 1


def test_grouping_folds_identical_reads_with_thread_range():
    groups = group_findings(text_findings("sanitizer_text.txt"))
    assert [(g.first.kind, g.count) for g in groups] == [
        (INVALID_ACCESS, 9), (RACE, 1), (ASSERT, 1), (API_ERROR, 1)]
    reads = groups[0]
    assert str(reads.threads) == "(96,0,0)..(104,0,0)" and str(reads.blocks) == "(156,0,0)"


def test_race_analysis_report_and_summaries():
    report = read_report(str(FIXTURES / "sanitizer_text.txt"))
    race = report.groups[1].first
    assert (race.tool, race.kernel, race.file, race.line) == ("racecheck", "reduce_racy", "bugs.cu", 13)
    assert [(a.access, a.pc, a.hazards) for a in race.accesses] == [("read", 0xC00, None), ("write", 0xD80, 2160)]
    assert race.hazard_count == 2160
    s = report.summary
    assert (s.hazards_displayed, s.race_errors, s.race_warnings) == (1, 1, 0)
    assert s.error_count == 2 and s.target_error  # the last session of the file: the assert case


def test_device_assert_takes_the_line_of_the_printed_assertion():
    (assertion,) = [f for f in text_findings("sanitizer_text.txt") if f.kind == ASSERT]
    assert (assertion.file, assertion.line) == ("bugs.cu", 27)
    assert assertion.kernel == "void checked_index(const int *, float *, int)"
    assert assertion.assertion == "j >= 0 && j < n"
    assert assertion.thread == Dim3(77) and assertion.block == Dim3(0)
    assert [str(f) for f in assertion.device_backtrace] == ["__assertfail+0x1930"]
    assert debug_breakpoint_for(assertion) == ("bugs.cu:27", "blockIdx.x == 0 && threadIdx.x == 77")
    api = [f for f in text_findings("sanitizer_text.txt") if f.kind == API_ERROR][0]
    assert (api.error, api.error_code, api.api_call) == ("cudaErrorAssert", 710, "cudaDeviceSynchronize")
    assert api.backtrace_saved_at == "error" and api.source_location == ("bugs.cu", 51)


def test_torch_index_assert_and_long_host_frames():
    assertion, api = text_findings("memcheck_torch.txt")
    assert assertion.file == "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu" and assertion.line == 111
    assert assertion.kernel == "operator()" and assertion.thread == Dim3(0, 0, 0)
    frames = assertion.host_backtrace
    assert len(frames) == 24
    assert (frames[0].function, frames[0].pc, frames[0].module) == ("", 0x1376C, "libcudart.so.13")
    assert frames[2].function.endswith("bool) [clone .isra.0]") and frames[2].module == "libtorch_cuda.so"
    assert str(assertion.python_frame) == "<module> in a.py:5"
    assert api.api_call == "cudaLaunchKernel" and api.error_code == 710


def test_memcheck_text_write_and_api_error():
    oob, api = text_findings("memcheck.txt")
    assert (oob.access, oob.kernel, oob.file, oob.line) == ("write", "k(int *)", "t.cu", 8)
    assert (oob.block, oob.thread) == (Dim3(1), Dim3(5))
    assert oob.distance.bytes == 130_023_189 and oob.distance.allocation_size == 512
    assert api.error == "cudaErrorLaunchFailure" and api.host_backtrace == ()
    assert read_report(str(FIXTURES / "memcheck.txt")).summary.error_count == 2


def test_initcheck_uninitialised_reads_group_into_one_warp():
    report = read_report(str(FIXTURES / "initcheck.txt"))
    (group,) = report.groups
    f = group.first
    assert (f.tool, f.kind, f.access, f.size, f.address_space) == ("initcheck", UNINITIALIZED_READ, "read", 4, "global")
    assert (f.kernel, f.file, f.line, f.address) == ("u(int *, int *)", "r.cu", 2, 0x7F8176800200)
    assert group.count == 32 == report.summary.error_count
    assert str(group.threads) == "(0,0,0)..(31,0,0)"


def test_leaks_with_allocation_backtrace():
    report = read_report(str(FIXTURES / "leakcheck.txt"))
    (group,) = report.groups
    leak = group.first
    assert (leak.kind, leak.size, leak.address, group.count) == (LEAK, 256, 0x7FD18A800000, 2)
    assert leak.backtrace_saved_at == "allocation time"
    assert leak.host_backtrace[1].file == "cuda_runtime.h"
    assert leak.source_location == ("r.cu", 4)  # skips the CUDA header frame
    assert debug_breakpoint_for(leak) == ("r.cu:4", "")
    assert (report.summary.leaked_bytes, report.summary.leaked_allocations) == (512, 2)


def test_racecheck_hazards_and_synccheck_sections():
    report = read_report(str(FIXTURES / "racecheck_synccheck.txt"))
    hazards, race = report.groups
    h = hazards.first
    assert (h.kind, h.hazard_type, h.address_space, h.address) == (HAZARD, "WAW", "shared", 0x400)
    assert (h.block, h.thread, h.kernel, h.file, h.line) == (Dim3(0), Dim3(32), "r(int *)", "r.cu", 1)
    assert [(a.access, a.thread) for a in h.accesses] == [("write", Dim3(32)), ("write", Dim3(33))]
    assert hazards.count == 5 and str(hazards.threads) == "(32,0,0)..(36,0,0)"
    assert [a.hazards for a in race.first.accesses] == [None, 63, 4] and race.first.hazard_count == 67
    assert report.summary.error_count == 0  # synccheck section


def test_both_sides_of_a_hazard_from_text_and_xml():
    """racecheck's hazard report (``--racecheck-report hazard``, the H200 head of one): each side
    has its access, line and thread, the block is the hazard's; text and XML group alike, and
    "Debug this finding" can stop on either thread."""
    (text,) = [g.first for g in read_report(str(FIXTURES / "racecheck_synccheck.txt")).groups if g.first.kind == HAZARD]
    (xml,) = list(XmlReport(str(FIXTURES / "racecheck_head.xml")))
    for hazard, file in ((text, "r.cu"), (xml, "/tmp/r.cu")):
        assert [(a.access, a.file, a.line, a.thread) for a in hazard.accesses] == [
            ("write", file, 1, Dim3(32)), ("write", file, 1, Dim3(33))]
        assert hazard.block == Dim3(0) and debug_sides(hazard) == (0, 1)
        assert debug_breakpoint_for(hazard, 0) == (f"{file}:1", "blockIdx.x == 0 && threadIdx.x == 32")
        assert debug_breakpoint_for(hazard, 1) == (f"{file}:1", "blockIdx.x == 0 && threadIdx.x == 33")
        assert debug_breakpoint_for(hazard) == debug_breakpoint_for(hazard, 0)
        with pytest.raises(ValueError, match="no access number 3"):
            debug_breakpoint_for(hazard, 2)
    assert group_key(text) == group_key(xml)
    assert group_key(text)[-1] == (("write", "r.cu", 1),)


def test_sides_of_an_analysis_report_have_lines_but_no_threads():
    """racecheck's default report names the lines only: tile's read (box3x3) and write
    (load_tile) are two places to stop, race's read and write on one line are one, as are the
    three accesses of r.cu:1."""
    tile = read_report(str(FIXTURES / "lessons" / "tile_racecheck_buggy.txt")).groups[0].first
    assert debug_sides(tile) == (0, 1)
    assert [debug_breakpoint_for(tile, side) for side in (0, 1)] == [("tile.cu:37", ""), ("tile.cu:28", "")]
    race = read_report(str(FIXTURES / "lessons" / "race_racecheck_buggy.xml")).groups[0].first
    assert debug_sides(race) == (0,) and debug_breakpoint_for(race, 0) == ("/work/main/kernels/race.cu:25", "")
    (analysis,) = [g.first for g in read_report(str(FIXTURES / "racecheck_synccheck.txt")).groups if g.first.kind == RACE]
    assert len(analysis.accesses) == 3 and debug_sides(analysis) == (0,)
    memcheck = read_report(str(FIXTURES / "memcheck.xml")).groups[0].first
    assert debug_sides(memcheck) == ()


def test_coredump_report():
    report = read_report(str(FIXTURES / "cd.txt"))
    assert report.summary.coredump_path == "/tmp/cd1/san.nvcudmp" and report.summary.error_count == 1
    (group,) = report.groups
    assert (group.first.block, group.first.thread, group.first.line) == (Dim3(1), Dim3(5), 8)


def test_memcheck_xml():
    report = read_report(str(FIXTURES / "memcheck.xml"))
    assert report.source == "xml" and not report.truncated
    oob, api = (g.first for g in report.groups)
    assert (oob.kind, oob.access, oob.size, oob.address_space, oob.error) == (
        INVALID_ACCESS, "write", 4, "global", "out of bounds")
    assert (oob.kernel, oob.file, oob.line, oob.pc, oob.address) == ("k", "/tmp/t.cu", 8, 0xEE0, 0x7F5B18800114)
    assert (oob.block, oob.thread) == (Dim3(1), Dim3(5))
    assert len(oob.host_backtrace) == 10 and oob.host_backtrace[6].function == "main"
    assert oob.host_backtrace[6].line == 9 and oob.backtrace_saved_at == "kernel launch time"
    assert oob.source_location == ("/tmp/t.cu", 8)
    assert (api.kind, api.api_call, api.error, api.error_code) == (
        API_ERROR, "cudaDeviceSynchronize", "cudaErrorLaunchFailure", 719)
    assert debug_breakpoint_for(report.groups[0]) == ("/tmp/t.cu:8", "blockIdx.x == 1 && threadIdx.x == 5")


def test_truncated_racecheck_xml_keeps_complete_records():
    reader = XmlReport(str(FIXTURES / "racecheck_head.xml"))
    (hazard,) = list(reader)
    assert reader.truncated
    assert (hazard.tool, hazard.kind, hazard.hazard_type, hazard.address) == ("racecheck", HAZARD, "WAW", 0x400)
    assert [(a.access, a.thread, a.line) for a in hazard.accesses] == [("write", Dim3(32), 1), ("write", Dim3(33), 1)]
    assert (hazard.kernel, hazard.file, hazard.block, hazard.thread) == ("r", "/tmp/r.cu", Dim3(0), Dim3(32))
    assert read_report(str(FIXTURES / "racecheck_head.xml")).truncated


@pytest.mark.parametrize("name", ["cd2.txt", "compute-sanitizer--help.txt"])
def test_files_that_are_not_reports_are_refused(name):
    with pytest.raises(ReportError, match="not a compute-sanitizer report"):
        read_report(str(FIXTURES / name))


def test_missing_and_broken_files(tmp_path):
    with pytest.raises(ReportError, match="No such file"):
        read_report(str(tmp_path / "nope.xml"))
    broken = tmp_path / "b.xml"
    broken.write_text("<notsanitizer><x/></notsanitizer>")
    with pytest.raises(ReportError, match="not <ComputeSanitizerOutput>"):
        read_report(str(broken))


def test_breakpoint_condition_uses_nonzero_y_and_z():
    finding = Finding(tool="memcheck", kind=INVALID_ACCESS, message="m", file="k.cu", line=3,
                      block=Dim3(0, 2, 0), thread=Dim3(7, 0, 1))
    assert debug_breakpoint_for(finding) == (
        "k.cu:3", "blockIdx.x == 0 && blockIdx.y == 2 && threadIdx.x == 7 && threadIdx.z == 1")
    with pytest.raises(ValueError, match="no source line"):
        debug_breakpoint_for(Finding(tool="memcheck", kind=API_ERROR, message="Program hit x"))


def test_gdbbridge_sanitizer_modules_do_not_import_textual():
    code = ("import sys, cudatui.gdbbridge.sanitizer.run, cudatui.gdbbridge.sanitizer.report, cudatui.gdbbridge.sanitizer.findings;"
            "import cudatui.gdbbridge.sanitizer.grouping, cudatui.gdbbridge.sanitizer.culprit_stop;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert out.stdout.strip() == "[]"
