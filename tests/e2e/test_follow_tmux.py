"""Teaching in real terminals: an instructor's cudatui on GNU gdb with ``--record``, two students'
``cudatui follow`` on the file, each in its own tmux session of one server."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.processes import alive
from tests.support.programs import BREAK_LINE, STEPS, compile_c
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")), reason="needs tmux, gdb and gcc"
)

FOLLOWERS = ("f1", "f2")


def commands_in(path: Path) -> list[str]:
    return [json.loads(raw)["line"] for raw in path.read_text().splitlines() if json.loads(raw)["dir"] == "in"]


def at_line(screen: str, line: int) -> bool:
    return f"▶{line}" in screen.replace(" ", "")


def test_two_followers_see_each_step_of_the_instructor_and_change_nothing(tmp_path: Path) -> None:
    compile_c(STEPS, tmp_path / "steps")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    cudatui = f"cd {tmp_path} && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui"
    env = ["-e", "TERM=xterm-256color"]
    tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", *env,
         f"{cudatui} --record class.jsonl -b steps.c:{BREAK_LINE} --debugger gdb ./steps")
    try:
        tmux.wait_for_line("total = square(3);")
        for name in FOLLOWERS:
            tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", *env, f"{cudatui} follow class.jsonl")
        for name in FOLLOWERS:
            screen = tmux.wait_for_all("FOLLOW", "read-only", "total = square(3);", target=name)
            wait_until(lambda: at_line(tmux.screen(name), BREAK_LINE), 30, f"{name} at line {BREAK_LINE}")
            assert "FOLLOW" in screen
        keys = tmux.screen("f1").splitlines()[-1]
        assert "Rejoin" in keys and "Follow / look around" in keys, keys
        assert not any(word in keys.split() for word in ("Run", "Cont", "Next", "Step", "Break", "Console")), keys
        tmux("send-keys", "-t", "f2", "?")
        helped = tmux.wait_for_all("cudatui keys", "Rejoin: follow the instructor's newest session", target="f2")
        assert "step over" not in helped and "Breakpoint on or off" not in helped, helped
        tmux("send-keys", "-t", "f2", "Escape")

        tmux("send-keys", "-t", "t", "n")
        wait_until(lambda: at_line(tmux.screen("t"), BREAK_LINE + 1), 30, "the instructor's step")
        for name in FOLLOWERS:
            wait_until(lambda: at_line(tmux.screen(name), BREAK_LINE + 1), 30, f"{name} at the instructor's step")
            tmux.wait_for_line("total 9", target=name)

        sent = commands_in(tmp_path / "class.jsonl")
        for key in ("n", "c", "b"):
            tmux("send-keys", "-t", "f1", key)
        tmux.wait_for_line("read-only", target="f1")
        assert commands_in(tmp_path / "class.jsonl") == sent, "a follower's key reached the session"
        assert at_line(tmux.screen("t"), BREAK_LINE + 1)

        tmux("send-keys", "-t", "t", "q")
        for name in FOLLOWERS:
            tmux.wait_for_line("session ended", target=name)
            assert at_line(tmux.screen(name), BREAK_LINE + 1), "the follower keeps the last state"
        pids = [int(tmux("display-message", "-p", "-t", name, "#{pane_pid}").strip()) for name in FOLLOWERS]
        for name in FOLLOWERS:
            tmux("send-keys", "-t", name, "q")
        wait_until(lambda: not any(alive(pid) for pid in pids), 30, "the followers to quit")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)


def test_a_follower_started_before_the_instructor_waits_then_shows_the_first_stop(tmp_path: Path) -> None:
    compile_c(STEPS, tmp_path / "steps")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    cudatui = f"cd {tmp_path} && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui"
    env = ["-e", "TERM=xterm-256color"]
    tmux("new-session", "-d", "-s", "f1", "-x", "100", "-y", "30", *env, f"{cudatui} follow class.jsonl")
    tmux("new-session", "-d", "-s", "never", "-x", "100", "-y", "30", *env, f"{cudatui} follow never.jsonl")
    try:
        for name, file in (("f1", "class.jsonl"), ("never", "never.jsonl")):
            tmux.wait_for_all("Waiting for the instructor", file, "Waiting since", "ctrl+q quits", target=name)
        waiting = int(tmux("display-message", "-p", "-t", "never", "#{pane_pid}").strip())
        tmux("send-keys", "-t", "never", "C-q")
        wait_until(lambda: not alive(waiting), 30, "ctrl+q to quit the waiting screen")

        tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", *env,
             f"{cudatui} --record class.jsonl -b steps.c:{BREAK_LINE} --debugger gdb ./steps")
        tmux.wait_for_line("total = square(3);")
        screen = tmux.wait_for_all("FOLLOW", "read-only", "total = square(3);", target="f1")
        wait_until(lambda: at_line(tmux.screen("f1"), BREAK_LINE), 30, f"f1 at line {BREAK_LINE}")
        assert "Waiting for the instructor" not in screen
        tmux("send-keys", "-t", "t", "n")
        wait_until(lambda: at_line(tmux.screen("f1"), BREAK_LINE + 1), 30, "f1 at the instructor's step")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
