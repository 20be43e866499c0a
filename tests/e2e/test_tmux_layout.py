"""The layout in a real terminal: cudatui in tmux on a C program with fifteen locals, resized
from 160x48 to 80x24 and back; each size gets its own layout, with every pane's title on the
screen and no pane squeezed below what it needs: the stop's line in sight, the locals listed, and
back at 160x48 the very boxes it had before. Each screen is waited for whole (the first frame
after a resize is laid out before the source view has scrolled back to the stop's line)."""

from __future__ import annotations

import re
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
TABS = ("Stack", "Breaks", "Regs", "SASS", "Shared", "Console", "Output", "GPU", "Sanitize")
"""The tabs under the source at 160x48; at 80x24 Locals, Focus and Warps come first."""
COLUMN = ("Locals", "Focus", "Warps")
"""The panes of the right column at 160x48."""


def local_rows(screen: str) -> set[str]:
    """The local names at the start of a Locals row (after the pane's border) on the screen."""
    found = set()
    for line in screen.splitlines():
        for cell in line.split("│"):
            words = cell.split()
            if words and words[0] in NAMES:
                found.add(words[0])
    return found


def tab_row(screen: str) -> list[str]:
    """The tab labels (the row that holds Stack and Breaks, left of the right column's boxes)."""
    row = next((line for line in screen.splitlines() if re.search(r"\bStack\s+Breaks\b", line)), "")
    return re.split(r"[╭│]", row, maxsplit=1)[0].split()


def boxes(screen: str) -> set[tuple[int, int, int, str]]:
    """Each box's top edge: (row, column, width, title)."""
    found = set()
    for row, line in enumerate(screen.splitlines()):
        for corner in re.finditer("╭", line):
            end = line.find("╮", corner.start())
            if end > 0:
                found.add((row, corner.start(), end - corner.start(), line[corner.start() + 1:end].strip("─ ")))
    return found


def wide(screen: str) -> bool:
    """160x48 whole: the source (its title, all 25 lines, the stop's line), Locals with every
    local, Focus and Warps in the right column, the other panes' tabs, the status and key bars."""
    titles = {title for *_, title in boxes(screen)}
    return ("locals15.c:17" in screen and "▶17" in screen.replace(" ", "") and re.search(r"│\s+25 ", screen) is not None
            and set(COLUMN) <= titles and local_rows(screen) == set(NAMES) and tab_row(screen) == list(TABS)
            and "stopped" in screen.splitlines()[-2] and "q Quit" in screen.splitlines()[-1])


def narrow(screen: str) -> bool:
    """80x24 whole: one tabbed area under the source with every pane's tab, the stop's line in
    sight, the Locals tab listing locals above its watch input, the status and key bars."""
    lines = screen.splitlines()
    return (tab_row(screen) == [*COLUMN, *TABS] and "locals15.c:17" in screen and "▶17" in screen.replace(" ", "")
            and len(local_rows(screen)) >= 5 and "w: add a watch expression" in screen
            and max(len(row.rstrip()) for row in lines) <= 80 and not boxes(screen)
            and "stopped" in lines[-2] and "q Quit" in lines[-1])


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
        first = tmux.wait_for_screen(wide, "160x48 whole")
        tmux("resize-window", "-t", "t", "-x", "80", "-y", "24")
        tmux.wait_for_screen(narrow, "80x24 whole")
        tmux("resize-window", "-t", "t", "-x", "160", "-y", "48")
        tmux.wait_for_screen(lambda screen: wide(screen) and boxes(screen) == boxes(first),
                             f"160x48 whole again, in the boxes it had {sorted(boxes(first))}")
        tmux("send-keys", "-t", "t", "q")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
