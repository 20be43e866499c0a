"""GPU stats pane (Pilot + snapshots) and its formatting (`cudatui stats` is tests/app/test_stats_command.py).

Data: recorded H200 samples (tests/fixtures/nvml/h200_samples.jsonl) when committed, else live
NVML where it works, else the real read path on this no-driver machine (all values N/A).
"""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from textual.app import App, ComposeResult
from textual.widgets import DataTable, Input, Select, Sparkline, Static

from cudatui.gdbbridge.nvml.sampler import NvmlSource, ReplaySource, Sampler
from cudatui.gdbbridge.nvml.models import Snapshot, iter_snapshots_jsonl
from cudatui.tui.panes.gpu_stats import (
    GpuStatsPane,
    format_details,
    format_memory,
    format_power,
    format_temperature,
    format_util,
    history_series,
    level,
)
from cudatui.tui.apps.stats_app import StatsApp
from tests.support.nvml import (
    NO_DRIVER_REASON, NVML_WORKS, SAMPLES, NoDriverSource, cuda_gdb_pci_bus, needs_samples, no_driver,
)
from tests.support.screen import screen_rows
from tests.support.wait import WAIT, wait_for


class CountingSource:
    """Counts reads of a real source."""

    def __init__(self, inner) -> None:
        self.inner, self.reads = inner, 0

    def read(self) -> Snapshot:
        self.reads += 1
        return self.inner.read()

    def close(self) -> None:
        pass


class TwoGpuSource(CountingSource):
    """A real source's first device seen twice, as two GPUs on different PCI addresses."""

    def __init__(self, inner, second_pci: str) -> None:
        super().__init__(inner)
        self.second_pci = second_pci

    def read(self) -> Snapshot:
        snap = super().read()
        gpu = snap.gpus[0]
        first = replace(gpu, index=0, pci_bus_id="00000000:3B:00.0")
        return replace(snap, gpus=(first, replace(gpu, index=1, pci_bus_id=self.second_pci)))


class GatedSource(CountingSource):
    """A real source that reads only as often as the test lets it (``allow``): sampling stops
    with a read waiting at the gate, so what the pane shows settles."""

    def __init__(self, inner, bound: float = 30.0) -> None:
        super().__init__(inner)
        self.gate = threading.Semaphore(0)
        self.bound = bound
        """Seconds a read waits at the gate before it fails (the app then says the sample failed)."""

    def allow(self, reads: int) -> None:
        for _ in range(reads):
            self.gate.release()

    def read(self) -> Snapshot:
        if not self.gate.acquire(timeout=self.bound):
            raise TimeoutError("the test let no more reads through")
        return super().read()


