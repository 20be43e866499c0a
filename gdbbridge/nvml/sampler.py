"""Read GPU telemetry through NVML (nvidia-ml-py) into frozen `Snapshot`s.

Every NVML call goes through `nvml_query`, which turns NVML errors, unsupported queries and
functions missing from an older driver into the `NA` sentinel; `read_device` turns `NA` into
None. NVML is initialised once per process (shut down at exit). When the library or the driver
is missing, `NvmlSource()` raises `NvmlUnavailable` with a one-line reason.

`Sampler` wraps a snapshot source (live NVML, or recorded samples via `ReplaySource`), keeps a
bounded per-device history and never runs two samples at once.
"""

from __future__ import annotations

import atexit
import math
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Protocol

from cudatui.gdbbridge.nvml.models import (
    GpuProcess,
    GpuSample,
    HostInfo,
    Snapshot,
    iter_snapshots_jsonl,
    mark_debuggee,
)

try:
    import pynvml
except ImportError:  # nvidia-ml-py is a dependency, but report its absence cleanly
    pynvml = None


class NvmlUnavailable(RuntimeError):
    """NVML cannot be used here; `str()` is a one-line reason for the user."""


class _NotAvailable:
    """Type of the `NA` sentinel: a value NVML could not provide."""

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NA"


NA: Any = _NotAvailable()
"""Returned by `nvml_query` when a value is not available."""


def nvml_query(names: str | tuple[str, ...], *args: Any) -> Any:
    """Call the first pynvml function of `names` that exists; `NA` if none gives a value.

    NVML errors (not supported, no permission, GPU lost, uninitialised ...) and functions
    missing from pynvml or from the installed driver all become `NA`. Byte strings are decoded.
    """
    if pynvml is None:
        return NA
    for name in (names,) if isinstance(names, str) else names:
        function = getattr(pynvml, name, None)
        if function is None:
            continue
        try:
            value = function(*args)
        except pynvml.NVMLError_FunctionNotFound:
            continue
        except pynvml.NVMLLibraryMismatchError:
            continue
        except pynvml.NVMLError:
            return NA
        return value.decode(errors="replace") if isinstance(value, bytes) else value
    return NA


def _field(value: Any, attribute: str) -> Any:
    """`value.attribute`, or `NA` when `value` is NA or lacks it."""
    return NA if value is NA else getattr(value, attribute, NA)


def _opt(value: Any) -> Any:
    """`NA` -> None, anything else unchanged."""
    return None if value is NA else value


_init_lock = threading.Lock()
_initialised = False

_INIT_REASONS = {
    "NVMLError_LibraryNotFound": "NVML library not found: no NVIDIA driver installed",
    "NVMLError_DriverNotLoaded": "the NVIDIA driver is not loaded",
    "NVMLError_NoPermission": "no permission to access the NVIDIA driver",
    "NVMLError_GpuIsLost": "the GPU has fallen off the bus",
}


def _shutdown() -> None:
    """Shut NVML down at interpreter exit (registered once, after a successful init)."""
    global _initialised
    with _init_lock:
        if _initialised:
            nvml_query("nvmlShutdown")
            _initialised = False


def ensure_initialised() -> None:
    """Initialise NVML once for this process; raise `NvmlUnavailable` with the reason if not."""
    global _initialised
    if pynvml is None:
        raise NvmlUnavailable("nvidia-ml-py is not installed (pip install nvidia-ml-py)")
    with _init_lock:
        if _initialised:
            return
        try:
            pynvml.nvmlInit()
        except pynvml.NVMLError as exc:
            reason = _INIT_REASONS.get(type(exc).__name__, f"NVML failed to initialise: {exc}")
            raise NvmlUnavailable(reason) from None
        _initialised = True
        atexit.register(_shutdown)


