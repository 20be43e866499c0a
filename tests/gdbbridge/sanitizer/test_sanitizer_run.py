"""SanitizerRun process handling against a stand-in compute-sanitizer replaying real reports.

The stand-in (tests/fixtures/sanitizer/fake_compute_sanitizer.py) is put first on PATH; it
prints a recorded real text report and copies the real XML to the --save path, so these tests
exercise our spawning, streaming, bounding, cancel+reap and parsing on genuine tool output.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.sanitizer.run import (
    SanitizerNotFound, SanitizerRequest, SanitizerRun, build_command, program_argv, run_sanitizer,
)
from tests.support import paths
from tests.support.processes import gone
from tests.support.wait import until

FIXTURES = paths.FIXTURES / "sanitizer"


@pytest.fixture
def fake(fake_sanitizer, tmp_path):
    """The stand-in as `compute-sanitizer` on PATH; returns a configure(replay, xml, **env) helper."""
    monkeypatch = fake_sanitizer
    log = tmp_path / "argv.json"
    monkeypatch.setenv("FAKE_SANITIZER_LOG", str(log))

    def configure(replay: str, xml: str | None = None, **extra: str) -> Path:
        monkeypatch.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / replay))
        if xml:
            monkeypatch.setenv("FAKE_SANITIZER_XML", str(FIXTURES / xml))
        for key, value in extra.items():
            monkeypatch.setenv(f"FAKE_SANITIZER_{key.upper()}", value)
        return log

    return configure


async def test_streams_lines_and_uses_xml_findings(fake, tmp_path):
    log = fake("memcheck.txt", xml="memcheck.xml")
    run = SanitizerRun(SanitizerRequest(program="./t", cwd=str(tmp_path)))
    await run.start()
    lines = [line async for line in run.lines()]
    result = await run.wait()

    assert lines == (FIXTURES / "memcheck.txt").read_text().splitlines()
    assert result.line_count == len(lines) and result.dropped_lines == 0
    assert result.returncode == 0 and not result.cancelled
    report = result.report
    assert report.source == "xml" and result.xml_note is None
    oob, api = report.groups
    assert (oob.first.kernel, oob.first.file, oob.first.line) == ("k", "/tmp/t.cu", 8)
    assert (str(oob.first.block), str(oob.first.thread)) == ("(1,0,0)", "(5,0,0)")
    assert api.first.error == "cudaErrorLaunchFailure" and api.first.error_code == 719
    assert report.summary.error_count == 2  # from the text: XML has no summary

    called = json.loads(log.read_text())
    assert called["argv"][:4] == ["--tool", "memcheck", "--print-limit", "10000"]
    assert "--xml" in called["argv"] and called["program"] == ["./t"]
    assert called["save_mode"] == 0o600 and called["save_dir_mode"] == 0o700
    save = called["argv"][called["argv"].index("--save") + 1]
    assert not os.path.exists(os.path.dirname(save))  # private temp dir removed


async def test_falls_back_to_text_when_no_xml_is_written(fake):
    fake("sanitizer_text.txt")
    result = await run_sanitizer(SanitizerRequest(program="bugs.py", args=("0",)))
    assert result.report.source == "text"
    assert "no XML" in result.xml_note
    first = result.report.groups[0]
    assert first.count == 9 and first.first.kernel == "add_kernel" and first.first.line == 5
    assert str(first.threads) == "(96,0,0)..(104,0,0)"
    assert str(first.first.python_frame) == "<module> in bugs.py:4"


async def test_python_program_runs_under_this_interpreter_with_leak_check(fake):
    log = fake("leakcheck.txt")
    result = await run_sanitizer(SanitizerRequest(program="lesson.py", args=("1", "--x"), leak_check=True))
    called = json.loads(log.read_text())
    assert called["program"] == [sys.executable, "lesson.py", "1", "--x"]
    assert called["argv"][4:6] == ["--leak-check", "full"]
    assert result.report.summary.leaked_bytes == 512
    (leaks,) = result.report.groups
    assert leaks.count == 2 and leaks.first.size == 256


async def test_output_is_bounded_when_nobody_reads(fake):
    fake("initcheck.txt", repeat="500")
    replay_lines = len((FIXTURES / "initcheck.txt").read_text().splitlines())
    run = SanitizerRun(SanitizerRequest(program="./r", tool="initcheck"), max_pending_lines=1000)
    await run.start()
    result = await run.wait()
    assert result.line_count == 500 * replay_lines > 100_000
    assert run.pending == 1000
    assert result.dropped_lines == result.line_count - 1000
    (group,) = result.report.groups
    assert group.count == 500 * 32 and group.first.tool == "initcheck"
    assert len(run.drain()) == 1000 and run.pending == 0


@pytest.mark.parametrize("ignore_term", [False, True])
async def test_cancel_terminates_kills_and_reaps_the_whole_group(fake, tmp_path, ignore_term):
    child_pid = tmp_path / "child.pid"
    extra = {"hang": "1", "child_pid": str(child_pid)}
    if ignore_term:
        extra["ignore_term"] = "1"
    fake("memcheck.txt", **extra)
    run = SanitizerRun(SanitizerRequest(program="./t"))
    await run.start()
    await until(lambda: child_pid.exists() and child_pid.read_text(), why="the sanitizer's child")
    result = await run.cancel(grace=0.5)
    assert result.cancelled and result.returncode is not None and not run.running
    assert result.returncode == (-9 if ignore_term else -15)
    assert result.report.groups[0].first.kernel == "k(int *)"
    pid = int(child_pid.read_text())
    await until(lambda: gone(pid), why="the sanitizer's child to end")


async def test_coredump_run_returns_the_coredump_path(fake, tmp_path):
    log = fake("cd.txt")
    result = await run_sanitizer(SanitizerRequest(program="./t", generate_coredump=True,
                                                  coredump_dir=str(tmp_path)))
    called = json.loads(log.read_text())
    assert "--generate-coredump" in called["argv"]
    assert result.coredump_path == str(tmp_path / "sanitizer.nvcudmp")
    assert os.path.exists(result.coredump_path)
    assert result.report.summary.error_count == 1


async def test_missing_tool_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SanitizerNotFound) as err:
        await SanitizerRun(SanitizerRequest(program="./t")).start()
    assert "compute-sanitizer not found on PATH" in str(err.value) and "\n" not in str(err.value)


def test_request_validation_and_command_line():
    with pytest.raises(ValueError, match="unknown sanitizer tool"):
        SanitizerRequest(program="x", tool="bogus")
    with pytest.raises(ValueError, match="memcheck tool only"):
        SanitizerRequest(program="x", tool="racecheck", leak_check=True)
    with pytest.raises(ValueError, match="unknown racecheck report 'both'"):
        SanitizerRequest(program="x", tool="racecheck", racecheck_report="both")
    request = SanitizerRequest(program="./a.out", args=("7",), tool="racecheck", print_limit=0)
    assert build_command(request, "/cs", None, None) == [
        "/cs", "--tool", "racecheck", "--print-limit", "0", "--racecheck-report", "hazard", "./a.out", "7"]
    analysis = SanitizerRequest(program="./a.out", tool="racecheck", racecheck_report="analysis")
    assert build_command(analysis, "/cs", None, None)[5:7] == ["--racecheck-report", "analysis"]
    assert "--racecheck-report" not in build_command(SanitizerRequest(program="./a.out"), "/cs", None, None)
    assert program_argv("demo.py") == [sys.executable, "demo.py"]


async def test_a_racecheck_run_asks_for_hazards_and_keeps_both_threads(fake):
    """racecheck runs with ``--racecheck-report hazard``: each hazard of the (real) report names
    both accesses, their threads and the block, and the run's findings keep them."""
    log = fake("racecheck_synccheck.txt")
    result = await run_sanitizer(SanitizerRequest(program="./r", tool="racecheck"))
    called = json.loads(log.read_text())
    assert called["argv"][4:6] == ["--racecheck-report", "hazard"] and called["program"] == ["./r"]
    waw = result.report.groups[0]
    assert waw.count == 5 and waw.first.hazard_type == "WAW" and str(waw.blocks) == "(0,0,0)"
    assert [(a.access, a.file, a.line, str(a.thread)) for a in waw.first.accesses] == [
        ("write", "r.cu", 1, "(32,0,0)"), ("write", "r.cu", 1, "(33,0,0)")]


async def test_xml_with_fewer_records_than_the_text_is_not_used(fake):
    fake("sanitizer_text.txt", xml="memcheck.xml")
    result = await run_sanitizer(SanitizerRequest(program="./t"))
    assert result.report.source == "text" and "fewer records" in result.xml_note
    assert result.report.finding_count == 12
