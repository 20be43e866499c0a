"""A private tmux server for the real-terminal tests (its own socket; sessions named ``t`` unless told)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .wait import wait_until


class TmuxServer:
    """``server("send-keys", ...)`` runs a tmux command against this server; ``screen()`` is the pane's text."""

    def __init__(self, socket: Path) -> None:
        self.base = ["tmux", "-S", str(socket)]

    def __call__(self, *args: str) -> str:
        """Run without COLUMNS and LINES (set under pytest): the server and its sessions would
        inherit them, and Textual takes them over the terminal's size (a full run once showed an
        80x24 app in a 160x48 window)."""
        env = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
        return subprocess.run([*self.base, *args], check=True, capture_output=True, text=True, timeout=20,
                              env=env).stdout

    def screen(self, target: str = "t") -> str:
        return self("capture-pane", "-p", "-t", target)

    def click(self, x: int, y: int) -> None:
        """A left click at column ``x``, row ``y`` (0-based), as an SGR mouse report the app reads."""
        report = f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m".encode()
        self("send-keys", "-t", "t", "-H", *(f"{b:02x}" for b in report))

    def wait_for_line(self, text: str, timeout: float = 30.0, target: str = "t") -> str:
        """The screen of ``target`` once ``text`` is on it (a line holding ``text``'s words, spaces ignored)."""
        words = text.split()
        return self.wait_for_screen(
            lambda screen: any(line.split()[: len(words)] == words or text in line for line in screen.splitlines()),
            repr(text), timeout, target)

    def wait_for_all(self, *texts: str, timeout: float = 30.0, target: str = "t") -> str:
        """The screen of ``target`` once every text is on it (spaces squeezed)."""
        return self.wait_for_screen(
            lambda screen: all(" ".join(text.split()) in " ".join(screen.split()) for text in texts),
            repr(texts), timeout, target)

    def wait_for_screen(self, shows, what: str, timeout: float = 30.0, target: str = "t") -> str:
        """The screen of ``target`` once ``shows(screen)`` is true; on failure, the last screen."""
        last = [""]

        def seen() -> str | None:
            last[0] = self.screen(target)
            return last[0] if shows(last[0]) else None

        return wait_until(seen, timeout, lambda: f"{what} on the screen:\n{last[0]}", every=0.2)
