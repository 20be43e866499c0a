"""Big MI lines: pygdbmi's parse rate, and the longest UI stall while one arrives.

Lines of 10 KB, 100 KB and 1 MB are built by repeating the elements of real H200 recordings:
the ``register-values`` of a kernel stop and the ``InfoCudaWarpsTable`` rows of the oob tour,
plus a float array value in gdb's print format (``sdata[0]@N``). Each line is served by the
replay stand-in and fetched through a GdbSession inside a running Textual app (Pilot,
160x48) while a 5 ms interval timer records the longest gap between its ticks. The same is
measured with the app idle (the floor) and, for comparison, with the line parsed directly on
the event loop (what GdbSession does below ``mi.BIG_LINE``).

Goal: no stall over 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from collections.abc import Awaitable, Callable

from pygdbmi import gdbmiparser
from textual.app import App, ComposeResult
from textual.widgets import Static

from cudatui.gdbbridge.session.mi import BIG_LINE, parse_line
from cudatui.gdbbridge.session.gdb import GdbSession

from . import TOURS, Result, fmt, print_results, replay_argv, transcript_lines, write_transcript

BENCH = "parse_big"
SIZES = {"10KB": 10 * 1024, "100KB": 100 * 1024, "1MB": 1024 * 1024}
TICK = 0.005
STALL_GOAL_MS = 50.0
FIX_THREAD = (
    "the parse runs in a thread, but pygdbmi is pure Python: the loop gets the GIL back only at switch "
    "intervals (5 ms) and one timer tick needs several loop turns (GIL convoy), and pygdbmi unescapes a "
    "string value with one regex call over the whole string, holding the GIL (~46 ms for a 1 MB value). "
    "Fix: parse lines over BIG_LINE in a warm worker process (ProcessPoolExecutor, result pickled back) "
    "or with a faster parser proven equal to pygdbmi on every fixture line and fuzzed lines"
)


@dataclass(frozen=True)
class Shape:
    """A real line cut into ``head + items + tail``; lines of any size repeat ``items``."""

    name: str
    head: str
    items: tuple[str, ...]
    tail: str

    def line(self, token: int, size: int) -> str:
        body: list[str] = []
        length = len(self.head) + len(self.tail)
        i = 0
        while length < size:
            item = self.items[i % len(self.items)]
            body.append(item)
            length += len(item) + 1
            i += 1
        return f"{token}{self.head}{','.join(body)}{self.tail}"


def _cut(name: str, line: str, item: str) -> Shape:
    line = re.sub(r"^\d+", "", line)
    found = list(re.finditer(item, line))
    if not found:
        raise ValueError(f"no {name} items in the recorded line")
    start, end = found[0].start(), found[-1].end()
    return Shape(name, line[:start], tuple(m.group(0) for m in found), line[end:])


def shapes() -> list[Shape]:
    """The payload shapes, from the recorded tours."""
    lines = transcript_lines(TOURS / "oob.jsonl")
    registers = max((x for x in lines if "^done,register-values=" in x), key=len)
    warps = max((x for x in lines if "^done,InfoCudaWarpsTable=" in x), key=len)
    floats = ", ".join(f"{i * 0.25:g}" for i in range(4096))
    return [
        _cut("register-values", registers, r"\{number=\"\d+\",value=\"[^\"]*\"\}"),
        _cut("cuda warps table", warps, r"InfoCudaWarpsRow=\{[^{}]*\}"),
        Shape("float array value", '^done,value="{', tuple(floats.split(", ")), '}"'),
    ]


def parse_seconds(line: str, repeat: int) -> float:
    """The best of ``repeat`` pygdbmi parses of ``line``."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        gdbmiparser.parse_response(line)
        best = min(best, time.perf_counter() - started)
    return best


class StallApp(App[None]):
    """A running app whose interval timer records the longest gap between ticks."""

    def __init__(self) -> None:
        super().__init__()
        self.last = 0.0
        self.max_gap = 0.0

    def compose(self) -> ComposeResult:
        yield Static("measuring event-loop stalls")

    def on_mount(self) -> None:
        self.set_interval(TICK, self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.last:
            self.max_gap = max(self.max_gap, now - self.last)
        self.last = now

    async def window(self, work: Callable[[], Awaitable[object]] | None, idle: float = 0.0) -> float:
        """The longest tick gap (ms) while ``work()`` runs, or over ``idle`` seconds."""
        await asyncio.sleep(3 * TICK)
        self.last, self.max_gap = time.perf_counter(), 0.0
        if work is not None:
            await work()
        else:
            await asyncio.sleep(idle)
        await asyncio.sleep(2 * TICK)
        return self.max_gap * 1000


async def _stalls(lines: dict[str, str], directory: Path) -> dict[str, tuple[float, float, float]]:
    """Per key: (idle gap, gap while fetched through GdbSession, gap when parsed on the loop), ms."""
    entries: list[tuple[str, str]] = []
    for token, line in enumerate(lines.values(), 1):
        entries += [("in", f"{token}-data-evaluate-expression big{token}"), ("out", f"{token}{line}"),
                    ("out", "(gdb) ")]
    transcript = write_transcript(directory / "big.jsonl", entries)
    app = StallApp()
    out: dict[str, tuple[float, float, float]] = {}
    async with app.run_test(size=(160, 48)):
        session = GdbSession(replay_argv(transcript), inferior_tty=False)
        await session.start()
        try:
            for token, (key, line) in enumerate(lines.items(), 1):
                started = time.perf_counter()
                fetched = await app.window(partial(session.command, "-data-evaluate-expression", f"big{token}"))
                elapsed = time.perf_counter() - started
                idle = await app.window(None, elapsed)
                inline = await app.window(partial(_parse_on_loop, line))
                out[key] = (idle, fetched, inline)
        finally:
            await session.close()
    return out


async def _parse_on_loop(line: str) -> None:
    parse_line(line)


def measure(quick: bool = False) -> list[Result]:
    """Parse rates and stalls for every shape and size (``quick``: 10 KB only, one repeat)."""
    sizes = {"10KB": SIZES["10KB"]} if quick else SIZES
    results: list[Result] = []
    lines: dict[str, str] = {}
    for shape in shapes():
        for label, size in sizes.items():
            line = shape.line(0, size)[1:]
            lines[f"{shape.name} {label}"] = line
            seconds = parse_seconds(line, 1 if quick or size > SIZES["100KB"] else 3)
            results.append(Result(BENCH, f"pygdbmi parse {shape.name} {label}", len(line) / seconds / 1e6, " MB/s",
                                  f"{seconds * 1000:.1f} ms for {len(line):,} bytes"))
    with tempfile.TemporaryDirectory(prefix="cudatui-bench-") as tmp:
        stalls = asyncio.run(_stalls(lines, Path(tmp)))
    for key, (idle, fetched, inline) in stalls.items():
        threaded = len(lines[key]) > BIG_LINE
        results.append(Result(
            BENCH, f"longest UI stall, {key} via GdbSession", fetched, " ms",
            f"idle app {fmt(idle)} ms; parsed on the loop {fmt(inline)} ms; "
            f"{'parsed in a thread' if threaded else 'parsed on the loop'} (BIG_LINE={BIG_LINE // 1024} KB)",
            ("<=", STALL_GOAL_MS),
            FIX_THREAD if threaded else "lines below BIG_LINE are parsed on the event loop; lower BIG_LINE",
        ))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.parse_big", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 KB lines only (a smoke run)")
    args = parser.parse_args(argv)
    print_results(measure(args.quick))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
