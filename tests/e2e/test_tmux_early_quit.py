"""ctrl+q works from the first moment (issue 32): sent as soon as the first frame of ``cudatui
replay`` shows, sent before it (once cudatui runs, while it still loads), and sent while a lesson
opened from the picker loads (between the two apps), cudatui exits and gives the terminal back
with its flow control as it was."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT, TRANSCRIPTS
from tests.support.processes import wait_ended
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = pytest.mark.skipif(not shutil.which("tmux"), reason="needs tmux")


def start(tmp_path: Path, size: tuple[int, int], *words: str) -> tuple[TmuxServer, int, str]:
    """``cudatui WORDS`` (default: ``replay`` of a real recording) in a tmux window of ``size``,
    followed by a shell line that prints the terminal's ixon setting after it (its pid and its tty)."""
    tmux = TmuxServer(tmp_path / "tmux.sock")
    words = words or ("replay", str(TRANSCRIPTS / "oob.jsonl"))
    command = (f"cd {ROOT} && unset COLUMNS LINES && PYTHONPATH={ROOT} {sys.executable} -m cudatui {' '.join(words)}; "
               "echo EXITED $?; stty -a | grep -o -- '-\\?ixon' | head -1; sleep 600")
    tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), "-e", "TERM=xterm-256color", command)
    tty = tmux("display-message", "-p", "-t", "t", "#{pane_tty}").strip()
    return tmux, int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip()), tty


def early_window(tty: str) -> bool:
    """Flow control off (cudatui's first act) while the terminal is not in raw mode yet (icanon
    still on: Textual has not started): without cudatui's change there is no such moment."""
    words = subprocess.run(["stty", "-F", tty, "-a"], capture_output=True, text=True, timeout=10).stdout.split()
    return "-ixon" in words and "icanon" in words


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)])
def test_ctrl_q_at_the_first_frame_quits(tmp_path: Path, size) -> None:
    tmux, shell, _ = start(tmp_path, size)
    try:
        tmux.wait_for_line("r Run")  # the key bar: the first frame
        tmux("send-keys", "-t", "t", "C-q")
        screen = tmux.wait_for_screen(lambda text: "EXITED 0" in text and text.split("EXITED 0", 1)[1].split(),
                                      "the exit and the terminal's ixon setting")
        assert screen.split("EXITED 0", 1)[1].split()[0] == "ixon"  # given back as it was
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
    wait_ended(shell, "the shell once tmux is gone")


def test_ctrl_q_typed_while_cudatui_still_loads_is_kept(tmp_path: Path) -> None:
    """Sent once cudatui turned the terminal's flow control off (its first act), before the
    first frame: before, the terminal took it as XON and the app never quit."""
    tmux, shell, tty = start(tmp_path, (80, 24))
    try:
        wait_until(lambda: early_window(tty), why="cudatui to turn XON/XOFF off before Textual starts", every=0.01)
        tmux("send-keys", "-t", "t", "C-q")
        tmux.wait_for_line("EXITED 0")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
    wait_ended(shell, "the shell once tmux is gone")


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)])
def test_ctrl_q_while_a_lesson_from_the_picker_loads_quits(tmp_path: Path, size) -> None:
    """Enter on the picker, then ctrl+q once the picker has gone and before the lesson shows
    (no app reads the terminal then): the key is kept and cudatui exits, 0, ixon given back."""
    tmux, shell, _ = start(tmp_path, size, "demo")
    try:
        tmux.wait_for_all("pick a lesson", "Shared-memory tree reduction")
        tmux("send-keys", "-t", "t", "Enter")
        tmux.wait_for_screen(lambda text: "pick a lesson" not in text, "the picker gone")
        tmux("send-keys", "-t", "t", "C-q")
        screen = tmux.wait_for_screen(lambda text: "EXITED" in text and text.split("EXITED", 1)[1].split()[1:],
                                      "the exit and the terminal's ixon setting")
        assert screen.split("EXITED", 1)[1].split()[:2] == ["0", "ixon"], screen
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
    wait_ended(shell, "the shell once tmux is gone")
