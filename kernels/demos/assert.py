"""Lesson assert: a device-side assert from an index out of range.

``python -m cudatui.kernels.demos.assert [--fixed] [--torch]``. The bundled kernel
asserts on a 1-based class label used as a 0-based column; ``--torch`` makes
PyTorch's own indexing (``x[idx]``) fail the same way. Under cuda-gdb both
stop with CUDA_EXCEPTION_12 (Warp Assert) on the asserting thread.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by file path (cuda-gdb, compute-sanitizer)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cudatui.kernels import ops
from cudatui.kernels.demos import Demo

DEMO = Demo("assert")
N = 256
CLASSES = 10


def bundled(torch, fixed: bool) -> int:
    """One-hot encode 1-based labels with the bundled kernel."""
    labels = (torch.arange(N, device="cuda") * 7) % CLASSES + 1
    out = torch.empty(N, CLASSES, dtype=torch.float32, device="cuda")
    DEMO.say(f"one-hot of {N} labels in 1..{CLASSES} into {CLASSES} columns with {DEMO.kernel_name(fixed)}")
    ops.one_hot(labels, out, CLASSES, fixed=fixed)
    try:
        columns = out.argmax(dim=1)
        wrong = int((columns != labels - 1).sum().item())
    except RuntimeError as error:
        return DEMO.surfaced("`(columns != labels - 1).sum().item()`", error)
    return DEMO.check("one column per label", wrong == 0, f"{wrong} of {N} rows wrong")


def pytorch_indexing(torch, fixed: bool) -> int:
    """Index a 10-element tensor with an index out of range, as user code does."""
    x = torch.arange(10, dtype=torch.float32, device="cuda")
    index = torch.tensor([3, 20], device="cuda")
    if fixed:
        bad = index[(index < 0) | (index >= x.numel())]
        DEMO.say(f"dropping indices out of range 0..{x.numel() - 1}: {bad.tolist()}")
        index = index[(index >= 0) & (index < x.numel())]
    DEMO.say(f"y = x[{index.tolist()}] on a tensor of {x.numel()} elements (PyTorch's own index kernel)")
    try:
        total = x[index].sum().item()
    except RuntimeError as error:
        return DEMO.surfaced("`x[index].sum().item()`", error)
    return DEMO.check("x[index].sum()", total == 3.0, f"got {total:g}, expected 3")


def main(args: argparse.Namespace) -> int:
    """Run the bundled kernel, or PyTorch's indexing with ``--torch``."""
    torch = DEMO.torch()
    return pytorch_indexing(torch, args.fixed) if args.torch else bundled(torch, args.fixed)


if __name__ == "__main__":
    PARSER = DEMO.parser()
    PARSER.add_argument("--torch", action="store_true", help="use PyTorch's own x[idx] instead of the bundled kernel")
    DEMO.run(main, PARSER)
