"""`cudatui follow FILE` and `--share GROUP` on the command line: bad input is one line and exit 2;
a shared recording is its group's to read (0640), a private one the user's alone."""

from __future__ import annotations

import grp
import os
import stat
from pathlib import Path

import pytest

from cudatui.gdbbridge.session.recorder import Recorder, prepare
from tests.support.cli import run_main


@pytest.mark.parametrize("name, make, says", [
    ("class.jsonl", lambda p: p.mkdir(), "not a regular file"),
    ("class.jsonl", lambda p: os.mkfifo(p), "not a regular file"),
    ("no-such-dir/class.jsonl", lambda p: None, "its directory"),
    ("a-file/class.jsonl", lambda p: p.parent.write_text(""), "Not a directory"),
])
def test_what_cannot_be_followed_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], name, make, says) -> None:
    """A FILE not there yet is waited for (the waiting screen); what can never be one is one line."""
    path = tmp_path / name
    make(path)
    rc, out, err = run_main(capsys, "follow", str(path))
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"cudatui: cannot follow {path}") and says in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every directory")
def test_a_directory_the_student_cannot_read_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o300)
    rc, _, err = run_main(capsys, "follow", str(closed / "class.jsonl"))
    assert rc == 2 and err.strip().endswith("is not readable by you")


def test_share_needs_record_and_a_real_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "prog"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    rc, _, err = run_main(capsys, "--debugger", "sh", "--share", "root", str(program))
    assert rc == 2 and err.strip() == "cudatui: --share needs --record FILE (the recording the students follow)"
    rc, _, err = run_main(capsys, "--debugger", "sh", "--record", str(tmp_path / "r.jsonl"), "--share",
                          "no-such-group-here", str(program))
    assert rc == 2 and err.strip() == "cudatui: no group named 'no-such-group-here' (see `getent group`)"
    assert not (tmp_path / "r.jsonl").exists()


def test_a_shared_recording_stays_readable_by_its_group(tmp_path: Path) -> None:
    group = grp.getgrgid(os.getgid()).gr_name
    shared, private = tmp_path / "shared.jsonl", tmp_path / "private.jsonl"
    prepare(shared, group=group)
    prepare(private)
    for path, mode in ((shared, 0o640), (private, 0o600)):
        recorder = Recorder(path, ["gdb"], mode=mode)
        recorder.write("in", "1-gdb-version")
        recorder.close()
        info = path.stat()
        assert stat.S_IMODE(info.st_mode) == mode and info.st_gid == os.getgid()
        assert '"1-gdb-version"' in path.read_text()