_REASON_BITS: tuple[tuple[int, str], ...] = (  # nvmlClocksEventReason* bits (nvml.h)
    (0x001, "idle"),
    (0x002, "app clocks"),
    (0x004, "sw power cap"),
    (0x008, "hw slowdown"),
    (0x010, "sync boost"),
    (0x020, "sw thermal"),
    (0x040, "hw thermal"),
    (0x080, "power brake"),
    (0x100, "display clock"),
)


def decode_throttle_reasons(mask: int) -> tuple[str, ...]:
    """Names of the clock event (throttle) reason bits set in `mask`; unknown bits as hex."""
    names = [label for bit, label in _REASON_BITS if mask & bit]
    unknown = mask & ~sum(bit for bit, _ in _REASON_BITS)
    if unknown:
        names.append(hex(unknown))
    return tuple(names)


def _processes(handle: Any) -> tuple[GpuProcess, ...]:
    """Compute and graphics processes on a device, one entry per pid."""
    seen: dict[int, GpuProcess] = {}
    for kind in ("Compute", "Graphics"):
        base = f"nvmlDeviceGet{kind}RunningProcesses"
        for proc in nvml_query((base, base + "_v2"), handle) or ():
            if proc.pid in seen:
                continue
            name = _opt(nvml_query("nvmlSystemGetProcessName", proc.pid)) or _proc_comm(proc.pid)
            seen[proc.pid] = GpuProcess(pid=proc.pid, used_memory=proc.usedGpuMemory, name=name)
    return tuple(seen.values())


def _proc_comm(pid: int) -> str | None:
    """The short process name from /proc (same PID namespace only), or None."""
    try:
        return Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def _milliwatts(value: Any) -> float | None:
    return None if value is NA else value / 1000.0


def read_device(index: int, handle: Any, timestamp: float) -> GpuSample:
    """Read one device; every value NVML cannot give becomes None."""
    q = nvml_query
    util = q("nvmlDeviceGetUtilizationRates", handle)
    memory = q("nvmlDeviceGetMemoryInfo", handle)
    pci = q("nvmlDeviceGetPciInfo", handle)
    bus_id = _field(pci, "busId")
    reasons = q(
        ("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"),
        handle,
    )
    ecc = [
        q("nvmlDeviceGetTotalEccErrors", handle, kind, 0)  # 0: NVML_VOLATILE_ECC
        for kind in (0, 1)  # NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_MEMORY_ERROR_TYPE_UNCORRECTED
    ]
    return GpuSample(
        timestamp=timestamp,
        index=index,
        name=_opt(q("nvmlDeviceGetName", handle)),
        pci_bus_id=bus_id.decode() if isinstance(bus_id, bytes) else _opt(bus_id),
        uuid=_opt(q("nvmlDeviceGetUUID", handle)),
        util_sm=_opt(_field(util, "gpu")),
        util_mem=_opt(_field(util, "memory")),
        mem_used=_opt(_field(memory, "used")),
        mem_total=_opt(_field(memory, "total")),
        temperature=_opt(q("nvmlDeviceGetTemperature", handle, 0)),  # NVML_TEMPERATURE_GPU
        power_w=_milliwatts(q("nvmlDeviceGetPowerUsage", handle)),
        power_limit_w=_milliwatts(q("nvmlDeviceGetEnforcedPowerLimit", handle)),
        sm_clock=_opt(q("nvmlDeviceGetClockInfo", handle, 1)),  # NVML_CLOCK_SM
        mem_clock=_opt(q("nvmlDeviceGetClockInfo", handle, 2)),  # NVML_CLOCK_MEM
        throttle_reasons=None if reasons is NA else decode_throttle_reasons(reasons),
        ecc_corrected=_opt(ecc[0]),
        ecc_uncorrected=_opt(ecc[1]),
        processes=_processes(handle),
    )


