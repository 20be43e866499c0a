"""Issue 36: a debugger that stops answering is said on screen, with what it was asked.

GNU gdb on steps.c stops at a breakpoint; then gdb is stopped (SIGSTOP: it lives, reads nothing,
says nothing) and ``n`` is pressed. After :data:`~cudatui.gdbbridge.session.silence.SILENT_AFTER`
seconds the screen says ``gdb has not answered -exec-next for 5 s ...`` (or 6: it looks once a second; before, the status
said ``running`` for ever and nothing more); ctrl+q still quits, and neither gdb nor the
program is left. At the session level (the same stopped gdb): the silence is told once, and
``Answered`` follows when gdb is continued (SIGCONT) and answers.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import signal
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.silence import SILENT_AFTER
from tests.reliability.test_record_targets import Terminal
from tests.support.processes import in_directory, kill_all, start_time
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.wait import until, wait_until

pytestmark = needs_gdb
WAIT = 60.0


def gdb_in(directory: Path) -> int:
    """The pid of the gdb running in ``directory``."""
    return wait_until(lambda: next((pid for pid in in_directory(directory)
                                    if Path(f"/proc/{pid}/comm").read_text().strip() == "gdb"), None),
                      why=f"gdb in {directory}")


@pytest.mark.skipif(not shutil.which("tmux"), reason="needs tmux")
def test_a_silent_gdb_is_said_on_screen_and_ctrl_q_still_quits(tmp_path: Path) -> None:
    work = tmp_path / "work"
    program = compile_c(STEPS, work / "steps")
    command = [sys.executable, "-m", "cudatui", "--debugger", "gdb", "-b", f"steps.c:{BREAK_LINE}", str(program)]
    terminal = Terminal(tmp_path, ["sh", "-c", f"cd {shlex.quote(str(work))} && exec {shlex.join(command)}"])
    seen: dict[int, str] = {}
    try:
        terminal.wait_for_all("stopped breakpoint 1", f"0 main steps.c:{BREAK_LINE}", timeout=WAIT)
        gdb = gdb_in(work)
        seen = {pid: start_time(pid) or "" for pid in in_directory(work)}
        os.kill(gdb, signal.SIGSTOP)
        terminal("send-keys", "-t", "t", "n")
        said = terminal.wait_for_screen(lambda screen: re.search(r"gdb has not answered -exec-next for (\d+) s", screen),
                                        "the silence said", timeout=WAIT)
        seconds = int(re.search(r"gdb has not answered -exec-next for (\d+) s", said)[1])
        assert seconds >= SILENT_AFTER, said  # 5 s, or a look later on a loaded machine
        terminal("send-keys", "-t", "t", "C-q")
        screen = terminal.wait_for_line("EXIT=", timeout=WAIT)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
        wait_until(lambda: not in_directory(work), why=lambda: f"no process left in {work}: {in_directory(work)}")
    finally:
        kill_all({**seen, **{pid: start_time(pid) or "" for pid in in_directory(work)}})
        terminal("kill-server")


async def test_the_session_tells_the_silence_once_and_the_answer_after_it(tmp_path: Path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    session = GdbSession(["gdb"], [str(program)], cwd=tmp_path)
    events = session.queue()
    await session.start()
    try:
        await session.command("-break-insert", f"steps.c:{BREAK_LINE}")
        await session.command("-exec-run")
        await until(lambda: session.state == "stopped", WAIT, "the breakpoint")
        assert session.pid is not None
        os.kill(session.pid, signal.SIGSTOP)
        asked = asyncio.ensure_future(session.command("-data-evaluate-expression", "total"))
        told: list[ev.Event] = []

        def heard(kind: type) -> bool:
            while not events.empty():
                told.append(events.get_nowait())
            return any(isinstance(event, kind) for event in told)

        await until(lambda: heard(ev.Silent), WAIT, "the silence to be told")
        silent = [event for event in told if isinstance(event, ev.Silent)]
        assert silent[0].asked == '-data-evaluate-expression "total"' and silent[0].seconds >= SILENT_AFTER
        assert not asked.done()
        os.kill(session.pid, signal.SIGCONT)
        assert "value" in await asyncio.wait_for(asked, WAIT)
        await until(lambda: heard(ev.Answered), WAIT, "the answer to be told")
        assert len([event for event in told if isinstance(event, ev.Silent)]) == 1, told
        answered = next(event for event in told if isinstance(event, ev.Answered))
        assert answered.asked == silent[0].asked and answered.seconds >= SILENT_AFTER
    finally:
        if session.pid is not None:
            os.kill(session.pid, signal.SIGCONT)
        await session.close()
