"""Issue 36: what happens to a recording while the session runs is said on screen at once.

- the recording replaced by a FIFO (no reader) while recording, then ``r``: the recording went on
  into the removed file, unseen; now the screen says so, the session runs on, q exits 0;
- the recording's folder removed mid-session: the same, at the next command;
- the disk fills while recording (a tmpfs of one page, 4 KiB in a mount namespace of its own): the screen
  says ``No space left on device``, the session goes on.

Real GNU gdb on steps.c, a real terminal (tmux).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from tests.reliability.test_record_targets import Terminal, can_mount_read_only
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb

pytestmark = [needs_gdb, pytest.mark.skipif(not shutil.which("tmux"), reason="needs tmux")]

WAIT = 60.0
BORDERS = " │─╭╮╰╯━"
"""What a pane's border beside a notification adds to its lines."""


def toasts(screen: str) -> str:
    """The notifications' text on a screen: what follows each line's ``▌`` (their left edge),
    joined, so a message wrapped over several lines reads whole."""
    return " ".join(" ".join(line.split("▌", 1)[1].rstrip(BORDERS).split()) for line in screen.splitlines()
                    if "▌" in line)


def wait_for_toast(terminal: Terminal, text: str) -> None:
    terminal.wait_for_screen(lambda screen: text in toasts(screen), repr(text), timeout=WAIT)


def cudatui(program: Path, record: str) -> list[str]:
    return [sys.executable, "-m", "cudatui", "--debugger", "gdb", "--record", record, "-b", f"steps.c:{BREAK_LINE}",
            str(program)]


def test_a_recording_replaced_by_a_fifo_then_r_is_said_and_the_session_goes_on(tmp_path: Path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    record = tmp_path / "r.jsonl"
    terminal = Terminal(tmp_path, cudatui(program, record.name))
    try:
        terminal.wait_for_all("stopped breakpoint 1", f"0 main steps.c:{BREAK_LINE}", timeout=WAIT)
        record.unlink()
        os.mkfifo(record)
        terminal("send-keys", "-t", "t", "r")
        wait_for_toast(terminal, "recording to r.jsonl stopped: r.jsonl was replaced by a FIFO; what follows is not recorded")
        terminal.wait_for_all("stopped breakpoint 1", timeout=WAIT)
        terminal("send-keys", "-t", "t", "n")
        terminal.wait_for_all("stopped step", f"0 main steps.c:{BREAK_LINE + 1}", timeout=WAIT)
        terminal("send-keys", "-t", "t", "q")
        screen = terminal.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
    finally:
        terminal("kill-server")


@pytest.mark.skipif(not can_mount_read_only(), reason="needs unshare -rm (a user and mount namespace)")
def test_a_disk_that_fills_while_recording_is_said_and_the_session_goes_on(tmp_path: Path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (f"mount -t tmpfs -o size=4k none {shlex.quote(str(disk))} && "
              f"exec {shlex.join(cudatui(program, str(disk / 'r.jsonl')))}")
    terminal = Terminal(tmp_path, ["unshare", "-rm", "sh", "-c", script])
    try:
        wait_for_toast(terminal, "r.jsonl stopped: No space left on device")
        terminal.wait_for_all("stopped breakpoint 1", f"0 main steps.c:{BREAK_LINE}", timeout=WAIT)
        terminal("send-keys", "-t", "t", "n")
        terminal.wait_for_all("stopped step", f"0 main steps.c:{BREAK_LINE + 1}", timeout=WAIT)
        terminal("send-keys", "-t", "t", "q")
        screen = terminal.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
    finally:
        terminal("kill-server")


def test_the_recordings_folder_removed_mid_session_is_said_and_the_session_goes_on(tmp_path: Path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    folder = tmp_path / "class"
    folder.mkdir()
    terminal = Terminal(tmp_path, cudatui(program, "class/r.jsonl"))
    try:
        terminal.wait_for_all("stopped breakpoint 1", f"0 main steps.c:{BREAK_LINE}", timeout=WAIT)
        shutil.rmtree(folder)
        terminal("send-keys", "-t", "t", "n")
        wait_for_toast(terminal, "recording to class/r.jsonl stopped: class/r.jsonl was removed (No such file or directory)")
        terminal.wait_for_all("stopped step", f"0 main steps.c:{BREAK_LINE + 1}", timeout=WAIT)
        terminal("send-keys", "-t", "t", "q")
        screen = terminal.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
    finally:
        terminal("kill-server")
