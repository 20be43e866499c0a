"""Lesson leak: a workspace allocated on every call and never freed.

``python -m cudatui.kernels.demos.leak [--fixed]``. Results are right; device memory
in use grows by 256 MiB per call (enough to see in the GPU pane's GiB line). ``compute-sanitizer --tool memcheck
--leak-check full`` lists each leaked block with the line that allocated it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by file path (cuda-gdb, compute-sanitizer)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cudatui.kernels import ops
from cudatui.kernels.demos import Demo

DEMO = Demo("leak")
N = 1 << 26
CALLS = 5
MIB = 1 << 20


def main(args: argparse.Namespace) -> int:
    """Call the launcher CALLS times, checking results and device memory in use."""
    torch = DEMO.torch()
    x = torch.linspace(-1.0, 1.0, N, dtype=torch.float32, device="cuda")
    out = torch.empty_like(x)
    want = x * x + x
    torch.cuda.synchronize()
    free_before, _ = torch.cuda.mem_get_info()
    DEMO.say(f"{CALLS} calls of {DEMO.kernel_name(args.fixed)}, each with a {N * 4 // MIB} MiB workspace")
    wrong = 0
    for _ in range(CALLS):
        ops.square_plus(x, out, fixed=args.fixed)
        wrong += int((~torch.isclose(out, want)).sum().item())
    free_after, _ = torch.cuda.mem_get_info()
    grown = (free_before - free_after) / MIB
    DEMO.say(f"device memory in use grew by {grown:.1f} MiB over {CALLS} calls")
    correct = DEMO.check("out == x * x + x", wrong == 0, f"{wrong} wrong elements over {CALLS} calls")
    del x, out, want
    torch.cuda.empty_cache()
    return correct


if __name__ == "__main__":
    DEMO.run(main)
