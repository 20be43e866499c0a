"""Where ``--record`` cannot write: a FIFO without a reader, a device, a read-only file system
are one line and exit 2 before any UI (with or without ``--force``); a write error while
recording (a file size limit, RLIMIT_FSIZE) stops the recording with a message in the UI
while the session goes on, and quitting prints nothing (a real terminal: tmux). ``r`` after
the debugger died appends a session to the recording and keeps the first one whole.
"""

from __future__ import annotations

import json
import os
import signal
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.record.transcript import load
from tests.support.paths import ROOT
from tests.support.processes import descendants, kill_all, wait_gone
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.terminal import TerminalApp
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = needs_gdb

WAIT = 60.0


def can_mount_read_only() -> bool:
    """Whether ``unshare -rm`` gives a mount namespace where a tmpfs can be made read-only."""
    if not shutil.which("unshare"):
        return False
    probe = "d=$(mktemp -d) && mount -t tmpfs none $d && mount -o remount,ro $d && ! touch $d/x 2>/dev/null"
    return subprocess.run(["unshare", "-rm", "sh", "-c", probe], capture_output=True, timeout=WAIT).returncode == 0


def cudatui_line(tmp_path: Path, target: str, force: bool, read_only: bool = False) -> str:
    """``cudatui --record TARGET [--force] /bin/true`` with stdin not a terminal: its one line."""
    argv = [sys.executable, "-m", "cudatui", "--debugger", "gdb", "--record", target,
            *(["--force"] if force else []), "/bin/true"]
    if read_only:
        mount = tmp_path / "ro"
        mount.mkdir()
        script = (f"mount -t tmpfs none {mount} && echo old > {mount}/old.jsonl && mount -o remount,ro {mount} "
                  f"&& exec {shlex.join(argv)}")
        argv = ["unshare", "-rm", "sh", "-c", script]
    done = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=WAIT)
    assert (done.returncode, done.stdout) == (2, ""), (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and "\x1b" not in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
@pytest.mark.parametrize("kind", ["fifo", "dev-full"])
def test_a_fifo_or_a_device_is_refused_before_the_ui(tmp_path: Path, kind: str, force: bool) -> None:
    """A FIFO without a reader hung the start; /dev/full was an internal error, the UI stuck, exit 0."""
    if kind == "fifo":
        target = tmp_path / "fifo"
        os.mkfifo(target)
        expected = "not a regular file (a device or a FIFO)"  # --force replaces only a regular file
    else:
        target, expected = Path("/dev/full"), "not a regular file (a device or a FIFO)"
    assert expected in cudatui_line(tmp_path, str(target), force)


@pytest.mark.skipif(not can_mount_read_only(), reason="needs unshare -rm (a user and mount namespace)")
@pytest.mark.parametrize("name", ["new.jsonl", "old.jsonl"])
def test_a_read_only_file_system_is_refused_before_the_ui(tmp_path: Path, name: str) -> None:
    target = tmp_path / "ro" / name
    message = cudatui_line(tmp_path, str(target), force=True, read_only=True)
    assert message == f"cudatui: cannot record to {target}: Read-only file system\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a file of mode 0444")
@pytest.mark.parametrize("where", ["read-only-file", "read-only-directory"])
def test_a_file_or_directory_without_write_permission_is_refused_before_the_ui(tmp_path: Path, where: str) -> None:
    directory = tmp_path / "d"
    directory.mkdir()
    target = directory / "old.jsonl"
    if where == "read-only-file":
        target.write_text("precious\n")
        target.chmod(0o444)
    else:
        target = directory / "new.jsonl"
        directory.chmod(0o555)
    try:
        assert cudatui_line(tmp_path, str(target), force=True) == f"cudatui: cannot record to {target}: Permission denied\n"
    finally:
        directory.chmod(0o755)
    assert where == "read-only-directory" or target.read_text() == "precious\n"


class Terminal(TmuxServer):
    """A private tmux server whose one 160x48 pane runs ``COMMAND``, then says its exit status."""

    def __init__(self, directory: Path, command: list[str]) -> None:
        super().__init__(directory / "tmux.sock")
        conf = directory / "tmux.conf"
        conf.write_text("set -g status off\n")
        # COLUMNS and LINES (set under pytest) would fix the app's size at 80x24
        shell = (f"cd {shlex.quote(str(directory))} && unset COLUMNS LINES && PYTHONPATH={ROOT} {shlex.join(command)}; "
                 'echo "EXIT=$?"; sleep 600')
        self("-f", str(conf), "new-session", "-d", "-s", "t", "-x", "160", "-y", "48", shell)


