"""Waking up when a file is written: Linux inotify (through ctypes), else a slow poll.

:class:`FileWatch` watches the DIRECTORY of a file (so the file's creation, replacement and
removal are seen as well as its writes) and wakes its reader for the events that name the file.
Where inotify is missing (not Linux, no libc, the user's inotify instances or watches used up,
a file system that sends no events) the reader looks every :data:`FALLBACK_POLL` seconds instead;
a reader that has inotify still looks every :data:`IDLE_LOOK` seconds (events of a network file
system written from another machine never come).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import select
import struct
import time

IN_MODIFY = 0x002
IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_IGNORED = 0x8000
MASK = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF
"""What changes the file: written, created, renamed onto or away, removed (or its directory)."""

FALLBACK_POLL = 0.5
"""Seconds between looks at the file without inotify."""
IDLE_LOOK = 2.0
"""Seconds between looks at the file with inotify (nothing heard meanwhile)."""

_EVENT = struct.Struct("iIII")
"""struct inotify_event: wd, mask, cookie, len (then len bytes of name, NUL-padded)."""


def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    return libc if hasattr(libc, "inotify_init1") and hasattr(libc, "inotify_add_watch") else None


def inotify(path: str, mask: int) -> int | None:
    """A non-blocking inotify descriptor watching ``path`` for ``mask``; None where inotify is
    missing, the user's instances or watches are used up, or ``path`` is not there."""
    libc = _libc()
    if libc is None:
        return None
    fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0:  # EMFILE: the user's inotify instances are used up
        return None
    if libc.inotify_add_watch(fd, os.fsencode(path), mask) < 0:  # ENOSPC: no watches left; ENOENT
        os.close(fd)
        return None
    return int(fd)


class FileWatch:
    """Wakes its reader when ``path`` may have changed (see the module docstring)."""

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self.name = os.fsencode(os.path.basename(self.path))
        self.fd: int | None = inotify(os.path.dirname(self.path), MASK)
        """The inotify descriptor (readable when events came), None where inotify is unavailable."""

    @property
    def notified(self) -> bool:
        """Whether inotify tells this watch of changes (else it polls)."""
        return self.fd is not None

    @property
    def timeout(self) -> float:
        """The longest a reader should wait before looking at the file anyway."""
        return IDLE_LOOK if self.notified else FALLBACK_POLL

    def fileno(self) -> int | None:
        return self.fd

    def drain(self) -> bool:
        """Read the events that came; True when one may concern the file (or its directory)."""
        if self.fd is None:
            return True
        hit = False
        while True:
            try:
                data = os.read(self.fd, 64 * 1024)
            except BlockingIOError:
                return hit
            except OSError:
                self.close()
                return True
            if not data:
                return hit
            at = 0
            while at + _EVENT.size <= len(data):
                _wd, mask, _cookie, length = _EVENT.unpack_from(data, at)
                name = data[at + _EVENT.size: at + _EVENT.size + length].rstrip(b"\0")
                at += _EVENT.size + length
                if name == self.name or not name or mask & (IN_IGNORED | IN_DELETE_SELF):
                    hit = True
                if mask & IN_IGNORED:  # the directory is gone: nothing will come any more
                    self.close()
                    return True

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a change of the file; True when one may have come
        (without inotify: after at most :data:`FALLBACK_POLL` seconds, always True)."""
        if self.fd is None:
            time.sleep(max(0.0, min(timeout, FALLBACK_POLL)))
            return True
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready and self.drain():
                return True

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)
