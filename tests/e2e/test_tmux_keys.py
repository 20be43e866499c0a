"""Keys in a real terminal (tmux, 100x30): after ``:`` Escape leaves the console so that the next
keys are the debugger's again, an empty Enter in the console repeats the last command, and a
console ``up 2``/``down`` moves the source pane (its title names the file, the line and the
function of the selected frame). GNU gdb on tests/fixtures/c/nav (two files, four frames)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.processes import wait_ended
from tests.support.programs import NAV_MAIN, NAV_WALK, compile_nav, marked_line
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until


pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")), reason="needs tmux, gdb and gcc"
)


PLACEHOLDER = ": gdb command"
"""The console line's placeholder: on screen while the line is empty."""


def placeholder_shown(tmux: TmuxServer) -> bool:
    return PLACEHOLDER in tmux.screen()


def open_console(tmux: TmuxServer) -> None:
    """``:``, until the console (its empty command line) is on screen, then spaces until one
    lands in the command line (its placeholder goes): typed before the line has the focus, a key
    would be the app's."""
    tmux("send-keys", "-t", "t", ":")
    wait_until(lambda: placeholder_shown(tmux), why="the console on screen")

    def in_the_line() -> bool:  # a space typed since the last look went to the line, or another is typed
        if not placeholder_shown(tmux):
            return True
        tmux("send-keys", "-t", "t", "Space")
        return False

    wait_until(in_the_line, why="the console line to take the focus", every=0.2)


def leave_console(tmux: TmuxServer) -> None:
    """Type a space (the placeholder goes), Escape, and wait until the line is emptied (it comes back)."""
    tmux("send-keys", "-t", "t", "Space")
    wait_until(lambda: not placeholder_shown(tmux), why="the space in the console line")
    tmux("send-keys", "-t", "t", "Escape")
    wait_until(lambda: placeholder_shown(tmux), why="escape to leave the console line")


def test_escape_leaves_the_console_and_enter_repeats_the_last_command(tmp_path: Path) -> None:
    compile_nav(tmp_path / "nav")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    command = f"unset COLUMNS LINES; cd {tmp_path} && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui -b leaf --debugger gdb ./nav"
    tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "48", "-e", "TERM=xterm-256color", command)
    pid = int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
    leaf, walk = marked_line(NAV_WALK, "/* LEAF */"), marked_line(NAV_WALK, "/* WALK */")
    outer, main = marked_line(NAV_MAIN, "/* OUTER */"), marked_line(NAV_MAIN, "/* MAIN */")
    try:
        tmux.wait_for_all(f"nav_walk.c:{leaf} · leaf")
        open_console(tmux)
        tmux("send-keys", "-t", "t", "-l", "up 2")
        tmux("send-keys", "-t", "t", "Enter")
        tmux.wait_for_all(f"nav_main.c:{outer} · outer", "(gdb) up 2")
        leave_console(tmux)
        tmux("send-keys", "-t", "t", "<")  # the debugger's key again: up one frame
        tmux.wait_for_all(f"nav_main.c:{main} · main")

        open_console(tmux)
        tmux("send-keys", "-t", "t", "-l", "down")
        tmux("send-keys", "-t", "t", "Enter")
        tmux.wait_for_all(f"nav_main.c:{outer} · outer")
        tmux("send-keys", "-t", "t", "Enter")  # empty: `down` again
        tmux.wait_for_all(f"nav_walk.c:{walk} · walk")
        # the console's echo of the repeated command and the new frame reach the screen apart
        tmux.wait_for_screen(lambda screen: screen.count("(gdb) down") == 2, "the console echoing `down` twice")
        leave_console(tmux)
        tmux("send-keys", "-t", "t", "q")
        wait_ended(pid, "q after escape to quit (the console kept the key?)")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
