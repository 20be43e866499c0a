"""GPU stats pane: live NVML telemetry for the debuggee's GPU, with ~2 minutes of sparklines."""

from __future__ import annotations

import asyncio
import time

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import DataTable, Select, Sparkline, Static
from textual.worker import Worker, WorkerState

from cudatui.gdbbridge import (
    Debugger, GpuSample, NvmlUnavailable, RecordedSource, Sampler, Snapshot, clean, find_device,
)
from cudatui.tui.messages import Sampled, Unavailable
from .base import PaneTable, sync_rows

STYLES = {"ok": "green", "warn": "yellow", "high": "bold red", "na": "dim"}
"""Rich style per level."""

BAD_THROTTLE = {"hw slowdown", "hw thermal", "sw thermal", "power brake"}
"""Throttle reasons shown in red (the others are routine)."""

GIB = 1024**3
COLUMNS = (("mark", ""), ("pid", "PID"), ("name", "Process"), ("mem", "GPU mem"))
"""The process table's columns: key, heading."""


def level(value: float | None, warn: float, high: float) -> str:
    """"na", "ok", "warn" or "high" for `value` against two thresholds."""
    if value is None:
        return "na"
    return "high" if value >= high else "warn" if value >= warn else "ok"


def ratio(part: float | None, whole: float | None) -> float | None:
    """part / whole, or None when either is unknown or whole is zero."""
    return part / whole if part is not None and whole else None


def _styled(text: str, lvl: str) -> Text:
    return Text(text, style=STYLES[lvl])


def format_util(sample: GpuSample) -> Text:
    """ "SM  87 %  mem  40 %", coloured by SM utilisation."""
    sm = "N/A" if sample.util_sm is None else f"{sample.util_sm:3d} %"
    mem = "N/A" if sample.util_mem is None else f"{sample.util_mem:3d} %"
    lvl = level(sample.util_sm, 70, 90)
    return Text.assemble("Util   ", _styled(f"SM {sm}", lvl), f"  mem {mem}")


def format_memory(sample: GpuSample) -> Text:
    """ "Mem    12.3/139.8 GiB  9 %", coloured by the used fraction."""
    used = ratio(sample.mem_used, sample.mem_total)
    if used is None:
        return Text.assemble("Mem    ", _styled("N/A", "na"))
    text = f"{sample.mem_used / GIB:.1f}/{sample.mem_total / GIB:.1f} GiB {used:4.0%}"
    return Text.assemble("Mem    ", _styled(text, level(used, 0.7, 0.9)))


def format_power(sample: GpuSample) -> Text:
    """ "Power  450/700 W", coloured by the fraction of the enforced limit."""
    if sample.power_w is None:
        return Text.assemble("Power  ", _styled("N/A", "na"))
    limit = "" if sample.power_limit_w is None else f"/{sample.power_limit_w:.0f}"
    lvl = level(ratio(sample.power_w, sample.power_limit_w), 0.7, 0.9)
    return Text.assemble("Power  ", _styled(f"{sample.power_w:.0f}{limit} W", lvl))


def format_temperature(sample: GpuSample) -> Text:
    """ "Temp   55 °C", coloured at 75 and 85 °C."""
    if sample.temperature is None:
        return Text.assemble("Temp   ", _styled("N/A", "na"))
    lvl = level(sample.temperature, 75, 85)
    return Text.assemble("Temp   ", _styled(f"{sample.temperature} °C", lvl))


def format_details(sample: GpuSample) -> Text:
    """Clocks, throttle reasons and ECC errors on one line."""
    sm = "N/A" if sample.sm_clock is None else f"{sample.sm_clock} MHz"
    mem = "N/A" if sample.mem_clock is None else f"{sample.mem_clock} MHz"
    text = Text(f"Clocks SM {sm} · mem {mem} · throttle ")
    reasons = sample.throttle_reasons
    if reasons is None:
        text.append("N/A", STYLES["na"])
    elif not reasons:
        text.append("none", STYLES["ok"])
    else:
        for n, reason in enumerate(reasons):
            text.append((", " if n else "") + reason, "bold red" if reason in BAD_THROTTLE else "")
    if sample.ecc_uncorrected is not None or sample.ecc_corrected is not None:
        bad = bool(sample.ecc_uncorrected)
        text.append(" · ECC ")
        text.append(
            f"{sample.ecc_corrected} corr / {sample.ecc_uncorrected} uncorr",
            STYLES["high" if bad else "ok"],
        )
    return text


def history_series(history: tuple[GpuSample, ...]) -> dict[str, list[float]]:
    """Sparkline data per metric (util, memory %, power, temperature), N/A points dropped."""
    series: dict[str, list[float]] = {"util": [], "memory": [], "power": [], "temperature": []}
    for sample in history:
        mem = ratio(sample.mem_used, sample.mem_total)
        for key, value in (
            ("util", sample.util_sm),
            ("memory", None if mem is None else mem * 100),
            ("power", sample.power_w),
            ("temperature", sample.temperature),
        ):
            if value is not None:
                series[key].append(float(value))
    return series


