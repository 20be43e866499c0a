"""The culprit lane of a warp-wide exception: which lane's values on the faulting line are wrong.

cuda-gdb reports a warp exception (``Warp Illegal Address``) on every lane of the warp and
focuses lane 0, though one lane's access was bad (measured on the H200: a cpp_extension gather
whose lane 24 read ``idx[i]`` = 2^34, lane 0's was fine). The culprit is found by evaluating the
faulting line's expressions in every active lane (:func:`~cudatui.gdbbridge.cuda.warp_watch.evaluate_in_lanes`):

1. the expressions: the subscripts of the line first (``idx[i]`` and ``i`` of ``x[idx[i]]``),
   then its other names (:func:`line_expressions`); without the line, the locals' names;
2. a lane is out of range when its integer value is negative or not below a size the line or
   the locals hold (``n``, ``size``, ``count`` ... in the focused lane), else when it is an
   outlier: farther from the median than eight times the spread of all the other lanes;
3. the first expression with such a lane names it; where none does, the expressions whose
   values differ between lanes are still reported.

An expression that is ``<optimized out>`` in every lane (``j`` there, with ``-G``) tells nothing
and the next one is tried.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from collections.abc import Sequence

from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.cuda.warp_watch import evaluate_in_lanes
from cudatui.gdbbridge.i18n import N_, tr
from cudatui.gdbbridge.models.culprit import Culprit, LaneValue
from cudatui.gdbbridge.source import find_source, read_source

if TYPE_CHECKING:
    from cudatui.gdbbridge.models import StopState
    from cudatui.gdbbridge.session.gdb import GdbSession

SIZE_NAMES = ("n", "N", "size", "count", "len", "length", "numel", "num", "total", "nelem", "n_elements")
"""Names whose value is taken as the size an index must stay below."""
MAX_EXPRESSIONS = 6
"""Expressions evaluated at most (each costs two commands per lane)."""
NOTHING_TO_EVALUATE = N_("nothing to evaluate: no source line or locals here (a kernel built without -G)")
"""Why no lane is named where the kernel has neither a source line nor locals (CuPy without -G)."""
_KEYWORDS = frozenset(["if", "else", "for", "while", "do", "return", "int", "long", "unsigned", "signed", "float", "double", "char", "bool", "void", "const", "auto", "sizeof", "static_cast", "reinterpret_cast", "__syncthreads", "true", "false", "nullptr", "struct", "threadIdx", "blockIdx", "blockDim", "gridDim", "size_t", "int64_t", "int32_t", "uint32_t", "uint64_t", "tl"])
_NAME = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)(?!\s*\()")


def _subscripts(code: str) -> list[str]:
    """The index expressions of ``code``'s subscripts, innermost first: ``x[idx[i]]`` gives
    ``i``, ``idx[i]``."""
    found: list[str] = []
    stack: list[int] = []
    for position, char in enumerate(code):
        if char == "[":
            stack.append(position)
        elif char == "]" and stack:
            start = stack.pop()
            inner = code[start + 1:position].strip()
            head = re.search(r"([A-Za-z_]\w*)\s*$", code[:start])
            if inner and head:
                found.append(inner)
    return found


def _definition(name: str, before: Sequence[str]) -> str | None:
    """The right-hand side of the closest assignment to ``name`` in the lines ``before`` (last is closest)."""
    pattern = re.compile(rf"(?<![\w.])(?:[A-Za-z_][\w:<>]*\s+)?{re.escape(name)}\s*=(?!=)\s*([^;]+);")
    for text in reversed(before):
        found = pattern.search(text.split("//", 1)[0])
        if found:
            return found.group(1).strip()
    return None


def line_expressions(code: str, before: Sequence[str] = ()) -> tuple[str, ...]:
    """What to evaluate of the source line ``code`` (the lines ``before`` it give the names'
    definitions), most telling first: the index expressions of its subscripts (``i``, ``j`` of
    ``out[i] = x[j]``), what those were assigned on earlier lines (``idx[i]`` for ``long j = idx[i]``),
    the subscripted values (``out[i]``), then its other names; keywords, types and CUDA builtins
    left out."""
    code = code.split("//", 1)[0]
    indices = _subscripts(code)
    defined = [d for name in indices if re.fullmatch(r"[A-Za-z_]\w*", name) and (d := _definition(name, before))]
    subscripted = [f"{m.group(1)}[{inner}]" for inner in indices
                   for m in re.finditer(r"([A-Za-z_]\w*)\s*\[\s*" + re.escape(inner) + r"\s*\]", code)]
    names = [m.group(1) for m in _NAME.finditer(code)]
    found = dict.fromkeys([*indices, *defined, *subscripted, *names])
    return tuple(e for e in found if e not in _KEYWORDS and e not in SIZE_NAMES)


def out_of_range(values: tuple[LaneValue, ...], size: int | None) -> tuple[int, str] | None:
    """The lane whose value is out of range and why (see the module docstring), or None."""
    numbers = {v.lane: n for v in values if (n := to_int(v.value)) is not None}
    if len(numbers) < 2:
        return None
    if size is not None:
        bad = [(lane, n) for lane, n in numbers.items() if n < 0 or n >= size]
        if bad and len(bad) < len(numbers):
            lane, n = max(bad, key=lambda item: abs(item[1]))
            return lane, f"{n} is outside 0..{size - 1}"
    ordered = sorted(numbers.values())
    median = ordered[len(ordered) // 2]
    lane, n = max(numbers.items(), key=lambda item: abs(item[1] - median))
    rest = [v for other, v in numbers.items() if other != lane]
    spread = max(rest) - min(rest)
    if abs(n - median) > 8 * (spread + 1):
        return lane, f"{n} is far from the other lanes' {min(rest)}..{max(rest)}"
    return None


def size_of(state: StopState, names: tuple[str, ...]) -> int | None:
    """The value of a size variable (:data:`SIZE_NAMES`) of the line or the locals, in the focused lane."""
    for variable in state.variables:
        if variable.name in SIZE_NAMES and (not names or variable.name in names or variable.is_arg):
            value = to_int(variable.value)
            if value is not None and value > 0:
                return value
    return None


def faulting_line(state: StopState, source_dirs: tuple[str, ...] = (), recorded: bool = False
                  ) -> tuple[str, tuple[str, ...]]:
    """The source line of the stop's innermost frame with one, and the lines above it ('' and
    () when there is no such frame or file)."""
    frame = next((f for f in state.frames if f.file and f.line), state.frame)
    local = find_source(frame.fullname or frame.file or "", source_dirs, recorded=recorded) if frame else None
    if frame is None or frame.line is None or local is None:
        return "", ()
    try:
        lines = read_source(local).split("\n")
    except OSError:
        return "", ()
    if not 0 < frame.line <= len(lines):
        return "", ()
    return lines[frame.line - 1], tuple(lines[max(0, frame.line - 40):frame.line - 1])


async def find_culprit(session: GdbSession, state: StopState, code: str, before: Sequence[str] = ()) -> Culprit:
    """Walk the focused warp's lanes over the faulting line ``code`` (``before``: the lines
    above it), see the module docstring."""
    faulted = [lane.number for lane in state.lanes if lane.exception]
    if len(faulted) == 1:
        return Culprit((), faulted[0], None, f"only lane {faulted[0]} faulted")
    expressions = line_expressions(code, before) if code else ()
    if not expressions:
        expressions = tuple(v.name for v in state.variables if not v.is_arg)
    if not expressions:
        return Culprit((), reason=tr(NOTHING_TO_EVALUATE))
    size = size_of(state, expressions)
    evaluated: list[tuple[str, tuple[LaneValue, ...]]] = []
    for expression in expressions[:MAX_EXPRESSIONS]:
        values = await evaluate_in_lanes(session, expression)
        evaluated.append((expression, values))
        found = out_of_range(values, size)
        if found is not None:
            return Culprit(tuple(evaluated), found[0], expression, f"{expression} = {found[1]}")
    return Culprit(tuple(evaluated), reason="no lane's value stands out")


async def culprit_of(session: GdbSession, state: StopState, source_dirs: tuple[str, ...] = (), recorded: bool = False
                     ) -> Culprit:
    """The culprit lane at ``state``: its faulting line found (:func:`faulting_line`) and walked
    (:func:`find_culprit`). The one search behind the Warps pane's ``C`` and a post-mortem's stop."""
    code, before = faulting_line(state, source_dirs, recorded)
    return await find_culprit(session, state, code, before)
