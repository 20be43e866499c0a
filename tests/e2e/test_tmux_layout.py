"""The layout in a real terminal: cudatui in tmux on a C program with fifteen locals, resized
from 160x48 to 80x24 and back; each size gets its own layout at once."""

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

LOCALS15 = C_SOURCES / "layout" / "locals15.c"
NAMES = ("x", "y", "width", "lx", "ly", "gx", "gy", "far", "left", "right", "up", "down", "sum", "centre", "diff")


def local_rows(screen: str) -> set[str]:
    """The local names at the start of a Locals row (after the pane's border) on the screen."""
    found = set()
    for line in screen.splitlines():
        for cell in line.split("│"):
            words = cell.split()
            if words and words[0] in NAMES:
                found.add(words[0])
    return found


@pytest.mark.xfail(reason="since the merges of 2026-12-04 (guide strip, pane keys, notices) the relaid-out screen "
                   "differs from what this test expects: known, to fix first (issue 31's note)", strict=False)
def test_resize_160x48_to_80x24_and_back_relays_out(tmp_path: Path, config_dir: Path) -> None:
    line = marked_line(LOCALS15, "/* BREAK */")
    compile_c(LOCALS15, tmp_path / "locals15")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    # without COLUMNS/LINES (set in a test process), which would win over the terminal's real size
    command = (f"cd {tmp_path} && unset COLUMNS LINES && CUDATUI_CONFIG_DIR={config_dir} PYTHONPATH={ROOT} "
               f"exec {sys.executable} -m cudatui "
               f"-b locals15.c:{line} --debugger gdb ./locals15")
    tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "48", "-e", "TERM=xterm-256color", command)
    try:
        tmux.wait_for_line("breakpoint 1")
        screen = tmux.wait_for_all("centre 536", "╭─ Locals", "╭─ Focus", "╭─ Warps")
        assert local_rows(screen) == set(NAMES), screen  # every local at once, next to the source
        tabs = [row for row in screen.splitlines() if "Stack" in row and "Breaks" in row]
        assert tabs and "Locals" not in tabs[0] and "Warps" not in tabs[0]  # Locals has a column of its own
        tmux("resize-window", "-t", "t", "-x", "80", "-y", "24")
        screen = tmux.wait_for_all("Locals Focus Warps Stack")  # one tabbed area under the source
        assert max(len(row.rstrip()) for row in screen.splitlines()) <= 80
        assert "╭ Focus" not in screen and "╭ Warps" not in screen
        tmux("resize-window", "-t", "t", "-x", "160", "-y", "48")
        screen = tmux.wait_for_all("centre 536", "╭─ Locals", "╭─ Focus", "╭─ Warps")
        assert local_rows(screen) == set(NAMES), screen
        assert not any("Locals" in row and "Stack" in row and "Breaks" in row for row in screen.splitlines())
        tmux("send-keys", "-t", "t", "q")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
