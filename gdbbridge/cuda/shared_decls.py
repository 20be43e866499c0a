"""The ``__shared__`` arrays a kernel declares, read from its source.

cuda-gdb lists a ``__shared__`` array declared in a kernel among its locals only sometimes:
``extern __shared__ float sdata[];`` never appears in ``-stack-list-variables`` (measured on the
H200: the race lesson's locals were s, tid, idx, in, out, n). The declarations are read from the
function's body instead: comments and literals are blanked, the body is found by brace matching,
and array sizes written with ``#define``/``constexpr`` integer constants are evaluated.
Pure functions only; nothing here talks to gdb.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass

_COMMENTS_AND_LITERALS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]+)$", re.M)
_CONSTANT = re.compile(r"\b(?:static\s+)?(?:constexpr|const)\s+(?:unsigned\s+|signed\s+)?(?:int|long|size_t|short)"
                       r"\s+([A-Za-z_]\w*)\s*=\s*([^;]+);")
_DECLARATION = re.compile(r"(\bextern\s+)?\b__shared__\s+([^;{}]*?);")
_DECLARATOR = re.compile(r"^\s*([A-Za-z_]\w*)\s*((?:\[[^\[\]]*\])+)\s*$")
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
              ast.Div: operator.floordiv, ast.LShift: operator.lshift, ast.RShift: operator.rshift}


@dataclass(frozen=True)
class SharedDecl:
    """One declared shared array: ``dims`` holds None for a size not known from the source (the
    ``[]`` of an ``extern`` array, sized at launch, or a size that is not a constant)."""

    name: str
    element: str
    dims: tuple[int | None, ...]
    extern: bool = False


def blank_comments(source: str) -> str:
    """``source`` with comments and string/char literals replaced by spaces (newlines kept)."""
    return _COMMENTS_AND_LITERALS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)


def function_body(source: str, function: str) -> str | None:
    """The text between the braces of ``function``'s definition (the first one), or None."""
    code = blank_comments(source)
    for match in re.finditer(rf"\b{re.escape(function)}\s*\(", code):
        depth, i = 0, match.end() - 1
        while i < len(code):
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
            if depth == 0:
                break
        rest = code[i:]
        head = re.match(r"[^;{]*\{", rest)
        if head is None:
            continue
        start = i + head.end()
        depth, j = 1, start
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        return code[start:j - 1] if depth == 0 else None
    return None


def constants(source: str) -> dict[str, int]:
    """Integer constants of ``source``: ``#define N 256``, ``constexpr int TILE = 16;`` (in order,
    so ``#define SPAN (TILE + 2 * HALO)`` uses the ones above it)."""
    code = blank_comments(source)
    found: dict[str, int] = {}
    items = [(m.start(), m.group(1), m.group(2)) for m in _DEFINE.finditer(code)]
    items += [(m.start(), m.group(1), m.group(2)) for m in _CONSTANT.finditer(code)]
    for _, name, text in sorted(items):
        value = evaluate(text, found)
        if value is not None:
            found[name] = value
    return found


def evaluate(text: str, names: dict[str, int]) -> int | None:
    """An integer constant expression (+ - * / << >> and parentheses over numbers and ``names``)."""
    text = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", text.strip())
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None

    def value(node: ast.AST) -> int | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            return names.get(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = value(node.operand)
            return None if inner is None else -inner
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            left, right = value(node.left), value(node.right)
            if left is None or right is None or (isinstance(node.op, (ast.Div, ast.FloorDiv)) and right == 0):
                return None
            return int(_OPERATORS[type(node.op)](left, right))
        return None

    return value(tree.body)


def shared_arrays(source: str, function: str) -> tuple[SharedDecl, ...]:
    """The ``__shared__`` arrays declared in ``function``'s body, in order of declaration."""
    body = function_body(source, function)
    if body is None:
        return ()
    known = constants(source)
    found: list[SharedDecl] = []
    for match in _DECLARATION.finditer(body):
        words = match.group(2).split(",")
        first = re.match(r"^(.*?)([A-Za-z_]\w*\s*(?:\[[^\[\]]*\]\s*)+)$", words[0].strip(), re.S)
        if first is None:
            continue
        element = " ".join(re.sub(r"__align__\s*\(\s*\d+\s*\)", " ", first.group(1)).split())
        if not element:
            continue
        for text in [first.group(2), *words[1:]]:
            declarator = _DECLARATOR.match(text)
            if declarator is None:
                continue
            dims = tuple(evaluate(d, known) if d.strip() else None
                         for d in re.findall(r"\[([^\[\]]*)\]", declarator.group(2)))
            found.append(SharedDecl(declarator.group(1), element, dims, bool(match.group(1))))
    return tuple(found)
