"""ctrl+q from the first moment: the terminal's flow control is turned off while cudatui runs.

A terminal in its usual mode (IXON on) takes ctrl+q as XON and never passes it on: typed while
cudatui starts (0.3 s after ``cudatui replay``, or between the lesson picker and the lesson,
before Textual puts the terminal in raw mode) it was lost, and the app never quit (issue 32).
:func:`keep_early_keys` turns IXON off first thing, so the key waits in the terminal's input and
the app reads it as soon as it runs; the terminal's settings are put back at exit.
"""

from __future__ import annotations

import atexit
import sys
from contextlib import suppress


def keep_early_keys() -> None:
    """Turn the terminal's XON/XOFF flow control off until exit (nothing without a terminal)."""
    try:
        import termios
    except ImportError:  # not a POSIX system
        return
    stream = sys.stdin
    with suppress(OSError, ValueError, AttributeError):
        if stream is None or not stream.isatty():
            return
        fd = stream.fileno()
        before = termios.tcgetattr(fd)
        if not before[0] & termios.IXON:
            return
        changed = list(before)
        changed[0] = before[0] & ~termios.IXON
        termios.tcsetattr(fd, termios.TCSANOW, changed)
        atexit.register(_restore, fd, before)


def _restore(fd: int, attributes: list[object]) -> None:
    import termios

    with suppress(OSError, termios.error):
        termios.tcsetattr(fd, termios.TCSANOW, attributes)


def main() -> int:
    """The ``cudatui`` command: the early keys kept, then the command line (imported after: it
    loads Textual, which takes a while)."""
    keep_early_keys()
    from cudatui.tui.cli import main as cli_main

    return cli_main()
