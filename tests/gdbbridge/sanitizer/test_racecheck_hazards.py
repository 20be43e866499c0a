"""racecheck's hazard report (``--racecheck-report hazard``, what cudatui runs) of the race and
tile lessons, recorded on an H200 by scripts/record_racecheck_hazards.sh into
tests/fixtures/sanitizer/hazards/ (``<lesson>_hazard.txt``, ``.xml`` and its ``.xml.log``).
Until it is recorded these tests skip, naming the script. The reports' line numbers refer to the
lessons' sources as compiled for the lessons' own recorded reports
(tests/fixtures/sanitizer/lessons/src/<lesson>.cu, the one fixture copy): the hazards were
recorded from the same text (test_every_line_the_report_names_is_in_its_function checks each
line the reports name against it), and the script refuses to record when kernels/<lesson>.cu
differs from it.

Expected values are read from the files with small independent readers: the sides' accesses,
threads and lines from the text records' ``Write Thread (x,y,z) at ... in file:line`` lines and
the XML's ``<thread0>``/``<thread1>``, the lines the lesson talks about from the recorded
source's ``// LESSON:`` markers (race: the read and the write of ``sdata[tid] += sdata[tid + s]``,
one line; tile: the store in load_tile and the read in box3x3).
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cudatui.gdbbridge.sanitizer.culprit_stop import debug_breakpoint_for, debug_sides
from cudatui.gdbbridge.sanitizer.findings import HAZARD, Dim3, Finding
from cudatui.gdbbridge.sanitizer.report import read_report
from cudatui.kernels.lessons import source_markers
from tests.support import paths

HAZARDS = paths.FIXTURES / "sanitizer" / "hazards"
SOURCES = paths.FIXTURES / "sanitizer" / "lessons" / "src"
"""The race and tile sources the hazard reports' line numbers refer to (see the module doc)."""
SCRIPT = "scripts/record_racecheck_hazards.sh"
LESSONS = ("race", "tile")
_RECORD = re.compile(r"Potential (\w+) hazard detected at __shared__ 0x[0-9a-f]+ in block \((\d+),(\d+),(\d+)\)")
_NAMED = re.compile(r"(?: at (\w+)(?:\(.*\))?\+0x[0-9a-f]+| Host Frame: (\w+)) in (\w+\.cu):(\d+)")
_DEFINITION = re.compile(r'^(?:extern "C"\s+)?(?:__global__\s+|__device__\s+)?\w+\s+(\w+)\s*\(')
_SIDE = re.compile(r"^=+\s+(\w+) Thread \((\d+),(\d+),(\d+)\) at .* in (\S+):(\d+)$")


def recorded(lesson: str, suffix: str) -> Path:
    path = HAZARDS / f"{lesson}_hazard{suffix}"
    if not path.is_file():
        pytest.skip(f"record {path.relative_to(paths.ROOT)} on a GPU box first: {SCRIPT}")
    return path


def places(lesson: str) -> set[int]:
    """The lines the lesson names for its race, in the source compiled for the recording."""
    markers = source_markers(SOURCES / f"{lesson}.cu")
    return {markers["bug"], markers.get("store", markers["bug"])}


def enclosing_function(source: Path, line: int) -> str | None:
    """The function whose definition is the last one at or above ``line`` of ``source``."""
    names = [m[1] for text in source.read_text().splitlines()[:line] if (m := _DEFINITION.match(text))]
    return names[-1] if names else None


def text_records(path: Path) -> list[tuple[str, Dim3, list[tuple[str, Dim3, str, int]]]]:
    """(hazard type, block, [(access, thread, file, line), ...]) of each record of a text report."""
    records: list[tuple[str, Dim3, list[tuple[str, Dim3, str, int]]]] = []
    for line in path.read_text().splitlines():
        if m := _RECORD.search(line):
            records.append((m[1], Dim3(int(m[2]), int(m[3]), int(m[4])), []))
        elif (m := _SIDE.match(line)) and records:
            records[-1][2].append((m[1].lower(), Dim3(int(m[2]), int(m[3]), int(m[4])), m[5], int(m[6])))
    return records


def condition(block: Dim3, thread: Dim3) -> str:
    terms = [f"{name}.{axis} == {getattr(dim, axis)}" for name, dim in (("blockIdx", block), ("threadIdx", thread))
             for axis in "xyz" if axis == "x" or getattr(dim, axis)]
    return " && ".join(terms)


def sides(finding: Finding) -> list[tuple[str, Dim3 | None, str, int | None]]:
    return [(a.access, a.thread, posixpath.basename(a.file or ""), a.line) for a in finding.accesses]


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_text_hazard_has_both_sides_with_their_threads(lesson: str) -> None:
    path = recorded(lesson, ".txt")
    records = text_records(path)
    assert records and all(len(record[2]) == 2 for record in records)
    report = read_report(str(path))
    assert report.finding_count == len(records)
    firsts = {(g.first.hazard_type, g.first.block, tuple(sides(g.first))) for g in report.groups}
    assert firsts <= {(kind, block, tuple(s)) for kind, block, s in records}
    for group in report.groups:
        f = group.first
        assert f.kind == HAZARD and f.block is not None and len(f.accesses) == 2
        assert {line for *_, line in sides(f)} <= places(lesson)
        assert debug_sides(group) == (0, 1)  # two threads: two places to stop
        for index, access in enumerate(f.accesses):
            assert access.thread is not None
            assert debug_breakpoint_for(group, index) == (f"{access.file}:{access.line}", condition(f.block, access.thread))


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_line_the_report_names_is_in_its_function(lesson: str) -> None:
    """Each ``FUNC... in <lesson>.cu:N`` of the text report (the two sides' accesses, the host
    frames of the launch) lies in FUNC in the source the tests read: its line numbers are that
    file's."""
    named = {(m[1] or m[2], m[3], int(m[4])) for line in recorded(lesson, ".txt").read_text().splitlines()
             if (m := _NAMED.search(line))}
    assert {file for _, file, _ in named} == {f"{lesson}.cu"} and places(lesson) <= {line for *_, line in named}
    for function, file, line in sorted(named):
        assert enclosing_function(SOURCES / file, line) == function, f"{file}:{line} is not in {function}"


def test_tiles_store_races_with_its_read() -> None:
    """tile: the read in box3x3 (the bug line) and the store in load_tile are two sides of a hazard."""
    report = read_report(str(recorded("tile", ".txt")))
    markers = source_markers(SOURCES / "tile.cu")
    pairs = {frozenset((access, line) for access, _, _, line in sides(g.first)) for g in report.groups}
    assert frozenset({("write", markers["store"]), ("read", markers["bug"])}) in pairs


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_xml_hazards_name_the_same_sides(lesson: str) -> None:
    path = recorded(lesson, ".xml")
    expected = []
    for record in ET.parse(path).getroot().iter("record"):
        block = record.find("what/common/blockIdx")
        assert block is not None
        threads = []
        for side in ("thread0", "thread1"):
            el = record.find(f"what/{side}")
            assert el is not None
            thread = Dim3(*(int(el.findtext(f"threadIdx/{axis}") or 0) for axis in "xyz"))
            threads.append(((el.findtext("access") or "").lower(), thread,
                            posixpath.basename(el.findtext("where/path") or ""), int(el.findtext("where/line") or 0)))
        expected.append(threads)
    report = read_report(str(path))
    assert report.source == "xml" and not report.truncated and report.finding_count == len(expected)
    for group in report.groups:
        assert sides(group.first) in expected and group.first.block is not None
        assert {line for *_, line in sides(group.first)} <= places(lesson)
