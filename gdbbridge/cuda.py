"""cuda-gdb's MI extensions: ``-cuda-info-*`` tables, focus switches, registers, shared memory.

Table payloads look like ``{InfoCudaWarpsTable: {hdr: [...], body: [{...}, ...]}}`` (pygdbmi
drops the row names); each table is turned into a tuple of models here, in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .mi import Flag
from .models import (
    BlockRange,
    Context,
    CudaFocus,
    Device,
    Frame,
    Instruction,
    Kernel,
    Lane,
    LaunchTraceEntry,
    Register,
    Sm,
    ThreadRange,
    Warp,
    fmt_dim3,
    to_dim3,
    to_int,
)

if TYPE_CHECKING:
    from .session import GdbSession

TABLES = {
    "devices": "InfoCudaDevicesTable",
    "sms": "InfoCudaSmsTable",
    "warps": "InfoCudaWarpsTable",
    "lanes": "InfoCudaLanesTable",
    "kernels": "InfoCudaKernelsTable",
    "blocks": "CoalescedInfoCudaBlocksTable",
    "threads": "CoalescedInfoCudaThreadsTable",
    "contexts": "InfoCudaContextsTable",
    "launch-trace": "InfoCudaLaunchTraceTable",
}


def table_rows(payload: Mapping[str, Any], table: str) -> list[dict[str, Any]]:
    """The body rows of a ``-cuda-info-*`` answer (coalesced or not), as dicts."""
    for key in (table, f"Coalesced{table}", table.removeprefix("Coalesced")):
        found = payload.get(key)
        if isinstance(found, Mapping):
            body = found.get("body") or []
            return [row for row in body if isinstance(row, Mapping)]
    return []


def _cur(row: Mapping[str, Any]) -> bool:
    return row.get("current") == "*"


def parse_devices(payload: Mapping[str, Any]) -> tuple[Device, ...]:
    return tuple(
        Device(
            number=to_int(r.get("device"), 0) or 0,
            name=str(r.get("name", "")),
            description=str(r.get("description", "")),
            pci_bus=str(r.get("pci_bus", "")),
            sm_type=str(r.get("sm_type", "")),
            num_sms=to_int(r.get("num_sms"), 0) or 0,
            warps_per_sm=to_int(r.get("num_warps"), 0) or 0,
            lanes_per_warp=to_int(r.get("num_lanes"), 0) or 0,
            max_regs=to_int(r.get("num_regs"), 0) or 0,
            current=_cur(r),
        )
        for r in table_rows(payload, TABLES["devices"])
    )


def parse_sms(payload: Mapping[str, Any]) -> tuple[Sm, ...]:
    return tuple(
        Sm(to_int(r.get("sm"), 0) or 0, to_int(r.get("active_warps_mask"), 0) or 0, _cur(r))
        for r in table_rows(payload, TABLES["sms"])
    )


def kernel_name(invocation: str) -> str:
    """``reduce_racy(,args=[...])`` or ``void f<128>(long)`` -> the function name part."""
    depth = 0
    for i, ch in enumerate(invocation):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            return invocation[:i]
    return invocation


def parse_kernels(payload: Mapping[str, Any]) -> tuple[Kernel, ...]:
    return tuple(
        Kernel(
            number=to_int(r.get("kernel"), 0) or 0,
            device=to_int(r.get("device"), 0) or 0,
            grid=to_int(r.get("grid"), 0) or 0,
            status=str(r.get("status", "")),
            grid_dim=to_dim3(r.get("gridDim")),
            block_dim=to_dim3(r.get("blockDim")),
            name=kernel_name(str(r.get("invocation", ""))),
            invocation=str(r.get("invocation", "")),
            current=_cur(r),
        )
        for r in table_rows(payload, TABLES["kernels"])
    )


def parse_contexts(payload: Mapping[str, Any]) -> tuple[Context, ...]:
    return tuple(
        Context(to_int(r.get("context"), 0) or 0, to_int(r.get("device"), 0) or 0, str(r.get("state", "")), _cur(r))
        for r in table_rows(payload, TABLES["contexts"])
    )


def parse_launch_trace(payload: Mapping[str, Any]) -> tuple[LaunchTraceEntry, ...]:
    return tuple(
        LaunchTraceEntry(
            level=to_int(r.get("level"), 0) or 0,
            kernel=to_int(r.get("kernel"), 0) or 0,
            device=to_int(r.get("device"), 0) or 0,
            grid=to_int(r.get("grid"), 0) or 0,
            status=str(r.get("status", "")),
            grid_dim=to_dim3(r.get("gridDim")),
            block_dim=to_dim3(r.get("blockDim")),
            name=kernel_name(str(r.get("invocation", ""))),
            invocation=str(r.get("invocation", "")),
            current=_cur(r),
        )
        for r in table_rows(payload, TABLES["launch-trace"])
    )


def parse_blocks(payload: Mapping[str, Any]) -> tuple[BlockRange, ...]:
    rows = table_rows(payload, TABLES["blocks"])
    out = []
    for r in rows:
        first = to_dim3(r.get("from") or r.get("blockIdx"))
        out.append(
            BlockRange(
                kernel=to_int(r.get("kernel"), 0) or 0,
                first=first,
                last=to_dim3(r.get("to")) or first,
                count=to_int(r.get("count"), 1) or 1,
                state=str(r.get("state", "")),
                current=_cur(r),
            )
        )
    return tuple(out)


def parse_threads(payload: Mapping[str, Any]) -> tuple[ThreadRange, ...]:
    out = []
    for r in table_rows(payload, TABLES["threads"]):
        fb = to_dim3(r.get("from_blockIdx") or r.get("blockIdx"))
        ft = to_dim3(r.get("from_threadIdx") or r.get("threadIdx"))
        out.append(
            ThreadRange(
                kernel=to_int(r.get("kernel"), 0) or 0,
                first_block=fb,
                first_thread=ft,
                last_block=to_dim3(r.get("to_blockIdx")) or fb,
                last_thread=to_dim3(r.get("to_threadIdx")) or ft,
                count=to_int(r.get("count"), 1) or 1,
                pc=to_int(r.get("virtual_pc") or r.get("pc")),
                file=r.get("filename"),
                line=to_int(r.get("line")),
                current=_cur(r),
            )
        )
    return tuple(out)


def parse_warps(payload: Mapping[str, Any]) -> tuple[Warp, ...]:
    return tuple(
        Warp(
            number=to_int(r.get("warp"), 0) or 0,
            active_mask=to_int(r.get("active_lanes_mask"), 0) or 0,
            divergent_mask=to_int(r.get("divergent_lanes_mask"), 0) or 0,
            pc=to_int(r.get("active_physical_pc")),
            kernel=to_int(r.get("kernel")),
            block=to_dim3(r.get("blockIdx")),
            first_thread=to_dim3(r.get("threadIdx")),
            current=_cur(r),
        )
        for r in table_rows(payload, TABLES["warps"])
    )


def parse_lanes(payload: Mapping[str, Any]) -> tuple[Lane, ...]:
    out = []
    for r in table_rows(payload, TABLES["lanes"]):
        exc = str(r.get("exception", "None"))
        out.append(
            Lane(
                number=to_int(r.get("lane"), 0) or 0,
                state=str(r.get("state", "")),
                pc=to_int(r.get("physical_pc")),
                thread=to_dim3(r.get("threadIdx")),
                exception=None if exc in ("None", "") else exc,
                current=_cur(r),
            )
        )
    return tuple(out)


_LANE_LINE = re.compile(r"^\s*(\*?)\s*(\d+)\s+(\w+)\s+(0x[0-9a-fA-F]+)\s+(\([^)]*\))\s*(.*?)\s*$")


def parse_lanes_console(text: str) -> tuple[Lane, ...]:
    """``info cuda lanes`` console output (where MI is not available) into lanes."""
    lanes = []
    for line in text.splitlines():
        m = _LANE_LINE.match(line)
        if m:
            exc = m.group(6) or None
            lanes.append(
                Lane(int(m.group(2)), m.group(3), to_int(m.group(4)), to_dim3(m.group(5)),
                     None if exc in (None, "None") else exc, m.group(1) == "*")
            )
    return tuple(lanes)


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
_FOCUS_WORD = re.compile(rf"^(device|sm|warp|lane|kernel|grid|block|thread)\s+({_DIM})$")
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
