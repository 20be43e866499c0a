"""Lesson race: a shared-memory tree reduction without a barrier in its loop.

``python -m cudatui.kernels.demos.race [--fixed]``. The racy sum is wrong only
sometimes; run it under ``compute-sanitizer --tool racecheck`` to see the
hazard every time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by file path (cuda-gdb, compute-sanitizer)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cudatui.kernels import ops
from cudatui.kernels.demos import Demo

DEMO = Demo("race")
N = 1000
THREADS = 256


def main(args: argparse.Namespace) -> int:
    """Sum 1000 small integers (exact in float32) and compare with torch.sum."""
    torch = DEMO.torch()
    x = (torch.arange(N, device="cuda") % 7 + 1).to(torch.float32)
    out = torch.zeros(1, dtype=torch.float32, device="cuda")
    blocks = (N + THREADS - 1) // THREADS
    DEMO.say(f"summing {N} values with {DEMO.kernel_name(args.fixed)}: {blocks} blocks of {THREADS} threads")
    ops.reduce_sum(x, out, fixed=args.fixed, threads=THREADS)
    got, want = out.item(), x.sum().item()
    if not args.fixed and got == want:
        DEMO.say("the race did not change the sum this time; racecheck still reports it")
    return DEMO.check("sum == torch.sum", got == want, f"kernel {got:g}, torch {want:g}")


if __name__ == "__main__":
    DEMO.run(main)
