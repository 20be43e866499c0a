"""One snapshot per CUDA pane at 80x24 and 160x48, over replayed real recordings."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Tree

from cudatui.tui.panes.disassembly import DisassemblyPane
from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.focus import FocusNavigator
from cudatui.tui.panes.registers import RegistersPane
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from cudatui.tui.panes.warps import WarpsPane
from tests.support.panes import PaneApp, Replay, first_stop
from tests.support.wait import wait_for

SIZES = [(80, 24), (160, 48)]


async def with_console_lanes(app: PaneApp, replay: Replay) -> None:
    state = await replay.state(await replay.resume())
    app.show(await replay.with_console_lanes(state))


def ready(app: PaneApp):
    async def run_before(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_focus_navigator(snap_compare, size):
    app = PaneApp(FocusNavigator(), "inspect.jsonl", first_stop)

    async def run_before(pilot: Pilot) -> None:
        await ready(app)(pilot)
        app.pane.query_one(Tree).focus()
        await pilot.press("space")
        await wait_for(pilot, lambda: app.pane.query_one(Tree).last_line >= 2)
        await pilot.press("down", "space")
        await wait_for(pilot, lambda: app.pane.query_one(Tree).last_line >= 3)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_warps(snap_compare, size):
    app = PaneApp(WarpsPane(), "inspect.jsonl", first_stop)

    async def run_before(pilot: Pilot) -> None:
        await ready(app)(pilot)
        await wait_for(pilot, lambda: "bugs.cu:9" in str(app.pane.query_one("#warps-lines").render()))
        await pilot.press("down", "right", "right")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_warps_exception(snap_compare, size):
    app = PaneApp(WarpsPane(), "oob.jsonl", with_console_lanes)
    assert snap_compare(app, terminal_size=size, run_before=ready(app))


@pytest.mark.parametrize("size", SIZES)
def test_registers(snap_compare, size):
    app = PaneApp(RegistersPane(), "inspect.jsonl", first_stop)
    assert snap_compare(app, terminal_size=size, run_before=ready(app))


@pytest.mark.parametrize("size", SIZES)
def test_shared_memory(snap_compare, size):
    app = PaneApp(SharedMemoryPane(page_size=32), "inspect.jsonl", first_stop)

    async def run_before(pilot: Pilot) -> None:
        await ready(app)(pilot)
        await pilot.press("a", *"sdata[64]", "enter")
        await wait_for(pilot, lambda: bool(app.pane.values()))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_disassembly(snap_compare, size):
    async def sass_shown(app: PaneApp, replay: Replay) -> None:
        replay.debugger.show_parts(registers=True, threads=True, sass=48)  # the range the recording read
        await first_stop(app, replay)

    app = PaneApp(DisassemblyPane(), "inspect.jsonl", sass_shown)

    async def run_before(pilot: Pilot) -> None:
        await ready(app)(pilot)
        await wait_for(pilot, lambda: app.pane.query_one(DataTable).row_count > 0)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_exception_banner(snap_compare, size):
    app = PaneApp(ExceptionBanner(), "oob.jsonl", with_console_lanes)
    assert snap_compare(app, terminal_size=size, run_before=ready(app))