class Ticks:
    """Counts the pane's sampling ticks (``count``) and those that started a sample (``samples``):
    the clock a test waits on to know that the pane had its chances to sample."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = self.samples = 0
        original = GpuStatsPane._tick

        def tick(pane: GpuStatsPane) -> None:
            idle = pane._sampling_since is None
            self.count += 1
            original(pane)
            self.samples += idle and pane._sampling_since is not None

        monkeypatch.setattr(GpuStatsPane, "_tick", tick)


def real_source():
    """Recorded samples, else live NVML, else the no-driver read path."""
    if SAMPLES.exists():
        return ReplaySource(SAMPLES)
    return NvmlSource() if NVML_WORKS else NoDriverSource()


def text_of(widget: Static) -> str:
    return str(widget.render())


# ---- Pilot -------------------------------------------------------------------------------


@no_driver
async def test_unavailable_says_why_in_one_line():
    app = StatsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(GpuStatsPane)
        await wait_for(pilot, lambda: pane.reason is not None)
        assert pane.reason == NO_DRIVER_REASON
        assert text_of(pane.query_one("#unavailable", Static)) == (
            f"GPU stats unavailable: {NO_DRIVER_REASON}"
        )
        assert not pane.query_one("#stats").display


class HostApp(App[None]):
    """The pane beside another widget, as in the debugger."""

    def compose(self) -> ComposeResult:
        yield Input(id="command")
        yield GpuStatsPane()


@no_driver
async def test_app_keeps_working_without_nvml(monkeypatch):
    ticks = Ticks(monkeypatch)
    app = HostApp()
    async with app.run_test() as pilot:
        pane = app.query_one(GpuStatsPane)
        await wait_for(pilot, lambda: pane.reason is not None)
        await pilot.press("c", "u", "d", "a")
        before = ticks.samples
        # the next tick's sample fails again without disturbing the app
        await wait_for(pilot, lambda: ticks.samples > before and pane.sampling_for is None, why="another sample")
        await pilot.pause()
        assert app.query_one(Input).value == "cuda"
        assert not pane.query_one("#stats").display


class BrokenSource:
    """A source whose read fails otherwise than NVML missing (as a replay's sample timing out)."""

    def read(self) -> Snapshot:
        raise TimeoutError("no answer in 10 s\x1b[2J")

    def close(self) -> None:
        pass


class BrokenApp(App[None]):
    def compose(self) -> ComposeResult:
        yield GpuStatsPane(Sampler(BrokenSource()))


async def test_a_sample_that_fails_says_how_instead_of_reading_for_ever():
    app = BrokenApp()
    async with app.run_test() as pilot:
        pane = app.query_one(GpuStatsPane)
        await wait_for(pilot, lambda: pane.reason is not None)
        assert pane.reason == "the sample failed: TimeoutError: no answer in 10 s"
        assert text_of(pane.query_one("#unavailable", Static)) == f"GPU stats unavailable: {pane.reason}"
        assert pane.sampling_for is None


async def test_shows_latest_sample_and_history():
    source = GatedSource(real_source())
    sampler = Sampler(source, interval_s=0.05)
    app = StatsApp(sampler)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(GpuStatsPane)
        source.allow(5)
        await wait_for(pilot, lambda: len(sampler.history(0)) == 5 and pane.snapshot is sampler.latest)
        await pilot.pause()
        sample = pane.snapshot.gpus[0]
        assert pane.query_one("#stats").display
        assert text_of(pane.query_one("#util-value", Static)) == format_util(sample).plain
        assert text_of(pane.query_one("#memory-value", Static)) == format_memory(sample).plain
        assert text_of(pane.query_one("#details", Static)) == format_details(sample).plain
        series = history_series(sampler.history(0))
        for metric in ("util", "memory", "power", "temperature"):
            assert list(pane.query_one(f"#{metric}-spark", Sparkline).data) == series[metric]
        table = pane.query_one(DataTable)
        assert [key.value for key in table.rows] == [str(p.pid) for p in sample.processes]
        assert not pane.query_one("#device-select").display  # one GPU: no selector
        source.allow(100)


async def test_a_sample_taken_while_hidden_is_shown_when_the_pane_is():
    """A recorded session samples while the pane is hidden; the pane's widgets take the sample
    only when it is shown again (each update would lay out the screen for nobody)."""
    source = GatedSource(real_source())
    sampler = Sampler(source, interval_s=0.05)
    app = StatsApp(sampler)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(GpuStatsPane)
        pane.always = True
        spark = pane.query_one("#util-spark", Sparkline)
        source.allow(3)
        await wait_for(pilot, lambda: len(sampler.history(0)) == 3 and pane.snapshot is sampler.latest)
        await pilot.pause()
        shown = list(spark.data)
        assert shown == history_series(sampler.history(0))["util"] and len(shown) == 3
        pane.display = False
        await pilot.pause()
        source.allow(1)
        await wait_for(pilot, lambda: len(sampler.history(0)) == 4 and pane.snapshot is sampler.latest)
        await pilot.pause()
        assert list(spark.data) == shown
        pane.display = True
        await wait_for(pilot, lambda: list(spark.data) == history_series(sampler.history(0))["util"])
        assert len(spark.data) == 4
        source.allow(100)


async def test_sampling_pauses_while_hidden(monkeypatch):
    ticks = Ticks(monkeypatch)
    source = CountingSource(real_source())
    app = StatsApp(Sampler(source, interval_s=0.05))
    async with app.run_test() as pilot:
        pane = app.query_one(GpuStatsPane)
        await wait_for(pilot, lambda: source.reads >= 3)
        pane.display = False
        await wait_for(pilot, lambda: pane.sampling_for is None, why="the sample in flight")
        hidden_reads, hidden_ticks = source.reads, ticks.count
        await wait_for(pilot, lambda: ticks.count >= hidden_ticks + 10, why="ten ticks while hidden")
        assert source.reads == hidden_reads
        pane.display = True
        await wait_for(pilot, lambda: source.reads >= hidden_reads + 3)


async def test_debuggee_gpu_selected_by_pci_bus_id_not_index():
    debuggee_pci = "00000000:" + cuda_gdb_pci_bus()
    app = StatsApp(
        Sampler(TwoGpuSource(real_source(), debuggee_pci), interval_s=0.05),
        pci_bus_id=cuda_gdb_pci_bus(),
    )
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one(GpuStatsPane)
        await wait_for(pilot, lambda: pane.snapshot is not None)
        assert pane.device_index == 1
        select = pane.query_one("#device-select", Select)
        assert select.display and select.value == 1
        assert "debuggee's GPU" in text_of(pane.query_one("#device", Static))
        await pilot.press("]")
        assert pane.device_index == 0
        assert "debuggee's GPU" not in text_of(pane.query_one("#device", Static))
        await pilot.press("[")
        assert pane.device_index == 1


@needs_samples
async def test_debuggee_pid_is_marked_in_the_process_list():
    snapshots = list(iter_snapshots_jsonl(SAMPLES))
    first_with_procs = next(i for i, s in enumerate(snapshots) if s.gpus[0].processes)
    pid = snapshots[first_with_procs].gpus[0].processes[0].pid
    source = ReplaySource(SAMPLES)
    for _ in range(first_with_procs):
        source.read()
    app = StatsApp(Sampler(source, interval_s=0.05), debuggee_pid=pid)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(GpuStatsPane)
        await wait_for(pilot, lambda: str(pid) in pane.query_one(DataTable).rows)
        table = pane.query_one(DataTable)
        assert "debuggee" in str(table.get_cell(str(pid), "mark"))
        others = [k.value for k in table.rows if k.value != str(pid)]
        assert all(str(table.get_cell(k, "mark")) == "" for k in others)


async def test_a_memory_value_grown_wider_is_shown_whole():
    """The recorded H200 samples: process 1339's memory grows from 1,092 MiB to tens of GiB; its
    column widens with it (measured once, it showed ``30,788 Mi``: screenshots/gpu-160x48)."""
    snapshots = list(iter_snapshots_jsonl(SAMPLES))
    grown = next(i for i, snap in enumerate(snapshots)
                 if any(p.pid == 1339 and (p.used_memory or 0) >= 10_000 * 1024**2 for p in snap.gpus[0].processes))
    assert any(p.pid == 1339 for snap in snapshots[:grown] for p in snap.gpus[0].processes)  # shown narrower before
    source = GatedSource(ReplaySource(SAMPLES), bound=WAIT * 10)  # the next read waits while the test looks
    source.allow(grown + 1)  # sampling stops there: what the screen shows settles
    app = StatsApp(Sampler(source, interval_s=0.05))
    async with app.run_test(size=(160, 48)) as pilot:
        try:
            table = app.query_one(GpuStatsPane).query_one(DataTable)
            await wait_for(pilot, lambda: source.reads == grown + 1 and "1339" in table.rows
                           and str(table.get_cell("1339", "mem")).endswith("MiB")
                           and len(str(table.get_cell("1339", "mem"))) >= len("10,000 MiB"))
            value = str(table.get_cell("1339", "mem"))
            await wait_for(pilot, lambda: any("1339" in row and value in row for row in screen_rows(app)),
                           why=lambda: f"{value} whole on the screen:\n" + "\n".join(screen_rows(app)[:14]))
        finally:
            source.allow(1)  # the read waiting at the gate ends before the app does


# ---- formatting --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, expected", [(None, "na"), (0, "ok"), (69.9, "ok"), (70, "warn"), (89, "warn"), (90, "high")]
)
def test_level_thresholds(value, expected):
    assert level(value, 70, 90) == expected


