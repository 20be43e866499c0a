"""Issue 36: ``cudatui explain`` reads in time linear in its input.

Two patterns of the explainer started a lazy or greedy run at every character of a line and
scanned to the line's end from each (the file name of a device assert, the GPU name of an
architecture warning): a 1 MiB log with no newline, or 200 lines of 4,000 characters, took
minutes. Each shape below is explained at two sizes, ten times apart; quadratic reading takes
about a hundred times longer for the larger, linear reading about ten. The times are only
compared with each other (the best of a few runs each), never with a number of seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from cudatui.gdbbridge import explain_all

ERROR = "RuntimeError: CUDA error: an illegal memory access was encountered"

SHAPES: dict[str, Callable[[int], str]] = {
    "one-line-without-newline": lambda n: "y" * n,
    "long-lines-then-an-error": lambda n: ("x" * (n // 10) + "\n") * 10 + ERROR,
    "words-and-colons": lambda n: "a b: c.d 1 " * (n // 11),
    "file-like-tokens": lambda n: "a.cu:12: b " * (n // 11) + "\n" + ERROR,
    "gpu-like-names": lambda n: "NVIDIA GeForce with CUDA " * (n // 25),
}


def best_time(text: str, runs: int = 3) -> float:
    """The shortest of ``runs`` explanations of ``text``, in this thread's CPU time (a busy machine's
    other processes do not add to it, so the ratio below is the algorithm's, not the load's)."""
    best = float("inf")
    for _ in range(runs):
        start = time.thread_time()
        explain_all(text)
        best = min(best, time.thread_time() - start)
    return best


@pytest.mark.parametrize("shape", SHAPES)
def test_ten_times_the_input_takes_about_ten_times_as_long(shape: str) -> None:
    make = SHAPES[shape]
    small, large = make(4_000), make(40_000)
    assert len(large) >= 9 * len(small)
    ratio = best_time(large) / max(best_time(small), 1e-4)
    assert ratio < 40, f"{shape}: 10x the input took {ratio:.0f}x as long (quadratic reading)"


def test_the_error_after_long_lines_is_still_found() -> None:
    text = ("x" * 4_000 + "\n") * 200 + ERROR
    found = explain_all(text)
    assert found and found[0].key == "illegal_address"
