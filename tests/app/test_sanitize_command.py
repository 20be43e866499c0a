"""`cudatui sanitize` on the command line: JSON and exit codes, one-line errors, the leak-check
advice run exactly as written, a closed pipe (real recorded reports, the stand-in sanitizer)."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from cudatui.gdbbridge.explain.kb import RULES
from cudatui.tui.cli import main as cudatui
from cudatui.tui.commands import sanitize
from tests.support import paths
from tests.support.paths import ROOT

FIXTURES = paths.FIXTURES / "sanitizer"
LESSON_DIR = FIXTURES / "lessons"


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="cudatui")
    sanitize.add_parser(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_json_exit_codes(capsys):
    assert run_cli(["sanitize", "--read", str(FIXTURES / "racecheck_synccheck.txt"), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["findings"] == 6 and data["summary"]["race_errors"] == 1
    assert [(g["count"], g["location"], g["threads"]) for g in data["groups"]] == [
        (5, "r.cu:1", "(32,0,0)..(36,0,0)"), (1, "r.cu:1", None)]
    assert data["groups"][0]["first"]["hazard_type"] == "WAW"


def test_cli_errors_are_one_line_exit_2(capsys, tmp_path):
    assert run_cli(["sanitize", "--read", str(tmp_path / "missing.xml"), "--json"]) == 2
    assert run_cli(["sanitize", "--read", str(FIXTURES / "cd2.txt")]) == 2
    assert run_cli(["sanitize", "--json"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(line.startswith("cudatui sanitize: ") for line in err)
    assert "No such file" in err[0] and "not a compute-sanitizer report" in err[1]


def test_leak_advice_runs_exactly_as_written(fake_sanitizer, tmp_path, capsys):
    """The explain/doctor advice `cudatui sanitize --tool memcheck --leak-check full SCRIPT`."""
    (advice,) = {m[1] for rule in RULES for step in rule.steps
                 if (m := re.search(r"`cudatui (sanitize [^`]*--leak-check[^`]*)`", step))}
    words = shlex.split(advice.format(script="leak.py"))
    log = tmp_path / "argv.json"
    fake_sanitizer.setenv("FAKE_SANITIZER_LOG", str(log))
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(LESSON_DIR / "leak_leak_buggy.xml.log"))
    fake_sanitizer.setenv("FAKE_SANITIZER_XML", str(LESSON_DIR / "leak_leak_buggy.xml"))
    assert cudatui([words[0], "--json", *words[1:]]) == 1
    argv = json.loads(log.read_text())["argv"]
    assert argv[argv.index("--tool") + 1] == "memcheck" and argv[argv.index("--leak-check") + 1] == "full"
    assert argv[-2:] == [sys.executable, "leak.py"]
    printed = json.loads(capsys.readouterr().out)
    assert printed["summary"]["leaked_allocations"] == len(ET.parse(LESSON_DIR / "leak_leak_buggy.xml").getroot().findall("record"))


@pytest.mark.parametrize(("words", "leak_check"), [
    ("--json --leak-check leak.py --fixed", True),
    ("--leak-check full --json leak.py --fixed", True),
    ("--leak-check none --json leak.py --fixed", False),
])
def test_leak_check_flag_and_value_forms(fake_sanitizer, tmp_path, capsys, words, leak_check):
    log = tmp_path / "argv.json"
    fake_sanitizer.setenv("FAKE_SANITIZER_LOG", str(log))
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(LESSON_DIR / "leak_leak_fixed.xml.log"))
    assert cudatui(["sanitize", *words.split()]) == 1
    argv = json.loads(log.read_text())["argv"]
    assert ("--leak-check" in argv) == leak_check and argv[-3:] == [sys.executable, "leak.py", "--fixed"]
    assert json.loads(capsys.readouterr().out)["source"] == "text"


def test_json_into_a_closed_pipe_is_silent():
    """`cudatui sanitize --read REPORT --json | head -1`: no BrokenPipeError traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    code = "import sys; from cudatui.tui.cli import main; sys.exit(main())"
    with open(os.devnull, "rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-c", code, "sanitize", "--read", str(LESSON_DIR / "leak_leak_buggy.txt"), "--json"],
            stdin=stdin, stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


@pytest.mark.parametrize("report, tool", [("memcheck.xml", "memcheck"), ("leakcheck.txt", "memcheck"),
                                          ("initcheck.txt", "initcheck"), ("racecheck_synccheck.txt", "racecheck")])
def test_read_json_names_the_tool_its_findings_come_from(capsys, report, tool):
    """A saved report does not name its tool; its findings do."""
    run_cli(["sanitize", "--read", str(FIXTURES / report), "--json"])
    assert json.loads(capsys.readouterr().out)["tool"] == tool


def test_a_leaks_details_name_no_device_place():
    from cudatui.gdbbridge import read_report
    from cudatui.tui.panes.sanitizer import details_text

    report = read_report(str(FIXTURES / "leakcheck.txt"))
    leak = next(g for g in report.groups if g.first.kind == "leak")
    assert "device:" not in details_text(leak) and "allocated at r.cu:4" in details_text(leak)


def test_one_finding_is_said_in_the_singular():
    from cudatui.tui.panes.sanitizer import findings_in_groups

    assert findings_in_groups(1, 1) == "1 finding in 1 group"
    assert findings_in_groups(12, 4) == "12 findings in 4 groups" and findings_in_groups(0, 0) == "0 findings in 0 groups"


@pytest.mark.parametrize(("words", "mode"), [
    ("--tool racecheck ./r", "hazard"),
    ("--tool racecheck --racecheck-report analysis ./r", "analysis"),
    ("--racecheck-report all --tool racecheck ./r", "all"),
])
def test_racecheck_runs_in_the_report_mode_asked_and_prints_both_sides(fake_sanitizer, tmp_path, capsys, words, mode):
    """racecheck asks for each hazard (both threads) unless told otherwise; the printed details
    (stdout not a terminal) name both sides of the real H200 hazard."""
    log = tmp_path / "argv.json"
    fake_sanitizer.setenv("FAKE_SANITIZER_LOG", str(log))
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "racecheck_synccheck.txt"))
    assert cudatui(["sanitize", *words.split()]) == 1
    argv = json.loads(log.read_text())["argv"]
    assert argv[argv.index("--racecheck-report") + 1] == mode and argv[-1] == "./r"
    out = capsys.readouterr().out
    assert "  Write  r.cu:1  block (0,0,0) thread (32,0,0)  r\n  Write  r.cu:1  block (0,0,0) thread (33,0,0)  r\n" in out
    assert "  Write  r.cu:1  r  [63 hazards]\n  Read   r.cu:1  r  [4 hazards]\n" in out
