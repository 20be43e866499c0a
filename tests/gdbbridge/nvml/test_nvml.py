"""cudatui.gdbbridge.nvml.sampler / nvml_models: N/A handling, the no-driver path, PCI ids, history, JSON.

Tests marked "no driver" exercise the real pynvml on a machine without an NVIDIA driver (this
development machine, CI); they are skipped where NVML works. Tests on recorded H200 samples
skip until tests/fixtures/nvml/h200_samples.jsonl is committed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from dataclasses import replace

import pynvml
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cudatui.gdbbridge.nvml import sampler as nvml
from cudatui.gdbbridge.nvml.sampler import NA, NvmlUnavailable, ReplaySource, Sampler, nvml_query
from cudatui.gdbbridge.nvml.models import (
    GpuProcess,
    GpuSample,
    HostInfo,
    Snapshot,
    find_device,
    iter_snapshots_jsonl,
    mark_debuggee,
    normalise_pci_bus_id,
    parse_pci_bus_id,
    snapshot_from_dict,
    snapshot_to_dict,
)
from tests.support.nvml import SAMPLES, NoDriverSource, cuda_gdb_pci_bus, needs_samples, nvml_works
from tests.support.paths import ROOT

no_driver = pytest.mark.skipif(nvml_works(), reason="NVML works here: no-driver path not testable")


def recorded() -> list[Snapshot]:
    return list(iter_snapshots_jsonl(SAMPLES))


# ---- the query helper --------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, cls",
    [
        (pynvml.NVML_ERROR_NOT_SUPPORTED, "NVMLError_NotSupported"),
        (pynvml.NVML_ERROR_NO_PERMISSION, "NVMLError_NoPermission"),
        (pynvml.NVML_ERROR_GPU_IS_LOST, "NVMLError_GpuIsLost"),
        (pynvml.NVML_ERROR_UNKNOWN, "NVMLError_Unknown"),
    ],
)
def test_query_turns_nvml_errors_into_na(monkeypatch, code, cls):
    def power_usage(handle):
        raise pynvml.NVMLError(code)

    monkeypatch.setattr(pynvml, "nvmlDeviceGetPowerUsage", power_usage)
    with pytest.raises(getattr(pynvml, cls)):  # pynvml really maps the code to the subclass
        pynvml.nvmlDeviceGetPowerUsage(None)
    assert nvml_query("nvmlDeviceGetPowerUsage", None) is NA


def test_query_na_is_falsy_and_prints_as_na():
    assert not NA
    assert repr(NA) == "NA"


def test_query_missing_function_is_na(monkeypatch):
    monkeypatch.delattr(pynvml, "nvmlDeviceGetPowerUsage")
    assert nvml_query("nvmlDeviceGetPowerUsage", None) is NA


def test_query_falls_back_when_the_driver_lacks_a_function(monkeypatch):
    """An unversioned function missing from an old driver: the next name is tried."""
    calls = []
    real_v2 = pynvml.nvmlDeviceGetComputeRunningProcesses_v2

    def unversioned(handle):
        raise pynvml.NVMLLibraryMismatchError("Unversioned function called")

    def v2(handle):
        calls.append(handle)
        return real_v2(handle)

    monkeypatch.setattr(pynvml, "nvmlDeviceGetComputeRunningProcesses", unversioned)
    monkeypatch.setattr(pynvml, "nvmlDeviceGetComputeRunningProcesses_v2", v2)
    names = ("nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetComputeRunningProcesses_v2")
    result = nvml_query(names, "handle")
    assert calls == ["handle"]
    if not nvml_works():
        assert result is NA  # the real v2 raised NVMLError_Uninitialized


@no_driver
def test_query_uninitialised_real_call_is_na():
    with pytest.raises(pynvml.NVMLError_Uninitialized):
        pynvml.nvmlDeviceGetCount()
    assert nvml_query("nvmlDeviceGetCount") is NA


# ---- the no-driver path ------------------------------------------------------------------


@no_driver
def test_source_unavailable_without_driver_has_one_line_reason():
    with pytest.raises(NvmlUnavailable) as info:
        nvml.NvmlSource()
    reason = str(info.value)
    assert "\n" not in reason
    assert "NVML library not found" in reason
    assert info.value.__cause__ is None and info.value.__suppress_context__


@no_driver
def test_sampler_without_source_raises_unavailable_and_retries():
    sampler = Sampler()
    for _ in range(2):
        with pytest.raises(NvmlUnavailable):
            sampler.sample()
    assert sampler.latest is None


@pytest.mark.parametrize(
    "code, expected",
    [
        (pynvml.NVML_ERROR_DRIVER_NOT_LOADED, "the NVIDIA driver is not loaded"),
        (pynvml.NVML_ERROR_NO_PERMISSION, "no permission to access the NVIDIA driver"),
        (pynvml.NVML_ERROR_UNKNOWN, "NVML failed to initialise: Unknown Error"),
    ],
)
def test_init_failure_reasons(monkeypatch, code, expected):
    def init():
        raise pynvml.NVMLError(code)

    monkeypatch.setattr(nvml, "_initialised", False)
    monkeypatch.setattr(pynvml, "nvmlInit", init)
    with pytest.raises(NvmlUnavailable, match=f"^{expected}$"):
        nvml.ensure_initialised()


def test_missing_nvidia_ml_py(monkeypatch):
    monkeypatch.setattr(nvml, "pynvml", None)
    with pytest.raises(NvmlUnavailable, match="nvidia-ml-py is not installed"):
        nvml.ensure_initialised()
    assert nvml_query("nvmlDeviceGetCount") is NA


@no_driver
def test_read_device_without_driver_is_all_none():
    sample = nvml.read_device(3, None, 12.5)
    assert (sample.index, sample.timestamp, sample.processes) == (3, 12.5, ())
    values = [v for k, v in vars(sample).items() if k not in {"index", "timestamp", "processes"}]
    assert values and all(v is None for v in values)
    assert nvml.read_host_info() == HostInfo(None, None, None)


def test_gdbbridge_nvml_imports_without_textual_or_rich():
    code = (
        "import sys, cudatui.gdbbridge.nvml.sampler, cudatui.gdbbridge.nvml.models;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# ---- throttle reasons --------------------------------------------------------------------


def test_every_pynvml_clock_event_bit_has_a_name():
    bits = {
        name: value
        for name, value in vars(pynvml).items()
        if name.startswith("nvmlClocksEventReason")
        and isinstance(value, int)
        and value & (value - 1) == 0
        and 0 < value < 0x200
    }
    assert len(bits) >= 8
    for name, bit in bits.items():
        (decoded,) = nvml.decode_throttle_reasons(bit)
        assert not decoded.startswith("0x"), name


def test_throttle_reasons_decode_combined_and_unknown_bits():
    mask = pynvml.nvmlClocksEventReasonSwPowerCap | pynvml.nvmlClocksEventReasonHwThermalSlowdown
    assert nvml.decode_throttle_reasons(mask) == ("sw power cap", "hw thermal")
    assert nvml.decode_throttle_reasons(0) == ()
    assert nvml.decode_throttle_reasons(pynvml.nvmlClocksEventReasonGpuIdle | 1 << 40) == (
        "idle",
        hex(1 << 40),
    )


# ---- PCI bus ids -------------------------------------------------------------------------


def test_cuda_gdb_short_id_matches_nvml_long_id():
    short = cuda_gdb_pci_bus()
    assert normalise_pci_bus_id(short) == normalise_pci_bus_id("00000000:" + short)
    assert normalise_pci_bus_id(short) == "0000:" + short
    assert parse_pci_bus_id(short).domain is None


@pytest.mark.parametrize("text", ["", "zz", "00:06", "0:1:2:3.0", "00:06.8", "100:00.0", "00:06.0x"])
def test_bad_pci_ids_raise_one_line_value_error(text):
    with pytest.raises(ValueError, match="^not a PCI bus id: .*$"):
        parse_pci_bus_id(text)


def test_pci_match_respects_domain_only_when_both_have_one():
    short, other_domain = parse_pci_bus_id("00:06.0"), parse_pci_bus_id("0001:00:06.0")
    assert short.matches(other_domain) and other_domain.matches(short)
    assert not parse_pci_bus_id("0000:00:06.0").matches(other_domain)
    assert not short.matches(parse_pci_bus_id("00:06.1"))
    assert normalise_pci_bus_id(" 0000000A:3B:00.0 ") == "000a:3b:00.0"


def test_find_device_by_pci_not_by_index():
    base = NoDriverSource().read().gpus[0]
    gpus = [
        replace(base, index=0, pci_bus_id="00000000:3B:00.0"),
        replace(base, index=1, pci_bus_id=None),
        replace(base, index=2, pci_bus_id="00000000:" + cuda_gdb_pci_bus().upper()),
    ]
    assert find_device(gpus, cuda_gdb_pci_bus()).index == 2
    assert find_device(gpus, "0000:3b:00.0").index == 0
    assert find_device(gpus, "00:07.0") is None


# ---- sampler: history and overlap --------------------------------------------------------


def test_history_is_bounded_and_oldest_first():
    sampler = Sampler(NoDriverSource(), interval_s=0.5, history_s=3.0)
    taken = [sampler.sample() for _ in range(9)]
    history = sampler.history(0)
    assert len(history) == 6
    assert history == tuple(snap.gpus[0] for snap in taken[-6:])
    assert sampler.latest is taken[-1]
    assert sampler.history(7) == ()


def test_sampler_never_overlaps():
    gate, entered = threading.Event(), threading.Event()

    class SlowSource(NoDriverSource):
        def read(self) -> Snapshot:
            entered.set()
            gate.wait(5)
            return super().read()

    sampler = Sampler(SlowSource())
    results = []
    worker = threading.Thread(target=lambda: results.append(sampler.sample()))
    worker.start()
    assert entered.wait(5)
    assert sampler.sample() is None  # the first one is still reading
    gate.set()
    worker.join(5)
    assert isinstance(results[0], Snapshot) and len(sampler.history(0)) == 1


@needs_samples
def test_history_of_recorded_samples_keeps_the_last_window():
    """The H200 recording holds 60 one-second samples; a 30 s window keeps the last 30."""
    snapshots = recorded()
    assert len(snapshots) >= 60
    sampler = Sampler(ReplaySource(SAMPLES), interval_s=1.0, history_s=30.0)
    for _ in snapshots:
        sampler.sample()
    history = sampler.history(snapshots[0].gpus[0].index)
    assert [s.timestamp for s in history] == [s.gpus[0].timestamp for s in snapshots[-30:]]


# ---- JSON --------------------------------------------------------------------------------

optional_int = st.none() | st.integers(0, 2**40)
optional_float = st.none() | st.floats(0, 2000, allow_nan=False)
optional_text = st.none() | st.text(max_size=20)
processes = st.builds(GpuProcess, st.integers(1, 2**22), optional_int, optional_text, st.booleans())
samples = st.builds(
    GpuSample,
    st.floats(0, 2e9, allow_nan=False),
    st.integers(0, 15),
    *([optional_text] * 3),
    *([optional_int] * 5),
    optional_float,
    optional_float,
    optional_int,
    optional_int,
    st.none() | st.tuples(st.sampled_from(["idle", "sw power cap", "hw thermal"])),
    optional_int,
    optional_int,
    st.lists(processes, max_size=3).map(tuple),
)
snapshots = st.builds(
    Snapshot,
    st.floats(0, 2e9, allow_nan=False),
    st.builds(HostInfo, optional_text, optional_text, optional_text),
    st.lists(samples, max_size=3).map(tuple),
)


@given(snapshots)
def test_json_round_trip(snapshot):
    assert snapshot_from_dict(json.loads(json.dumps(snapshot_to_dict(snapshot)))) == snapshot


@given(snapshots, st.none() | st.integers(1, 2**22))
def test_mark_debuggee_marks_exactly_that_pid(snapshot, pid):
    marked = mark_debuggee(snapshot, pid)
    for gpu in marked.gpus:
        assert all(p.is_debuggee == (p.pid == pid) for p in gpu.processes)


def test_malformed_snapshot_is_a_value_error(tmp_path):
    good = snapshot_to_dict(NoDriverSource().read())
    del good["gpus"][0]["uuid"]
    with pytest.raises(ValueError, match="malformed GPU snapshot"):
        snapshot_from_dict(good)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(snapshot_to_dict(NoDriverSource().read())) + "\n\n{oops\n")
    with pytest.raises(NvmlUnavailable, match=r"bad\.jsonl:3: "):
        ReplaySource(path)


def test_replay_source_errors(tmp_path):
    with pytest.raises(NvmlUnavailable, match="cannot read .*: No such file"):
        ReplaySource(tmp_path / "missing.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(NvmlUnavailable, match="holds no GPU samples"):
        ReplaySource(tmp_path / "empty.jsonl")


def test_replay_source_loops(tmp_path):
    path = tmp_path / "two.jsonl"
    taken = [NoDriverSource().read() for _ in range(2)]
    path.write_text("".join(json.dumps(snapshot_to_dict(s)) + "\n" for s in taken))
    source = ReplaySource(path)
    assert [source.read() for _ in range(3)] == [taken[0], taken[1], taken[0]]


@needs_samples
def test_recorded_samples_round_trip_and_are_plausible():
    for line in SAMPLES.read_text().splitlines():
        data = json.loads(line)
        assert snapshot_to_dict(snapshot_from_dict(data)) == data
    snapshots = recorded()
    gpu = snapshots[0].gpus[0]
    assert gpu.mem_total and gpu.power_limit_w and gpu.name and gpu.pci_bus_id
    assert normalise_pci_bus_id(gpu.pci_bus_id)
    utils = [s.gpus[0].util_sm for s in snapshots if s.gpus[0].util_sm is not None]
    assert min(utils) < 20 and max(utils) > 80, "the recording should include idle and load"
    big = [p for s in snapshots for p in s.gpus[0].processes if (p.used_memory or 0) > 2**30]
    assert big, "the load process should appear with its memory"
