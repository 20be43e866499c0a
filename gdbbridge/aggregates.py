"""gdb's printed arrays decoded: brace lists, repeat compression, strings, the elision mark.

gdb prints ``float tile[3][18]`` as ``{{0 <repeats 18 times>}, {1, 2, 0 <repeats 16 times>}, ...}``,
a ``char buf[18]`` as ``"ab", '\\000' <repeats 16 times>`` and ends a list it cut at ``print
elements`` with ``...``. :func:`decode` turns any such text into nested tuples of element texts
(a struct element stays one text: ``{x = 1, y = 2}``); it is total: any input gives an
:class:`Aggregate` (text that is no list is one element), nesting is walked without recursion,
and repeats are expanded up to :data:`LIMIT` elements (the rest is counted as cut).
Pure functions; nothing here talks to gdb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union

Item = Union[str, "tuple[Item, ...]"]
"""One element: its text as gdb prints it, or the elements of a nested array."""

LIMIT = 1 << 20
"""Elements an answer may expand into (``0 <repeats 4000000000 times>`` stops there)."""

_REPEATS = re.compile(r"<repeats (\d+) times>")
_FIELD = re.compile(r"\s*(?:<[^<>=]*>|[A-Za-z_][\w:]*|\[[^\]]*\])\s*=(?!=)")
"""A struct member (``x = 1``, a C++ base ``<Base> = {...}``, a designator ``[3] = 1``)."""


@dataclass(frozen=True)
class Aggregate:
    """A decoded value: its elements, and whether gdb (``...``) or :data:`LIMIT` cut it."""

    items: tuple[Item, ...]
    truncated: bool = False


@dataclass
class _List:
    """A brace list being read: where it starts (and, once closed, ends) in the text, its elements
    so far with their leaf count, the element under way, and the list that closed inside it."""

    start: int
    items: list[Item] = field(default_factory=list)
    element_start: int = -1
    end: int = -1
    leaves: int = 0
    nested: _List | None = None
    struct: bool = False


def decode(text: str) -> Aggregate:
    """``text`` (a value as gdb prints it) as nested element texts; never raises. Linear in the
    text: elements are found by position, a closed list keeps its leaf count."""
    root = _List(-1)
    root.element_start = 0
    stack = [root]
    count = [0]
    truncated = [False]
    i, n, quote, escaped = 0, len(text), "", False
    while i < n:
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            stack.append(_List(i, element_start=i + 1))
        elif ch == "}" and len(stack) > 1:
            done = stack.pop()
            _finish(done, text, i, count, truncated)
            done.end = i + 1
            stack[-1].nested = done
        elif ch == ",":
            _finish(stack[-1], text, i, count, truncated)
            stack[-1].element_start = i + 1
        i += 1
    while len(stack) > 1:  # a list gdb never closed (a cut answer): what it holds so far
        done = stack.pop()
        _finish(done, text, n, count, truncated)
        done.end = n
        stack[-1].nested = done
        truncated[0] = True
    _finish(root, text, n, count, truncated)
    items = tuple(root.items)
    if len(items) == 1 and isinstance(items[0], tuple) and text.lstrip()[:1] == "{":
        items = items[0]
    return Aggregate(items, truncated[0])


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` without its surrounding white space, as positions."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _finish(current: _List, text: str, end: int, count: list[int], truncated: list[bool]) -> None:
    """End the element of ``current`` that runs to ``end``: append it (repeated) to its items."""
    nested, current.nested = current.nested, None
    if current.element_start < 0:
        return
    start, end = _strip(text, current.element_start, end)
    if start >= end:
        return
    if _FIELD.match(text, start, end):
        current.struct = True
    times = 1
    if text.endswith("times>", start, end):
        at = text.rfind("<repeats ", start, end)
        repeats = _REPEATS.fullmatch(text, at, end) if at >= 0 else None
        if repeats:
            times = int(repeats.group(1))
            start, end = _strip(text, start, at)
    if text.endswith("...", start, end):  # gdb cut the list here (``{0, 1, 2...}``, ``"abc"...``)
        truncated[0] = True
        start, end = _strip(text, start, end - 3)
        if start >= end:
            return
    element: tuple[Item, ...]
    counted = 0  # a nested list's elements were counted as they were read
    if nested is not None and (start, end) == _strip(text, nested.start, nested.end):
        if nested.struct:
            element, leaves = (text[start:end],), 1
        else:
            element, leaves, counted = (tuple(nested.items),), nested.leaves, 1
    elif end - start >= 2 and text[start] == '"' and text[end - 1] == '"':
        element = _characters(text[start + 1:end - 1])
        leaves = len(element)
        if not leaves:
            return
    else:
        element, leaves = (text[start:end],), 1
    size = max(leaves, 1)
    room = (LIMIT - count[0]) // size + counted
    if room < times:
        truncated[0] = True
        times = max(0, room)
    current.items.extend(element * times)
    current.leaves += leaves * times
    count[0] += size * max(0, times - counted)


def _characters(inside: str) -> tuple[str, ...]:
    """The characters of a string literal's inside, each as gdb prints one char (``'a'``, ``'\\n'``)."""
    chars: list[str] = []
    i = 0
    while i < len(inside):
        ch = inside[i]
        if ch == "\\" and i + 1 < len(inside):
            octal = re.match(r"[0-7]{1,3}", inside[i + 1:])
            escape = octal.group(0) if octal else inside[i + 1]
            i += 1 + len(escape)
            chars.append("'\\''" if escape == "'" else "'\"'" if escape == '"' else f"'\\{escape}'")
            continue
        chars.append("'\\''" if ch == "'" else f"'{ch}'")
        i += 1
    return tuple(chars)


def flatten(items: tuple[Item, ...]) -> tuple[str, ...]:
    """The leaf elements of ``items`` in order (a 2-D array row after row)."""
    out: list[str] = []
    todo: list[Item] = list(reversed(items))
    while todo:
        item = todo.pop()
        if isinstance(item, tuple):
            todo.extend(reversed(item))
        else:
            out.append(item)
    return tuple(out)
