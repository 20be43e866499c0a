"""Readable C++ function and kernel names.

cuda-gdb names a PyTorch kernel with its whole signature: ``void at::native::
index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<…{lambda(char*, char const*,
long)#1}>…>(long, …)``, 1,500 characters at the H200 stop of a ``x[idx]`` assert. Shown
whole, it fills a banner or a pane. :func:`short_name` keeps what a person reads first: the
qualified name, short template arguments (numbers, plain words) and ``…`` for the rest, no
return type, no parameter list. The whole name stays in the models for the views that offer it.
"""

from __future__ import annotations

import re

_OPEN = {"<": ">", "(": ")", "[": "]", "{": "}"}
_SIMPLE_ARGUMENT = re.compile(r"^-?\w{1,12}$")
_RETURN_TYPE = re.compile(r"^(?:(?:static|virtual|inline|__global__|__device__|const|unsigned|signed)\s+)*"
                          r"(?:void|bool|char|short|int|long|float|double|auto|size_t|[\w:]+[*&]?)\s+(?=[\w:~]+[<(]|[\w:~]+$)")
MAX_ARGUMENTS = 2
"""Template arguments kept before ``…``."""


def _split_top(text: str, separator: str = ",") -> list[str]:
    """``text`` cut at ``separator`` outside brackets; unbalanced brackets close at the end."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth = max(depth - 1, 0)
        elif ch == separator and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _outer(text: str) -> list[tuple[str, str]]:
    """``text`` as (plain, bracketed) pieces at the top level: ``f<a>(b)`` -> f, <a>, (b)."""
    pieces: list[tuple[str, str]] = []
    depth, start, opener = 0, 0, ""
    for i, ch in enumerate(text):
        if depth == 0 and ch in _OPEN:
            if i > start:
                pieces.append(("plain", text[start:i]))
            start, opener, depth = i, ch, 1
        elif depth and ch == opener:
            depth += 1
        elif depth and ch == _OPEN[opener]:
            depth -= 1
            if depth == 0:
                pieces.append((opener, text[start:i + 1]))
                start = i + 1
    if start < len(text):
        pieces.append(("plain" if depth == 0 else opener, text[start:]))
    return pieces


def _template(arguments: str) -> str:
    """``<128, 4, at::x<…>>`` -> ``<128, 4, …>``."""
    inner = arguments[1:-1] if arguments.endswith(">") else arguments[1:]
    kept: list[str] = []
    for argument in _split_top(inner):
        if len(kept) == MAX_ARGUMENTS or not _SIMPLE_ARGUMENT.match(argument):
            kept.append("…")
            break
        kept.append(argument)
    return "<" + ", ".join(kept) + ">" if kept else "<>"


def short_name(name: str) -> str:
    """A C++ function or kernel name without its return type, parameters and long template
    arguments; plain C names come back unchanged."""
    text = " ".join(name.split())
    if not text or ("<" not in text and "(" not in text and " " not in text):
        return text
    text = _RETURN_TYPE.sub("", text, count=1)
    out = []
    for kind, piece in _outer(text):
        if kind == "plain":
            out.append(re.sub(r"\{lambda\(.*", "{lambda}", piece))
        elif kind == "<":
            out.append(_template(piece))
        elif kind == "(":
            if piece == "(anonymous namespace)" or (out and out[-1].endswith("operator")):
                out.append(piece)
            else:
                break
        elif kind == "{":
            out.append("{lambda}" if piece.startswith("{lambda") else "{…}")
        else:
            out.append(piece)
    short = "".join(out).strip()
    return short or text


def is_shortened(name: str) -> bool:
    """Whether :func:`short_name` leaves out part of ``name``."""
    return short_name(name) != " ".join(name.split())
