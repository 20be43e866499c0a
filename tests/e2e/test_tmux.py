"""End to end in a real terminal: ``python -m cudatui`` in tmux with plain GNU gdb on a C program."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.processes import wait_ended
from tests.support.programs import BREAK_LINE, STEPS, compile_c
from tests.support.tmux import TmuxServer

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")), reason="needs tmux, gdb and gcc"
)


def test_break_next_continue_quit_in_tmux(tmp_path: Path) -> None:
    compile_c(STEPS, tmp_path / "steps")
    tmux = TmuxServer(tmp_path / "tmux.sock")  # one 100x30 window
    command = (f"cd {tmp_path} && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui "
               f"-b steps.c:{BREAK_LINE} --debugger gdb ./steps")
    env_args = ["-e", "TERM=xterm-256color"]
    tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", *env_args, command)
    pid = int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
    try:
        tmux.wait_for_line("breakpoint 1")
        screen = tmux.wait_for_line("total = square(3);")  # the source view scrolls right after the stop
        assert "total = square(3);" in screen and "stopped" in screen
        assert f"▶{BREAK_LINE}" in screen.replace(" ", "")
        tmux.wait_for_line("total 0")
        tmux("send-keys", "-t", "t", "n")
        screen = tmux.wait_for_line("total 9")
        assert f"▶{BREAK_LINE + 1}" in screen.replace(" ", "")
        tmux("send-keys", "-t", "t", "c")
        tmux.wait_for_line("exited 0")
        tmux("send-keys", "-t", "t", "q")
        wait_ended(pid, "cudatui to exit after q")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
    assert not list(_children_named("gdb", tmp_path))


def _children_named(name: str, cwd: Path):
    """gdb processes still running in the test's directory (none should be)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if (proc / "comm").read_text().strip() == name and Path(os.readlink(proc / "cwd")) == cwd:
                yield int(proc.name)
        except OSError:
            continue
