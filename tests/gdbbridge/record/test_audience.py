"""The instructor's count of who follows its recording (gdbbridge/record/audience.py): real inotify
on a real file, readers in this process and in others; then an instructor's Debugger on real GNU
gdb with ``--record`` and two followers' stand-ins, as the status bar gets it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger, Step
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.record.audience import AudienceWatch, be_counted, readers
from cudatui.gdbbridge.session.recorder import prepare
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.wait import until

WAIT = 30.0


def follower(path: Path) -> subprocess.Popen[str]:
    """Another process that follows ``path`` as a follower's stand-in does (be_counted), until its stdin closes."""
    code = ("import sys; from cudatui.gdbbridge.record.audience import be_counted; "
            "fd = be_counted(sys.argv[1]); print('counted' if fd is not None else 'not', flush=True); sys.stdin.read()")
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "counted\n"
    return proc


def leave(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait()


def test_followers_are_counted_by_their_locks_whoever_reads_the_file(tmp_path: Path) -> None:
    path = tmp_path / "class.jsonl"
    with open(path, "w") as writer:  # the recorder writes on
        writer.write("{}\n")
        writer.flush()
        assert readers(str(path)) == 0
        others = [follower(path) for _ in range(3)]
        held = be_counted(str(path))
        assert held is not None
        path.read_text()  # a reload in this process: opened and closed, the lock stays
        os.close(os.open(path, os.O_RDONLY))
        assert readers(str(path)) == 4
        assert readers(str(tmp_path / "other.jsonl")) is None
        leave(others.pop())
        os.close(held)
        assert readers(str(path)) == 2
        writer.write("{}\n")
        assert readers(str(path)) == 2, "the writer is no follower"
        for proc in others:
            leave(proc)
        assert readers(str(path)) == 0


async def test_a_watch_tells_the_count_when_it_changed(tmp_path: Path) -> None:
    path = tmp_path / "class.jsonl"
    path.write_text("")
    told: list[int] = []
    watch = AudienceWatch(str(path), told.append)
    if watch.fd is None:
        pytest.skip("no inotify here")
    try:
        others = [follower(path) for _ in range(3)]
        await until(lambda: told and told[-1] == 3, WAIT, why=lambda: f"3 told, got {told}")
        leave(others.pop())
        leave(others.pop())
        await until(lambda: told[-1] == 1, WAIT, why=lambda: f"1 told, got {told}")
        assert all(a != b for a, b in zip(told, told[1:])), f"a count is told when it changes: {told}"
        leave(others.pop())
        await until(lambda: told[-1] == 0, WAIT, why=lambda: f"0 told, got {told}")
    finally:
        watch.close()


@needs_gdb
async def test_the_instructors_status_counts_two_followers_then_one(tmp_path: Path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    record = tmp_path / "class.jsonl"
    prepare(record)
    instructor = Debugger(LaunchConfig(debugger=("gdb",), target=(str(program),), breakpoints=(f"steps.c:{BREAK_LINE}",),
                                       cwd=str(tmp_path), record=str(record)))
    followers = [Debugger(LaunchConfig.following(record)) for _ in range(2)]
    try:
        await asyncio.wait_for(instructor.start(), WAIT)
        await until(lambda: instructor.phase is Phase.STOPPED, WAIT)
        assert instructor.status.followers is None, "nobody follows yet"
        for follower in followers:
            await asyncio.wait_for(follower.start(), WAIT)
        await until(lambda: instructor.status.followers == 2, WAIT,
                    why=lambda: f"2 following, status says {instructor.status.followers}")
        await instructor.resume(Step.NEXT)  # each follower reloads the file: the count stays
        await until(lambda: all(f.state is not None and f.state.generation > 1 for f in followers), WAIT)
        await until(lambda: instructor.status.followers == 2, WAIT)
        await followers.pop().close()
        await until(lambda: instructor.status.followers == 1, WAIT,
                    why=lambda: f"1 following, status says {instructor.status.followers}")
    finally:
        for debugger in (instructor, *followers):
            await debugger.close()
