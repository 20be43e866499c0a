"""The Locals tree in a real terminal (tmux, GNU gdb on tests/fixtures/c/app/vars.c) at 80x24
and 160x48: tab to the tree, down to its first line (the struct ``where``), right opens it and
its members are on the screen, left closes it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import C_SOURCES, ROOT
from tests.support.programs import compile_c, marked_line
from tests.support.tmux import TmuxServer

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")), reason="needs tmux, gdb and gcc"
)

VARS = C_SOURCES / "app" / "vars.c"
FIRST = marked_line(VARS, "/* FIRST */")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_a_struct_opens_and_closes_in_the_terminal(tmp_path: Path, size: tuple[int, int]) -> None:
    compile_c(VARS, tmp_path / "vars")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    command = (f"cd {tmp_path} && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui "
               f"-b vars.c:{FIRST} --debugger gdb ./vars")
    rows = str(size[1] + 1)  # tmux's status line takes one
    tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", rows, "-e", "TERM=xterm-256color", command)
    try:
        tmux.wait_for_all("breakpoint 1", "where {…} struct point", "step = 1; /* FIRST */")  # the source shown too
        tmux("send-keys", "-t", "t", "Tab")
        tmux.wait_for_all("w Watch")  # Locals has the focus (its keys in the footer); under load, keys sent
        tmux("send-keys", "-t", "t", "Down")  # sooner went to the source
        tmux("send-keys", "-t", "t", "Right")
        screen = tmux.wait_for_all("▼ where", "x 3 int", "y 4 int")
        assert "▶ frame" in screen
        tmux("send-keys", "-t", "t", "Left")
        screen = tmux.wait_for_all("▶ where")
        assert "x 3 int" not in " ".join(screen.split())
        tmux("send-keys", "-t", "t", "q")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
