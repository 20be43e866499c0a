"""A private tmux server for the real-terminal tests (its own socket; sessions named ``t`` unless told).

A wait on the screen looks again when the pane has written something (tmux pipes the pane's output
into a FIFO read here), not on a clock: the app's frame is read as soon as it is drawn, and an idle
app costs no ``capture-pane``."""

from __future__ import annotations

import os
import select
import shlex
import subprocess
import time
import weakref
from pathlib import Path

from .wait import wait_until

GAP = 0.05
"""The least time between two looks at a screen that keeps changing (an animation's frames are
read once per burst, not once each)."""


class PaneOutput:
    """Wakes a waiter when the pane writes: ``pipe-pane`` copies its output into a FIFO that
    :meth:`pause` waits on (with select, no thread). Once the pipe has ended (the pane has gone:
    :attr:`gone`), it is a plain sleep and the server follows the target's next pane anew."""

    def __init__(self, server: TmuxServer, target: str, fifo: Path) -> None:
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo, 0o600)
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        weakref.finalize(self, os.close, self.fd)
        self.looked = time.monotonic()
        self.wrote = False
        """Whether the pane wrote since the last capture."""
        self.connected = False
        """Whether the pane's output has come through the pipe once."""
        self.gone = False
        """Whether the pipe has ended (Linux reports a FIFO's end only once a writer has come and gone)."""
        server("pipe-pane", "-t", target, f"cat > {shlex.quote(str(fifo))}")

    def drain(self) -> bool:
        """Read what the pane wrote since the last drain; whether it wrote anything (False at the
        FIFO's end: no writer yet, or none any more). :attr:`wrote` keeps it until a capture."""
        wrote = False
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            if not data:
                self.gone |= self.connected  # no writer: none yet, or the pipe has ended
                break
            wrote = self.connected = True
        self.wrote |= wrote
        return wrote

    def pause(self, longest: float) -> None:
        """Until the pane writes (at least :data:`GAP` after the last look) or ``longest`` seconds pass."""
        deadline = time.monotonic() + longest
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready and self.drain():
                break
            if ready:  # the FIFO's end: nothing will wake this wait
                self.gone = True
                time.sleep(max(deadline - time.monotonic(), 0))
        time.sleep(max(self.looked + GAP - time.monotonic(), 0))
        self.looked = time.monotonic()


class TmuxServer:
    """``server("send-keys", ...)`` runs a tmux command against this server; ``screen()`` is the pane's text."""

    def __init__(self, socket: Path) -> None:
        self.base = ["tmux", "-S", str(socket)]
        self.socket = socket
        self.outputs: dict[str, PaneOutput] = {}
        self.shown: dict[str, str] = {}
        """The last capture of each pane, while the pane has written nothing since."""

    def __call__(self, *args: str) -> str:
        """Run without COLUMNS and LINES (set under pytest): the server and its sessions would
        inherit them, and Textual takes them over the terminal's size (a full run once showed an
        80x24 app in a 160x48 window)."""
        env = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
        if args[:1] != ("capture-pane",):
            self.shown.clear()  # keys, clicks, sessions: the screens read so far are no longer the latest
        return subprocess.run([*self.base, *args], check=True, capture_output=True, text=True, timeout=20,
                              env=env).stdout

    def screen(self, target: str = "t") -> str:
        """The pane's text now: captured again only once the pane has written something since the
        last capture (its output is followed from the first look; :meth:`pause` wakes on it) or a
        command was sent."""
        output = self.outputs.get(target)
        if output is None or output.gone:
            name = "".join(c if c.isalnum() else "_" for c in target)
            output = self.outputs[target] = PaneOutput(self, target, self.socket.with_name(f"{self.socket.name}.{name}.out"))
        output.drain()
        if output.wrote or output.gone or target not in self.shown:
            output.wrote = False
            self.shown[target] = self("capture-pane", "-p", "-t", target)
        return self.shown[target]

    def pause(self, longest: float, target: str = "t") -> None:
        """Until ``target``'s pane writes something or ``longest`` seconds pass (a sleep before
        the first look at it)."""
        output = self.outputs.get(target)
        if output is None:
            time.sleep(longest)
        else:
            output.pause(longest)

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

        return wait_until(seen, timeout, lambda: f"{what} on the screen:\n{last[0]}", every=1.0,
                          pause=lambda longest: self.pause(longest, target))
