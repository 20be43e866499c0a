"""Frozen views of a host process's Python stack, as :mod:`.reader` reads it.

Frames are innermost first (the frame running now, then its caller ...), as gdb numbers its
own frames (level 0 innermost). All text is valid UTF-8: a lone surrogate (a file name that
was not UTF-8, decoded with ``surrogateescape``) becomes U+FFFD, so every view can be printed
and recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cudatui.gdbbridge.paths import is_user_file, package_of, source_line

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


@dataclass(frozen=True)
class HostFrame:
    """One Python frame: where it is, its source line's text, and whether it is the user's code.

    ``code`` is the line read from ``file`` (stripped), '' when the file cannot be read;
    ``user`` is False for installed packages, the standard library and ``<frozen …>`` code
    (:func:`~cudatui.gdbbridge.paths.is_user_file`)."""

    file: str
    line: int
    function: str
    code: str = ""
    user: bool = True

    @classmethod
    def at(cls, file: str, line: int, function: str) -> HostFrame:
        """The frame at ``file:line`` in ``function``, with its code read and its owner decided."""
        return cls(clean(file), line, clean(function), clean(source_line(file, line)), is_user_file(file))

    @property
    def package(self) -> str:
        """The top-level package of the frame's file (meaningful for library frames)."""
        return package_of(self.file)


@dataclass(frozen=True)
class HostThread:
    """One Python thread: its Linux thread id, its system name as pystack reports it (the
    ``comm`` of the thread, often just ``python``) when known, and its frames."""

    tid: int
    name: str | None
    frames: tuple[HostFrame, ...]
    """Innermost first."""

    @property
    def user_frame(self) -> HostFrame | None:
        """The innermost frame of the user's own code, or None."""
        return next((f for f in self.frames if f.user), None)


@dataclass(frozen=True)
class HostStack:
    """The Python threads of process ``pid`` at a stop, or why they could not be read.

    ``error`` is one line (pystack missing, not a Python process, no such process ...); the
    threads are then empty."""

    pid: int
    threads: tuple[HostThread, ...] = ()
    error: str | None = None

    @property
    def thread(self) -> HostThread | None:
        """The thread to show: the main thread (its id is the pid) when it runs user code, else
        the first thread that does, else the first thread."""
        with_user = [t for t in self.threads if t.user_frame is not None]
        main = next((t for t in with_user if t.tid == self.pid), None)
        return main or (with_user[0] if with_user else None) or (self.threads[0] if self.threads else None)

    @property
    def user_frame(self) -> HostFrame | None:
        """The innermost user frame of :attr:`thread`: the line of the user's script behind the stop."""
        thread = self.thread
        return thread.user_frame if thread is not None else None
