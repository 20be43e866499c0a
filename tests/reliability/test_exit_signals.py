"""Issue 36: SIGTERM and SIGHUP to cudatui at a stop give the terminal back, as ctrl+q does.

``cudatui replay`` of a lesson recording runs in a real terminal (tmux) under a shell that
reports its exit status and stays; once the app shows the stop, the signal is sent to it. After
it exits, tmux says the pane is off the alternate screen, its cursor shown and mouse reporting
off (they were on while the app ran), and the status is 128 + the signal.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.tui.plans.demo_plan import RECORDINGS_DIR
from tests.support.paths import ROOT
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

MODES = "#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_button_flag} #{mouse_standard_flag} #{mouse_sgr_flag}"
"""Alternate screen, cursor shown, and the mouse reporting modes Textual turns on."""


def modes(tmux: TmuxServer) -> dict[str, str]:
    values = tmux("display-message", "-p", "-t", "t", MODES).split()
    return dict(zip(("alternate", "cursor", "mouse_any", "mouse_button", "mouse_standard", "mouse_sgr"), values))


def read_pid(path: Path, timeout: float = 30.0) -> int:
    return int(wait_until(lambda: path.exists() and path.read_text().strip(), timeout, "cudatui to start (its pid file)"))


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_at_a_stop_restores_the_terminal(tmp_path: Path, number: signal.Signals) -> None:
    pid_file = tmp_path / "pid"
    recording = RECORDINGS_DIR / "divergence.jsonl.gz"
    inner = f"echo $$ > {pid_file}; exec {sys.executable} -m cudatui replay {recording}"
    command = (f"cd {tmp_path} && unset COLUMNS LINES && PYTHONPATH={ROOT} sh -c '{inner}'; "
               'echo "cudatui exited $?"; exec cat')
    tmux = TmuxServer(tmp_path / "tmux.sock")
    tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "48", "-e", "TERM=xterm-256color", command)
    try:
        pid = read_pid(pid_file)
        tmux.wait_for_all("REPLAY", "stopped", timeout=60)
        during = modes(tmux)
        assert during["alternate"] == "1" and during["cursor"] == "0" and during["mouse_any"] == "1", during
        os.kill(pid, number)
        screen = tmux.wait_for_line("cudatui exited", timeout=60)
        assert f"cudatui exited {128 + number}" in screen, screen
        after = modes(tmux)
        assert after == {"alternate": "0", "cursor": "1", "mouse_any": "0", "mouse_button": "0",
                         "mouse_standard": "0", "mouse_sgr": "0"}, after
        assert "Traceback" not in screen, screen
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)


async def test_a_hang_up_ignored_at_the_start_stays_ignored() -> None:
    """Started under ``nohup`` (SIGHUP ignored), an app handles no hang-up and leaves SIGHUP ignored
    for itself and what it starts, while it runs and after (it used to install its handler and
    leave SIGHUP's default action behind)."""
    from textual.app import App

    from cudatui.tui.exit_signals import QuitsOnSignals

    class Quitting(QuitsOnSignals, App[None]):
        pass

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        app = Quitting()
        async with app.run_test() as pilot:
            await pilot.pause()
            during = signal.getsignal(signal.SIGHUP), signal.getsignal(signal.SIGTERM)
        after = signal.getsignal(signal.SIGHUP)
    finally:
        signal.signal(signal.SIGHUP, before)
    assert during[0] == signal.SIG_IGN and after == signal.SIG_IGN
    assert during[1] not in (signal.SIG_IGN, signal.SIG_DFL)  # SIGTERM is handled (asyncio's wakeup handler)
