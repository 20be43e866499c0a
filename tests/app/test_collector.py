"""The garbage collector paused while a stop reaches the screen (tui/apps/collector.py).

A full collection took 90-290 ms on the 2-core box and fell inside a step's UI part a few
times per lesson walk (``python -m bench.stop_to_screen`` counts the collections in the UI
parts). Over a replayed real cuda-gdb session: a key that asks the Debugger for a step pauses
the collector, the new state keeps it paused, and it runs again once the screen has been quiet;
the objects of the first stop are frozen once and given back when the app ends; however busy
the app, the pause ends after ``MOST`` seconds.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from textual.app import App

from cudatui.tui.apps import collector
from cudatui.tui.apps.collector import CollectorHold
from cudatui.tui.apps.debugger_app import DebuggerApp
from tests.support.app import stopped_at
from tests.support.paths import ROOT, TOURS
from tests.support.replay import TILE_BREAKS, replay_config, sequential
from tests.support.wait import wait_for


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """The collector runs and freezes nothing after each test, whatever the test did."""
    yield
    gc.enable()
    gc.unfreeze()


async def test_a_step_pauses_the_collector_until_the_screen_is_quiet(tmp_path, monkeypatch) -> None:
    tour = sequential(TOURS / "tile.jsonl", tmp_path)
    app = DebuggerApp(replay_config(tour, *TILE_BREAKS, source_dirs=(str(ROOT / "kernels"),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, 37)
        await wait_for(pilot, lambda: gc.isenabled() and not app.collector.held, why="the first stop's pause to end")
        assert app.collector.frozen and gc.get_freeze_count() > 0  # the objects of the first stop
        monkeypatch.setattr(collector, "QUIET", 60.0)  # the pause now lasts until released below
        await pilot.press("n")
        assert app.collector.held and not gc.isenabled()  # from the key on
        await stopped_at(pilot, app, 22)
        assert app.collector.held and not gc.isenabled()  # the new state shown, its answers on the way
        app.collector.release()
        assert gc.isenabled() and not app.collector.held
    assert gc.isenabled() and gc.get_freeze_count() == 0  # the app ended: nothing left frozen


async def test_the_pause_ends_after_the_longest_it_may_last_however_busy_the_app(monkeypatch) -> None:
    monkeypatch.setattr(collector, "QUIET", 60.0)
    monkeypatch.setattr(collector, "MOST", 0.2)
    app: App[None] = App()
    async with app.run_test() as pilot:
        hold = CollectorHold(app)
        hold.hold()
        assert not gc.isenabled()

        def held_again() -> bool:
            hold.hold()  # a state or a key at every look: never quiet
            return gc.isenabled()

        await wait_for(pilot, held_again, why="the pause to end after MOST seconds")
        assert not hold.held
        hold.close()
    assert gc.isenabled() and gc.get_freeze_count() == 0


async def test_a_pause_begun_by_someone_else_is_left_to_them() -> None:
    app: App[None] = App()
    async with app.run_test():
        hold = CollectorHold(app)
        gc.disable()  # Textual pauses it during a smooth scroll (PAUSE_GC_ON_SCROLL)
        hold.hold()
        assert not hold.held
        hold.release()
        assert not gc.isenabled()  # still theirs to resume
