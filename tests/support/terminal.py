"""The app in a real pseudo-terminal, as a user runs it."""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

from .paths import ROOT
from .wait import wait_until

ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


class TerminalApp:
    """``python -m cudatui ARGS`` in a 100x30 pseudo-terminal, as a user runs it (own session).

    Everything it writes (the UI goes to stderr, like the final error line) is read in a thread
    into ``output``; :meth:`after_exit` is what stays on the terminal once the UI has closed.
    """

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        full_env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT), **(env or {})}
        self.proc = subprocess.Popen([sys.executable, "-m", "cudatui", *args], stdin=slave, stdout=slave, stderr=slave,
                                     cwd=cwd, env=full_env, start_new_session=True)
        os.close(slave)
        self._master = master
        self.output = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self._master, 1 << 16)
            except OSError:
                return
            if not data:
                return
            self.output.extend(data)

    def send(self, keys: str) -> None:
        os.write(self._master, keys.encode())

    def mark(self) -> int:
        """Where the output is now: :meth:`wait_shown` with ``since=mark()`` looks only at what comes after."""
        return len(self.output)

    def shows(self, text: str, since: int = 0) -> bool:
        """Whether the app has written ``text`` (escape sequences left out) since ``since``."""
        return text in ANSI.sub("", bytes(self.output[since:]).decode("utf-8", "replace"))

    def wait_shown(self, text: str, since: int = 0) -> None:
        """Until the app has written ``text`` since ``since`` (it drew it: the UI took what came before)."""
        wait_until(lambda: self.shows(text, since), why=f"{text!r} on the terminal")

    def wait(self, timeout: float) -> int:
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=5)
        return code

    def after_exit(self) -> str:
        """The text left on the terminal after the UI closed its alternate screen."""
        tail = bytes(self.output).rsplit(b"\x1b[?1049l", 1)[-1].decode("utf-8", "replace")
        return ANSI.sub("", tail).replace("\r\n", "\n")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        os.close(self._master)
