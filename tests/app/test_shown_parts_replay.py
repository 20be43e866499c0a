"""The app tells its Debugger which parts of a stop its screen shows; a pane shown later gets
them at once (tier 2: kernels/recordings/race.jsonl.gz, the race lesson recorded through the UI
on an H200, cuda-gdb 13.0, with every pane shown).

At 160x48 the Warps pane is on the screen (the right column) and the Registers pane is a tab
not chosen: a stop asks for no registers until ``7`` shows them. At 80x24 every pane is a tab:
a step inside the kernel asks for no thread table until ``4`` shows the Warps pane, whose line
of warp PCs then names the source line of every warp (without the table, only the focused warp's
pc is named, by its frame: the others read ``pc 0x7ffd037b0fd0``).
"""

from __future__ import annotations

from textual.widgets import DataTable

from cudatui.gdbbridge.record.transcript import load
from cudatui.gdbbridge.debugger.recorded_path import recorded_breakpoints
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.registers import RegistersPane
from cudatui.gdbbridge.debugger.config import LaunchConfig
from tests.support.paths import ROOT
from tests.support.screen import screen_rows, screen_text
from tests.support.wait import wait_for

RACE = ROOT / "kernels" / "recordings" / "race.jsonl.gz"


def race_app() -> DebuggerApp:
    breakpoints = tuple(str(spec) for spec in recorded_breakpoints(load(str(RACE))))
    return DebuggerApp(LaunchConfig.replay(RACE, breakpoints=breakpoints, cwd=str(ROOT),
                                           source_dirs=(str(ROOT / "kernels"),)))


def stopped(app: DebuggerApp, after: int = 0) -> bool:
    state = app.debugger.state
    return state is not None and state.generation > after and app.debugger.phase.name == "STOPPED" \
        and not app.debugger.busy


async def test_registers_are_asked_when_their_pane_is_shown() -> None:
    app = race_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: stopped(app))
        first = app.debugger.state
        assert first is not None and first.focus is not None
        assert first.registers == () and first.unasked == {"registers"}
        assert first.threads  # the Warps pane is on the screen

        await pilot.press("7")
        pane = app.query_one(RegistersPane)
        await wait_for(pilot, lambda: pane.display and pane.query_one(DataTable).row_count > 0)
        shown = app.debugger.state
        assert shown is not None and shown.stop is first.stop and shown.registers and shown.unasked == frozenset()
        screen = screen_text(app)
        assert "R0" in screen and "pc" in screen, screen

        await pilot.press("n")
        await wait_for(pilot, lambda: stopped(app, shown.generation) and app.debugger.state.stop is not first.stop)
        stepped = app.debugger.state
        assert stepped.registers and stepped.unasked == frozenset()  # shown: asked with the stop
        assert not [n for n in app.notices.entries if "not in this recording" in n.message]


async def test_the_warps_lines_are_asked_when_their_pane_is_shown() -> None:
    app = race_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: stopped(app))
        first = app.debugger.state
        assert first is not None and first.threads and first.unasked == {"registers"}  # a breakpoint hit
        await pilot.press("n")
        await wait_for(pilot, lambda: stopped(app, first.generation) and app.debugger.state.stop is not first.stop)
        stepped = app.debugger.state
        assert stepped.threads == () and stepped.unasked == {"registers", "threads"}

        await pilot.press("4")  # warps 0,1,3 sit at another pc than the focused warp: only the table names its line
        await wait_for(pilot, lambda: any("race.cu:25" in row and "warps 0,1,3" in row for row in screen_rows(app)),
                       why=lambda: screen_text(app))
        lined = app.debugger.state
        assert lined.threads and lined.stop is stepped.stop and lined.unasked == {"registers"}
        assert "pc 0x" not in screen_text(app)
        assert not [n for n in app.notices.entries if "not in this recording" in n.message]
