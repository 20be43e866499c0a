"""Following a session while it is recorded: an instructor's Debugger on real GNU gdb with
``--record``, followers on the file (gdbbridge/record/follow.py), seen through their events."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import READ_ONLY, Debugger, Step
from cudatui.gdbbridge.debugger.events import DebuggerEvent, Notice, StateChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.session.recorder import prepare
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.wait import until

pytestmark = needs_gdb

WAIT = 30.0


class Seen:
    """The lines a Debugger's states stopped at, and its notices."""

    def __init__(self, debugger: Debugger) -> None:
        self.lines: list[int | None] = []
        self.notes: list[str] = []
        debugger.subscribe(self)

    def __call__(self, event: DebuggerEvent) -> None:
        if isinstance(event, StateChanged) and event.state.frame is not None:
            self.lines.append(event.state.frame.line)
        elif isinstance(event, Notice):
            self.notes.append(event.message)


def line_of(debugger: Debugger) -> int | None:
    state = debugger.state
    return state.frame.line if state is not None and state.frame is not None else None


def commands_in(path: Path) -> list[str]:
    return [json.loads(raw)["line"] for raw in path.read_text().splitlines() if json.loads(raw)["dir"] == "in"]


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return compile_c(STEPS, tmp_path / "steps")


async def test_followers_show_each_stop_of_the_instructor_and_change_nothing(program: Path, tmp_path: Path) -> None:
    record = tmp_path / "class.jsonl"
    prepare(record)
    follower_first = Debugger(LaunchConfig.following(record))
    seen_first = Seen(follower_first)
    starting = asyncio.ensure_future(follower_first.start())  # before the instructor: it waits
    instructor = Debugger(LaunchConfig(debugger=("gdb",), target=(str(program),), breakpoints=(f"steps.c:{BREAK_LINE}",),
                                       cwd=str(tmp_path), record=str(record)))
    late = None
    try:
        await asyncio.wait_for(instructor.start(), WAIT)
        await until(lambda: line_of(instructor) == BREAK_LINE, WAIT)
        await asyncio.wait_for(starting, WAIT)
        await until(lambda: line_of(follower_first) == BREAK_LINE, WAIT,
                    why=lambda: f"the first follower at line {BREAK_LINE} (it is at {line_of(follower_first)}, "
                                f"{follower_first.status.detail!r}; its notices {seen_first.notes[-3:]}, "
                                f"its lines {seen_first.lines})")
        # what the instructor's program printed reaches the follower through the pty it handed over
        await until(lambda: "done" in follower_first.output_tail.text, WAIT)

        for _ in range(2):
            before = line_of(instructor)
            await instructor.resume(Step.NEXT)
            await until(lambda: line_of(instructor) not in (None, before) and instructor.phase is Phase.STOPPED,
                             WAIT)
            await until(lambda: line_of(follower_first) == line_of(instructor), WAIT)
        assert seen_first.lines[0] == BREAK_LINE and seen_first.lines[-1] == line_of(instructor)

        late = Debugger(LaunchConfig.following(record))  # joins in the middle: the newest stop
        seen_late = Seen(late)
        await asyncio.wait_for(late.start(), WAIT)
        await until(lambda: line_of(late) == line_of(instructor), WAIT)

        sent = commands_in(record)
        await late.resume(Step.CONTINUE)
        await late.interrupt()
        await late.console_command("set var total = 99")
        await late.toggle_breakpoint("steps.c", BREAK_LINE)
        assert seen_late.notes.count(READ_ONLY) == 4
        assert commands_in(record) == sent, "a follower wrote to the session"
        assert instructor.phase is Phase.STOPPED and line_of(late) == line_of(instructor)
        assert [bp.line for bp in instructor.state.breakpoints] == [BREAK_LINE]

        at = line_of(instructor)
        await instructor.close()
        await until(lambda: any("session ended" in n for n in seen_late.notes), WAIT)
        assert line_of(late) == at and late.state is not None, "the follower keeps the last state"
        assert "session ended" in late.status.detail
    finally:
        for debugger in (instructor, follower_first, late):
            if debugger is not None:
                await debugger.close()
