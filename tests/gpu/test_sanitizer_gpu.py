"""Real compute-sanitizer on a GPU box: each tool on a small nvcc-built kernel, and each
bundled lesson caught by its tool at its marked line.

Set CUDATUI_SANITIZER_RECORD=DIR to keep every run's streamed output (``<name>.txt``) and
grouped findings (``<name>.json``) there, as new fixtures for the no-GPU tests.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cudatui.gdbbridge.sanitizer.findings import (
    BARRIER, HAZARD, INVALID_ACCESS, LEAK, OTHER, RACE, UNINITIALIZED_READ, Dim3,
)
from cudatui.gdbbridge.sanitizer.culprit_stop import debug_breakpoint_for, debug_sides
from cudatui.gdbbridge.sanitizer.run import SanitizerRequest, SanitizerResult, SanitizerRun
from cudatui.gdbbridge.sanitizer.text_report import classify
from cudatui.tui.commands.sanitize import report_to_dict

pytestmark = pytest.mark.gpu

PROGRAMS = {
    "oob": """
__global__ void k(int *o) {
    int t = threadIdx.x;
    o[blockIdx.x * 64 + t + (blockIdx.x == 1 && t == 5 ? (1 << 26) : 0)] = t;  // BAD
}
int main() { int *o; cudaMalloc(&o, 512); k<<<2, 64>>>(o); cudaDeviceSynchronize(); return 0; }
""",
    "race": """
__global__ void r(int *out) {
    __shared__ int s;
    s = threadIdx.x;  // BAD
    out[threadIdx.x] = s;
}
int main() { int *o; cudaMalloc(&o, 256 * 4); r<<<1, 256>>>(o); cudaDeviceSynchronize(); return 0; }
""",
    "uninit": """
__global__ void u(const int *in, int *out) {
    out[threadIdx.x] = in[threadIdx.x] + 1;  // BAD
}
int main() {
    int *in, *out; cudaMalloc(&in, 32 * 4); cudaMalloc(&out, 32 * 4);
    u<<<1, 32>>>(in, out); cudaDeviceSynchronize(); return 0;
}
""",
    "sync": """
__global__ void b(int *out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 16) {
        __syncthreads();  // BAD
    }
    out[threadIdx.x] = s[63 - threadIdx.x];
}
int main() { int *o; cudaMalloc(&o, 64 * 4); b<<<1, 64>>>(o); cudaDeviceSynchronize(); return 0; }
""",
    "leak": """
