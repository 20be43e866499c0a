"""What the app said, kept: the notices log (``!`` opens it) and its newest line in the status bar.

A notice is told once and stays readable: the status bar shows the newest one at its right end
until the program runs again, and the log keeps every one with the time it was said. A notice
said again is counted, not added twice (``(×3)``).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, replace

from rich.text import Text

KEPT = 500
"""Notices the log keeps (the oldest go first)."""

ICONS = {"error": ("✖", "bold red"), "warning": ("⚠", "bold yellow"), "information": ("ℹ", "bold cyan")}
"""The mark and its style before a notice, by severity."""


@dataclass(frozen=True)
class Entry:
    """One notice: what was said, how grave, when (``time.time``), and how many times in a row."""

    message: str
    severity: str = "information"
    at: float = 0.0
    count: int = 1

    def text(self) -> Text:
        """``⚠ the message (×2)``, its mark coloured by severity."""
        mark, style = ICONS.get(self.severity, ICONS["information"])
        out = Text(mark + " ", style=style)
        out.append(self.message.replace("\n", " "))
        if self.count > 1:
            out.append(f" (×{self.count})", style="dim")
        return out


class NoticeLog:
    """Every notice said, the newest last (at most :data:`KEPT`)."""

    def __init__(self) -> None:
        self.entries: deque[Entry] = deque(maxlen=KEPT)

    def add(self, message: str, severity: str = "information") -> Entry:
        """Keep ``message``; the same message as the newest one is counted instead."""
        if self.entries and self.entries[-1].message == message and self.entries[-1].severity == severity:
            entry = replace(self.entries[-1], count=self.entries[-1].count + 1, at=time.time())
            self.entries[-1] = entry
        else:
            entry = Entry(message, severity, time.time())
            self.entries.append(entry)
        return entry


def fit_line(status: Text, notice: Entry | None, width: int) -> Text:
    """The status bar's line in ``width`` cells: ``status`` left and whole (what the debugger is
    doing and where it is focused come first), the ``notice`` right-aligned in the room left (cut
    with …). Where less than 12 cells are left, a mark ``⚠ !`` says a notice came (``!`` shows it),
    the status giving up its last cells for it."""
    if notice is None or width <= 0:
        return status
    said = notice.text()
    room = min(said.cell_len, width - status.cell_len - 2)
    if room < min(said.cell_len, 12):
        mark, style = ICONS.get(notice.severity, ICONS["information"])
        said = Text(f"{mark} !", style=style)
        room = said.cell_len
    said.truncate(room, overflow="ellipsis")
    left = status.copy()
    left.truncate(max(width - room - 2, 0), overflow="ellipsis")
    line = left + Text(" " * max(width - left.cell_len - said.cell_len, 2))
    return line + said
