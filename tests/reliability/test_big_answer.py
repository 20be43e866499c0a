"""A big answer from a real GNU gdb: ``print big`` (and ``output big``) of 250,000 distinct ints,
one console record of about 1.9 MB (tests/fixtures/c/hostile/big_array.c; a million, 7.9 MB, until
2026-12-04: 24 s of CPU per test, gdb's own 16 s). The issue's 45 MB answer (4 million
ints) froze the UI for over 6 minutes at 780 MB; the line is now parsed in a thread
(``cudatui-mi-parse``), shown cut in the console, and the session answers on. ctrl+q while gdb
prints it closes the app and ends gdb.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RichLog

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.session.offloop import THREAD_NAME
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.console import SHOWN
from tests.support.app import messages, no_internal_errors, status
from tests.support.paths import C_SOURCES
from tests.support.processes import gone
from tests.support.programs import compile_c, marked_line, needs_gdb
from tests.support.wait import until, wait_for

pytestmark = needs_gdb

BIG = C_SOURCES / "hostile" / "big_array.c"
FILLED = marked_line(BIG, "/* FILLED */")
WAIT = 300.0
"""gdb itself takes half a minute to print the array on a loaded 2-core machine."""
UNLIMITED = ("set print elements unlimited", "set max-value-size unlimited")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_c(BIG, tmp_path_factory.mktemp("big") / "big_array")


def console_lines(app: DebuggerApp) -> list[str]:
    return [strip.text for strip in app.query_one("#console-log", RichLog).lines]


async def type_in_console(pilot: Pilot, app: DebuggerApp, *commands: str) -> None:
    if not isinstance(app.focused, Input):
        await pilot.press("colon")
    for command in commands:
        await pilot.press(*command, "enter")


async def stopped_filled(pilot: Pilot, app: DebuggerApp) -> None:
    await wait_for(pilot, lambda: status(app) == ("stopped", "breakpoint 1"), timeout=60, why="the breakpoint")


def config(big: Path) -> LaunchConfig:
    return LaunchConfig(debugger=("gdb",), target=(str(big),), breakpoints=(f"big_array.c:{FILLED}",),
                        cwd=str(big.parent), source_dirs=(str(BIG.parent),))


@pytest.mark.parametrize("command, shown_as", [pytest.param("print big", "$1 = {0, 1, 2, 3, 4, 5", marks=pytest.mark.long(4)),
                                               pytest.param("output big", "{0, 1, 2, 3, 4, 5", marks=pytest.mark.long(2))],
                         ids=["print", "output"])  # gdb prints 250,000 ints: seconds of its own CPU
async def test_print_of_a_big_array_is_shown_cut_and_the_session_goes_on(big: Path, command: str, shown_as: str) -> None:
    """``output`` prints no line break: its console record has no escape at all, which pygdbmi's
    escape reader took hours over (quadratic), the app frozen."""
    app = DebuggerApp(config(big))
    async with app.run_test(size=(120, 40)) as pilot:
        await stopped_filled(pilot, app)
        # echo \n ends the line output leaves open, so the marker of the end is a line of its own
        await type_in_console(pilot, app, *UNLIMITED, command, "echo \\n", "info display")
        await wait_for(pilot, lambda: any(text.endswith("There are no auto-display expressions now.")
                                          for text in console_lines(app)), timeout=WAIT, why=f"the answer to {command}")
        shown = "".join(text.rstrip() for text in console_lines(app))  # the log wraps a line into strips
        # the log wraps the line into strips: a wrap may fall on a space, which rstrip drops
        cut = re.search(re.escape(shown_as) + r", .*?… \(([\d,]+) more ?characters\)", shown)
        assert cut and int(cut.group(1).replace(",", "")) > 1_800_000 and len(shown) < 20 * SHOWN, shown[-300:]
        assert not [t for t in threading.enumerate() if t.name == THREAD_NAME and t.is_alive()]
        await pilot.press("escape", "n")
        await wait_for(pilot, lambda: status(app) == ("stopped", "step"), timeout=60)
        assert not messages(app, "error") and no_internal_errors(app)
        await pilot.press("q")
    assert app.return_code == 0


async def test_ctrl_q_while_gdb_prints_a_big_array_closes_the_app(big: Path) -> None:
    app = DebuggerApp(config(big))
    async with app.run_test(size=(120, 40)) as pilot:
        await stopped_filled(pilot, app)
        session = app.debugger.session
        assert session is not None and session.pid is not None
        gdb, sent = session.pid, []
        session.subscribe_raw(lambda line: sent.append(line.text) if line.direction == "in" else None)
        await type_in_console(pilot, app, *UNLIMITED, "print big")
        await wait_for(pilot, lambda: any("print big" in text for text in sent), timeout=60)
        await pilot.press("ctrl+q")
    # leaving the block waits for the app to end (pausing the pilot of a closing app could time out)
    await until(lambda: gone(gdb), timeout=60, why="gdb to end")
    assert not app.is_running and no_internal_errors(app)
