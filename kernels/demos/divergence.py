"""Lesson divergence: an even/odd branch splits every warp in two.

``python -m cudatui.kernels.demos.divergence [--fixed]``. Both versions compute the
same numbers; the lesson is in stepping through the branchy kernel under
cuda-gdb and watching which lanes of a warp are active on each side.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by file path (cuda-gdb, compute-sanitizer)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cudatui.kernels import ops
from cudatui.kernels.demos import Demo

DEMO = Demo("divergence")
N = 64


def main(args: argparse.Namespace) -> int:
    """Scale even elements by 2 and odd ones by 3; compare with torch."""
    torch = DEMO.torch()
    x = torch.arange(N, dtype=torch.int32, device="cuda")
    out = torch.zeros_like(x)
    DEMO.say(f"{N} threads (2 warps of 32) run {DEMO.kernel_name(args.fixed)}")
    ops.scale_by_parity(x, out, fixed=args.fixed)
    want = torch.where(x % 2 == 0, x * 2, x * 3)
    wrong = int((out != want).sum().item())
    return DEMO.check("out == x * (2 or 3)", wrong == 0, f"{wrong} of {N} elements differ")


if __name__ == "__main__":
    DEMO.run(main)
