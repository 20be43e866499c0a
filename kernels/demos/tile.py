"""Lesson tile: a 3x3 blur that reads its 2-D shared tile too early.

``python -m cudatui.kernels.demos.tile [--fixed]``. Each 16x16 block loads an 18x18
tile (``float tile[18][18]``) with a halo; the racy kernel reads it before the
block finished loading. ``compute-sanitizer --tool racecheck`` reports it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by file path (cuda-gdb, compute-sanitizer)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cudatui.kernels import ops
from cudatui.kernels.demos import Demo

DEMO = Demo("tile")
HEIGHT, WIDTH = 40, 50


def main(args: argparse.Namespace) -> int:
    """Blur a small image and compare with torch's 3x3 average pooling."""
    torch = DEMO.torch()
    image = (torch.arange(HEIGHT * WIDTH, device="cuda") % 13).to(torch.float32).reshape(HEIGHT, WIDTH)
    out = torch.zeros_like(image)
    grid = f"{(WIDTH + 15) // 16}x{(HEIGHT + 15) // 16}"
    DEMO.say(f"3x3 blur of a {HEIGHT}x{WIDTH} image with {DEMO.kernel_name(args.fixed)}: {grid} blocks of 16x16")
    ops.blur3x3(image, out, fixed=args.fixed)
    pooled = torch.nn.functional.avg_pool2d(image[None, None], 3, stride=1, padding=1, count_include_pad=True)
    wrong = int((~torch.isclose(out, pooled[0, 0], atol=1e-5)).sum().item())
    return DEMO.check("out == avg_pool2d(image, 3)", wrong == 0, f"{wrong} of {HEIGHT * WIDTH} pixels differ")


if __name__ == "__main__":
    DEMO.run(main)
