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

_REPEATS = re.compile(r"\s*<repeats (\d+) times>\s*$")
_FIELD = re.compile(r"^\s*(?:<[^<>=]*>|[A-Za-z_][\w:]*|\[[^\]]*\])\s*=(?!=)")
"""A struct member (``x = 1``, a C++ base ``<Base> = {...}``, a designator ``[3] = 1``)."""


@dataclass(frozen=True)
class Aggregate:
    """A decoded value: its elements, and whether gdb (``...``) or :data:`LIMIT` cut it."""

    items: tuple[Item, ...]
    truncated: bool = False


@dataclass
class _List:
    """A brace list being read: its start in the text, elements so far, the element under way."""

    start: int
    items: list[Item] = field(default_factory=list)
    element_start: int = -1
    nested: tuple[Item, ...] | None = None
    """The list that closed inside the element under way, its text, and whether it is a struct."""
    nested_text: str = ""
    nested_struct: bool = False
    struct: bool = False


def decode(text: str) -> Aggregate:
    """``text`` (a value as gdb prints it) as nested element texts; never raises."""
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
            _close(stack[-1], done, text[done.start:i + 1])
        elif ch == ",":
            _finish(stack[-1], text, i, count, truncated)
            stack[-1].element_start = i + 1
        i += 1
    while len(stack) > 1:  # a list gdb never closed (a cut answer): what it holds so far
        done = stack.pop()
        _finish(done, text, n, count, truncated)
        _close(stack[-1], done, text[done.start:n])
        truncated[0] = True
    _finish(root, text, n, count, truncated)
    items = tuple(root.items)
    if len(items) == 1 and isinstance(items[0], tuple) and text.strip().startswith("{"):
        items = items[0]
    return Aggregate(items, truncated[0])


def _close(parent: _List, done: _List, text: str) -> None:
    parent.nested, parent.nested_text, parent.nested_struct = tuple(done.items), text, done.struct


def _finish(current: _List, text: str, end: int, count: list[int], truncated: list[bool]) -> None:
    """End the element of ``current`` that runs to ``end``: append it (repeated) to its items."""
    raw = text[current.element_start:end] if current.element_start >= 0 else ""
    nested, nested_text, nested_struct = current.nested, current.nested_text, current.nested_struct
    current.nested, current.nested_text, current.nested_struct = None, "", False
    body = raw.strip()
    if not body:
        return
    if _FIELD.match(body):
        current.struct = True
    times = 1
    repeats = _REPEATS.search(body)
    if repeats:
        times = int(repeats.group(1))
        body = body[:repeats.start()].strip()
    if body.endswith("..."):  # gdb cut the list here (``{0, 1, 2...}``, ``"abc"...``)
        truncated[0] = True
        body = body[:-3].rstrip()
        if not body:
            return
    element: tuple[Item, ...]
    if nested is not None and body == nested_text.strip():
        element = (nested_text.strip(),) if nested_struct else (nested,)
    elif len(body) >= 2 and body[0] == '"' and body[-1] == '"':
        element = _characters(body[1:-1])
    else:
        element = (body,)
    size = _size(element)
    if size == 0:
        return
    counted = 1 if element[0] is nested else 0  # a nested list's elements were counted as read
    room = (LIMIT - count[0]) // size + counted
    if room < times:
        truncated[0] = True
        times = max(0, room)
    current.items.extend(element * times)
    count[0] += size * max(0, times - counted)


def _size(items: tuple[Item, ...]) -> int:
    """How many leaf elements ``items`` holds (without recursion)."""
    total, todo = 0, list(items)
    while todo:
        item = todo.pop()
        if isinstance(item, tuple):
            todo.extend(item)
        else:
            total += 1
    return max(total, 1) if items else 0


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
