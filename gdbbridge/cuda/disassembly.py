"""SASS through ``-data-disassemble``, with the source line of each instruction where gdb gives one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.demangle import demangle
from cudatui.gdbbridge.models.cuda import Instruction
from cudatui.gdbbridge.session.mi import Flag

INSTRUCTION_BYTES = 16
"""SASS instructions are 16 bytes on sm_70 and newer."""

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession


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
        function=demangle(str(d.get("func-name", ""))),
        offset=to_int(d.get("offset"), 0) or 0,
        text=str(d.get("inst", "")),
        line=line,
        file=file,
    )


async def disassemble(session: GdbSession, start: str = "$pc", end: str = "$pc+48") -> tuple[Instruction, ...]:
    """SASS between two address expressions, with source lines (~0.7 s on cuda-gdb: cache it).
    Where the source-centric listing is empty (cuda-gdb 13.0 at a CUDA exception), the raw one."""
    payload = await session.command("-data-disassemble", Flag("-s"), start, Flag("-e"), end, Flag("--"), Flag("1"))
    found = parse_disassembly(payload)
    if found:
        return found
    return parse_disassembly(await session.command("-data-disassemble", Flag("-s"), start, Flag("-e"), end,
                                                   Flag("--"), Flag("0")))
