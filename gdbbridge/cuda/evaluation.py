"""Typed evaluation in the focused CUDA thread: one expression, and shared arrays in chunks.

``-data-read-memory-bytes`` cannot read an ``@shared`` address, so shared memory is read as
``name[start]@count`` expressions and gdb's brace lists are split back into elements.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession

SHARED_CHUNK = 256
"""Elements read per evaluation; 48 KB of floats is 48 requests of ~1 ms each."""


async def evaluate(session: "GdbSession", expression: str) -> str:
    """The value of ``expression`` in the current focus, as gdb prints it."""
    payload = await session.command("-data-evaluate-expression", expression)
    return str(payload.get("value", ""))


def shared_slice_expression(name: str, start: int, count: int) -> str:
    """A typed evaluation of ``count`` elements of shared array ``name`` from ``start``."""
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
        raise ValueError(f"not a variable name: {name!r}")
    return f"{name}[{int(start)}]@{int(count)}"


def parse_array_value(value: str) -> tuple[str, ...]:
    """gdb's ``{1, 2, 0 <repeats 30 times>}`` into one string per element (nested arrays flattened)."""
    body = value.strip()
    items: list[str] = []
    for token in _split_top(body):
        m = re.match(r"^(.*?)\s*<repeats (\d+) times>$", token)
        if m:
            items.extend([m.group(1)] * int(m.group(2)))
        elif token.startswith("{"):
            items.extend(parse_array_value(token))
        elif token:
            items.append(token)
    return tuple(items)


def _split_top(text: str) -> list[str]:
    """Split a brace list at its top-level commas, never inside '...' or "..." literals."""
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    parts, depth, current, quote, escaped = [], 0, [], "", False
    for ch in text:
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
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if current:
        parts.append("".join(current).strip())
    return parts


async def read_shared(session: "GdbSession", name: str, start: int, count: int) -> tuple[str, ...]:
    """Read ``count`` elements of a shared array through typed evaluation, in chunks."""
    values: list[str] = []
    position = start
    while position < start + count:
        n = min(SHARED_CHUNK, start + count - position)
        values.extend(parse_array_value(await evaluate(session, shared_slice_expression(name, position, n))))
        position += n
    return tuple(values)
