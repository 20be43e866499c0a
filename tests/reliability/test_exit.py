"""Closing the UI on any path prints no traceback, with a real GNU gdb.

A program that prints without end (tests/fixtures/c/hostile/chatty.c) keeps the debugger
talking while the app closes: what arrives once the panes are gone is dropped. ``qr`` typed at
once (r handled while the app exits) starts nothing and leaves no coroutine un-awaited. ctrl+q
after gdb was SIGKILLed, and q twice, exit 0 with nothing on the terminal; the Debugger's close
may be called again and at the same time. The real-terminal cases run ``python -m cudatui`` in a
pseudo-terminal (tests/support/terminal.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path
from typing import Any

import pytest

from cudatui.gdbbridge import Debugger, Phase
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.output import OutputPane
from tests.support.paths import C_SOURCES
from tests.support.processes import descendants, gone, in_directory, kill_all, wait_gone
from tests.support.programs import compile_c, needs_gdb
from tests.support.terminal import TerminalApp
from tests.support.wait import until, wait_for, wait_until

pytestmark = needs_gdb

TRACES = (b"Traceback", b"Event loop is closed", b"never awaited", b"Exception ignored", b"NoMatches")
"""What must never be on the terminal after the UI closed."""


@pytest.fixture(scope="module")
def chatty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_c(C_SOURCES / "hostile" / "chatty.c", tmp_path_factory.mktemp("chatty") / "chatty")


def talked(text: str, lines: int) -> bool:
    """Whether ``text`` (the Output pane's bounded tail) shows a line numbered ``lines`` or
    later: line 1000 itself may already have left the tail when it is looked at (then the
    wait went on until line 10000 or 100000 matched, or for 30 s)."""
    return any(int(n) >= lines for n in re.findall(r"chatty line (\d+)", text))


async def test_what_a_chatty_program_says_while_the_app_closes_is_dropped(chatty: Path) -> None:
    loop = asyncio.get_running_loop()
    failures: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _, context: failures.append(context))
    try:
        app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(chatty),), cwd=str(chatty.parent)))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: talked(app.query_one(OutputPane).text, 1000), why="a thousand lines")
        # the pilot closed the app without q: the panes went first, then the debugger
    finally:
        loop.set_exception_handler(None)
    assert not failures, failures  # was NoMatches("No nodes match 'OutputPane' ...") from the listener


def start(chatty: Path, directory: Path, *args: str, ready: str = "chatty line 100") -> TerminalApp:
    """The app on ``chatty`` once its recording holds ``ready``."""
    record = directory / "session.jsonl"
    app = TerminalApp(["--debugger", "gdb", "--record", str(record), *args, str(chatty)], cwd=directory)
    wait_until(lambda: record.exists() and ready in record.read_text(), why=ready)
    return app


def exits_clean(app: TerminalApp, children: dict[int, str]) -> None:
    try:
        assert app.wait(timeout=30) == 0
        assert not any(trace in app.output for trace in TRACES), app.after_exit()
        assert not wait_gone(children, timeout=10)
    finally:
        kill_all(children)
        app.close()


def test_qr_typed_at_once_starts_nothing_and_leaves_no_coroutine(chatty: Path, tmp_path: Path) -> None:
    app = start(chatty, tmp_path)
    children = descendants(app.proc.pid)
    app.send("qr")
    exits_clean(app, children)
    assert not in_directory(tmp_path), "r started a debugger while the app quit"


def test_q_twice_closes_once(chatty: Path, tmp_path: Path) -> None:
    app = start(chatty, tmp_path)
    children = descendants(app.proc.pid)
    app.send("qq")
    exits_clean(app, children)


@pytest.mark.parametrize("when", ["running", "stopped"])
def test_ctrl_q_after_gdb_was_sigkilled(chatty: Path, tmp_path: Path, when: str) -> None:
    if when == "stopped":
        app = start(chatty, tmp_path, "-b", "main", ready='*stopped,reason=\\"breakpoint-hit\\"')
    else:
        app = start(chatty, tmp_path)
    children = descendants(app.proc.pid)
    gdb = next(pid for pid in children if Path(f"/proc/{pid}/comm").read_text().strip() == "gdb")
    os.kill(gdb, signal.SIGKILL)
    wait_until(lambda: b"debugger died" in app.output, why="debugger died")
    app.send("\x11")
    exits_clean(app, children)


@pytest.mark.parametrize("killed", [False, True])
async def test_the_debugger_closes_twice_at_once_and_again(chatty: Path, killed: bool) -> None:
    loop = asyncio.get_running_loop()
    failures: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _, context: failures.append(context))
    try:
        debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(chatty),), cwd=str(chatty.parent)))
        await debugger.start()
        session = debugger.session
        assert session is not None and session.pid is not None
        await until(lambda: session.inferior_pid is not None, why="the program")
        gdb, program = session.pid, session.inferior_pid
        if killed:
            os.kill(gdb, signal.SIGKILL)
            await until(lambda: debugger.phase is Phase.DEAD, why="debugger died")
        assert await asyncio.gather(debugger.close(), debugger.close()) == [None, None]
        await debugger.close()
    finally:
        loop.set_exception_handler(None)
    assert not failures, failures
    assert gone(gdb) and gone(program) and not Path(f"/proc/{gdb}").exists()
