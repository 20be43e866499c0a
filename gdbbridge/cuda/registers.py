"""cuda-gdb's registers: names into numbers and groups, ``-data-list-register-values`` into models.

cuda-gdb lists ``pc errorpc R0 R1 ...``, then predicates and uniform registers, with empty and
"(dummy internal register)" names in between; ``-data-list-register-values`` takes the numbers.
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Iterable, Mapping

from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.models import Register

_GROUPS = (
    ("R", re.compile(r"^R(\d+|Z)$")),
    ("P", re.compile(r"^P(\d+|T)$")),
    ("UR", re.compile(r"^UR(\d+|Z)$")),
    ("UP", re.compile(r"^UP(\d+|T)$")),
    ("system", re.compile(r"^(pc|errorpc|CC)$")),
)
REGISTER_GROUPS = tuple(name for name, _ in _GROUPS) + ("other",)


def register_group(name: str) -> str:
    """The group of a register name: one of :data:`REGISTER_GROUPS`."""
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
    """A ``-data-list-register-values`` answer into registers, only those ``names`` knows."""
    regs = []
    for item in payload.get("register-values", []) or []:
        number = to_int(item.get("number"))
        if number is None or number not in names:
            continue
        name = names[number]
        regs.append(Register(number, name, str(item.get("value", "")), register_group(name)))
    return tuple(regs)
