"""Every recorded compute-sanitizer report of the bundled lessons (H200), text and XML.

The reports in tests/fixtures/sanitizer/lessons/ come from scripts/record_lessons_sanitizer.sh
(``<lesson>_<tool>_<buggy|fixed>.txt``; ``.xml`` from ``--xml --save``; ``.xml.log`` the text of
that same XML run). Expected values are never typed in here: bug lines come from the
``// LESSON:bug`` markers of the sources that were compiled for the recording (src/, see its
README), counts, blocks and threads are read from the report files themselves with small
independent readers (regular expressions and ElementTree), and the expected finding kind comes
from the lesson's outcomes in kernels/lessons.py.
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from cudatui.gdbbridge.sanitizer.findings import (
    LEAK, OTHER, RACE, UNINITIALIZED_READ, Dim3, Dim3Range, FindingGroup, SanitizerReport,
)
from cudatui.gdbbridge.sanitizer.grouping import group_key
from cudatui.gdbbridge.sanitizer.run import SanitizerRequest, run_sanitizer
from cudatui.gdbbridge.sanitizer.report import read_report
from cudatui.gdbbridge.sanitizer.text_report import TextReportParser, classify, parse_text
from cudatui.gdbbridge.sanitizer.xml_report import parse_xml
from cudatui.kernels.lessons import LESSONS, get_lesson, source_markers
from tests.support import paths

FIXTURES = paths.FIXTURES / "sanitizer"
LESSON_DIR = FIXTURES / "lessons"
SRC = LESSON_DIR / "src"
REPORTS = sorted(p.name for p in LESSON_DIR.iterdir() if p.suffix in (".txt", ".xml"))
BUGGY = [name for name in REPORTS if "_buggy." in name]
FIXED = [name for name in REPORTS if "_fixed." in name]

KIND_OF_TOOL = {"racecheck": RACE, "initcheck": UNINITIALIZED_READ, "leak": LEAK}
"""Kinds of the outcomes whose text (``Race reported between``, ``Leaked``) is only a prefix."""
PROBLEM_SIZE = {
    "oob": r"for n = (\d+) floats",
    "uninit": r"for (\d+) values",
    "assert": r"one-hot of (\d+) labels",
}
"""How each 1-D lesson's demo prints its element count n (read from the report's output)."""
_FUNC_DEF = re.compile(r'^(?:extern "C"\s+)?(?:__global__\s+|__device__\s+)?\w+\s+(\w+)\s*\(')
_THREADS = re.compile(r"const int threads = (\d+);")
_BY = re.compile(r"by thread \((\d+),(\d+),(\d+)\) in block \((\d+),(\d+),(\d+)\)")
_ASSERTION = re.compile(r"(\S+):(\d+): .*block: \[(\d+),(\d+),(\d+)\], thread: \[(\d+),(\d+),(\d+)\] Assertion")


@dataclass(frozen=True)
class Case:
    """One recorded report and what the lesson says about it."""

    name: str
    lesson: str
    tool: str
    variant: str
    fmt: str

    @property
    def path(self) -> Path:
        return LESSON_DIR / self.name

    @property
    def source(self) -> Path:
        """The lesson's .cu as compiled for this recording."""
        return SRC / f"{self.lesson}.cu"

    @property
    def bug(self) -> tuple[str, int]:
        """(file base name, line) of the recorded source's ``// LESSON:bug`` marker."""
        return self.source.name, source_markers(self.source)["bug"]

    @property
    def expected_kind(self) -> str:
        (outcome,) = [o for o in get_lesson(self.lesson).outcomes if o.tool == self.tool]
        kind, _ = classify(outcome.finding)
        return kind if kind != OTHER else KIND_OF_TOOL[self.tool]

    @property
    def output(self) -> str:
        """The run's own text output: the .txt itself, or the .xml's companion log."""
        return (self.path if self.fmt == "txt" else LESSON_DIR / f"{self.name}.log").read_text()


def case(name: str) -> Case:
    lesson, tool, rest = name.split("_", 2)
    variant, fmt = rest.split(".")
    return Case(name, lesson, tool, variant, fmt)


