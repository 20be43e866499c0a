"""A recording that may not exist yet: whether it can be followed, and whether its session has begun.

A student may start ``cudatui follow FILE`` before the instructor's ``cudatui --record FILE``:
a FILE that does not exist yet, in a directory the student can read, is waited for
(:func:`follow_problem` says None, :func:`session_begun` False until the instructor's first
command is written). What can never become a recording is one line: a directory that does not
exist or that the student cannot read, something that is not a regular file (a FIFO, a device,
a directory), a file the student may not read.
"""

from __future__ import annotations

import errno
import os
import stat


def follow_problem(path: str) -> str | None:
    """Why ``path`` cannot be followed, now or later; None when it can (or may once it appears)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        info = os.stat(path)
    except OSError as exc:
        if exc.errno != errno.ENOENT:
            return f"cannot follow {path}: {exc.strerror or exc}"
        return _folder_problem(path, folder)
    if not stat.S_ISREG(info.st_mode):
        return f"cannot follow {path}: not a regular file (a recording is one; is it a directory, a device or a FIFO?)"
    if not os.access(path, os.R_OK):
        return (f"cannot follow {path}: not readable by you (the instructor shares it with "
                "`--share GROUP`; you must be in that group)")
    return None


def _folder_problem(path: str, folder: str) -> str | None:
    """Why the recording can never appear in ``folder`` for this user, or None."""
    try:
        info = os.stat(folder)
    except OSError as exc:
        return f"cannot follow {path}: its directory {folder}: {exc.strerror or exc}"
    if not stat.S_ISDIR(info.st_mode):
        return f"cannot follow {path}: {folder} is not a directory"
    if not os.access(folder, os.R_OK | os.X_OK):
        return f"cannot follow {path}: its directory {folder} is not readable by you"
    return None


def session_begun(path: str) -> bool:
    """Whether ``path`` holds a command of the instructor (:func:`holds_commands`): False while it
    is missing, empty, only a header or only gdb's start-up output."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO would block a plain open
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, 1 << 20)
    except OSError:
        return False
    finally:
        os.close(fd)
    return holds_commands(head)


def holds_commands(head: bytes) -> bool:
    """Whether the complete lines of ``head`` hold a command the instructor's front end wrote to
    gdb (``"dir": "in"``): not only a header, nor only gdb's start-up output, which the session
    writes before its first command (a follower that looked then, under load, took the session
    for one that does not read, and stopped)."""
    return any(b'"dir": "in"' in raw for raw in head.split(b"\n")[:-1])
