"""Record real NVML samples as JSON lines (one `Snapshot` a line) for tests and demos.

    python scripts/record_nvml.py --seconds 150 --out tests/fixtures/nvml/h200_samples.jsonl

While recording, a PyTorch matmul load (if torch is importable) runs from --load-start to
--load-end seconds in a child process, so utilisation, power, clocks and memory vary; its pid
is recorded as the debuggee's. Without torch the recording is of an idle GPU.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudatui.gdbbridge.nvml.sampler import NvmlSource, NvmlUnavailable, Sampler
from cudatui.gdbbridge.nvml.models import snapshot_to_dict


def run_load(seconds: float) -> None:
    """Child process: vary GPU load for `seconds` (full, duty-cycled, then memory up to 48 GiB)."""
    import torch

    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    hoard = []
    start = time.monotonic()
    while (elapsed := time.monotonic() - start) < seconds:
        phase = elapsed / seconds
        for _ in range(20):
            a = (a @ b).clamp_(-1, 1)
        torch.cuda.synchronize()
        if 0.4 <= phase < 0.7:
            time.sleep(0.05)
        elif phase >= 0.7 and len(hoard) < (phase - 0.7) / 0.3 * 48:
            hoard.append(torch.empty(1 << 30, dtype=torch.uint8, device="cuda"))  # +1 GiB


def start_load(seconds: float) -> subprocess.Popen[bytes] | None:
    """Start the load child if torch with CUDA is importable here, else None."""
    try:
        import torch
    except ImportError:
        print("torch not importable: recording an idle GPU", file=sys.stderr)
        return None
    if not torch.cuda.is_available():
        print("torch sees no CUDA device: recording an idle GPU", file=sys.stderr)
        return None
    return subprocess.Popen([sys.executable, __file__, "--load-worker", str(seconds)])


def record(args: argparse.Namespace) -> int:
    """Sample every `args.interval` seconds for `args.seconds`, writing JSON lines."""
    sampler = Sampler(NvmlSource(), interval_s=args.interval)  # fails before creating --out
    args.out.parent.mkdir(parents=True, exist_ok=True)
    load = None
    count = 0
    seen_debuggee = False
    start = time.monotonic()
    with args.out.open("w", encoding="utf-8") as out:
        while (elapsed := time.monotonic() - start) < args.seconds:
            if load is None and args.load and elapsed >= args.load_start:
                load = start_load(args.load_end - args.load_start)
                sampler.debuggee_pid = load.pid if load else None
                args.load = load is not None
            snapshot = sampler.sample()
            if snapshot is not None:
                seen_debuggee |= any(p.is_debuggee for g in snapshot.gpus for p in g.processes)
                out.write(json.dumps(snapshot_to_dict(snapshot)) + "\n")
                count += 1
            time.sleep(max(0.0, start + (count * args.interval) - time.monotonic()))
    if load is not None:
        load.wait()
        if not seen_debuggee:
            print(f"note: NVML never listed the load's pid {load.pid} (a container?)", file=sys.stderr)
    print(f"wrote {count} samples to {args.out}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse arguments and record (or act as the load child)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=150.0, help="recording length")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between samples")
    parser.add_argument("--out", type=Path, default=Path("tests/fixtures/nvml/h200_samples.jsonl"))
    parser.add_argument("--no-load", dest="load", action="store_false", help="record idle only")
    parser.add_argument("--load-start", type=float, default=20.0, help="load starts (s)")
    parser.add_argument("--load-end", type=float, default=110.0, help="load stops (s)")
    parser.add_argument("--load-worker", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.load_worker is not None:
        run_load(args.load_worker)
        return 0
    try:
        return record(args)
    except NvmlUnavailable as exc:
        print(f"record_nvml: NVML unavailable: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
