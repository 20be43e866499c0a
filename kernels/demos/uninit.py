"""Lesson uninit: a forgotten else-branch leaves global memory unwritten.

``python -m cudatui.kernels.demos.uninit [--fixed]``. The total may come out right
by luck (fresh device memory is often zero); ``compute-sanitizer --tool
initcheck`` reports every read of an unwritten slot.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by file path (cuda-gdb, compute-sanitizer)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cudatui.kernels import ops
from cudatui.kernels.demos import Demo

DEMO = Demo("uninit")
N = 1024


def main(args: argparse.Namespace) -> int:
    """Sum relu(x) through an intermediate buffer; compare with torch."""
    torch = DEMO.torch()
    x = torch.arange(N, dtype=torch.float32, device="cuda") - N // 2
    total = torch.zeros(1, dtype=torch.float32, device="cuda")
    negatives = int((x <= 0).sum().item())
    DEMO.say(f"sum(relu(x)) for {N} values, {negatives} of them <= 0, with {DEMO.kernel_name(args.fixed)}")
    ops.relu_sum(x, total, fixed=args.fixed)
    got, want = total.item(), torch.relu(x).sum().item()
    if not args.fixed and got == want:
        DEMO.say("right by luck: the unwritten slots held zeros; initcheck still reports the reads")
    return DEMO.check("sum == torch.relu(x).sum()", got == want, f"kernel {got:g}, torch {want:g}")


if __name__ == "__main__":
    DEMO.run(main)
