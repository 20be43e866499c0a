"""What a walk over a warp's lanes found: one expression's value per lane, and the culprit lane
of a warp-wide exception with why (the walk itself is :mod:`cudatui.gdbbridge.cuda.culprit`).
A post-mortem's stop holds its culprit (``StopState.culprit``)."""

from __future__ import annotations

from dataclasses import dataclass

from cudatui.gdbbridge.convert import to_int


LaneValues = tuple[tuple[int, str], ...]
"""(lane, value as gdb prints it, or ``<error: ...>``) for each active lane: the warp watch
(``StopState.lane_watch``)."""


@dataclass(frozen=True)
class LaneValue:
    """An expression in one lane: ``value`` as gdb prints it, or ``error``."""

    lane: int
    value: str | None
    error: str | None = None

    @property
    def text(self) -> str:
        """The value, or the error as ``<error: ...>``."""
        return self.value if self.value is not None else f"<error: {self.error}>"


@dataclass(frozen=True)
class Culprit:
    """What the walk found: per expression the lanes' values; the culprit ``lane`` and why (or None)."""

    evaluated: tuple[tuple[str, tuple[LaneValue, ...]], ...]
    lane: int | None = None
    expression: str | None = None
    reason: str = ""

    @property
    def differing(self) -> tuple[str, ...]:
        """One line per evaluated expression whose value differs between lanes."""
        return tuple(describe(expression, values) for expression, values in self.evaluated
                     if len({v.text for v in values}) > 1)

    def values_of(self, expression: str) -> dict[int, str]:
        """Lane -> the value of ``expression`` as the walk read it (empty when it was not evaluated)."""
        return next(({v.lane: v.text for v in values} for e, values in self.evaluated if e == expression), {})


def describe(expression: str, values: tuple[LaneValue, ...]) -> str:
    """``idx[i]: lanes 0-31 from 0 to 31, lane 24 17179869184`` style summary of one expression."""
    read = {v.lane: to_int(v.value) for v in values}
    numbers = {lane: n for lane, n in read.items() if n is not None}
    if numbers and len(numbers) == len(read):
        low, high = min(numbers.values()), max(numbers.values())
        return f"{expression}: {low}..{high} over lanes {min(numbers)}-{max(numbers)}"
    texts: dict[str, list[int]] = {}
    for v in values:
        texts.setdefault(v.text, []).append(v.lane)
    return f"{expression}: " + "; ".join(f"{text} in {len(lanes)} lanes" for text, lanes in texts.items())
