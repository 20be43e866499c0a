"""Issue 36: decompression bombs of valid-looking lines end in one line, in bounded memory.

``cudatui replay`` of a gzip of 1 GiB of valid short transcript lines read 256 MiB of them
into memory (2 GB resident, minutes) before its bound; ``sanitize --read`` of a gzip of 1 GiB of
newlines fed 256 million blank lines one by one to the text parser (past 30 s, minutes). Both
now stop at a line bound with one line. The gzips are made without writing their text: one
compressed member of 1 MiB written again and again (a gzip file may hold many members; readers
inflate them one after another), so the test writes a few MB. Each command runs in a session of
its own: once it has ended no process of that session is left.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

from cudatui.gdbbridge.session.recorder import FORMAT, VERSION
from tests.support.paths import ROOT
from tests.support.processes import proc_stat, stat_fields

GIB_IN_MIB = 1024
MEMORY = 512 << 20
"""Resident memory a refused bomb may cost (a Python interpreter with cudatui is about 60 MB)."""


def gzip_bomb(path: Path, head: bytes, line: bytes, mib: int = GIB_IN_MIB) -> Path:
    """``head`` then ``mib`` MiB of ``line`` repeated, gzipped, without the text ever written."""
    block = gzip.compress(line * ((1 << 20) // len(line)), 9)
    with open(path, "wb") as out:
        out.write(gzip.compress(head, 9))
        for _ in range(mib):
            out.write(block)
    assert path.stat().st_size < 16 << 20
    return path


def session_members(sid: int) -> list[int]:
    """Live processes of the session ``sid`` (field 6 of /proc/PID/stat)."""
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat_fields(int(entry))
            if fields is not None and int(fields[3]) == sid and fields[0] not in "ZX":
                members.append(int(entry))
    return members


def run_alone(*args: str) -> tuple[int, str, int]:
    """``cudatui ARGS`` in a session of its own, stdin /dev/null: (exit code, stderr, peak
    resident bytes), once it and every process of its session have ended."""
    with open(os.devnull, "rb") as null:
        child = subprocess.Popen([sys.executable, "-m", "cudatui", *args], cwd=ROOT, stdin=null,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    assert child.stderr is not None
    err = child.stderr.read().decode("utf-8", "replace")  # until it (and all that share its stderr) ended
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    left = [pid for pid in session_members(child.pid) if proc_stat(pid) is not None]
    assert not left, f"processes of the command left running: {left}"
    return child.returncode, err, usage.ru_maxrss * 1024 if sys.platform != "darwin" else usage.ru_maxrss


def test_replay_of_a_gigabyte_of_valid_short_lines_stops_at_the_line_bound(tmp_path: Path) -> None:
    head = json.dumps({"t": 0, "dir": "meta", "format": FORMAT, "version": VERSION, "argv": ["gdb"]}).encode() + b"\n"
    bomb = gzip_bomb(tmp_path / "bomb.jsonl.gz", head, b'{"t":0,"dir":"in","line":"-exec-run"}\n')
    code, err, peak = run_alone("replay", str(bomb))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err[-2000:]
    assert err.startswith(f"cudatui: {bomb}:250001: more than 250,000 lines"), err
    assert peak < MEMORY, peak


def test_sanitize_read_of_a_gigabyte_of_newlines_stops_at_the_line_bound(tmp_path: Path) -> None:
    bomb = gzip_bomb(tmp_path / "report.txt.gz", b"", b"\n")
    code, err, peak = run_alone("sanitize", "--read", str(bomb))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err[-2000:]
    assert err.startswith(f"cudatui sanitize: {bomb}: ") and "more than 1,000,000 lines" in err, err
    assert peak < MEMORY, peak


def test_the_bounds_leave_real_files_alone() -> None:
    """Every recording and report of the repository is far below the line bounds."""
    from cudatui.gdbbridge.record.transcript import MAX_LINES
    from cudatui.gdbbridge.sanitizer.report_file import MAX_LINES as REPORT_LINES
    for path in [*ROOT.glob("kernels/recordings/*.jsonl.gz"), *ROOT.glob("tests/fixtures/**/*.jsonl*")]:
        with gzip.open(path) if path.suffix == ".gz" else open(path, "rb") as f:
            assert sum(1 for _ in f) < MAX_LINES // 100, path
    for path in [*ROOT.glob("kernels/recordings/*.xml.gz"), *ROOT.glob("tests/fixtures/sanitizer/*")]:
        if path.is_file():
            with gzip.open(path) if path.suffix == ".gz" else open(path, "rb") as f:
                assert sum(1 for _ in f) < REPORT_LINES // 100, path
