"""The MI commands a Debugger writes to gdb, as a test counts them (what a pane caused it to ask)."""

from __future__ import annotations

from typing import Any

from cudatui.gdbbridge import RawLine


def commands_sent(debugger: Any, containing: str = "") -> list[str]:
    """A list that fills with the command lines ``debugger`` (a Debugger) writes from now on, those
    holding ``containing`` (all: ""), token included."""
    sent: list[str] = []
    debugger.subscribe(lambda e: sent.append(e.text) if isinstance(e, RawLine) and e.direction == "in"
                       and containing in e.text else None)
    return sent
