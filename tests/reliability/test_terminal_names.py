"""Names that write to the terminal never reach it: ``python -m cudatui`` in tmux (a real terminal).

The program of tests/support/names.py names its source file (``#line``), its dlopen'ed library
and a library function with OSC 2 titles, OSC 52 clipboard writes and a CSI clear screen; it is
debugged with GNU gdb, its recording replayed, and a sanitizer report naming such a kernel is
opened. Throughout, the pane title stays the one the test set before cudatui started, tmux
(``set-clipboard on``: an OSC 52 would make a paste buffer) holds no buffer, and the names are
on the screen with their sequences removed. So is a GPU process named that way (recorded
samples replayed by ``cudatui stats``).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Iterator

import pytest

from tests.support.names import FUNCTION, KERNEL, LIBRARY, PROCESS, SHOWN, SOURCE, TITLES, build
from tests.support.paths import FIXTURES, ROOT
from tests.support.tmux import TmuxServer
from tests.support.tmux_path import ScreenPath
from tests.support.wait import wait_until

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")), reason="needs tmux, gdb and gcc"
)

TITLE = "cudatui-test-title"
"""The pane title set before cudatui starts."""


class Terminal(TmuxServer):
    """A private tmux server (``set-clipboard on``) whose one 160x48 pane runs ``cudatui ARGS``."""

    def __init__(self, directory: Path, args: list[str]) -> None:
        super().__init__(directory / "tmux.sock")
        conf = directory / "tmux.conf"
        conf.write_text("set -s set-clipboard on\nset -g status off\n")
        # COLUMNS and LINES (set under pytest) would fix the app's size at 80x24
        cudatui = f"unset COLUMNS LINES; PYTHONPATH={ROOT} exec {sys.executable} -m cudatui {shlex.join(args)}"
        # the title is set while the pane waits for "go": nothing cudatui prints comes before it
        self("-f", str(conf), "new-session", "-d", "-s", "t", "-x", "160", "-y", "48",
             f"cd {shlex.quote(str(directory))} && read go && {cudatui}")
        self("select-pane", "-t", "t", "-T", TITLE)
        self("send-keys", "-t", "t", "go", "Enter")

    def wait_for(self, *texts: str, timeout: float = 60.0) -> str:
        """The screen once every one of ``texts`` is on it."""
        return self.wait_for_screen(lambda screen: all(text in screen for text in texts), repr(texts), timeout)

    def assert_untouched(self) -> None:
        """The pane title is the test's and no clipboard write made a buffer."""
        title = self("display-message", "-p", "-t", "t", "#{pane_title}").strip()
        assert title == TITLE and not any(t in title for t in TITLES), title
        assert self("list-buffers") == ""

    def running(self) -> bool:
        return subprocess.run([*self.base, "has-session", "-t", "t"], capture_output=True, timeout=20).returncode == 0

    def quit(self) -> None:
        """Press q and wait for cudatui (and so its pane and session) to end."""
        self("send-keys", "-t", "t", "q")
        wait_until(lambda: not self.running(), why="cudatui to exit after q", every=0.2)


@contextmanager
def terminal(directory: Path, *args: str) -> Iterator[Terminal]:
    term = Terminal(directory, list(args))
    try:
        yield term
    finally:
        subprocess.run([*term.base, "kill-server"], capture_output=True, timeout=20)


def test_hostile_names_of_a_live_and_a_replayed_session_never_reach_the_terminal(tmp_path: Path) -> None:
    built = build(tmp_path)
    with terminal(tmp_path, "--debugger", "gdb", "--record", "session.jsonl", "-b", "callback if 0", "./names") as term:
        # running: the status bar names the library just loaded; the program says (in the Output
        # tab, clicked as a user does) that it waits in callback()
        term.wait_for(f"loaded {SHOWN[LIBRARY]}")
        ScreenPath(term, wide=True).show("output")
        term.wait_for("in callback")
        term.assert_untouched()
        term("send-keys", "-t", "t", "C-c")
        term.wait_for("SIGINT")
        ScreenPath(term, wide=True).show("stack")  # the frames below pause(): the hostile function and file
        term.wait_for(SHOWN[FUNCTION], f"{SHOWN[SOURCE]}:{built.wait_line}")
        term.assert_untouched()
        ScreenPath(term, wide=True).show("breakpoints")
        term.wait_for(f"{SHOWN[SOURCE]}:{built.wait_line - 3}")  # the breakpoint's location
        term.assert_untouched()
        term.quit()
    with terminal(tmp_path, "replay", "session.jsonl") as term:
        term.wait_for(f"loaded {SHOWN[LIBRARY]}")
        term("send-keys", "-t", "t", "C-c")
        term.wait_for("SIGINT")
        ScreenPath(term, wide=True).show("stack")
        term.wait_for(SHOWN[FUNCTION], f"{SHOWN[SOURCE]}:{built.wait_line}")
        term.assert_untouched()
        term.quit()


def test_a_sanitizer_report_naming_a_hostile_kernel_never_reaches_the_terminal(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    text = (FIXTURES / "sanitizer" / "memcheck.txt").read_text()
    report.write_text(text.replace("at k(int *)", f"at {KERNEL}(int *)").replace("in t.cu:8", f"in {SOURCE}:8"))
    with terminal(tmp_path, "sanitize", "--read", str(report)) as term:
        term.wait_for(SHOWN[KERNEL], f"{SHOWN[SOURCE]}:8")
        term.assert_untouched()
        term.quit()


def test_a_gpu_process_with_a_hostile_name_never_reaches_the_terminal(tmp_path: Path) -> None:
    sample = json.loads((FIXTURES / "nvml" / "h200_samples.jsonl").read_text().splitlines()[0])
    sample["gpus"][0]["processes"] = [{"pid": 4242, "used_memory": 1 << 20, "name": PROCESS}]
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps(sample) + "\n")
    with terminal(tmp_path, "stats", "--replay", str(samples)) as term:
        term.wait_for("4242", SHOWN[PROCESS])
        term.assert_untouched()
        term.quit()
