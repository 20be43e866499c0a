"""FileWatch (gdbbridge/record/file_watch.py): inotify wakes the follower for its file's writes,
creation and removal, not for other files of the directory; without inotify it polls."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.record import file_watch
from cudatui.gdbbridge.record.file_watch import FileWatch

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


@linux
def test_the_file_created_written_and_removed_wakes_the_watch(tmp_path: Path) -> None:
    path = tmp_path / "class.jsonl"
    watch = FileWatch(str(path))
    try:
        assert watch.notified and watch.fileno() is not None
        assert not watch.wait(0.05), "nothing happened yet"
        path.write_text("")
        assert watch.wait(10)
        with open(path, "a") as handle:
            handle.write('{"dir": "in"}\n')
        assert watch.wait(10)
        (tmp_path / "other.txt").write_text("not the recording")
        assert not watch.wait(0.05), "another file of the directory is not the recording"
        path.unlink()
        assert watch.wait(10)
    finally:
        watch.close()


@linux
def test_a_removed_directory_ends_the_events(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    watch = FileWatch(str(folder / "class.jsonl"))
    assert watch.notified
    os.rmdir(folder)
    assert watch.wait(10)
    assert not watch.notified and watch.timeout == file_watch.FALLBACK_POLL


def test_without_inotify_the_watch_polls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_watch, "_libc", lambda: None)
    watch = FileWatch(str(tmp_path / "class.jsonl"))
    assert not watch.notified and watch.fileno() is None
    assert watch.timeout == file_watch.FALLBACK_POLL
    assert watch.wait(0.01), "a poll always looks at the file"


def test_a_directory_that_does_not_exist_polls(tmp_path: Path) -> None:
    watch = FileWatch(str(tmp_path / "no-such-dir" / "class.jsonl"))
    assert not watch.notified
