"""cuda-gdb's MI extensions: focus switches, registers, shared memory, disassembly.

The ``-cuda-info-*`` table parsers live in :mod:`cudatui.gdbbridge.cuda.tables` and are re-exported
here (``cuda.parse_warps``, ``cuda.TABLES`` ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from cudatui.gdbbridge.convert import fmt_dim3, to_int
from cudatui.gdbbridge.cuda.models import CudaFocus, Instruction
from cudatui.gdbbridge.cuda.tables import (
    TABLES,
    kernel_name,
    parse_blocks,
    parse_contexts,
    parse_devices,
    parse_kernels,
    parse_lanes,
    parse_lanes_console,
    parse_launch_trace,
    parse_sms,
    parse_threads,
    parse_warps,
    table_rows,
)
from cudatui.gdbbridge.session.mi import Flag
from cudatui.gdbbridge.models import Frame, Register

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession

__all__ = [
    "REGISTER_GROUPS", "SHARED_CHUNK", "TABLES", "FocusResult", "FocusSyntaxError", "disassemble", "evaluate",
    "info", "kernel_name", "normalize_focus", "parse_array_value", "parse_blocks", "parse_contexts",
    "parse_devices", "parse_disassembly", "parse_kernels", "parse_lanes", "parse_lanes_console",
    "parse_launch_trace", "parse_register_values", "parse_sms", "parse_threads", "parse_warps", "read_shared",
    "register_group", "shared_slice_expression", "switch_focus", "table_rows", "usable_register_names",
]


# -- registers --------------------------------------------------------------------------------

_GROUPS = (
    ("R", re.compile(r"^R(\d+|Z)$")),
    ("P", re.compile(r"^P(\d+|T)$")),
    ("UR", re.compile(r"^UR(\d+|Z)$")),
    ("UP", re.compile(r"^UP(\d+|T)$")),
    ("system", re.compile(r"^(pc|errorpc|CC)$")),
)
REGISTER_GROUPS = tuple(name for name, _ in _GROUPS) + ("other",)


def register_group(name: str) -> str:
    for group, pattern in _GROUPS:
        if pattern.match(name):
            return group
    return "other"


def usable_register_names(names: Iterable[str]) -> dict[int, str]:
    """Number -> name, without empty names, duplicates and "(dummy internal register)"."""
    seen: set[str] = set()
    out: dict[int, str] = {}
    for number, name in enumerate(names):
        if not name or name.startswith("(") or name in seen:
            continue
        seen.add(name)
        out[number] = name
    return out


def parse_register_values(payload: Mapping[str, Any], names: Mapping[int, str]) -> tuple[Register, ...]:
    regs = []
    for item in payload.get("register-values", []) or []:
        number = to_int(item.get("number"))
        if number is None or number not in names:
            continue
        name = names[number]
        regs.append(Register(number, name, str(item.get("value", "")), register_group(name)))
    return tuple(regs)


# -- focus ------------------------------------------------------------------------------------

_DIM = r"\(\s*\d+\s*(?:,\s*\d+\s*){0,2}\)|\d+"
_FOCUS_SPLIT = re.compile(rf"(device|sm|warp|lane|kernel|grid|block|thread)\s+({_DIM})")


class FocusSyntaxError(ValueError):
    """A focus request that is not ``block (x,y,z) thread (x,y,z)`` / ``sm N warp W lane L`` ..."""


def normalize_focus(request: str) -> str:
    """Validate and normalise a focus request: "block 3 thread (200)" -> "block (3,0,0) thread (200,0,0)"."""
    text = " ".join(request.strip().split())
    parts = _FOCUS_SPLIT.findall(text)
    if not parts or _FOCUS_SPLIT.sub("", text).strip():
        raise FocusSyntaxError(
            f"cannot read focus {request!r}: use e.g. 'block (3,0,0) thread (200,0,0)', 'warp 2 lane 3' or 'sm 4'"
        )
    words = []
    for key, value in parts:
        if key in ("block", "thread"):
            nums = [int(x) for x in re.findall(r"\d+", value)]
            nums += [0] * (3 - len(nums))
            words.append(f"{key} {fmt_dim3((nums[0], nums[1], nums[2]))}")
        else:
            words.append(f"{key} {int(value)}")
    return " ".join(words)


@dataclass(frozen=True)
class FocusResult:
    focus: CudaFocus
    frame: Frame | None


async def switch_focus(session: "GdbSession", request: str) -> FocusResult:
    """``-cuda-focus-switch`` with a validated request; returns the new focus and frame."""
    payload = await session.command("-cuda-focus-switch", normalize_focus(request))
    frame = payload.get("frame")
    return FocusResult(CudaFocus.from_mi(payload.get("CudaFocus") or {}),
                       Frame.from_mi(frame) if isinstance(frame, Mapping) else None)


async def info(session: "GdbSession", what: str) -> dict[str, Any]:
    """Run ``-cuda-info-<what>`` (devices, sms, warps, lanes, kernels, blocks, threads ...)."""
    if what not in TABLES:
        raise ValueError(f"unknown CUDA table {what!r}")
    return await session.command(f"-cuda-info-{what}")


# -- shared memory ----------------------------------------------------------------------------

SHARED_CHUNK = 256
"""Elements read per evaluation; 48 KB of floats is 48 requests of ~1 ms each."""


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
        payload = await session.command("-data-evaluate-expression", shared_slice_expression(name, position, n))
        values.extend(parse_array_value(str(payload.get("value", ""))))
        position += n
    return tuple(values)


async def evaluate(session: "GdbSession", expression: str) -> str:
    payload = await session.command("-data-evaluate-expression", expression)
    return str(payload.get("value", ""))


# -- disassembly ------------------------------------------------------------------------------


def parse_disassembly(payload: Mapping[str, Any]) -> tuple[Instruction, ...]:
    """``-data-disassemble ... -- 1`` (source-centric) or ``-- 0`` into instructions."""
    out: list[Instruction] = []
    for item in payload.get("asm_insns", []) or []:
        if not isinstance(item, Mapping):
            continue
        group = item.get("line_asm_insn")
        if isinstance(group, list):
            line, file = to_int(item.get("line")), item.get("fullname") or item.get("file")
            out.extend(_instruction(i, line, file) for i in group if isinstance(i, Mapping))
        else:
            out.append(_instruction(item, None, None))
    return tuple(out)


def _instruction(d: Mapping[str, Any], line: int | None, file: str | None) -> Instruction:
    return Instruction(
        address=to_int(d.get("address"), 0) or 0,
        function=str(d.get("func-name", "")),
        offset=to_int(d.get("offset"), 0) or 0,
        text=str(d.get("inst", "")),
        line=line,
        file=file,
    )


async def disassemble(session: "GdbSession", start: str = "$pc", end: str = "$pc+48") -> tuple[Instruction, ...]:
    """SASS between two address expressions, with source lines (~0.7 s on cuda-gdb: cache it)."""
    payload = await session.command("-data-disassemble", Flag("-s"), start, Flag("-e"), end, Flag("--"), Flag("1"))
    return parse_disassembly(payload)
