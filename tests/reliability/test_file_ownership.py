"""Issue 36: the files cudatui writes are its user's own, created by it; nobody else's file or
link is ever written through.

- root's ``--record FILE --force`` onto another user's 0666 file in a sticky directory wrote into
  it (truncated it, the other user kept reading the session);
- ``--force`` truncated the file in place: every hard link to it lost its content;
- in a shared directory another user renamed the recording away and planted their own: the next
  session (after ``r``) was appended into it;
- ``--share GROUP`` for a group the user is not in failed but left an empty file that refused the
  next ``--record``;
- a ``layout.tmp`` symlink planted in the config directory had the layout written through it.

Real files, real owners (root's tests chown to ``nobody``), cudatui's command line.
"""

from __future__ import annotations

import grp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.session.recorder import Recorder
from cudatui.tui.apps.layout_settings import Splits, save_splits
from tests.support.cli import WAIT, one_line, run_main
from tests.support.paths import ROOT

NOBODY = 65534
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")


def refused_record(capsys: pytest.CaptureFixture[str], record: Path, *more: str) -> str:
    """``cudatui --record RECORD MORE --debugger gdb /bin/true``: its one line."""
    return one_line(*run_main(capsys, "--record", str(record), *more, "--debugger", "gdb", "/bin/true"))


@needs_root
def test_force_never_writes_into_another_users_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sticky = tmp_path / "shared"
    sticky.mkdir()
    sticky.chmod(0o1777)
    theirs = sticky / "today.jsonl"
    theirs.write_text("their notes\n")
    os.chown(theirs, NOBODY, NOBODY)
    theirs.chmod(0o666)
    err = refused_record(capsys, theirs, "--force")
    assert err == (f"cudatui: {theirs} belongs to another user (uid {NOBODY}): --force never replaces someone "
                   "else's file; record to another name\n")
    assert theirs.read_text() == "their notes\n" and theirs.stat().st_uid == NOBODY


def test_force_replaces_the_file_and_writes_through_no_link(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "mine.jsonl"
    record.write_text("last week\n")
    kept = tmp_path / "kept.jsonl"
    os.link(record, kept)
    old = record.stat().st_ino
    run_main(capsys, "--record", str(record), "--force", "--debugger", "gdb", "/bin/true")  # (no terminal: it stops there)
    assert kept.read_text() == "last week\n"  # the other name keeps its content
    assert record.stat().st_ino != old and record.read_text() == "" and record.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.jsonl", "mine.jsonl"]  # no temporary left


@needs_root
def test_a_recording_replaced_by_another_users_file_is_never_appended_to(tmp_path: Path) -> None:
    shared = tmp_path / "class"
    shared.mkdir()
    shared.chmod(0o777)
    record = shared / "today.jsonl"
    first = Recorder(record, ["gdb"])
    first.write("in", "1-exec-run")
    first.close()
    record.rename(shared / "moved.jsonl")  # what the other user does
    record.write_text("planted\n")
    os.chown(record, NOBODY, NOBODY)
    record.chmod(0o666)
    errors: list[str] = []
    second = Recorder(record, ["gdb"], errors.append)  # the next session, after r
    second.write("in", "2-exec-run")
    second.write("out", "2^running")
    assert record.read_text() == "planted\n"
    assert errors == [f"recording to {record} stopped: it now belongs to another user (uid {NOBODY}): it was "
                      "replaced, and is not written"]


def test_share_with_a_group_one_is_not_in_leaves_no_file(tmp_path: Path) -> None:
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        pytest.skip("needs root and setpriv to drop CAP_CHOWN")
    group = grp.getgrgid(1).gr_name  # daemon: not ours once the groups are cleared
    record = tmp_path / "class.jsonl"
    done = subprocess.run([setpriv, "--clear-groups", "--inh-caps=-chown", "--bounding-set=-chown", sys.executable,
                           "-m", "cudatui", "--record", str(record), "--share", group, "--debugger", "gdb",
                           "/bin/true"], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=WAIT)
    assert one_line(done) == (f"cudatui: cannot share {record} with group {group}: you are not in that group (see "
                              "`id`)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_planted_layout_tmp_symlink_is_not_followed(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("someone's file\n")
    (config / "layout.tmp").symlink_to(victim)
    assert save_splits(Splits(columns=0.5), config / "layout.json") is None
    assert victim.read_text() == "someone's file\n"
    layout = config / "layout.json"
    assert not layout.is_symlink() and json.loads(layout.read_text())["splits"]["columns"] == 0.5
    assert (config / "layout.tmp").is_symlink()  # left as it was: not ours