def load(c: Case) -> SanitizerReport:
    """Parse like the runner does: XML with the assertion messages of the same run's text."""
    if c.fmt == "txt":
        return read_report(str(c.path))
    parser = TextReportParser()
    for line in c.output.splitlines():
        parser.feed(line)
    return parse_xml(str(c.path), assertions=parser.assertions)


def at(group: FindingGroup, where: tuple[str, int]) -> bool:
    loc = group.first.source_location
    return loc is not None and (posixpath.basename(loc[0]), loc[1]) == where


def enclosing_function(source: Path, line: int) -> str:
    """Name of the function definition above ``line`` in ``source``."""
    names = [m[1] for text in source.read_text().splitlines()[:line] if (m := _FUNC_DEF.match(text))]
    return names[-1]


def demo_line(lesson: str, line: int) -> str:
    return (SRC / f"{lesson}_demo.py.txt").read_text().splitlines()[line - 1]


# --- independent readers of the report files ---------------------------------------------------

def text_records(text: str) -> list[list[str]]:
    """The ``=========`` records of a text report: headline, then stripped detail lines."""
    records: list[list[str]] = []
    for line in text.splitlines():
        if not line.startswith("========= ") or not line[10:].strip():
            continue
        body = line[10:]
        if body[0].isspace():
            if records:
                records[-1].append(body.strip())
        elif not body.startswith(("COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY",
                                     "Target application")):
            records.append([body])
    return records


def xml_records(path: Path) -> list[ET.Element]:
    return ET.parse(path).getroot().findall("record")


def mentions(record: list[str] | ET.Element, where: tuple[str, int]) -> bool:
    """True when a record names ``file:line`` (text) or has a <where>/<frame> there (XML)."""
    if isinstance(record, list):
        return any(re.search(rf"\b{re.escape(where[0])}:{where[1]}\b", line) for line in record)
    return any(posixpath.basename(el.findtext("path") or "") == where[0] and el.findtext("line") == str(where[1])
               for el in record.iter() if el.tag in ("where", "frame"))


def coordinates(record: list[str] | ET.Element) -> tuple[Dim3, Dim3] | None:
    """(block, thread) of a record, or None."""
    if isinstance(record, list):
        m = next((m for line in record if (m := _BY.match(line))), None)
        return None if m is None else (Dim3(*map(int, m.groups()[3:])), Dim3(*map(int, m.groups()[:3])))
    who = record.find("who")
    if who is None:
        return None
    dim = [Dim3(*(int(who.findtext(f"{tag}/{axis}")) for axis in "xyz")) for tag in ("blockIdx", "threadIdx")]
    return dim[0], dim[1]


def assertion_threads(c: Case) -> set[tuple[Dim3, Dim3]]:
    """(block, thread) of every assertion message at the bug line in the run's output."""
    return {(Dim3(*map(int, m.groups()[2:5])), Dim3(*map(int, m.groups()[5:])))
            for m in _ASSERTION.finditer(c.output) if (posixpath.basename(m[1]), int(m[2])) == c.bug}


def records_of(c: Case) -> list:
    return text_records(c.path.read_text()) if c.fmt == "txt" else xml_records(c.path)


def bug_records(c: Case) -> list:
    """The records of the file that belong at the bug line."""
    if c.lesson == "assert":
        asserted = assertion_threads(c)
        return [r for r in records_of(c) if coordinates(r) in asserted]
    return [r for r in records_of(c) if mentions(r, c.bug)]


def box(points: list[Dim3]) -> Dim3Range:
    low = Dim3(*(min(getattr(p, a) for p in points) for a in "xyz"))
    high = Dim3(*(max(getattr(p, a) for p in points) for a in "xyz"))
    return Dim3Range(low, high)


# --- tests ---------------------------------------------------------------------------------

def test_every_sanitizer_outcome_of_every_lesson_was_recorded():
    expected = {f"{lesson.name}_{o.tool}_{variant}.{fmt}" for lesson in LESSONS for o in lesson.outcomes
                if o.tool != "cuda-gdb" for variant in ("buggy", "fixed") for fmt in ("txt", "xml")}
    assert expected == set(REPORTS)


@pytest.mark.parametrize("lesson", sorted({case(n).lesson for n in REPORTS}))
def test_recorded_bug_statement_is_still_the_lessons_bug(lesson):
    """The fixtures may predate an edit of the .cu; the buggy statement itself must not change."""
    source = SRC / f"{lesson}.cu"
    current = get_lesson(lesson)
    recorded = source.read_text().splitlines()[source_markers(source)["bug"] - 1]
    assert recorded == current.source.read_text().splitlines()[current.bug_line - 1]


