"""Output that goes to a pipe or a file, and ctrl+c: the printing commands are quiet when the
reader goes away (exit 141, nothing on stderr), print plain text (no escape sequence) when
stdout is not a terminal, never wait for a key there, and end on SIGINT with one line and 130.

Each case runs ``python -m cudatui`` as a subprocess, as a shell pipeline would.
"""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from tests.support.paths import FIXTURES, ROOT
from tests.support.processes import descendants, gone
from cudatui.tui.commands.output import plain
from tests.support.cli import cudatui as run_cudatui
from tests.support.cli import run_main
from tests.support.wait import wait_until

REPORTS = FIXTURES / "sanitizer"
NVML_SAMPLES = FIXTURES / "nvml" / "h200_samples.jsonl"
CUDA_ERROR = "RuntimeError: CUDA error: an illegal memory access was encountered"
WAIT = 120.0
"""Generous bound on one command (doctor probes tools; the machine may be loaded)."""

cudatui = partial(run_cudatui, term="xterm-256color", text=False)
"""cudatui as a subprocess, on a colour terminal, its output as bytes."""


def into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess:
    """``cudatui ARGS`` writing into a pipe whose reader has already gone (``| head -0``)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return cudatui(*args, stdout=write_end)
    finally:
        os.close(write_end)


PRINTERS = {
    "demo-list": ["demo", "--list"],
    "explain-text": ["explain", CUDA_ERROR],
    "explain-json": ["explain", "--json", CUDA_ERROR],
    "explain-unknown": ["explain", "nothing known here"],
    "doctor-json": ["doctor", "--json", "--no-build", "--timeout", "5"],
    "doctor-text": ["doctor", "--no-build", "--timeout", "5"],
    "stats-once": ["stats", "--once", "--replay", str(NVML_SAMPLES)],
    "stats-once-json": ["stats", "--once", "--json", "--replay", str(NVML_SAMPLES)],
    "sanitize-read": ["sanitize", "--read", str(REPORTS / "memcheck.xml")],
    "sanitize-read-json": ["sanitize", "--read", str(REPORTS / "memcheck.xml"), "--json"],
    "sanitize-read-text-report": ["sanitize", "--read", str(REPORTS / "racecheck_synccheck.txt")],
}


@pytest.mark.parametrize("argv", PRINTERS.values(), ids=PRINTERS.keys())
def test_a_reader_that_went_away_ends_the_command_quietly(argv: list[str]) -> None:
    done = into_a_closed_pipe(*argv)
    assert (done.returncode, done.stderr) == (141, b"")


@pytest.mark.parametrize("argv", [["--help"], ["sanitize", "--help"], ["--version"]], ids=["help", "sanitize-help", "version"])
def test_help_into_a_closed_pipe_prints_no_traceback(argv: list[str]) -> None:
    """argparse ignores the failed write itself: exit 0, nothing on stderr."""
    done = into_a_closed_pipe(*argv)
    assert (done.returncode, done.stderr) in ((0, b""), (141, b""))


@pytest.mark.parametrize("argv", [["demo", "--list"], ["explain", CUDA_ERROR], ["sanitize", "--read", str(REPORTS / "memcheck.xml")]],
                         ids=["demo-list", "explain", "sanitize-read"])
def test_head_dash_1_in_a_shell_pipeline(argv: list[str]) -> None:
    """``cudatui ... | head -1`` through a real shell: one line out, no traceback, no hang."""
    words = " ".join(f"'{w}'" for w in ["python", "-m", "cudatui", *argv])
    script = f'{words} | head -1; echo "status=${{PIPESTATUS[0]}}" >&2'
    done = subprocess.run(["bash", "-c", script.replace("'python'", f"'{sys.executable}'")], cwd=ROOT,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=WAIT)
    assert done.stdout.count("\n") == 1 and "\x1b" not in done.stdout
    *before, status = done.stderr.splitlines()
    assert before == [] and status in ("status=0", "status=1", "status=141"), done.stderr


NOT_A_TERMINAL = {
    "sanitize-read": (["sanitize", "--read", str(REPORTS / "memcheck.xml")], 1,
                      "memcheck · 2 findings in 2 groups\n\nInvalid __global__ write of size 4 bytes is out of bounds"),
    "sanitize-read-no-findings": (["sanitize", "--read", str(REPORTS / "lessons" / "oob_memcheck_fixed.txt")], 0,
                                  "report · 0 findings in 0 groups · ERROR SUMMARY 0\n"),
    "stats-once": (["stats", "--once", "--replay", str(NVML_SAMPLES)], 0, "driver 580.159.04 · CUDA 13.0"),
    "doctor": (["doctor", "--no-build", "--timeout", "5"], None, ""),
    "explain": (["explain", CUDA_ERROR], 0, "Illegal memory access in a kernel\n"),
}


@pytest.mark.parametrize("case", NOT_A_TERMINAL.keys())
def test_stdout_that_is_not_a_terminal_gets_plain_text_and_no_ui(case: str) -> None:
    """`sanitize --read` used to open its full-screen UI on a pipe and wait for a key there."""
    argv, code, start = NOT_A_TERMINAL[case]
    done = cudatui(*argv)
    out = done.stdout.decode()
    assert done.stderr == b"" and (code is None or done.returncode == code), (done.returncode, done.stderr)
    assert out.startswith(start) and out.endswith("\n") and out.strip()
    assert "\x1b" not in out and "\x9b" not in out and "Traceback" not in out


def test_explain_does_not_pass_escape_sequences_from_its_input_to_the_output(capsys: pytest.CaptureFixture[str]) -> None:
    hostile = f"\x1b]0;evil title\x07{CUDA_ERROR} \x1b[31mred\x1b[0m\x9b2J \udcff"
    rc, out, err = run_main(capsys, "explain", hostile)
    assert rc == 0 and err == "" and "Illegal memory access" in out
    assert not any(c in out for c in "\x1b\x07\x9b\udcff") and "evil title" not in out


def test_plain_text_helper() -> None:
    assert plain("a\x1b[1mb\x1b]8;;http://x\x07c\tz\udcff\x01") == "abc     z\ufffd^A"


def test_sanitize_of_a_program_prints_its_findings_when_not_on_a_terminal(
        fake_sanitizer: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(REPORTS / "memcheck.txt"))
    rc, out, err = run_main(capsys, "sanitize", "./t")
    assert rc == 1 and err == ""
    assert out.startswith("memcheck · ") and "Invalid __global__ write of size 4 bytes" in out and "\x1b" not in out


# -- ctrl+c --------------------------------------------------------------------------------------


def _has_open(pid: int, path: Path) -> bool:
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def _stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "tT"


def interrupted_while_reading(argv: list[str], path: Path) -> subprocess.CompletedProcess:
    """Start ``cudatui ARGV``; once it is seen, stopped (SIGSTOP), holding ``path`` open (it is
    reading it), send SIGINT and let it go on: the interrupt lands while it reads, however fast."""
    proc = subprocess.Popen([sys.executable, "-m", "cudatui", *argv], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        def running() -> None:
            assert proc.poll() is None, proc.communicate()

        def stopped_reading() -> bool:  # stopped holding the file open; else it goes on a moment
            running()
            proc.send_signal(signal.SIGSTOP)
            wait_until(lambda: running() or _stopped(proc.pid), WAIT, "the command to stop", every=0.001)
            if _has_open(proc.pid, path):
                return True
            proc.send_signal(signal.SIGCONT)
            return False

        wait_until(stopped_reading, WAIT, "the command seen reading its input", every=0.005)
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGCONT)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_ctrl_c_while_replay_reads_a_huge_recording(tmp_path: Path) -> None:
    """256 MiB of blank lines, gzipped to a few hundred KB (read to the end, the 256 MiB bound)."""
    bomb = tmp_path / "blank.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as out:
        chunk = b"\n" * (1 << 24)
        for _ in range(16):
            out.write(chunk)
    done = interrupted_while_reading(["replay", str(bomb)], bomb)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "cudatui: interrupted\n")


def test_ctrl_c_while_sanitize_reads_a_big_report(tmp_path: Path) -> None:
    """A text report of 32 M lines (under the size bound), interrupted while it is parsed."""
    report = tmp_path / "big.txt"
    report.write_bytes(b"========= COMPUTE-SANITIZER\n" + b"\n" * (32 << 20))
    done = interrupted_while_reading(["sanitize", "--read", str(report)], report)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "cudatui: interrupted\n")


def test_ctrl_c_during_a_sanitizer_run_ends_it_and_its_children(fake_sanitizer: pytest.MonkeyPatch, tmp_path: Path) -> None:
    child_pid = tmp_path / "child.pid"
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(REPORTS / "memcheck.txt"))
    fake_sanitizer.setenv("FAKE_SANITIZER_HANG", "1")
    fake_sanitizer.setenv("FAKE_SANITIZER_CHILD_PID", str(child_pid))
    proc = subprocess.Popen([sys.executable, "-m", "cudatui", "sanitize", "--json", "./t"], cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        def child_started() -> bool:
            assert proc.poll() is None, "the stand-in ended without starting its child"
            return child_pid.exists() and bool(child_pid.read_text())

        wait_until(child_started, WAIT, "the stand-in to start its child", every=0.01)
        below = descendants(proc.pid)
        assert int(child_pid.read_text()) in below
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (proc.returncode, out, err) == (130, "", "cudatui: interrupted\n")
    wait_until(lambda: all(gone(pid, started) for pid, started in below.items()), WAIT,
               "the sanitizer and its child to end with cudatui")
