"""End to end in a real terminal: ``python -m cudatui --pid PID`` in tmux attaches GNU gdb to a
running C program; c, ctrl+c, and q detach it, and it runs on."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.jobs import Beating, keeps_beating
from tests.support.paths import ROOT
from tests.support.processes import wait_ended
from tests.support.tmux import TmuxServer

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")), reason="needs tmux, gdb and gcc"
)


def test_attach_interrupt_continue_and_detach_in_tmux(tmp_path: Path) -> None:
    beat = Beating(tmp_path)
    tmux = TmuxServer(tmp_path / "tmux.sock")
    command = f"cd {tmp_path} && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui --pid {beat.pid}"
    try:
        tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "48", "-e", "TERM=xterm-256color", command)
        pid = int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
        tmux.wait_for_all("stopped", "attached", f"q detaches (it runs on) · pid {beat.pid} beat")
        tmux("send-keys", "-t", "t", "c")
        tmux.wait_for_all(f"running q detaches (it runs on) · pid {beat.pid}")  # the status bar ("running" is in beat.c too)
        tmux("send-keys", "-t", "t", "C-c")
        tmux.wait_for_all("stopped", "SIGINT")
        tmux("send-keys", "-t", "t", "q")
        wait_ended(pid, "cudatui to exit after q")
        keeps_beating(beat.file, beat.process)
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
        beat.stop()
