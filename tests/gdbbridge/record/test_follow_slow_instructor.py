"""A follower of an instructor whose machine is slow: the instructor's answers to its stop's
queries reach the file a second after its ``*stopped`` (longer than the stand-in's SETTLE, the
quiet it took for "the answers are all in"). The follower's stand-in waits for them until the
instructor's state of that stop is written: the follower shows the stop's frame and no query of
it fails. Before, the stand-in answered them ``not in this recording`` after SETTLE: the follower
said "some queries failed" (this test), or kept a stop without its frame (test_follow, in a full
run beside two others at load 10).

The file is a real session, an instructor's Debugger on real GNU gdb recorded here, written out
again by the test in two parts: up to the breakpoint's ``*stopped``, then, the instructor having
been slow, the rest."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.events import QueriesFailed
from cudatui.gdbbridge.record.follow import SETTLE
from cudatui.gdbbridge.session.recorder import prepare
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.wait import until

pytestmark = needs_gdb

WAIT = 30.0
SLOW = 4 * SETTLE
"""How much longer than SETTLE the slow instructor's answers take (a stand-in's slowness)."""


def line_of(debugger: Debugger) -> int | None:
    state = debugger.state
    return state.frame.line if state is not None and state.frame is not None else None


async def recorded_session(tmp_path: Path) -> list[str]:
    """The lines of a real instructor's session: break at BREAK_LINE, run there, quit."""
    program = compile_c(STEPS, tmp_path / "steps")
    record = tmp_path / "instructor.jsonl"
    prepare(record)
    instructor = Debugger(LaunchConfig(debugger=("gdb",), target=(str(program),), breakpoints=(f"steps.c:{BREAK_LINE}",),
                                       cwd=str(tmp_path), record=str(record)))
    try:
        await asyncio.wait_for(instructor.start(), WAIT)
        await until(lambda: line_of(instructor) == BREAK_LINE, WAIT)
    finally:
        await instructor.close()
    return record.read_text().splitlines()


async def test_a_follower_waits_for_a_slow_instructors_answers(tmp_path: Path) -> None:
    lines = await recorded_session(tmp_path)
    entries = [json.loads(line) for line in lines]
    stopped = next(i for i, e in enumerate(entries) if e.get("dir") == "out" and e["line"].startswith("*stopped"))
    exit_at = next(i for i, e in enumerate(entries) if e.get("dir") == "in" and "-gdb-exit" in e["line"])
    follow = tmp_path / "class.jsonl"
    prepare(follow)
    follower = Debugger(LaunchConfig.following(follow))
    failed: list[object] = []
    follower.subscribe(lambda event: failed.append(event) if isinstance(event, QueriesFailed) else None)
    starting = asyncio.ensure_future(follower.start())  # before the instructor: it waits
    try:
        with follow.open("a") as file:  # the instructor's start, up to its stop at the breakpoint
            file.write("".join(line + "\n" for line in lines[: stopped + 1]))
        stopped_at = time.monotonic()
        await until(lambda: time.monotonic() - stopped_at > SLOW, WAIT, why="the instructor's slowness")
        with follow.open("a") as file:  # its answers to its stop's queries and its state of the stop, late
            file.write("".join(line + "\n" for line in lines[stopped + 1: exit_at]))
        await asyncio.wait_for(starting, WAIT)
        await until(lambda: line_of(follower) == BREAK_LINE, WAIT, why="the follower's frame at the stop")
        assert not failed, failed  # no query of the stop answered without the instructor's answer
    finally:
        await follower.close()
