"""The program's source files as gdb knows them (``-file-list-exec-source-files``): what the
source pane's file finder offers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession


def parse_source_files(payload: Mapping[str, Any]) -> tuple[str, ...]:
    """The files of a ``-file-list-exec-source-files`` answer, each once (its full name when gdb
    has one, else its name), in gdb's order."""
    seen: dict[str, None] = {}
    for entry in payload.get("files", []) or []:
        if isinstance(entry, Mapping):
            name = str(entry.get("fullname") or entry.get("file") or "")
            if name:
                seen.setdefault(name, None)
    return tuple(seen)


async def source_files(session: GdbSession) -> tuple[str, ...]:
    """The source files of the program and of the libraries loaded so far."""
    return parse_source_files(await session.command("-file-list-exec-source-files"))
