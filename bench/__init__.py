"""cudatui benchmarks: side-by-side measurements printed as ratios, never timed tests.

Every bench module exposes ``measure(quick: bool = False) -> list[Result]`` (``quick`` runs a
tiny N for the smoke test) and ``main()``, which prints one ``BENCH`` line per result. Machines
here are noisy, so each comparison is measured in the same run, alternating the contenders.
"""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterable, Sequence

ROOT = Path(__file__).resolve().parent.parent
TOURS = ROOT / "tests" / "fixtures" / "recorded" / "tours"
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"


@dataclass(frozen=True)
class Result:
    """One measured number, its goal and, when the goal is missed, why and what would fix it.

    ``goal`` is ``(">=", 0.5)`` or ``("<=", 50.0)`` (in ``unit``) or None (reported only).
    """

    bench: str
    name: str
    value: float
    unit: str
    detail: str = ""
    goal: tuple[str, float] | None = None
    fix: str = ""

    @property
    def met(self) -> bool | None:
        if self.goal is None:
            return None
        op, bound = self.goal
        return self.value >= bound if op == ">=" else self.value <= bound

    @property
    def verdict(self) -> str:
        return {None: "-", True: "MET", False: "MISSED"}[self.met]

    @property
    def goal_text(self) -> str:
        return f"{self.goal[0]} {fmt(self.goal[1])}{self.unit}" if self.goal else "-"

    def line(self) -> str:
        """``BENCH bench | name | value | goal | verdict | detail`` (what the smoke test parses)."""
        return (f"BENCH {self.bench} | {self.name} | {fmt(self.value)}{self.unit} | goal {self.goal_text} | "
                f"{self.verdict} | {self.detail}")


def fmt(value: float) -> str:
    """A number with about three significant digits."""
    if value != value:
        return "nan"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    if 0 < abs(value) < 0.01:
        return f"{value:.4f}"
    return f"{value:.2f}"


def print_results(results: Iterable[Result]) -> None:
    """Print each result line, and the reason and fix under every missed goal."""
    for result in results:
        print(result.line(), flush=True)
        if result.met is False and result.fix:
            print(f"  WHY/FIX: {result.fix}", flush=True)


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


def p95(samples: Sequence[float]) -> float:
    """The 95th percentile (nearest rank)."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def transcript_lines(path: Path, direction: str = "out") -> list[str]:
    """The MI lines of one direction ("in"/"out") of a recorded transcript."""
    lines = []
    with path.open(encoding="utf-8") as handle:
        for text in handle:
            entry = json.loads(text)
            if entry.get("dir") == direction:
                lines.append(str(entry.get("line", "")))
    return lines


def write_transcript(path: Path, entries: Iterable[tuple[str, str]], argv: Sequence[str] = ("bench",)) -> Path:
    """Write a replayable transcript of ``(dir, line)`` entries (times are not replayed)."""
    from cudatui.gdbbridge.session.recorder import FORMAT, VERSION

    with path.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"t": 0.0, "dir": "meta", "format": FORMAT, "version": VERSION, "argv": list(argv)}) + "\n")
        for direction, line in entries:
            handle.write(json.dumps({"t": 0.0, "dir": direction, "line": line}) + "\n")
    return path


def replay_argv(transcript: Path) -> list[str]:
    """The stand-in debugger serving ``transcript``."""
    return [sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(transcript)]
