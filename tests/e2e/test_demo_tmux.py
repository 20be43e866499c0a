"""`cudatui demo` and `cudatui replay` in a real terminal (tmux), at 80x24 and 160x48: the guide
strip and the full-screen guide, q back to the picker and ctrl+q out, the REPLAY marker and the
sources of a recording moved away from the lessons."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.kernels.lessons import get_lesson
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, read_recording
from tests.support.paths import ROOT
from tests.support.processes import wait_ended
from tests.support.tmux import TmuxServer

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def start(tmux: TmuxServer, size: tuple[int, int], cwd: Path, *words: str) -> int:
    # COLUMNS and LINES from the test runner's environment would win over the tmux window's size
    command = f"cd {cwd} && unset COLUMNS LINES && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui {' '.join(words)}"
    tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), "-e", "TERM=xterm-256color", command)
    return int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_guide_then_q_to_the_picker_then_the_lesson_again_then_ctrl_q(tmp_path: Path, size) -> None:
    lesson = get_lesson("race")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    pid = start(tmux, size, tmp_path, "demo", "race", "--replay")
    try:
        tmux.wait_for_all("REPLAY", "stopped", "h or a click: the whole guide")
        tmux("send-keys", "-t", "t", "h")
        tmux.wait_for_all("Lesson guide: race", "Recorded path:", "Look at")
        tmux("send-keys", "-t", "t", "End")
        screen = tmux.wait_for_all("The fix:", lesson.fix)
        assert "live only: only the buggy run" in " ".join(screen.split())
        tmux("send-keys", "-t", "t", "Escape")
        tmux.wait_for_all("h or a click: the whole guide")
        tmux("send-keys", "-t", "t", "q")
        screen = tmux.wait_for_all("pick a lesson", "Shared-memory tree reduction")  # whole words at 80x24
        assert re.search(r"Shared-memory tree reduction(…| missing)", screen), screen
        tmux("send-keys", "-t", "t", "Enter")  # the lesson just left is highlighted
        tmux.wait_for_all("REPLAY", "stopped", f"{lesson.name} ·")
        tmux("send-keys", "-t", "t", "C-q")
        wait_ended(pid, "cudatui demo to exit after ctrl+q")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)


def test_replay_of_a_recording_moved_away_shows_the_marker_and_finds_its_source(tmp_path: Path) -> None:
    """divergence.jsonl.gz copied alone into a directory: its source (a path of the recording
    machine) is found in the installed lessons by its base name."""
    shutil.copy(RECORDINGS_DIR / "divergence.jsonl.gz", tmp_path)
    info = read_recording(tmp_path / "divergence.jsonl.gz")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    pid = start(tmux, (160, 48), tmp_path, "replay", "divergence.jsonl.gz")
    try:
        screen = tmux.wait_for_all("REPLAY", "stopped", "if (i % 2 == 0) {  // LESSON:bug", info.label)
        assert "source not available" not in screen
        tmux("send-keys", "-t", "t", "q")
        wait_ended(pid, "cudatui replay to exit after q")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
