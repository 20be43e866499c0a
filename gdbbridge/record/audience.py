"""How many follow a recording: the instructor's count of the followers reading its file.

A follower's stand-in (:class:`~cudatui.gdbbridge.record.follow.Follower`) holds the recording
open for reading as long as it follows, with a shared lock on one byte far past its end
(:func:`be_counted`; an open-file-description lock, so the follower's reloads of the file do not
drop it, and it disturbs no reader or writer). The kernel lists every lock in ``/proc/locks``,
whoever holds it: the instructor counts the locks on its file there (a student's own account
included; nothing of theirs is read or written). It counts again when inotify says the file was
opened or closed (a follower comes, reloads or goes), once that has been quiet for a moment
(:data:`SETTLE`).

Where inotify or /proc/locks is missing, the count stays unknown (None) and nothing is shown.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import struct
from collections.abc import Callable

from cudatui.gdbbridge.record.file_watch import inotify

IN_CLOSE_WRITE = 0x008
IN_CLOSE_NOWRITE = 0x010
IN_OPEN = 0x020
MASK = IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE

MARK = 1 << 40
"""The byte a follower locks: past the end of any recording."""
LOCKS = "/proc/locks"
SETTLE = 0.3
"""Seconds without an open or close before the count is told (a stop's reloads are over)."""


def be_counted(path: str) -> int | None:
    """The descriptor a follower holds open on ``path`` while it follows, its byte locked for
    reading (None where that cannot be done: the follower is just not counted)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqi4x", fcntl.F_RDLCK, os.SEEK_SET, MARK, 1, 0))
    except (OSError, AttributeError):  # AttributeError: no OFD locks on this system
        os.close(fd)
        return None
    return fd


def readers(path: str, locks: str = LOCKS) -> int | None:
    """How many hold a follower's lock on ``path`` (None: the file or the lock list is not readable)."""
    try:
        info = os.stat(path)
        with open(locks, encoding="ascii", errors="replace") as listed:
            lines = listed.readlines()
    except OSError:
        return None
    inode = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    return sum(1 for line in lines if "->" not in line and f" {inode} {MARK} " in line and " READ " in line)


class AudienceWatch:
    """The followers of one recording on the running asyncio loop: ``tell(count)`` once the count
    settled after an open or close of the file, and only when it changed (see the module docstring)."""

    def __init__(self, path: str, tell: Callable[[int], None]) -> None:
        self.path = path
        self.fd: int | None = inotify(path, MASK)
        """The inotify descriptor (readable when the file was opened or closed), None without inotify."""
        self._tell = tell
        self._told: int | None = None
        self._later: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()
        if self.fd is not None:
            self._loop.add_reader(self.fd, self._readable)

    def _readable(self) -> None:
        assert self.fd is not None
        try:
            while os.read(self.fd, 64 * 1024):
                pass
        except BlockingIOError:
            pass
        except OSError:
            self.close()
            return
        if self._later is not None:
            self._later.cancel()
        self._later = self._loop.call_later(SETTLE, self._settled)

    def _settled(self) -> None:
        self._later = None
        count = readers(self.path)
        if count is not None and count != self._told and (count or self._told is not None):
            self._told = count
            self._tell(count)

    def close(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None
        if self.fd is not None:
            fd, self.fd = self.fd, None
            self._loop.remove_reader(fd)
            os.close(fd)