int main() {
    int *a; cudaMalloc(&a, 256);  // BAD
    cudaDeviceSynchronize(); return 0;
}
""",
}


def bad_line(name: str) -> int:
    return next(i for i, text in enumerate(PROGRAMS[name].splitlines()[1:], 1) if "// BAD" in text)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not os.path.exists(nvcc) or not shutil.which("compute-sanitizer"):
        pytest.skip("nvcc and compute-sanitizer are needed")
    folder = tmp_path_factory.mktemp("sanitizer_programs")
    out = {}
    for name, source in PROGRAMS.items():
        (folder / f"{name}.cu").write_text(source.lstrip("\n"))
        subprocess.run([nvcc, "-g", "-G", "-arch=sm_90", "-o", str(folder / name), f"{name}.cu"],
                       cwd=folder, check=True)
        out[name] = folder / name
    return out


def run(request: SanitizerRequest, record_as: str) -> SanitizerResult:
    async def go() -> tuple[list[str], SanitizerResult]:
        sanitizer = SanitizerRun(request)
        await sanitizer.start()
        lines = [line async for line in sanitizer.lines()]
        return lines, await sanitizer.wait()

    lines, result = asyncio.run(go())
    record = os.environ.get("CUDATUI_SANITIZER_RECORD")
    if record:
        Path(record).mkdir(parents=True, exist_ok=True)
        (Path(record) / f"{record_as}.txt").write_text("\n".join(lines) + "\n")
        (Path(record) / f"{record_as}.json").write_text(json.dumps(
            {"xml_note": result.xml_note, "returncode": result.returncode, **report_to_dict(result.report)},
            indent=1))
    return result


def test_memcheck_out_of_bounds_write(built):
    result = run(SanitizerRequest(program=str(built["oob"]), cwd=str(built["oob"].parent)), "memcheck_oob")
    assert result.report.source == "xml", result.xml_note
    group = next(g for g in result.report.groups if g.first.kind == INVALID_ACCESS)
    f = group.first
    assert (f.access, f.size, f.address_space, f.line) == ("write", 4, "global", bad_line("oob"))
    assert (f.block, f.thread, group.count) == (Dim3(1), Dim3(5), 1)
    assert debug_breakpoint_for(group)[1] == "blockIdx.x == 1 && threadIdx.x == 5"
    assert result.report.summary.error_count and result.line_count > 0


def test_racecheck_shared_race(built):
    """racecheck's hazard report (cudatui's default): the write at the BAD line races with the
    read on the next, each side with its own thread of the hazard's block, so "Debug this finding"
    can stop on either. The record (CUDATUI_SANITIZER_RECORD) is the fixture of a hazard report
    with a write and a read on two lines."""
    result = run(SanitizerRequest(program=str(built["race"]), tool="racecheck"), "racecheck")
    hazards = [g for g in result.report.groups if g.first.kind == HAZARD]
    assert hazards and {g.first.kind for g in result.report.groups} == {HAZARD}
    for group in hazards:
        assert group.first.block == Dim3(0) and len(group.first.accesses) == 2
        assert all(a.thread is not None and a.line in (bad_line("race"), bad_line("race") + 1)
                   for a in group.first.accesses)
    write_read = next(g for g in hazards if {(a.access, a.line) for a in g.first.accesses} == {
        ("write", bad_line("race")), ("read", bad_line("race") + 1)})
    assert debug_sides(write_read) == (0, 1)
    for side, access in enumerate(write_read.first.accesses):
        assert debug_breakpoint_for(write_read, side) == (
            f"{access.file}:{access.line}", f"blockIdx.x == 0 && threadIdx.x == {access.thread.x}")


def test_racecheck_analysis_report_names_the_lines_only(built):
    """``--racecheck-report analysis`` (the tool's default): one race per pair of lines, no threads."""
    result = run(SanitizerRequest(program=str(built["race"]), tool="racecheck", racecheck_report="analysis"),
                 "racecheck_analysis")
    races = [g for g in result.report.groups if g.first.kind == RACE]
    assert races and all(g.first.line == bad_line("race") and g.threads is None for g in races)


def test_initcheck_uninitialised_read(built):
    result = run(SanitizerRequest(program=str(built["uninit"]), tool="initcheck"), "initcheck")
    (group,) = [g for g in result.report.groups if g.first.kind == UNINITIALIZED_READ]
    assert group.first.line == bad_line("uninit") and group.count == 32
    assert str(group.threads) == "(0,0,0)..(31,0,0)"


def test_synccheck_divergent_barrier_is_not_reported_on_sm90(built):
    """Measured on an H200 (sm_90, compute-sanitizer 2025.3.1): synccheck reports NOTHING for a
    ``__syncthreads()`` inside a divergent branch (independent thread scheduling makes it legal
    to reach). The lessons teach that; this test pins the real behaviour so a change shows up."""
    result = run(SanitizerRequest(program=str(built["sync"]), tool="synccheck"), "synccheck")
    assert not [g for g in result.report.groups if g.first.kind == BARRIER]
    assert result.report.summary is not None and result.report.summary.error_count == 0


def test_leak_check(built):
    result = run(SanitizerRequest(program=str(built["leak"]), leak_check=True), "leakcheck")
    (leak,) = [g for g in result.report.groups if g.first.kind == LEAK]
    assert leak.first.size == 256 and leak.first.source_location[1] == bad_line("leak")
    assert result.report.summary.leaked_bytes == 256


def test_coredump_opens_on_the_faulting_thread(built, tmp_path):
    result = run(SanitizerRequest(program=str(built["oob"]), generate_coredump=True, coredump_dir=str(tmp_path),
                                  cwd=str(built["oob"].parent)), "memcheck_coredump")
    assert result.coredump_path and os.path.getsize(result.coredump_path) > 0
    gdb = shutil.which("cuda-gdb")
    if gdb:
        out = subprocess.run([gdb, "-batch", "-ex", f"target cudacore {result.coredump_path}"],
                             capture_output=True, text=True, timeout=120).stdout
        assert "block (1,0,0), thread (5,0,0)" in out


def lesson_cases() -> list[tuple[str, str]]:
    try:
        from cudatui.kernels.lessons import LESSONS
    except ImportError:
        return []
    tools = {"memcheck", "racecheck", "initcheck", "synccheck", "leak"}
    return [(lesson.name, outcome.tool) for lesson in LESSONS for outcome in lesson.outcomes if outcome.tool in tools]


@pytest.mark.parametrize(("name", "tool"), lesson_cases())
def test_bundled_lesson_is_caught_at_its_marked_line(name, tool):
    from cudatui.kernels.lessons import get_lesson

    lesson = get_lesson(name)
    outcome = next(o for o in lesson.outcomes if o.tool == tool)
    request = SanitizerRequest(program=str(lesson.demo_path), tool="memcheck" if tool == "leak" else tool,
                               leak_check=tool == "leak")
    result = run(request, f"lesson_{name}_{tool}")
    expected = lesson.resolve(outcome.marker)
    assert result.report.source == "xml", result.xml_note
    if tool == "racecheck":  # the hazard report: the marked line is a side of a hazard, each side with its thread
        hazards = [g for g in result.report.groups if g.first.kind == HAZARD]
        assert hazards, [g.first.message for g in result.report.groups]
        assert all(a.thread is not None for g in hazards for a in g.first.accesses)
        assert any((Path(a.file).name, a.line) == (expected.file, expected.line)
                   for g in hazards for a in g.first.accesses if a.file)
        return
    # XML messages differ from the text headline (a leak's): match the kind
    kind = classify(outcome.finding)[0]
    if kind == OTHER:
        kind = {"leak": LEAK}[tool]
    hits = [g for g in result.report.groups if g.first.kind == kind]
    assert hits, [g.first.message for g in result.report.groups]
    where = hits[0].first.source_location
    assert where is not None and (Path(where[0]).name, where[1]) == (expected.file, expected.line)