def debugger_sampler(debugger: Debugger) -> Sampler:
    """The sampler of a debugging session's GPU pane: NVML live; in a replay, the GPU samples
    recorded with it, asked of the Debugger on the event loop (called while composing)."""
    if not debugger.config.replayed:
        return Sampler()
    loop = asyncio.get_running_loop()
    return Sampler(RecordedSource(lambda: asyncio.run_coroutine_threadsafe(
        debugger.recorded_gpu_sample(), loop).result(timeout=10)))


class GpuStatsPane(Widget, can_focus=False):
    """Live NVML telemetry of one GPU (the debuggee's by default) with 2-minute sparklines.

    Samples every `sampler.interval_s` in a thread worker (group "nvml"), only while shown.

    | Key | Description |
    | :- | :- |
    | ] | Show the next GPU. |
    | [ | Show the previous GPU. |
    """

    BINDINGS = [
        Binding("]", "cycle_device(1)", "Next GPU"),
        Binding("[", "cycle_device(-1)", "Prev GPU"),
    ]

    DEFAULT_CSS = """
    GpuStatsPane { height: auto; max-height: 100%; }
    GpuStatsPane #unavailable { color: $text-warning; }
    GpuStatsPane #stats { height: auto; }
    GpuStatsPane #device-select { width: 60; }
    GpuStatsPane .metric { height: 1; }
    GpuStatsPane .metric Static { width: 28; }
    GpuStatsPane .metric Sparkline { width: 1fr; max-width: 120; }
    GpuStatsPane #pid-note { color: $text-muted; }
    GpuStatsPane DataTable { height: auto; max-height: 12; }
    """

    pci_bus_id: reactive[str | None] = reactive(None)
    """PCI bus id of the debuggee's GPU (cuda-gdb's "00:06.0" or NVML's form); selects it."""
    debuggee_pid: reactive[int | None] = reactive(None)
    """PID of the debugged process; marked in the process list."""
    device_index: reactive[int | None] = reactive(None)
    """NVML index of the GPU shown."""
    reason: reactive[str | None] = reactive(None)
    """Why no stats can be shown (NVML/GPU missing), or None."""

    def __init__(self, sampler: Sampler | None = None, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.sampler = sampler if sampler is not None else Sampler()
        self._sampling_since: float | None = None
        """When the sample in flight started (None: none is)."""
        self.always = False
        """Sample while hidden too (a recorded or replayed session: each stop gets its GPU sample)."""
        self._snapshot: Snapshot | None = None
        self._unshown = False
        """A snapshot arrived while the pane was hidden: it is shown when the pane is."""
        self._device_indices: list[int] = []

    @property
    def snapshot(self) -> Snapshot | None:
        """The latest snapshot shown, if any."""
        return self._snapshot

    def compose(self) -> ComposeResult:
        yield Static("Reading GPU stats…", id="unavailable")
        with Vertical(id="stats"):
            yield Select[int]([], prompt="GPU", id="device-select", compact=True)
            yield Static(id="device")
            for metric in ("util", "memory", "power", "temperature"):
                with Horizontal(classes="metric"):
                    yield Static(id=f"{metric}-value")
                    yield Sparkline([], id=f"{metric}-spark")
            yield Static(id="details")
            yield Static(
                "Processes (PIDs as NVML sees them: they can differ inside containers)",
                id="pid-note",
            )
            yield PaneTable(id="processes", cursor_type="none", zebra_stripes=True)  # cells painted before a column widens are painted again

    def on_mount(self) -> None:
        self.query_one("#stats").display = False
        self.query_one("#device-select").display = False
        table = self.query_one(DataTable)
        for key, label in COLUMNS:
            table.add_column(label, key=key)
        self.set_interval(self.sampler.interval_s, self._tick)
        self.call_after_refresh(self._tick)

    def _tick(self) -> None:
        """Start a sample unless one is running or the pane is hidden (and need not sample then)."""
        if self._sampling_since is not None or not (self.always or self.display and self.is_on_screen):
            return
        self._sampling_since = time.monotonic()
        self._sample()

    @property
    def sampling_for(self) -> float | None:
        """For how many seconds the sample in flight has run (None: none is)."""
        since = self._sampling_since
        return None if since is None else time.monotonic() - since

    @work(thread=True, group="nvml", exit_on_error=False)
    def _sample(self) -> None:
        """Read one snapshot off the event loop and post it back, its text cleaned (a process
        names itself: the debuggee's name may hold escape sequences)."""
        try:
            snapshot = clean(self.sampler.sample())
        except NvmlUnavailable as exc:
            self.post_message(Unavailable(str(exc)))
        else:
            if snapshot is not None:
                self.post_message(Sampled(snapshot))
        finally:
            self._sampling_since = None

    def on_gpu_stats_pane_sampled(self, message: Sampled) -> None:
        self._snapshot = message.snapshot
        self.reason = None
        indices = [gpu.index for gpu in message.snapshot.gpus]
        select = self.query_one("#device-select", Select)
        if indices != self._device_indices:
            self._device_indices = indices
            select.set_options(
                (f"GPU {g.index}: {g.name or '?'} ({g.pci_bus_id or '?'})", g.index)
                for g in message.snapshot.gpus
            )
            select.display = len(indices) > 1
            self.refresh_bindings()
            if self.device_index in indices:
                select.value = self.device_index
        if self.device_index not in indices:
            debuggee = self._debuggee_index()
            self.device_index = debuggee if debuggee is not None else next(iter(indices), None)
        self._show()

    def on_gpu_stats_pane_unavailable(self, message: Unavailable) -> None:
        self.reason = message.reason

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A sample that failed otherwise than NVML missing says how (else the pane would read
        "Reading GPU stats…" for ever)."""
        if event.worker.group == "nvml" and event.state == WorkerState.ERROR:
            error = event.worker.error
            self.reason = f"the sample failed: {type(error).__name__}: {clean(str(error))}"

    @on(Select.Changed, "#device-select")
    def _device_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.device_index = event.value

    def _debuggee_index(self) -> int | None:
        """NVML index of the debuggee's GPU (by PCI bus id), if known and present."""
        if self._snapshot is None or self.pci_bus_id is None:
            return None
        try:
            found = find_device(self._snapshot.gpus, self.pci_bus_id)
        except ValueError:
            return None
        return None if found is None else found.index

    def watch_pci_bus_id(self) -> None:
        index = self._debuggee_index()
        if index is not None:
            self.device_index = index

    def watch_debuggee_pid(self, pid: int | None) -> None:
        self.sampler.debuggee_pid = pid

    def watch_device_index(self, index: int | None) -> None:
        select = self.query_one("#device-select", Select)
        if index in self._device_indices and select.value != index:
            select.value = index
        self._show()

    def watch_reason(self, reason: str | None) -> None:
        self.query_one("#stats").display = reason is None and self._snapshot is not None
        label = self.query_one("#unavailable", Static)
        label.display = reason is not None or self._snapshot is None
        if reason is not None:
            label.update(f"GPU stats unavailable: {reason}")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer device cycling only when there is more than one GPU."""
        return len(self._device_indices) > 1 if action == "cycle_device" else True

    def action_cycle_device(self, step: int) -> None:
        """Show the next (+1) or previous (-1) GPU."""
        if self._snapshot is None or not self._snapshot.gpus:
            return
        indices = [gpu.index for gpu in self._snapshot.gpus]
        position = indices.index(self.device_index) if self.device_index in indices else 0
        self.device_index = indices[(position + step) % len(indices)]

    def on_show(self) -> None:
        if self._unshown:
            self._show()

    def _show(self) -> None:
        """Render the selected device from the latest snapshot and its history; while the pane
        is hidden (a recorded session samples then too), only when it is shown again: each
        update would lay the whole screen out again for widgets nobody sees."""
        if self._snapshot is None or not self.is_mounted:
            return
        self._unshown = not self.is_on_screen
        if self._unshown:
            return
        sample = next((g for g in self._snapshot.gpus if g.index == self.device_index), None)
        self.query_one("#stats").display = sample is not None
        self.query_one("#unavailable").display = sample is None
        if sample is None:
            return
        host = self._snapshot.host
        tag = " · debuggee's GPU" if sample.index == self._debuggee_index() else ""
        self.query_one("#device", Static).update(
            Text.assemble(
                (f"GPU {sample.index} {sample.name or 'N/A'}", "bold"),
                f" · {sample.pci_bus_id or 'N/A'}{tag}\n",
                (
                    f"driver {host.driver_version or 'N/A'} · CUDA {host.cuda_version or 'N/A'}"
                    f" · NVML {host.nvml_version or 'N/A'}",
                    "dim",
                ),
            )
        )
        for metric, formatter in (
            ("util", format_util),
            ("memory", format_memory),
            ("power", format_power),
            ("temperature", format_temperature),
        ):
            self.query_one(f"#{metric}-value", Static).update(formatter(sample))
        for metric, data in history_series(self.sampler.history(sample.index)).items():
            self.query_one(f"#{metric}-spark", Sparkline).data = data
        self.query_one("#details", Static).update(format_details(sample))
        self._show_processes(sample)

    def _show_processes(self, sample: GpuSample) -> None:
        """Diff the process table on pid keys (a value grown wider widens its column)."""
        rows = {
            str(p.pid): (
                Text("▶ debuggee", "bold cyan") if p.is_debuggee else Text(""),
                str(p.pid),
                p.name or "?",
                "N/A" if p.used_memory is None else f"{p.used_memory / 1024**2:,.0f} MiB",
            )
            for p in sample.processes
        }
        sync_rows(self.query_one(DataTable), [key for key, _ in COLUMNS], rows, [label for _, label in COLUMNS])
