"""A private tmux server for the real-terminal tests (its own socket, one session named ``t``)."""

from __future__ import annotations

import subprocess
from pathlib import Path


class TmuxServer:
    """``server("send-keys", ...)`` runs a tmux command against this server; ``screen()`` is the pane's text."""

    def __init__(self, socket: Path) -> None:
        self.base = ["tmux", "-S", str(socket)]

    def __call__(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], check=True, capture_output=True, text=True, timeout=20).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "t")
