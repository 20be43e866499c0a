"""Runnable demos, one per lesson: ``python -m cudatui.kernels.demos.<lesson> [--fixed]``.

Each demo also runs by file path (``python3 kernels/demos/oob.py``), which is
how cuda-gdb and compute-sanitizer start it. Demos print what they do,
check the result numerically and exit 0 when it is right, 1 when the bug
showed (a CUDA error or a wrong number), 2 when no CUDA GPU is usable.
This module holds what the demos share.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from cudatui.kernels.build import BuildError
from cudatui.kernels.lessons import get_lesson
from cudatui.kernels.ops import KernelLaunchError

EXIT_OK = 0
EXIT_BUG = 1
EXIT_NO_GPU = 2


class Demo:
    """Printing and checking helpers for one lesson's demo script."""

    def __init__(self, lesson_name: str) -> None:
        self.lesson = get_lesson(lesson_name)

    def parser(self) -> argparse.ArgumentParser:
        """An argument parser with the shared ``--fixed`` flag."""
        parser = argparse.ArgumentParser(
            prog=f"python -m {self.lesson.demo_module}",
            description=f"{self.lesson.title}. Runs the buggy kernel unless --fixed is given.",
        )
        parser.add_argument("--fixed", action="store_true", help=f"run the fixed version ({self.lesson.fixed})")
        return parser

    def say(self, text: str) -> None:
        """Print one progress line, flushed (tools interleave their own output)."""
        print(f"[{self.lesson.name}] {text}", flush=True)

    def torch(self) -> Any:
        """Import torch and check a CUDA GPU is visible; exit 2 with one line if not."""
        try:
            import torch
        except ImportError:
            self.say("this demo needs PyTorch with CUDA: pip install torch")
            raise SystemExit(EXIT_NO_GPU) from None
        if not torch.cuda.is_available():
            self.say("no CUDA GPU is visible to PyTorch; run the demo on a GPU machine")
            raise SystemExit(EXIT_NO_GPU)
        self.say(f"GPU: {torch.cuda.get_device_name()} (torch {torch.__version__})")
        return torch

    def kernel_name(self, fixed: bool) -> str:
        """The function the run uses: the lesson's fixed or buggy one."""
        return self.lesson.fixed if fixed else self.lesson.buggy

    def check(self, label: str, ok: bool, detail: str) -> int:
        """Print a result line and return the matching exit code."""
        self.say(f"{label}: {'OK' if ok else 'WRONG'} ({detail})")
        return EXIT_OK if ok else EXIT_BUG

    def surfaced(self, where: str, error: BaseException) -> int:
        """Report a CUDA error raised at a later call than the faulting launch."""
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        self.say(f"the CUDA error surfaced at {where}, not at the launch: {first}")
        self.say(f"the tool that finds the faulting line: {self.lesson.tool}")
        return EXIT_BUG

    def run(
        self,
        body: Callable[[argparse.Namespace], int],
        parser: argparse.ArgumentParser | None = None,
        argv: list[str] | None = None,
    ) -> None:
        """Parse arguments, run ``body`` and exit with its code; build/launch errors exit 1."""
        args = (parser or self.parser()).parse_args(argv)
        try:
            code = body(args)
        except BuildError as exc:
            self.say(f"cannot build {self.lesson.source.name}: {exc} (details: python -m cudatui.kernels.build {self.lesson.name})")
            code = EXIT_BUG
        except KernelLaunchError as exc:
            self.say(str(exc))
            code = EXIT_BUG
        sys.exit(code)
