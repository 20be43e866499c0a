"""Lesson oob: an add kernel without a bounds check.

``python -m cudatui.kernels.demos.oob [--fixed]`` (or this file's path under cuda-gdb).
The buggy launch runs threads up to a gigabyte past the arrays; the launch itself
returns no error, and PyTorch reports the illegal access at the next call
that waits for the GPU.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by file path (cuda-gdb, compute-sanitizer)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cudatui.kernels import ops
from cudatui.kernels.demos import Demo

DEMO = Demo("oob")
N = 1000


def main(args: argparse.Namespace) -> int:
    """Add two vectors with the buggy or fixed kernel and check the sum."""
    torch = DEMO.torch()
    a = torch.arange(N, dtype=torch.float32, device="cuda")
    b = 2 * a
    c = torch.zeros_like(a)
    sized_for = N if args.fixed else 1 << 28
    DEMO.say(f"c = a + b for n = {N} floats with {DEMO.kernel_name(args.fixed)}, grid sized for {sized_for} threads")
    ops.add(a, b, c, fixed=args.fixed)
    DEMO.say("the launch returned without error (kernels run asynchronously)")
    try:
        wrong = int((c != a + b).sum().item())
    except RuntimeError as error:
        return DEMO.surfaced("`(c != a + b).sum().item()`", error)
    return DEMO.check("c == a + b", wrong == 0, f"{wrong} of {N} elements differ")


if __name__ == "__main__":
    DEMO.run(main)
