"""Issue 36: a follower waiting on an empty recording keeps answering keys whatever the file
becomes: a FIFO (no reader, a plain open would block) or 1 GiB of newlines (no command in it).

``cudatui follow FILE`` runs in a real terminal (tmux) on an empty FILE (the waiting screen);
FILE is then replaced by a FIFO, or filled with 1 GiB of newlines; the screen says what it
can, ctrl+q is answered and cudatui exits 0. (The issue's hang was in the follow
stand-in of the time; the waiting screen of issue 34 looks at the file without blocking and
reads at most 1 MiB of it: this guards that.) And the issue's follow case: a follower of an
empty file started before the instructor waits (no process, so no start-up clock) and follows
once the instructor records onto the file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.processes import descendants
from tests.support.programs import BREAK_LINE, STEPS, compile_c
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

WAIT = 60.0


def flowed(screen: str) -> str:
    """The screen's words in one line (the waiting box wraps a long path where the width says)."""
    return " ".join(screen.replace("│", " ").split())


def become_fifo(path: Path) -> str:
    path.unlink()
    os.mkfifo(path)
    return "not a regular file"


def become_newlines(path: Path) -> str:
    chunk = b"\n" * (1 << 20)
    with open(path, "ab") as out:
        for _ in range(1024):
            out.write(chunk)
    return "Waiting for the instructor"


@pytest.mark.parametrize("change", [become_fifo, become_newlines], ids=["fifo", "gigabyte-of-newlines"])
def test_a_waiting_follower_answers_keys_whatever_the_file_becomes(tmp_path: Path,
                                                                    change: Callable[[Path], str]) -> None:
    record = tmp_path / "class.jsonl"
    record.touch()
    tmux = TmuxServer(tmp_path / "tmux.sock")
    command = (f"cd {tmp_path} && unset COLUMNS LINES && PYTHONPATH={ROOT} {sys.executable} -m cudatui follow "
               f"{record.name}; echo \"EXIT=$?\"; sleep 600")
    tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-e", "TERM=xterm-256color", command)
    try:
        tmux.wait_for_all("Waiting for the instructor", "ctrl+q quits", timeout=WAIT)
        said = change(record)
        wait_until(lambda: said in flowed(tmux.screen()), WAIT, lambda: f"{said!r} on the screen:\n{tmux.screen()}")
        tmux("send-keys", "-t", "t", "C-q")
        screen = tmux.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
        if record.exists():
            record.unlink()


@pytest.mark.skipif(not all(shutil.which(tool) for tool in ("gdb", "gcc")), reason="needs gdb and gcc")
def test_a_follower_of_an_empty_file_waits_for_the_instructor_then_follows(tmp_path: Path) -> None:
    """The issue's case: ``cudatui follow`` of an empty file started before the instructor
    ended after 20 s (``python3 gave no MI answer within 20 s: is it a gdb?``): the follow
    stand-in was started on the empty file and its start-up bound ran out. Now the waiting screen
    starts no process while the file holds no command of the instructor (so no start-up clock
    runs), and follows once the instructor's ``--record FILE --force`` replaces the file."""
    compile_c(STEPS, tmp_path / "steps")
    record = tmp_path / "class.jsonl"
    record.touch()
    tmux = TmuxServer(tmp_path / "tmux.sock")
    cudatui = f"cd {tmp_path} && unset COLUMNS LINES && PYTHONPATH={ROOT} {sys.executable} -m cudatui"
    tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-e", "TERM=xterm-256color",
         f"{cudatui} follow {record.name}; echo \"EXIT=$?\"; sleep 600")
    try:
        tmux.wait_for_all("Waiting for the instructor", "ctrl+q quits", timeout=WAIT)
        shell = int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
        waiting = descendants(shell)
        assert len(waiting) == 1, f"the waiting screen starts no stand-in (no start-up clock runs): {waiting}"
        tmux("new-session", "-d", "-s", "i", "-x", "120", "-y", "40", "-e", "TERM=xterm-256color",
             f"{cudatui} --record {record.name} --force -b steps.c:{BREAK_LINE} --debugger gdb ./steps")
        tmux.wait_for_line("total = square(3);", timeout=WAIT, target="i")
        screen = tmux.wait_for_all("FOLLOW", "total = square(3);", timeout=WAIT)
        assert "Waiting for the instructor" not in screen and "no MI answer" not in screen, screen
        tmux("send-keys", "-t", "t", "C-q")
        screen = tmux.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
