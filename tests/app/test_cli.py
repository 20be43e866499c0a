"""The command line: parsing, sub-command dispatch, and one-line errors before any UI."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from cudatui.tui.cli import check_program, debug_parser, first_positional
from cudatui.gdbbridge.debugger.config import LaunchConfig

from tests.support.cli import run_main
from tests.support.paths import ROOT, TRANSCRIPTS


def test_missing_program_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run_main(capsys, "--debugger", "gdb", "./no-such-program")
    assert rc == 2 and out == ""
    assert err == "cudatui: program ./no-such-program not found\n"


def test_no_program(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_main(capsys)
    assert rc == 2 and err.count("\n") == 1 and "no PROGRAM" in err


def test_directory_and_not_executable(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_main(capsys, "--debugger", "gdb", str(tmp_path))
    assert rc == 2 and err == f"cudatui: {tmp_path} is a directory, not a program\n"
    plain = tmp_path / "data.bin"
    plain.write_bytes(b"\x7fELF")
    plain.chmod(stat.S_IRUSR | stat.S_IWUSR)
    rc, _, err = run_main(capsys, "--debugger", "gdb", str(plain))
    assert rc == 2 and err == f"cudatui: {plain} is not executable\n"


def test_missing_debugger(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_main(capsys, "--debugger", "/nonexistent/cuda-gdb", sys.executable)
    assert rc == 2 and err.startswith("cudatui: debugger /nonexistent/cuda-gdb not found") and err.count("\n") == 1


def test_coredump_that_is_missing_or_a_directory(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_main(capsys, "--debugger", "gdb", "--core", str(tmp_path / "gone.nvcudmp"))
    assert rc == 2 and err == f"cudatui: coredump {tmp_path / 'gone.nvcudmp'} not found\n"
    rc, _, err = run_main(capsys, "--debugger", "gdb", "--core", str(tmp_path), sys.executable)
    assert rc == 2 and err == f"cudatui: coredump {tmp_path} is not a regular file\n"


def test_record_into_missing_directory(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_main(capsys, "--debugger", "gdb", "--record", "/nonexistent/dir/s.jsonl", sys.executable)
    assert rc == 2 and "does not exist" in err and err.count("\n") == 1


def test_replay_of_a_file_that_is_not_a_recording(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_main(capsys, "replay", str(TRANSCRIPTS / "bugs.cu"))
    assert rc == 2 and err.startswith("cudatui: ") and "not a cudatui transcript line" in err
    rc, _, err = run_main(capsys, "replay", "/nonexistent.jsonl")
    assert rc == 2 and "cannot read recording" in err


def test_program_arguments_belong_to_the_program() -> None:
    args = debug_parser(("replay",)).parse_args(["-b", "main.c:7", "-b", "k if threadIdx.x == 1", "./prog", "-b", "--x"])
    assert args.program == "./prog" and args.args == ["-b", "--x"]
    assert args.breakpoints == ["main.c:7", "k if threadIdx.x == 1"]


def test_first_positional_skips_option_values_and_stops_at_double_dash() -> None:
    assert first_positional(["-b", "replay", "--record", "f", "prog"]) == 4
    assert first_positional(["--no-run", "replay", "x"]) == 1
    assert first_positional(["--", "replay"]) is None


def test_sub_command_dispatch_and_double_dash(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_main(capsys, "explain", "--json", "CUDA error: an illegal memory access was encountered")
    assert rc == 0 and json.loads(out)["known"] is True
    rc, _, err = run_main(capsys, "--debugger", "gdb", "--", "explain")
    assert rc == 2 and err == "cudatui: program explain not found (not a file here, not on PATH)\n"


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_main(capsys, "--version")
    assert rc == 0 and out.startswith("cudatui ")
    rc, out, _ = run_main(capsys, "--help")
    assert rc == 0 and "replay, triage, sanitize, stats, doctor, explain" in out and "--no-run" in out


def test_python_program_runs_under_this_python(tmp_path) -> None:
    script = tmp_path / "s.py"
    script.write_text("print(1)\n")
    assert check_program(str(script)) is None
    config = LaunchConfig(debugger=("gdb",), target=(str(script), "--n", "3"))
    assert config.program_argv == (sys.executable, str(script), "--n", "3")
    assert LaunchConfig(debugger=("gdb",), target=("./a.out",)).program_argv == ("./a.out",)


def test_python_m_tui_errors_before_any_ui() -> None:
    proc = subprocess.run([sys.executable, "-m", "cudatui", "--debugger", "gdb", "/nonexistent"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "TERM": "dumb"})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "cudatui: program /nonexistent not found\n"
