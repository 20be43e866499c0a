"""The one way the command line reports an error: one harmless line on stderr.

Every error line of ``cudatui`` and its sub-commands (a bad argument, a missing program or
recording, a debugger that failed to start, argparse's own complaints) is written by
:func:`fail`, which passes the message through :func:`cudatui.gdbbridge.text.one_line`: a file
name holding an OSC title or clipboard write, a CSI or DCS sequence, a C1 byte or a newline is
shown as ``^[``, ``^G``, ``^J`` … on one line, never obeyed by the terminal (issue 36). Nothing
else in the command line prints to stderr.

:func:`os_error` turns an OSError no check foresaw (a file name too long for the system, a full
disk under stdout) into such a line too, so that no path ends in a traceback.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from typing import NoReturn

from cudatui.gdbbridge import one_line

USAGE = 2
"""Exit status of a command line that cannot be run (a bad argument, a missing file)."""

OUTPUT_FAILED = 1
"""Exit status when stdout cannot be written (a full disk, an I/O error)."""


def fail(message: str, code: int = USAGE, who: str = "cudatui") -> int:
    """Write ``who: message`` as one clean line on stderr (nothing when stderr too is gone);
    return ``code``."""
    try:
        sys.stderr.write(f"{one_line(f'{who}: {message}')}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    return code


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but an error is one clean line on stderr (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        fail(f"error: {message}", who=self.prog)
        raise SystemExit(USAGE)


_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG})
"""Errors of a write; one that names no file is stdout's (every file the commands open is named)."""


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit says nothing either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, ValueError, OSError):
        pass


def os_error(exc: OSError) -> int:
    """One line for an OSError that reached the top of the command line; its exit status.

    stdout that cannot be written (``> /dev/full``) is ``cannot write the output: …`` and exit 1;
    anything else names the file and the system's reason (``File name too long``), exit 2."""
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0) or str(exc)
    if exc.filename is None and exc.errno in _WRITE_ERRORS:
        silence_stdout()
        return fail(f"cannot write the output: {reason}", OUTPUT_FAILED)
    name = os.fsdecode(exc.filename) if isinstance(exc.filename, (str, bytes)) else None
    return fail(f"{name}: {reason}" if name else reason)
