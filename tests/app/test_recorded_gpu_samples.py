"""GPU samples recorded with a session are replayed at the stop they were recorded at.

The session is recorded through the path driver (as scripts/record_demos.py records the lessons)
with real GNU gdb on a C program; the GPU pane's samples come from real H200 NVML samples
(tests/fixtures/nvml, read back by ReplaySource, since this machine has no GPU). The replay's
GPU pane then shows, at each stop, a sample the recording holds for that stop.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from cudatui.gdbbridge import LaunchConfig, ReplaySource, Sampler, load
from cudatui.gdbbridge.nvml.recorded import COMMAND, decode
from cudatui.gdbbridge.record.replay import places
from cudatui.gdbbridge.session.mi import parse_line
from cudatui.kernels.lesson_paths import PathStep
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.gpu_stats import GpuStatsPane
from cudatui.tui.tooling.path_driver import SIZE, Driver, Reports
from tests.support.nvml import SAMPLES, needs_samples
from tests.support.paths import C_SOURCES
from tests.support.programs import compile_c, marked_line
from tests.support.recorded_path import Quiet, replay_app_config
from tests.support.wait import wait_for

PANES = C_SOURCES / "app" / "panes.c"
STEPS = (PathStep("start", "", ""), PathStep("pane", "gpu", ""), PathStep("key", "n", ""), PathStep("key", "n", ""))


def samples_by_stop(path: Path) -> dict[int, set[float]]:
    """The timestamps of the GPU samples recorded at each stop."""
    transcript = load(str(path))
    found: dict[int, set[float]] = {}
    for exchange, step in zip(transcript.exchanges, places(transcript)):
        if exchange.key[:1] == (COMMAND,):
            payload = parse_line(f"{exchange.token}{exchange.result}").payload or {}
            found.setdefault(step.before[0], set()).add(decode(payload).timestamp)
    return found


@needs_samples
@pytest.mark.skipif(not all(shutil.which(t) for t in ("gdb", "gcc")), reason="needs gdb and gcc")
async def test_gpu_samples_recorded_at_a_stop_are_shown_there_in_the_replay(tmp_path: Path) -> None:
    program = compile_c(PANES, tmp_path / "panes")
    recording = tmp_path / "panes.jsonl"
    config = LaunchConfig(debugger=("gdb",), target=(str(program),), record=str(recording), cwd=str(tmp_path),
                          breakpoints=(f"panes.c:{marked_line(PANES, '/* LOOP */')}",))
    app = DebuggerApp(config)
    async with app.run_test(size=SIZE) as pilot:
        app.query_one(GpuStatsPane).sampler = Sampler(ReplaySource(SAMPLES))
        driver = Driver(app, pilot, Quiet(), time.monotonic() + 300, Reports())
        for number, step in enumerate(STEPS):
            await driver.step(number, step)
        await pilot.press("ctrl+q")
    recorded = samples_by_stop(recording)
    stops = sorted(recorded)
    assert len(stops) >= 3, recorded

    replay = DebuggerApp(replay_app_config(recording))
    async with replay.run_test(size=SIZE) as pilot:
        pane = replay.query_one(GpuStatsPane)
        driver = Driver(replay, pilot, Quiet(), time.monotonic() + 300, Reports())
        for number, step in enumerate(STEPS):
            await driver.step(number, step)
            here = driver.app.debugger  # the stop the replay is at: as many moves as the live session made
            stop = 1 + sum(s.kind in ("start", "key") for s in STEPS[1:number + 1])
            await wait_for(pilot, lambda: pane.snapshot is not None and pane.snapshot.timestamp in recorded[stop],
                           why=f"a sample of stop {stop} in the replay's GPU pane ({here.status.detail})")
        await pilot.press("ctrl+q")
