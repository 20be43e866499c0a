"""The one expression evaluator: every value cudatui asks gdb for, and shared arrays in chunks.

gdb evaluates in the selected frame of the focused thread (cuda-gdb: the focused CUDA lane), so
a caller that moved the focus or the frame holds the Debugger's lock for as long as the value
depends on it. :func:`evaluate` raises gdb's refusal; :func:`evaluation` returns it as the
:class:`Evaluation`'s error (a lost debugger still raises), optionally with the value's type.

``-data-read-memory-bytes`` cannot read an ``@shared`` address, so shared memory is read as
``name[start]@count`` expressions and gdb's brace lists are split back into elements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cudatui.gdbbridge.aggregates import decode, flatten
from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.models import Variable
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.mi import Flag

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession

SHARED_CHUNK = 256
"""Elements read per evaluation; 48 KB of floats is 48 requests of ~1 ms each."""


@dataclass(frozen=True)
class Evaluation:
    """``expression``'s value as gdb prints it, or gdb's ``error``; ``type`` when asked for."""

    expression: str
    value: str | None
    error: str | None = None
    type: str = ""

    @property
    def variable(self) -> Variable:
        """As a watch shows it: the value, or the error as ``<error>``."""
        return Variable(self.expression, self.value if self.value is not None else f"<{self.error}>", self.type)


async def evaluate(session: GdbSession, expression: str) -> str:
    """The value of ``expression`` in the current focus, as gdb prints it; MIError when gdb refuses."""
    payload = await session.command("-data-evaluate-expression", expression)
    return str(payload.get("value", ""))


async def evaluation(session: GdbSession, expression: str, *, typed: bool = False) -> Evaluation:
    """``expression`` evaluated; with ``typed``, through a varobj that also gives its type
    (created in the selected frame, deleted after; an aggregate's value is then printed whole)."""
    try:
        if not typed:
            return Evaluation(expression, await evaluate(session, expression))
        payload = await session.command("-var-create", Flag("-"), "*", expression)
    except DebuggerGone:
        raise
    except MIError as exc:
        return Evaluation(expression, None, exc.message)
    value = str(payload.get("value", ""))
    if (to_int(payload.get("numchild"), 0) or 0) > 0:
        whole = await evaluation(session, expression)
        value = whole.value if whole.value is not None else value
    try:
        await session.command("-var-delete", str(payload.get("name", "")))
    except DebuggerGone:
        raise
    except MIError:
        pass
    return Evaluation(expression, value, type=str(payload.get("type", "")))


async def holds(session: GdbSession, condition: str) -> bool | None:
    """Whether ``condition`` is true in the current focus; None when gdb cannot evaluate it."""
    result = await evaluation(session, f"({condition}) != 0")
    return None if result.value is None else result.value.strip() not in ("0", "false")


def shared_slice_expression(name: str, start: int, count: int) -> str:
    """A typed evaluation of ``count`` elements of shared array ``name`` from ``start``."""
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
        raise ValueError(f"not a variable name: {name!r}")
    return f"{name}[{int(start)}]@{int(count)}"


def parse_array_value(value: str) -> tuple[str, ...]:
    """gdb's ``{1, 2, 0 <repeats 30 times>}`` into one string per element (nested arrays
    flattened, repeats and strings expanded: :func:`~cudatui.gdbbridge.aggregates.decode`)."""
    return flatten(decode(value).items)


async def read_shared(session: GdbSession, name: str, start: int, count: int) -> tuple[str, ...]:
    """Read ``count`` elements (rows, of a 2-D array) of a shared array through typed
    evaluation, in chunks; where gdb cut an answer (``print elements``, 200 on cuda-gdb 13.0) the
    rest is asked from the first element (row) it did not give whole; when that is refused, the
    elements read so far are the answer."""
    values: list[str] = []
    position = start
    while position < start + count:
        n = min(SHARED_CHUNK, start + count - position)
        try:
            answer = decode(await evaluate(session, shared_slice_expression(name, position, n)))
        except DebuggerGone:
            raise
        except MIError:
            if position == start:
                raise
            break  # the rest of a cut answer could not be read (a replay that never asked): what came
        items = answer.items
        if answer.truncated and items and isinstance(items[-1], tuple):
            items = items[:-1]  # a row gdb cut in the middle: asked again whole
        values.extend(flatten(items[:n]))
        if not items or not answer.truncated and len(items) < n:
            break
        position += min(len(items), n)
    return tuple(values)