@pytest.mark.parametrize("name", BUGGY)
def test_buggy_report_has_the_lessons_finding_at_the_bug_line(name):
    c = case(name)
    report = load(c)
    groups = [g for g in report.groups if at(g, c.bug)]
    assert len(groups) == 1, "repeated findings at the bug line must fold into one group"
    (group,) = groups
    first = group.first
    assert first.kind == c.expected_kind and report.source == c.fmt.replace("txt", "text")
    expected_records = bug_records(c)
    assert group.count == len(expected_records) >= 1
    if c.fmt == "txt":
        (outcome,) = [o for o in get_lesson(c.lesson).outcomes if o.tool == c.tool]
        assert outcome.finding in first.message
    if c.tool == "leak":
        frame = next(f for f in first.host_backtrace if f.file and posixpath.basename(f.file) == c.bug[0])
        assert (frame.function, frame.line) == (get_lesson(c.lesson).buggy, c.bug[1])
        assert first.kernel is None
    else:
        assert first.function == enclosing_function(c.source, c.bug[1])
        assert first.kernel in c.path.read_text() + c.output  # displayed as the tool printed it


@pytest.mark.parametrize("name", BUGGY)
def test_every_record_is_counted_once(name):
    c = case(name)
    report = load(c)
    assert report.finding_count == len(records_of(c))
    if c.fmt == "txt":
        summary = re.search(r"ERROR SUMMARY: (\d+) errors?\n", c.output)
        assert report.summary.error_count == (int(summary[1]) if summary else None)


@pytest.mark.parametrize("name", [n for n in BUGGY if case(n).lesson in PROBLEM_SIZE])
def test_block_and_thread_ranges_come_from_the_records(name):
    c = case(name)
    (group,) = [g for g in load(c).groups if at(g, c.bug)]
    points = [coordinates(r) for r in bug_records(c)]
    assert group.blocks == box([p[0] for p in points]) and group.threads == box([p[1] for p in points])
    threads_per_block = int(_THREADS.search(c.source.read_text())[1])
    n = int(re.search(PROBLEM_SIZE[c.lesson], c.output)[1])
    assert group.threads.high.x < threads_per_block
    assert (group.blocks.high.y, group.blocks.high.z, group.threads.high.y, group.threads.high.z) == (0, 0, 0, 0)
    if c.lesson == "oob":  # every reported thread runs past the end of the arrays
        assert group.blocks.low.x * threads_per_block >= n
    else:  # the reads and asserts happen inside the grid sized for n
        assert group.blocks.high.x * threads_per_block + group.threads.high.x < n


@pytest.mark.parametrize("name", [n for n in BUGGY if case(n).tool == "racecheck"])
def test_race_hazard_counts_and_sides(name):
    c = case(name)
    (group,) = load(c).groups
    if c.fmt == "txt":
        counts = [int(n) for n in re.findall(r"\[(\d+) hazards?\]", c.path.read_text())]
    else:
        counts = [int(el.text) for el in ET.parse(c.path).iter("count")]
    assert group.first.hazard_count == sum(counts) and group.count == 1
    read, write = group.first.accesses
    assert (read.access, posixpath.basename(read.file), read.line) == ("read", *c.bug)
    store = source_markers(c.source).get("store", c.bug[1])  # tile: the racing store in load_tile
    assert (write.access, write.line) == ("write", store)
    assert write.function.startswith(enclosing_function(c.source, store))


@pytest.mark.parametrize("name", [n for n in BUGGY if case(n).tool != "racecheck"])
def test_python_frames_of_the_launch(name):
    """Innermost Python frame: the kernels' ctypes wrapper; script frame: the demo's call of it."""
    c = case(name)
    (group,) = [g for g in load(c).groups if at(g, c.bug)]
    first = group.first
    assert posixpath.basename(first.python_frame.file) == "ops.py"
    script = first.script_frame
    assert posixpath.basename(script.file) == f"{c.lesson}.py"
    assert demo_line(c.lesson, script.line).strip().startswith("ops.")


