"""A gzipped saved report (how the lesson recordings package their sanitizer runs) reads like the
plain one, within the same size bound; a broken gzip file is one clear ReportError."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from cudatui.gdbbridge import ReportError, read_report
from cudatui.gdbbridge.sanitizer import report_file
from tests.support.paths import FIXTURES

LESSONS = FIXTURES / "sanitizer" / "lessons"


@pytest.mark.parametrize("name,tool", [("race_racecheck_buggy.xml", "racecheck"), ("leak_leak_buggy.xml", "memcheck"),
                                       ("uninit_initcheck_buggy.txt", "initcheck")])
def test_a_gzipped_report_reads_as_the_plain_one(tmp_path: Path, name: str, tool: str) -> None:
    plain = LESSONS / name
    if not plain.exists():
        pytest.skip(f"no {name} fixture")
    packed = tmp_path / f"{name}.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert read_report(str(packed), tool) == read_report(str(plain), tool)


def test_a_broken_gzip_report_is_one_clear_error(tmp_path: Path) -> None:
    packed = tmp_path / "r.xml.gz"
    packed.write_bytes(gzip.compress(b"<?xml version='1.0'?>" + b"<a>" * 1000)[:60])
    with pytest.raises(ReportError, match="r.xml.gz"):
        read_report(str(packed), "memcheck")


def test_an_inflated_report_past_the_bound_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    packed = tmp_path / "bomb.xml.gz"
    packed.write_bytes(gzip.compress(b"<report" + b" " * 2_000_000))
    monkeypatch.setattr(report_file, "MAX_REPORT", 1_000_000)
    with pytest.raises(ReportError, match="too big"):
        read_report(str(packed), "memcheck")
