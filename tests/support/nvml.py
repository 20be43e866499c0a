"""NVML in the tests: whether it works here, and its real read path on a machine without a driver."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cudatui.gdbbridge.nvml import sampler as nvml
from cudatui.gdbbridge.nvml.models import Snapshot
from cudatui.gdbbridge.nvml.sampler import NvmlUnavailable

from .paths import FIXTURES

SAMPLES = FIXTURES / "nvml" / "h200_samples.jsonl"
"""Recorded H200 samples (skipped by the tests that need them until committed)."""

NO_DRIVER_REASON = "NVML library not found: no NVIDIA driver installed"


def nvml_works() -> bool:
    try:
        nvml.ensure_initialised()
    except NvmlUnavailable:
        return False
    return True


NVML_WORKS = nvml_works()
no_driver = pytest.mark.skipif(NVML_WORKS, reason="NVML works here: no-driver state not testable")
needs_samples = pytest.mark.skipif(not SAMPLES.exists(), reason="fixture not recorded yet")


class NoDriverSource:
    """The real read path on a machine without a driver: one device whose every value is N/A."""

    def read(self) -> Snapshot:
        now = time.time()
        return Snapshot(now, nvml.read_host_info(), (nvml.read_device(0, None, now),))

    def close(self) -> None:
        pass


def cuda_gdb_pci_bus() -> str:
    """pci_bus of device 0 in cuda-gdb 13.0's real -cuda-info-devices answer."""
    from pygdbmi import gdbmiparser

    line = (FIXTURES / "nvml" / "cuda_info_devices.mi").read_text().strip()
    table = gdbmiparser.parse_response(line)["payload"]["InfoCudaDevicesTable"]
    return table["body"][0]["pci_bus"]


NO_DRIVER = not Path("/dev/nvidiactl").exists()
"""No NVIDIA driver on this machine (the doctor's checks then fail in a known way)."""

needs_no_driver = pytest.mark.skipif(not NO_DRIVER, reason="this machine has an NVIDIA driver")