@pytest.mark.parametrize("name", FIXED)
def test_fixed_report_has_nothing_in_the_lessons_source(name):
    c = case(name)
    report = load(c)
    cu = c.source.name
    for group in report.groups:
        files = [group.first.file] + [f.file for f in group.first.host_backtrace]
        assert cu not in {posixpath.basename(f) for f in files if f}
    if c.lesson != "leak":
        assert report.groups == () and report.finding_count == 0


@pytest.mark.parametrize("fmt", ["txt", "xml"])
def test_leak_fixed_report_keeps_only_pytorchs_own_cached_blocks(fmt):
    """Two leaks remain after the fix, and neither is the lesson's: PyTorch keeps them cached.

    compute-sanitizer reports what is still allocated at exit. PyTorch's CUDA caching allocator
    keeps the segment it took for the first tensors (``torch.linspace``) and its pinned host
    allocator keeps the buffer ``.item()`` copied through; both are allocated by PyTorch's own
    code, found by their host frames, and appear in the buggy report too.
    """
    fixed = load(case(f"leak_leak_fixed.{fmt}"))
    sizes = [int(s.replace(",", "")) for s in
             re.findall(r"Leaked ([\d,]+) bytes", case(f"leak_leak_fixed.{fmt}").path.read_text())]
    assert sorted(g.first.size for g in fixed.groups) == sorted(sizes) and len(sizes) == 2
    by_api = {}
    for group in fixed.groups:
        functions = [f.function for f in group.first.host_backtrace]
        api = next(name for name in ("cudaHostAlloc", "cudaMalloc") if name in functions)
        allocator = next(f for f in functions if "CachingHostAllocator" in f or "CUDACachingAllocator" in f)
        by_api[api] = (allocator, demo_line("leak", group.first.script_frame.line))
    assert "CachingHostAllocator" in by_api["cudaHostAlloc"][0] and ".item()" in by_api["cudaHostAlloc"][1]
    assert "CUDACachingAllocator" in by_api["cudaMalloc"][0] and "torch.linspace(" in by_api["cudaMalloc"][1]
    buggy = load(case(f"leak_leak_buggy.{fmt}"))
    lesson_keys = {group_key(g.first) for g in buggy.groups if at(g, case("leak_leak_buggy.txt").bug)}
    assert {group_key(g.first) for g in buggy.groups} - lesson_keys == {group_key(g.first) for g in fixed.groups}


@pytest.mark.parametrize("name", [n for n in BUGGY if n.endswith(".xml")])
def test_text_and_xml_of_one_run_group_alike(name):
    c = case(name)
    xml = load(c)
    text = parse_text(c.output.splitlines())
    assert [(group_key(g.first), g.count, g.blocks, g.threads) for g in xml.groups] == [
        (group_key(g.first), g.count, g.blocks, g.threads) for g in text.groups]


def test_assert_xml_alone_points_at_the_kernels_launch():
    """Without the program's output the XML cannot name the assert line: it shows the launch."""
    c = case("assert_memcheck_buggy.xml")
    report = read_report(str(c.path))
    group = report.groups[0]
    definition = next(i for i, text in enumerate(c.source.read_text().splitlines(), 1)
                      if (m := _FUNC_DEF.match(text)) and m[1] == get_lesson("assert").buggy)
    assert group.first.kernel == "__assertfail" and group.count == len(xml_records(c.path)) - 2
    assert group.first.source_location[1] == definition
    assert [f.function for f in group.first.device_backtrace] == ["__assertfail"]


@pytest.mark.parametrize("name", [n for n in BUGGY if n.endswith(".xml")])
async def test_runner_uses_the_xml_of_every_lesson(name, fake_sanitizer):
    """The H200 run fell back to text for assert, race and tile (XML records not understood)."""
    c = case(name)
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(LESSON_DIR / f"{name}.log"))
    fake_sanitizer.setenv("FAKE_SANITIZER_XML", str(c.path))
    tool = "memcheck" if c.tool == "leak" else c.tool
    result = await run_sanitizer(SanitizerRequest(program="demo.py", tool=tool, leak_check=c.tool == "leak"))
    assert result.xml_note is None and result.report.source == "xml"
    assert [g for g in result.report.groups if at(g, c.bug)][0].first.kind == c.expected_kind