@pytest.mark.skipif(not (shutil.which("tmux") and shutil.which("prlimit")), reason="needs tmux and prlimit")
def test_a_write_error_while_recording_stops_it_and_the_session_goes_on(tmp_path: Path) -> None:
    """At 4,096 bytes (the debugger's first answers) the file may not grow: the UI says so and
    stops at the breakpoint (it stayed on "starting" and quitting printed a traceback)."""
    program = compile_c(STEPS, tmp_path / "steps")
    limit = 4096
    terminal = Terminal(tmp_path, ["prlimit", f"--fsize={limit}", "--", sys.executable, "-m", "cudatui",
                                   "--debugger", "gdb", "--record", "r.jsonl", "-b", f"steps.c:{BREAK_LINE}", str(program)])
    try:
        terminal.wait_for_all("recording to r.jsonl stopped: File too large", timeout=WAIT)
        terminal.wait_for_all("stopped breakpoint 1", f"0 main steps.c:{BREAK_LINE}", timeout=WAIT)
        terminal("send-keys", "-t", "t", "n")
        terminal.wait_for_all("stopped step", f"0 main steps.c:{BREAK_LINE + 1}", timeout=WAIT)
        terminal("send-keys", "-t", "t", "q")
        screen = terminal.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen and "Error" not in screen, screen
    finally:
        terminal("kill-server")
    record = tmp_path / "r.jsonl"
    assert 0 < record.stat().st_size <= limit
    assert load(str(record)).exchanges, "what was written before the limit replays"


def test_r_after_the_debugger_died_appends_a_session_and_keeps_the_first(tmp_path: Path) -> None:
    """It truncated the file (98 lines to 53, only the last of 11 sessions kept)."""
    program = compile_c(STEPS, tmp_path / "steps")
    record = tmp_path / "r.jsonl"
    app = TerminalApp(["--debugger", "gdb", "--record", record.name, "-b", f"steps.c:{BREAK_LINE}", str(program)],
                      cwd=tmp_path)
    children: dict[int, str] = {}

    def hits() -> int:
        """The breakpoint stops gdb reported (its ``*stopped`` records; the front end's own
        stop-state line names the stop as well, and counting it raced with the kill)."""
        if not record.exists():
            return 0
        entries = [json.loads(line) for line in record.read_text().split("\n")[:-1]]  # whole lines only
        return sum(e.get("dir") == "out" and e.get("line", "").startswith('*stopped,reason="breakpoint-hit"')
                   for e in entries)

    try:
        wait_until(lambda: hits() == 1, why="the first stop", timeout=WAIT)
        gdb = next(pid for pid in descendants(app.proc.pid) if Path(f"/proc/{pid}/comm").read_text().strip() == "gdb")
        os.kill(gdb, signal.SIGKILL)
        wait_until(lambda: b"debugger died" in app.output, why="debugger died", timeout=WAIT)
        first = record.read_text()
        app.send("r")
        try:
            wait_until(lambda: hits() == 2, why="the second stop", timeout=WAIT)
        except AssertionError as exc:  # what the terminal and the recording showed, to tell why
            seen = bytes(app.output[-4000:]).decode(errors="replace")
            raise AssertionError(f"{exc}\n-- terminal --\n{seen!r}\n-- recording --\n{record.read_text()[-3000:]}") from None
        children = descendants(app.proc.pid)
        app.send("q")
        assert app.wait(timeout=WAIT) == 0
        assert not wait_gone(children, timeout=10)
    finally:
        kill_all(children)
        app.close()
    assert record.read_text().startswith(first), "the first session is kept as it was"
    one, two = load(str(record), 1), load(str(record), 2)
    assert (one.sessions, two.session) == (2, 2)
    # the same first commands (as the replay matches them: the pty each session got may differ)
    assert [x.key for x in one.exchanges][:3] == [x.key for x in two.exchanges][:3]
    assert one.exchanges[0].key == ("-inferior-tty-set",)
