"""`cudatui stats`: GPU telemetry from NVML, full screen or as one JSON snapshot."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cudatui.gdbbridge import (
    NvmlSource, NvmlUnavailable, ReplaySource, Sampler, Snapshot, clean, mark_debuggee, parse_pci_bus_id,
    snapshot_to_dict,
)
from cudatui.tui.cli_errors import fail
from cudatui.tui.commands.output import print_text
from cudatui.tui.needs_terminal import missing_terminal


def add_parser(subparsers: Any) -> None:
    """Add the `stats` sub-command."""
    parser = subparsers.add_parser(
        "stats",
        help="show live GPU stats (NVML)",
        description="Live GPU telemetry from NVML: the GPU stats pane full screen, or one "
        "snapshot of every device with --once.",
    )
    parser.add_argument("--once", action="store_true", help="print one snapshot and exit")
    parser.add_argument("--json", action="store_true", help="with --once: print JSON")
    parser.add_argument(
        "--interval", type=float, default=1.0, help="seconds between samples (default 1)"
    )
    parser.add_argument("--pci-bus-id", help="select this GPU first (e.g. 00:06.0)")
    parser.add_argument("--pid", type=int, help="mark this process as the debuggee")
    parser.add_argument(
        "--replay", type=Path, metavar="FILE", help="show recorded samples (JSON lines)"
    )
    parser.set_defaults(func=run)


def _error(message: str) -> int:
    return fail(message, 1, who="cudatui stats")


def format_text(snapshot: Snapshot) -> str:
    """A short plain-text summary, one line per device."""
    host = snapshot.host
    lines = [f"driver {host.driver_version} · CUDA {host.cuda_version} · NVML {host.nvml_version}"]
    for g in snapshot.gpus:
        mem = "N/A" if g.mem_used is None else f"{g.mem_used / 2**30:.1f}/{g.mem_total / 2**30:.1f} GiB"
        lines.append(
            f"GPU {g.index} {g.name} {g.pci_bus_id}: SM {g.util_sm} % · mem {mem} · "
            f"{g.temperature} °C · {g.power_w} W · {len(g.processes)} processes"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run `cudatui stats`; 1 with a one-line error when NVML (or the replay file) is unusable."""
    if args.json and not args.once:
        return _error("--json needs --once")
    if args.interval <= 0:
        return _error("--interval must be positive")
    if args.pci_bus_id is not None:
        try:
            parse_pci_bus_id(args.pci_bus_id)
        except ValueError as exc:
            return _error(str(exc))
    try:
        source = ReplaySource(args.replay) if args.replay else NvmlSource()
    except NvmlUnavailable as exc:
        message = str(exc) if args.replay else f"NVML unavailable: {exc}"
        if args.json:  # a script reading stdout gets an answer it can parse
            print(json.dumps({"error": clean(message)}))
        return _error(message)
    if args.once:
        snapshot = mark_debuggee(source.read(), args.pid)
        if args.json:
            print(json.dumps(snapshot_to_dict(snapshot), indent=2))
        else:
            print_text(format_text(snapshot))
        return 0
    if why := missing_terminal():
        return fail(why, 2, who="cudatui stats")
    from cudatui.tui.apps.stats_app import StatsApp

    sampler = Sampler(source, interval_s=args.interval, debuggee_pid=args.pid)
    StatsApp(sampler, pci_bus_id=args.pci_bus_id, debuggee_pid=args.pid).run()
    return 0
