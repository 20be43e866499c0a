"""Session transcripts: one JSON object per line, flushed line by line.

Format (version 1, the one of shared/reference/transcripts plus a header)::

    {"dir": "meta", "format": "cudatui-transcript", "version": 1, "argv": [...], "t": 0}
    {"t": 0.17, "dir": "in", "line": "101-break-insert -f reduce_racy"}
    {"t": 0.18, "dir": "out", "line": "101^done,bkpt={...}"}
    {"t": 0.18, "dir": "mark", "line": "rtt -break-insert result=0.0012"}
    {"t": 2.50, "dir": "program", "line": "text the debuggee wrote to its tty"}

A recording is user data. :func:`prepare` creates the file once (refusing an existing one
unless forced; ``--force`` replaces only the user's own file, by a new one renamed over it);
each debugger session (a restart starts a new one) then appends its own header and lines, so
nothing recorded is ever lost, and never to a file another user put in its place. The file is a regular file, opened
without following a symlink, and private (0600) whatever mode it had. Every line is pure
ASCII-safe JSON for line ends: U+2028, U+2029 and U+0085 are written as escapes, so a reader
that splits on ``\\n`` reads exactly what was written. A transcript cut off by a crash is
still valid up to its last complete line. A write error stops the recording (once, with a
message to ``on_error``); the session goes on.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
import time
from collections.abc import Callable, Sequence

FORMAT = "cudatui-transcript"
VERSION = 1

_LINE_ENDS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


class RecordingError(Exception):
    """The recording file cannot be created or written (message is one line)."""


PRIVATE = 0o600
"""A recording's mode: the user's alone."""
SHARED = 0o640
"""A recording shared with a group (``--share GROUP``: students following with ``cudatui follow``)."""


def _open(path: str | os.PathLike[str], flags: int, mode: int = PRIVATE) -> int:
    """A descriptor on ``path``: a regular file, no symlink followed, mode ``mode`` (0600)."""
    name = os.fspath(path)
    try:
        fd = os.open(name, flags | os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except FileExistsError:
        if os.path.islink(name):
            raise RecordingError(f"{name} is a symbolic link: not followed (record to the file itself)") from None
        if os.path.exists(name) and not os.path.isfile(name):
            raise RecordingError(f"cannot record to {name}: not a regular file (a device or a FIFO)") from None
        raise RecordingError(f"{name} exists: a recording is never replaced (--force replaces it)") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise RecordingError(f"{name} is a symbolic link: not followed (record to the file itself)") from None
        if exc.errno == errno.ENXIO:
            raise RecordingError(f"{name} is a FIFO without a reader: record to a regular file") from None
        raise RecordingError(f"cannot record to {name}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RecordingError(f"cannot record to {name}: not a regular file (a device or a FIFO)")
        os.fchmod(fd, mode)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def prepare(path: str | os.PathLike[str], *, force: bool = False, group: str | None = None) -> None:
    """Create the recording file empty and private (or readable by ``group``: mode 0640, that
    group's). An existing file only with ``force``, and only the user's own: it is replaced by a
    new file (made beside it, then renamed over it), never written into, so another name (a hard
    link) of the old one keeps its content. What fails leaves no file behind."""
    gid = _group_id(group) if group else None
    mode = SHARED if group else PRIVATE
    name = os.fspath(path)
    if not force:
        fd = _open(name, os.O_CREAT | os.O_EXCL, mode)
        _share(fd, name, gid, group, name)
        return
    _replaceable(name)
    folder, base = os.path.split(os.path.abspath(name))
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{base}.", suffix=".new", dir=folder)
    except OSError as exc:
        raise RecordingError(f"cannot record to {name}: {exc.strerror or exc}") from None
    _share(fd, name, gid, group, temporary)
    try:
        os.rename(temporary, name)
    except OSError as exc:
        os.unlink(temporary)
        raise RecordingError(f"cannot record to {name}: {exc.strerror or exc}") from None


def _replaceable(name: str) -> None:
    """Refuse what ``--force`` must not replace: a link, what is no regular file, another user's
    file, a file the user may not write."""
    try:
        info = os.lstat(name)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise RecordingError(f"cannot record to {name}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):
        raise RecordingError(f"{name} is a symbolic link: not followed (record to the file itself)")
    if not stat.S_ISREG(info.st_mode):
        raise RecordingError(f"cannot record to {name}: not a regular file (a device or a FIFO)")
    if info.st_uid != os.geteuid():
        raise RecordingError(f"{name} belongs to another user (uid {info.st_uid}): --force never replaces someone "
                             "else's file; record to another name")
    try:  # the user may write it (a read-only file, a read-only file system: said as such); nothing is changed
        os.close(os.open(name, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC))
    except OSError as exc:
        raise RecordingError(f"cannot record to {name}: {exc.strerror or exc}") from None


def _share(fd: int, name: str, gid: int | None, group: str | None, made: str) -> None:
    """Give the new file ``made`` (the descriptor ``fd``) its mode and ``gid``; on failure it is removed."""
    try:
        os.fchmod(fd, SHARED if gid is not None else PRIVATE)
        if gid is not None:
            os.fchown(fd, -1, gid)
    except OSError as exc:
        os.unlink(made)
        why = "you are not in that group (see `id`)" if exc.errno == errno.EPERM else exc.strerror or str(exc)
        raise RecordingError(f"cannot share {name} with group {group}: {why}") from None
    finally:
        os.close(fd)


def _group_id(group: str) -> int:
    import grp

    try:
        return grp.getgrnam(group).gr_gid
    except KeyError:
        raise RecordingError(f"no group named {group!r} (see `getent group`)") from None


def encode(obj: dict[str, object]) -> str:
    """One transcript line (without its ``\\n``): JSON with no raw line-end character."""
    text = json.dumps(obj, ensure_ascii=False)
    for char, escape in _LINE_ENDS.items():
        text = text.replace(char, escape)
    return text


class Recorder:
    """Appends one session to a transcript file, opened at the first line written."""

    def __init__(self, path: str | os.PathLike[str], argv: Sequence[str],
                 on_error: Callable[[str], None] | None = None, mode: int = PRIVATE) -> None:
        self.path = path
        self.mode = mode
        self._argv = list(argv)
        self._on_error = on_error
        self._fd: int | None = None
        self._identity: tuple[int, int] | None = None
        """(device, inode) of the file opened, which the path must still name."""
        self._t0 = time.monotonic()
        self.failure: str | None = None
        """Why recording stopped, once it has."""

    def write(self, direction: str, line: str) -> None:
        self._write({"t": round(time.monotonic() - self._t0, 4), "dir": direction, "line": line})

    def _write(self, obj: dict[str, object]) -> None:
        if self.failure is not None:
            return
        try:
            if self._fd is None:
                self._fd = _open(self.path, os.O_CREAT | os.O_APPEND, self.mode)
                info = os.fstat(self._fd)
                if info.st_uid != os.geteuid():  # renamed away and another user's file put in its place
                    raise RecordingError(f"recording to {os.fspath(self.path)} stopped: it now belongs to another "
                                         f"user (uid {info.st_uid}): it was replaced, and is not written")
                self._identity = (info.st_dev, info.st_ino)
                header = {"t": 0.0, "dir": "meta", "format": FORMAT, "version": VERSION, "argv": self._argv}
                self._put(encode(header) + "\n")
            elif obj["dir"] == "in":  # at each command: is the file still the one written?
                self._check_still_there()
            self._put(encode(obj) + "\n")
        except RecordingError as exc:
            self._fail(str(exc))
        except OSError as exc:
            self._fail(f"recording to {os.fspath(self.path)} stopped: {exc.strerror or exc}")

    def _check_still_there(self) -> None:
        """RecordingError when the path no longer names the file written (removed, or replaced
        by a FIFO, a link or another file): what would follow would be written where nobody reads."""
        name = os.fspath(self.path)
        try:
            info = os.lstat(name)
        except OSError as exc:
            raise RecordingError(f"recording to {name} stopped: {name} was removed ({exc.strerror or exc}); "
                                 "what follows is not recorded") from None
        if (info.st_dev, info.st_ino) != self._identity:
            kind = ("a FIFO" if stat.S_ISFIFO(info.st_mode) else "a symbolic link" if stat.S_ISLNK(info.st_mode)
                    else "another file")
            raise RecordingError(f"recording to {name} stopped: {name} was replaced by {kind}; what follows is not "
                                 "recorded")

    def _put(self, text: str) -> None:
        assert self._fd is not None
        data = text.encode("utf-8", errors="surrogateescape")
        while data:
            data = data[os.write(self._fd, data):]

    def _fail(self, message: str) -> None:
        self.failure = message
        self.close()
        if self._on_error is not None:
            self._on_error(message)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
