"""The debuggee's own terminal: a pty whose output is read on the event loop."""

from __future__ import annotations

import asyncio
import os
import tty
from collections.abc import Callable


PROGRAM_TTY_FD = "CUDATUI_PROGRAM_TTY_FD"
"""The environment variable that gives a stand-in debugger (a replay) the number of the file
descriptor it inherited for the debuggee's pty: it writes the recorded program output there, not
to the path ``-inferior-tty-set`` names, which may be another terminal's by the time it opens it
(a front end gone meanwhile frees its pty's number for the next terminal)."""


class ProgramTty:
    """A pseudo-terminal handed to gdb with ``-inferior-tty-set``.

    We keep the slave side open ourselves so that reading the master never fails with EIO
    between two programs (restart), and put it in raw mode so output arrives byte for byte.
    """

    def __init__(self, on_output: Callable[[bytes], None]) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.name = os.ttyname(self._slave)
        self._on_output = on_output
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self._master, self._readable)
        self._closed = False

    def _readable(self) -> None:
        try:
            data = os.read(self._master, 1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._loop.remove_reader(self._master)
            return
        if data:
            self._on_output(data)

    @property
    def slave_fd(self) -> int:
        """The slave side's file descriptor (kept open for as long as this pty is)."""
        return self._slave

    def drain(self) -> None:
        """Deliver whatever the program wrote that has not been read yet."""
        if self._closed:
            return
        while True:
            try:
                data = os.read(self._master, 1 << 16)
            except OSError:
                return
            if not data:
                return
            self._on_output(data)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._loop.remove_reader(self._master)
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
