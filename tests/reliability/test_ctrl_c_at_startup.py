"""Issue 36: ctrl+c typed 60 times in a row while cudatui starts.

``cudatui --debugger gdb steps`` starts in a real terminal (tmux) under a shell that reports its
exit status and stays. At three moments of the start (cudatui's ``main`` has begun: it turned
the terminal's flow control off; gdb runs; the UI is drawn) 60 ctrl+c are typed in a row, then
ctrl+q. Before Textual reads the terminal, ctrl+c is SIGINT: the first one ends the start with
``cudatui: interrupted`` (130); those after it typed during that end printed a KeyboardInterrupt
traceback (``raise SystemExit(main())``, or Python's ``lost sys.stderr``) before
``early_keys.interrupt_once``. Once the UI reads keys, ctrl+c is its interrupt key, and ctrl+q
quits (0). Either way: no traceback, the terminal back to its modes, no process left in the
directory cudatui ran in.

What no code of cudatui can help: a ctrl+c while Python itself starts (its ``site`` module,
before cudatui's first line) ends with Python's own error; the test starts typing once
cudatui's ``main`` runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from tests.reliability.test_exit_signals import modes
from tests.support.paths import ROOT
from tests.support.processes import in_directory, kill_all, start_time
from tests.support.programs import STEPS, compile_c, needs_gdb
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = [needs_gdb, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

RESTORED = {"alternate": "0", "cursor": "1", "mouse_any": "0", "mouse_button": "0", "mouse_standard": "0", "mouse_sgr": "0"}


def flow_control_off(tty: str) -> bool:
    """Whether the terminal ``tty`` has XON/XOFF off: cudatui's ``main`` has begun (its first act)."""
    fd = os.open(tty, os.O_RDWR | os.O_NOCTTY)
    try:
        return not termios.tcgetattr(fd)[0] & termios.IXON
    finally:
        os.close(fd)


def runs_gdb(directory: Path) -> bool:
    return any(Path(f"/proc/{pid}/comm").read_text().strip() == "gdb" for pid in in_directory(directory))


@pytest.mark.parametrize("moment", ["main-started", "gdb-runs", "ui-drawn"])
def test_sixty_ctrl_c_while_starting_end_cleanly(tmp_path: Path, moment: str) -> None:
    work = tmp_path / "work"
    program = compile_c(STEPS, work / "steps")
    script = tmp_path / "pane.sh"
    script.write_text(
        "trap true INT\n"  # the shell lives on (a handler, not ignored: cudatui gets SIGINT's default)
        f"cd {work} && unset COLUMNS LINES && PYTHONPATH={ROOT} {sys.executable} -m cudatui --debugger gdb {program}\n"
        'echo "cudatui exited $?"\n'
        "cd .. && trap '' INT && exec cat\n")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-e", "TERM=xterm-256color", f"bash {script}")
    seen: dict[int, str] = {}
    try:
        tty = tmux("display-message", "-p", "-t", "t", "#{pane_tty}").strip()
        wait_until(lambda: flow_control_off(tty), why="cudatui's main to begin")
        if moment == "gdb-runs":
            wait_until(lambda: runs_gdb(work), why="gdb to start")
        elif moment == "ui-drawn":
            tmux.wait_for_all("q Quit", timeout=60)
        seen = {pid: start_time(pid) or "" for pid in in_directory(work)}
        tmux("send-keys", "-t", "t", *["C-c"] * 60)
        tmux("send-keys", "-t", "t", "C-q")  # quits the UI where ctrl+c was a key; else lost on the shell
        screen = tmux.wait_for_line("cudatui exited", timeout=60)
        status = screen.split("cudatui exited", 1)[1].split()[0]
        assert status in ("0", "130"), screen
        if moment == "ui-drawn":
            assert status == "0", screen  # ctrl+c was the UI's key, ctrl+q quit
        assert "Traceback" not in screen and "KeyboardInterrupt" not in screen and "Fatal" not in screen, screen
        assert modes(tmux) == RESTORED
        wait_until(lambda: not in_directory(work), why=lambda: f"no process left in {work}: {in_directory(work)}")
    finally:
        seen.update({pid: start_time(pid) or "" for pid in in_directory(work)})
        kill_all(seen)
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)


SWALLOWED = """
import os, signal, weakref
from cudatui.tui import early_keys

assert early_keys.interrupt_once()

class Held:
    pass

def callback(ref):  # the import system's module-lock callback is one such place
    os.kill(os.getpid(), signal.SIGINT)
    sum(range(1000))  # the handler runs here, in the callback: Python can only print what it raises

held = Held()
ref = weakref.ref(held, callback)
del held
print("interrupts", early_keys._interrupts, "ignored", signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
"""


def test_a_ctrl_c_swallowed_in_a_callback_is_kept_quiet_and_counted() -> None:
    """The first ctrl+c landed in the import system's weakref callback while Textual loaded
    (seen under load in the main-started case above): Python printed ``Exception ignored in ...``
    with a KeyboardInterrupt traceback and the start went on. Now nothing is printed and the
    interrupt is counted, so that ``early_keys.main`` ends the start with its one line."""
    done = subprocess.run([sys.executable, "-c", SWALLOWED], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stdout, done.stderr) == (0, "interrupts 1 ignored True\n", "")
