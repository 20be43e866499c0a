"""Quitting never kills a process cudatui did not start, in a real terminal (tmux): a decoy in its
own session (tests/support/decoys.py) outlives ``cudatui replay`` and ``cudatui follow`` of a real
recording that names its pid, a live session whose debugger (GNU gdb behind a proxy) reports its
pid, and ``cudatui demo oob --replay``, whose bundled recording names pid 817: there the decoy
is made pid 817 in a pid namespace of its own (root only)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from collections.abc import Iterator

import pytest

from tests.support.decoys import Decoy, lying_gdb, naming
from tests.support.paths import RECORDED, ROOT
from tests.support.processes import alive, descendants
from tests.support.programs import BREAK_LINE, STEPS, compile_c
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = pytest.mark.skipif(not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")),
                                reason="needs tmux, gdb and gcc")

WAIT = 60.0


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[TmuxServer]:
    server = TmuxServer(tmp_path / "tmux.sock")
    yield server
    subprocess.run([*server.base, "kill-server"], capture_output=True, timeout=20)


def cudatui(tmux: TmuxServer, cwd: Path, *words: str) -> int:
    """``cudatui WORDS`` in a 100x30 tmux window; the pid of the process in it."""
    command = f"cd {cwd} && unset COLUMNS LINES && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui {' '.join(words)}"
    tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "-e", "TERM=xterm-256color", command)
    return int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())


def quit_and_wait(tmux: TmuxServer, pid: int) -> None:
    tmux("send-keys", "-t", "t", "C-q")
    wait_until(lambda: not alive(pid), WAIT, "cudatui to exit after ctrl+q")


def test_quitting_a_replay_that_names_a_decoy_leaves_it_running(tmp_path: Path, tmux: TmuxServer, decoy: Decoy) -> None:
    naming(RECORDED / "gdb" / "panes_path.jsonl.gz", decoy.pid, tmp_path / "named.jsonl")
    pid = cudatui(tmux, tmp_path, "replay", "named.jsonl")
    tmux.wait_for_all("REPLAY", "stopped", timeout=WAIT)
    tmux("send-keys", "-t", "t", "n")
    tmux.wait_for_all("REPLAY", "stopped", timeout=WAIT)
    quit_and_wait(tmux, pid)
    assert decoy.alive()


def test_quitting_a_follow_of_a_recording_that_names_a_decoy_leaves_it_running(
    tmp_path: Path, tmux: TmuxServer, decoy: Decoy
) -> None:
    naming(RECORDED / "gdb" / "panes_path.jsonl.gz", decoy.pid, tmp_path / "named.jsonl", first_stop=True)
    pid = cudatui(tmux, tmp_path, "follow", "named.jsonl")
    tmux.wait_for_all("FOLLOW", "read-only", "stopped", timeout=WAIT)
    quit_and_wait(tmux, pid)
    assert decoy.alive()


def test_quitting_a_live_session_whose_debugger_names_a_decoy_kills_only_the_real_debuggee(
    tmp_path: Path, tmux: TmuxServer, decoy: Decoy
) -> None:
    compile_c(STEPS, tmp_path / "steps")
    lying_gdb(decoy.pid, tmp_path / "lying-gdb")
    pid = cudatui(tmux, tmp_path, "--debugger", "./lying-gdb", "-b", f"steps.c:{BREAK_LINE}", "./steps")
    tmux.wait_for_line("total = square(3);", timeout=WAIT)
    real = [child for child in descendants(pid) if Path(f"/proc/{child}/comm").read_text().strip() == "steps"]
    assert len(real) == 1
    tmux("send-keys", "-t", "t", "n")
    quit_and_wait(tmux, pid)
    wait_until(lambda: not alive(real[0]), WAIT, "the real debuggee to be reaped")
    assert decoy.alive()


NAMESPACE = r'''
echo 816 > /proc/sys/kernel/ns_last_pid
setsid bash -c 'sleep 300 & exec sleep 301' </dev/null >/dev/null 2>&1 &
until [ "$(cat /proc/817/comm 2>/dev/null)" = sleep ]; do sleep 0.05; done
echo ready > {dir}/ready
until [ -e {dir}/quit ]; do sleep 0.05; done
state=$(awk '{{print $3}}' /proc/817/stat 2>/dev/null)
echo "${{state:-gone}}" > {dir}/decoy.state
'''


def test_quitting_the_demo_replay_leaves_a_process_that_holds_a_recorded_pid_running(tmp_path: Path) -> None:
    """oob's recording names pid 817 (the H200's): in a pid namespace a decoy is made pid 817, then
    ``cudatui demo oob --replay``, q to the picker, ctrl+q; the decoy still runs."""
    script = tmp_path / "ns.sh"
    script.write_text(NAMESPACE.format(dir=tmp_path))
    probe = subprocess.run(["unshare", "-p", "-f", "--mount-proc", "true"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip("no pid namespace can be made here (needs root)")
    holder = subprocess.Popen(["unshare", "-p", "-f", "--mount-proc", "bash", str(script)])
    tmux = TmuxServer(tmp_path / "tmux.sock")
    try:
        wait_until(lambda: (tmp_path / "ready").exists(), WAIT, "the decoy at pid 817")
        inner = Path(f"/proc/{holder.pid}/task/{holder.pid}/children").read_text().split()[0]  # its pid 1
        command = (f"cd {tmp_path} && unset COLUMNS LINES && PYTHONPATH={ROOT} exec nsenter -t {inner} -p -m "
                   f"{sys.executable} -m cudatui demo oob --replay")
        tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "-e", "TERM=xterm-256color", command)
        pid = int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
        tmux.wait_for_all("REPLAY", "stopped", timeout=WAIT)
        tmux("send-keys", "-t", "t", "q")
        tmux.wait_for_all("pick a lesson", timeout=WAIT)
        quit_and_wait(tmux, pid)
        (tmp_path / "quit").touch()
        holder.wait(timeout=WAIT)
        assert (tmp_path / "decoy.state").read_text().strip() in ("S", "R")
    finally:
        (tmp_path / "quit").touch()
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
        holder.kill()
        holder.wait(timeout=WAIT)
