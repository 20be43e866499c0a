"""Frozen data for GPU telemetry: samples, host info, PCI addresses, JSON (de)serialisation.

Everything here is plain data: NVML is only touched in `cudatui.gdbbridge.nvml.sampler`. Values are ints or
floats in base units (bytes, percent, degrees C, watts, MHz), or None where NVML reported N/A.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, cast
from collections.abc import Iterable, Iterator


@dataclass(frozen=True)
class GpuProcess:
    """One process holding memory on a GPU."""

    pid: int
    """Process id as NVML sees it (the host's PID namespace, which can differ in containers)."""
    used_memory: int | None
    """Device memory used by the process, in bytes."""
    name: str | None
    """Process name when it can be resolved."""
    is_debuggee: bool = False
    """True for the process being debugged."""


@dataclass(frozen=True)
class GpuSample:
    """One timestamped reading of one device."""

    timestamp: float
    """Wall-clock time of the reading (`time.time()`)."""
    index: int
    """NVML device index (not necessarily the CUDA ordinal)."""
    name: str | None
    pci_bus_id: str | None
    """PCI bus id as NVML gives it, e.g. "00000000:00:06.0"."""
    uuid: str | None
    util_sm: int | None
    """SM (GPU) utilisation, percent."""
    util_mem: int | None
    """Memory controller utilisation, percent."""
    mem_used: int | None
    """Device memory used, bytes."""
    mem_total: int | None
    """Device memory total, bytes."""
    temperature: int | None
    """GPU temperature, degrees C."""
    power_w: float | None
    power_limit_w: float | None
    sm_clock: int | None
    """SM clock, MHz."""
    mem_clock: int | None
    """Memory clock, MHz."""
    throttle_reasons: tuple[str, ...] | None
    """Decoded clock event (throttle) reasons; empty when clocks are not held back."""
    ecc_corrected: int | None
    """Volatile (since driver load) corrected ECC errors."""
    ecc_uncorrected: int | None
    """Volatile (since driver load) uncorrected ECC errors."""
    processes: tuple[GpuProcess, ...] = ()


@dataclass(frozen=True)
class HostInfo:
    """Versions of the NVIDIA stack on the host."""

    driver_version: str | None
    nvml_version: str | None
    cuda_version: str | None
    """CUDA version the driver supports, e.g. "13.0"."""


@dataclass(frozen=True)
class Snapshot:
    """Everything read in one tick: the host and every device."""

    timestamp: float
    host: HostInfo
    gpus: tuple[GpuSample, ...]


@dataclass(frozen=True)
class PciAddress:
    """A parsed PCI address; `domain` is None when the id had none (cuda-gdb's short form)."""

    domain: int | None
    bus: int
    device: int
    function: int

    def matches(self, other: PciAddress) -> bool:
        """True when both name the same device; a missing domain matches any domain."""
        same_domain = self.domain is None or other.domain is None or self.domain == other.domain
        return same_domain and (self.bus, self.device, self.function) == (
            other.bus,
            other.device,
            other.function,
        )

    def __str__(self) -> str:
        """Canonical text: "0000:00:06.0" (4-digit domain, 0 when unknown)."""
        return f"{self.domain or 0:04x}:{self.bus:02x}:{self.device:02x}.{self.function:x}"


_PCI_RE = re.compile(
    r"^(?:(?P<domain>[0-9a-f]{1,8}):)?(?P<bus>[0-9a-f]{1,2}):(?P<device>[0-9a-f]{1,2})"
    r"\.(?P<function>[0-7])$",
    re.IGNORECASE,
)


def parse_pci_bus_id(text: str) -> PciAddress:
    """Parse "00000000:00:06.0" (NVML), "0000:00:06.0" (lspci) or "00:06.0" (cuda-gdb).

    Raises ValueError with a one-line reason for anything else.
    """
    match = _PCI_RE.match(text.strip())
    if match is None:
        raise ValueError(f"not a PCI bus id: {text!r} (expected e.g. 00:06.0 or 0000:00:06.0)")
    domain = match["domain"]
    return PciAddress(
        domain=int(domain, 16) if domain is not None else None,
        bus=int(match["bus"], 16),
        device=int(match["device"], 16),
        function=int(match["function"]),
    )


def normalise_pci_bus_id(text: str) -> str:
    """Canonical form of a PCI bus id: "00:06.0" and "00000000:00:06.0" both give "0000:00:06.0"."""
    return str(parse_pci_bus_id(text))


def find_device(samples: Iterable[GpuSample], pci_bus_id: str) -> GpuSample | None:
    """The sample whose PCI bus id names the same device as `pci_bus_id`, or None.

    Matching is by PCI address, never by index order (CUDA and NVML can number differently).
    """
    wanted = parse_pci_bus_id(pci_bus_id)
    for sample in samples:
        if sample.pci_bus_id is None:
            continue
        try:
            if parse_pci_bus_id(sample.pci_bus_id).matches(wanted):
                return sample
        except ValueError:
            continue
    return None


def mark_debuggee(snapshot: Snapshot, pid: int | None) -> Snapshot:
    """A copy of `snapshot` whose processes have `is_debuggee` set for `pid` (and only it)."""
    gpus = tuple(
        replace(
            gpu,
            processes=tuple(
                replace(proc, is_debuggee=pid is not None and proc.pid == pid)
                for proc in gpu.processes
            ),
        )
        for gpu in snapshot.gpus
    )
    return replace(snapshot, gpus=gpus)


def snapshot_to_dict(snapshot: Snapshot) -> dict[str, Any]:
    """A JSON-ready dict (tuples become lists)."""
    return cast(dict[str, Any], _lists(asdict(snapshot)))


def _lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    return value


def snapshot_from_dict(data: dict[str, Any]) -> Snapshot:
    """Rebuild a Snapshot from `snapshot_to_dict` output; raises ValueError if malformed."""
    try:
        gpus = []
        for gpu in data["gpus"]:
            fields = dict(gpu)
            fields["processes"] = tuple(GpuProcess(**proc) for proc in fields["processes"])
            reasons = fields["throttle_reasons"]
            fields["throttle_reasons"] = tuple(reasons) if reasons is not None else None
            gpus.append(GpuSample(**fields))
        return Snapshot(
            timestamp=float(data["timestamp"]), host=HostInfo(**data["host"]), gpus=tuple(gpus)
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed GPU snapshot: {exc}") from exc


MAX_SAMPLES_FILE = 256 * 1024 * 1024
"""Bytes a recorded samples file may hold (an hour of 8 GPUs at 10 Hz is about 200 MB)."""


def iter_snapshots_jsonl(path: Path) -> Iterator[Snapshot]:
    """Snapshots from a JSON-lines file (one snapshot per line, blank lines skipped).

    Only a regular file of at most :data:`MAX_SAMPLES_FILE` bytes is read (opened without
    blocking, checked on the open descriptor): a device or a FIFO is a ValueError, not a hang."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SAMPLES_FILE:
        os.close(fd)
        why = ("Is a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file (a device or a FIFO)"
               if not stat.S_ISREG(info.st_mode) else f"more than {MAX_SAMPLES_FILE >> 20} MiB, too big for recorded GPU samples")
        raise ValueError(f"{path}: {why}")
    os.set_blocking(fd, True)
    with open(fd, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield snapshot_from_dict(json.loads(line))
            except ValueError as exc:  # includes json.JSONDecodeError
                raise ValueError(f"{path}:{number}: {exc}") from exc