@no_driver
def test_formatting_of_an_all_na_sample():
    sample = NoDriverSource().read().gpus[0]
    for formatter in (format_memory, format_power, format_temperature):
        text = formatter(sample)
        assert text.plain.endswith("N/A") and text.spans[-1].style == "dim"
    assert format_util(sample).plain == "Util   SM N/A  mem N/A"
    assert format_details(sample).plain == "Clocks SM N/A · mem N/A · throttle N/A"
    assert history_series((sample,)) == {"util": [], "memory": [], "power": [], "temperature": []}


@needs_samples
def test_formatting_of_recorded_samples():
    for snapshot in iter_snapshots_jsonl(SAMPLES):
        gpu = snapshot.gpus[0]
        assert f"{gpu.util_sm:3d} %" in format_util(gpu).plain
        assert f"{gpu.mem_total / 2**30:.1f} GiB" in format_memory(gpu).plain
        assert f"{gpu.temperature} °C" in format_temperature(gpu).plain
        assert f"{gpu.power_w:.0f}/{gpu.power_limit_w:.0f} W" in format_power(gpu).plain
        for reason in gpu.throttle_reasons or ():
            assert reason in format_details(gpu).plain


# ---- snapshots ---------------------------------------------------------------------------


async def _until_unavailable(pilot) -> None:
    pane = pilot.app.query_one(GpuStatsPane)
    await wait_for(pilot, lambda: pane.reason is not None)


@no_driver
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_snapshot_unavailable(snap_compare, size):
    assert snap_compare(StatsApp(), terminal_size=size, run_before=_until_unavailable)