def read_host_info() -> HostInfo:
    """Driver, NVML and CUDA versions (None where unavailable)."""
    cuda = nvml_query(("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"))
    return HostInfo(
        driver_version=_opt(nvml_query("nvmlSystemGetDriverVersion")),
        nvml_version=_opt(nvml_query("nvmlSystemGetNVMLVersion")),
        cuda_version=None if cuda is NA else f"{cuda // 1000}.{cuda % 1000 // 10}",
    )


class SnapshotSource(Protocol):
    """Anything that can produce snapshots: live NVML or a recording."""

    def read(self) -> Snapshot:
        """One snapshot of every device (may block; call off the UI thread)."""

    def close(self) -> None:
        """Release resources."""


class NvmlSource:
    """Live snapshots from NVML; the constructor raises `NvmlUnavailable` without a GPU."""

    def __init__(self) -> None:
        ensure_initialised()
        count = nvml_query("nvmlDeviceGetCount")
        if not count:
            raise NvmlUnavailable("NVML found no NVIDIA GPU")
        self._handles = [nvml_query("nvmlDeviceGetHandleByIndex", i) for i in range(count)]
        self._host = read_host_info()

    def read(self) -> Snapshot:
        """Read every device now."""
        now = time.time()
        gpus = tuple(read_device(i, h, now) for i, h in enumerate(self._handles) if h is not NA)
        return Snapshot(timestamp=now, host=self._host, gpus=gpus)

    def close(self) -> None:
        """Nothing to release per source: NVML stays initialised until exit."""


class ReplaySource:
    """Recorded snapshots (JSON lines from scripts/record_nvml.py), returned in a loop."""

    def __init__(self, path: Path) -> None:
        try:
            self._snapshots = tuple(iter_snapshots_jsonl(path))
        except OSError as exc:
            raise NvmlUnavailable(f"cannot read {path}: {exc.strerror}") from None
        except ValueError as exc:
            raise NvmlUnavailable(str(exc)) from None
        if not self._snapshots:
            raise NvmlUnavailable(f"{path} holds no GPU samples")
        self._next = 0

    def read(self) -> Snapshot:
        """The next recorded snapshot, wrapping around at the end."""
        snapshot = self._snapshots[self._next]
        self._next = (self._next + 1) % len(self._snapshots)
        return snapshot

    def close(self) -> None:
        """Nothing to release."""


class Sampler:
    """Samples a source, keeps ~`history_s` of samples per device, never overlaps.

    With no source given, live NVML is opened lazily on the first `sample()` (which therefore
    may raise `NvmlUnavailable`). Thread-safe: call `sample()` from a worker thread.
    """

    def __init__(
        self,
        source: SnapshotSource | None = None,
        *,
        interval_s: float = 1.0,
        history_s: float = 120.0,
        debuggee_pid: int | None = None,
    ) -> None:
        self.interval_s = interval_s
        self.debuggee_pid = debuggee_pid
        """Processes with this pid are marked `is_debuggee`."""
        self._source = source
        self._maxlen = max(1, math.ceil(history_s / interval_s))
        self._history: dict[int, deque[GpuSample]] = {}
        self._busy = threading.Lock()
        self._state = threading.Lock()
        self.latest: Snapshot | None = None

    def sample(self) -> Snapshot | None:
        """Take one snapshot and record it; None if a sample is already running."""
        if not self._busy.acquire(blocking=False):
            return None
        try:
            if self._source is None:
                self._source = NvmlSource()
            snapshot = mark_debuggee(self._source.read(), self.debuggee_pid)
        finally:
            self._busy.release()
        with self._state:
            for gpu in snapshot.gpus:
                self._history.setdefault(gpu.index, deque(maxlen=self._maxlen)).append(gpu)
            self.latest = snapshot
        return snapshot

    def history(self, index: int) -> tuple[GpuSample, ...]:
        """Samples of device `index`, oldest first, at most ~history_s worth."""
        with self._state:
            return tuple(self._history.get(index, ()))

    def close(self) -> None:
        """Close the source."""
        if self._source is not None:
            self._source.close()
