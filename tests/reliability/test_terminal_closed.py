"""Issue 36: the terminal closing under cudatui (an SSH drop, a closed window) ends it and every
process it started.

cudatui runs GNU gdb on tests/fixtures/c/hostile/chatty.c (it prints without end, so the screen
is being written) in a real terminal (tmux); then the tmux server is killed: the terminal hangs up and cudatui gets SIGHUP. It went on living (its
quit wrote the terminal's restore codes to a terminal that was gone: Textual's writer thread
ended on EIO and the next write waited for it forever). Now cudatui, gdb and the program end.
The same under a fork bomb whose half left the session with setsid and ignores SIGHUP
(tests/fixtures/c/hostile/fork_bomb.c, 20 processes): none is left.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.test_exit_signals import read_pid
from tests.support.paths import ROOT
from tests.support.processes import descendants, in_directory, kill_all, start_time, wait_gone
from tests.support.paths import FIXTURES
from tests.support.programs import compile_c, needs_gdb
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = [needs_gdb, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


def test_the_terminal_closing_ends_cudatui_gdb_and_the_program(tmp_path: Path) -> None:
    program = compile_c(FIXTURES / "c" / "hostile" / "chatty.c", tmp_path / "chatty")
    pid_file = tmp_path / "pid"
    inner = (f"echo $$ > {pid_file}; exec {sys.executable} -m cudatui --debugger gdb {program}")
    command = f"cd {tmp_path} && unset COLUMNS LINES && PYTHONPATH={ROOT} sh -c '{inner}'"
    tmux = TmuxServer(tmp_path / "tmux.sock")
    tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "48", "-e", "TERM=xterm-256color", command)
    everything: dict[int, str] = {}
    try:
        pid = read_pid(pid_file)
        tmux.wait_for_all("running", timeout=60)
        everything = {pid: start_time(pid) or "", **descendants(pid)}
        assert len(everything) >= 3, everything  # cudatui, gdb, the program
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
        left = wait_gone(everything, timeout=30)
        assert not left, f"still running after the terminal closed: {left}"
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
        kill_all(everything)


def test_the_terminal_closing_under_a_fork_bomb_leaves_no_process(tmp_path: Path) -> None:
    limit = 20
    program = compile_c(FIXTURES / "c" / "hostile" / "fork_bomb.c", tmp_path / "fork_bomb")
    command = (f"cd {tmp_path} && unset COLUMNS LINES && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui "
               f"--debugger gdb {program} {limit}")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "48", "-e", "TERM=xterm-256color", command)
    everything: dict[int, str] = {}
    try:
        tmux.wait_for_all("running", timeout=60)
        wait_until(lambda: len(in_directory(tmp_path)) >= limit + 2, 60,
                   lambda: f"{limit} bomb processes, cudatui and gdb: {len(in_directory(tmp_path))}")
        everything = {pid: start_time(pid) or "" for pid in in_directory(tmp_path)}
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
        wait_until(lambda: not in_directory(tmp_path), 60,
                   lambda: f"still running after the terminal closed: {in_directory(tmp_path)}")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
        kill_all({**everything, **{pid: start_time(pid) or "" for pid in in_directory(tmp_path)}})
