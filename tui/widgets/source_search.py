"""Searching the source pane's file (``/``, then ``n``/``N`` as in less and pudb) and the
left-shortened file names of its title.

A search is plain text, case-insensitive unless the pattern holds a capital (smart case); its
matches are found once per file and pattern, and moving past the last one wraps to the first
with a message saying so.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence


@dataclass(frozen=True)
class Match:
    """One match: its line (1-based) and its columns ``start:end`` in the line's text."""

    line: int
    start: int
    end: int


def find_matches(lines: Sequence[str], pattern: str) -> tuple[Match, ...]:
    """Every match of ``pattern`` in ``lines``, in order (none for an empty pattern)."""
    if not pattern:
        return ()
    fold = pattern == pattern.lower()
    needle = pattern.lower() if fold else pattern
    found = []
    for number, text in enumerate(lines, 1):
        hay = text.lower() if fold else text
        start = hay.find(needle)
        while start >= 0:
            found.append(Match(number, start, start + len(needle)))
            start = hay.find(needle, start + len(needle))
    return tuple(found)


@dataclass(frozen=True)
class Search:
    """A search of the shown file: the pattern, its matches and the one the cursor is on."""

    pattern: str
    matches: tuple[Match, ...]
    index: int = 0

    @property
    def current(self) -> Match | None:
        return self.matches[self.index] if self.matches else None

    def first_from(self, line: int) -> Search:
        """The search on its first match at or after ``line`` (wrapping to the first match)."""
        index = next((i for i, m in enumerate(self.matches) if m.line >= line), 0)
        return Search(self.pattern, self.matches, index)

    def step(self, direction: int) -> tuple[Search, bool]:
        """The search on the next (1) or previous (-1) match, and whether it wrapped around."""
        if not self.matches:
            return self, False
        index = self.index + direction
        wrapped = not 0 <= index < len(self.matches)
        return Search(self.pattern, self.matches, index % len(self.matches)), wrapped

    def by_line(self) -> dict[int, list[tuple[int, int]]]:
        """The matches' columns by line."""
        spans: dict[int, list[tuple[int, int]]] = {}
        for m in self.matches:
            spans.setdefault(m.line, []).append((m.start, m.end))
        return spans

    def describe(self) -> str:
        """``/pattern 2/5`` or ``/pattern: not found``."""
        if not self.matches:
            return f"/{self.pattern}: not found"
        return f"/{self.pattern} {self.index + 1}/{len(self.matches)}"


def shorten_left(path: str, width: int) -> str:
    """``path`` in at most ``width`` characters, cut from the LEFT at a ``/``, so that the file
    name and its nearest directories stay: ``…/site-packages/kernels/foo.cu``. A file name longer
    than ``width`` keeps its end."""
    if len(path) <= width or width <= 0:
        return path
    if width <= 1:
        return "…"
    parts = path.split("/")
    kept = parts[-1]
    for part in reversed(parts[:-1]):
        candidate = f"{part}/{kept}"
        if len(candidate) + 2 > width:
            break
        kept = candidate
    shown = "…/" + kept
    return shown if len(shown) <= width else "…" + path[-(width - 1):]
