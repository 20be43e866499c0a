"""Real NVML on a GPU box: snapshots, history, debuggee marking, PCI matching, `stats --once --json`."""

from __future__ import annotations

import argparse
import json
import os
import time

import pytest

from cudatui.gdbbridge.nvml.sampler import NvmlSource, Sampler, ensure_initialised
from cudatui.gdbbridge.nvml.models import find_device, parse_pci_bus_id, snapshot_from_dict, snapshot_to_dict
from cudatui.tui.commands import stats as stats_command

pytestmark = pytest.mark.gpu


def test_live_snapshot_is_complete_and_plausible():
    ensure_initialised()
    snapshot = NvmlSource().read()
    assert snapshot.host.driver_version and snapshot.host.nvml_version
    assert snapshot.host.cuda_version and "." in snapshot.host.cuda_version
    assert snapshot.gpus
    for gpu in snapshot.gpus:
        assert gpu.name and gpu.uuid and gpu.uuid.startswith("GPU-")
        parse_pci_bus_id(gpu.pci_bus_id)
        assert gpu.mem_total and 0 <= gpu.mem_used <= gpu.mem_total
        assert 0 <= gpu.util_sm <= 100 and 0 <= gpu.util_mem <= 100
        assert 10 <= gpu.temperature <= 110
        assert 0 < gpu.power_w <= gpu.power_limit_w * 1.5
        assert gpu.sm_clock > 0 and gpu.mem_clock > 0
        assert gpu.throttle_reasons is not None
    assert snapshot_from_dict(json.loads(json.dumps(snapshot_to_dict(snapshot)))) == snapshot


def test_sampler_history_grows_over_real_ticks():
    sampler = Sampler(NvmlSource(), interval_s=0.2, history_s=0.6)
    for _ in range(5):
        sampler.sample()
        time.sleep(0.2)
    history = sampler.history(sampler.latest.gpus[0].index)
    assert len(history) == 3
    assert [s.timestamp for s in history] == sorted(s.timestamp for s in history)


def test_this_process_is_listed_and_marked_when_it_uses_the_gpu():
    torch = pytest.importorskip("torch")
    buffer = torch.empty(256 * 2**20, dtype=torch.uint8, device="cuda")
    torch.cuda.synchronize()
    sampler = Sampler(NvmlSource(), debuggee_pid=os.getpid())
    snapshot = sampler.sample()
    procs = [p for gpu in snapshot.gpus for p in gpu.processes]
    mine = [p for p in procs if p.pid == os.getpid()]
    if not mine:
        pytest.skip(f"NVML lists other pids {[p.pid for p in procs]}: a container PID namespace")
    assert mine[0].is_debuggee and mine[0].used_memory >= buffer.numel()
    assert not any(p.is_debuggee for p in procs if p.pid != os.getpid())


def test_cuda_device_found_by_short_pci_id():
    torch = pytest.importorskip("torch")
    props = torch.cuda.get_device_properties(0)
    if not hasattr(props, "pci_bus_id"):
        pytest.skip("this torch does not report PCI ids")
    short = f"{props.pci_bus_id:02x}:{props.pci_device_id:02x}.0"  # cuda-gdb's pci_bus form
    found = find_device(NvmlSource().read().gpus, short)
    assert found is not None and found.name == props.name


def test_stats_once_json_prints_every_device(capsys):
    parser = argparse.ArgumentParser(prog="cudatui")
    stats_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["stats", "--once", "--json"])
    assert args.func(args) == 0
    printed = snapshot_from_dict(json.loads(capsys.readouterr().out))
    assert len(printed.gpus) == len(NvmlSource().read().gpus) >= 1
