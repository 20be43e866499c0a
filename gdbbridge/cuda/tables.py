"""cuda-gdb's ``-cuda-info-*`` tables (and ``info cuda lanes`` console text): the query and the models.

Table payloads look like ``{InfoCudaWarpsTable: {hdr: [...], body: [{...}, ...]}}`` (pygdbmi
drops the row names); each table is turned into a tuple of models here, in one place.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

from cudatui.gdbbridge.convert import Dim3, to_dim3, to_int
from cudatui.gdbbridge.models.cuda import BlockRange, CudaFocus, Device, Kernel, Lane, Sm, ThreadRange, Warp

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession

TABLES = {
    "devices": "InfoCudaDevicesTable",
    "sms": "InfoCudaSmsTable",
    "warps": "InfoCudaWarpsTable",
    "lanes": "InfoCudaLanesTable",
    "kernels": "InfoCudaKernelsTable",
    "blocks": "CoalescedInfoCudaBlocksTable",
    "threads": "CoalescedInfoCudaThreadsTable",
}


async def info(session: GdbSession, what: str) -> dict[str, Any]:
    """Run ``-cuda-info-<what>`` (devices, sms, warps, lanes, kernels, blocks, threads ...)."""
    if what not in TABLES:
        raise ValueError(f"unknown CUDA table {what!r}")
    return await session.command(f"-cuda-info-{what}")


def table_rows(payload: Mapping[str, Any], table: str) -> list[dict[str, Any]]:
    """The body rows of a ``-cuda-info-*`` answer (coalesced or not), as dicts."""
    for key in (table, f"Coalesced{table}", table.removeprefix("Coalesced")):
        found = payload.get(key)
        if isinstance(found, Mapping):
            body = found.get("body") or []
            return [dict(row) for row in body if isinstance(row, Mapping)]
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


def _kernel_columns(r: Mapping[str, Any]) -> dict[str, Any]:
    """The columns the kernels table and the launch trace share."""
    invocation = str(r.get("invocation", ""))
    return dict(
        kernel=to_int(r.get("kernel"), 0) or 0,
        device=to_int(r.get("device"), 0) or 0,
        grid=to_int(r.get("grid"), 0) or 0,
        status=str(r.get("status", "")),
        grid_dim=to_dim3(r.get("gridDim")),
        block_dim=to_dim3(r.get("blockDim")),
        name=kernel_name(invocation),
        invocation=invocation,
        current=_cur(r),
    )


def parse_kernels(payload: Mapping[str, Any]) -> tuple[Kernel, ...]:
    rows = (_kernel_columns(r) for r in table_rows(payload, TABLES["kernels"]))
    return tuple(Kernel(number=c.pop("kernel"), **c) for c in rows)


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


def focused_in(ranges: tuple[ThreadRange, ...], focus: CudaFocus | None) -> tuple[ThreadRange, ...]:
    """``ranges`` with ``current`` marking the one that holds ``focus`` (the thread table read at
    the stop, kept by a focus switch: no thread moved). A range runs from its first thread to its
    last in cuda-gdb's order (blocks, then threads, x fastest)."""
    here = _order(focus.block, focus.thread) if focus is not None else None

    def holds(r: ThreadRange) -> bool:
        first, last = _order(r.first_block, r.first_thread), _order(r.last_block, r.last_thread)
        if focus is None or here is None or first is None or last is None:
            return False
        return r.kernel == focus.kernel and first <= here <= last
    return tuple(r if r.current == holds(r) else replace(r, current=not r.current) for r in ranges)


def _order(block: Dim3 | None, thread: Dim3 | None) -> tuple[int, ...] | None:
    """A thread's place in cuda-gdb's order of the coalesced thread table (None: not known)."""
    return None if block is None or thread is None else (block[2], block[1], block[0], thread[2], thread[1], thread[0])


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
