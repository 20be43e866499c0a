"""ctrl+q from the first moment: the terminal's flow control is turned off while cudatui runs.

A terminal in its usual mode (IXON on) takes ctrl+q as XON and never passes it on: typed while
cudatui starts (0.3 s after ``cudatui replay``, or between the lesson picker and the lesson,
before Textual puts the terminal in raw mode) it was lost, and the app never quit (issue 32).
:func:`keep_early_keys` turns IXON off first thing, so the key waits in the terminal's input and
the app reads it as soon as it runs; the terminal's settings are put back at exit.

ctrl+c typed while cudatui starts (before Textual reads it as a key) is SIGINT: the first one
ends the start with ``cudatui: interrupted`` and 130, and the next ones, typed in a row, must
not interrupt that end (a second KeyboardInterrupt raised in the handler of the first, or while
Python printed it, ended cudatui with a traceback, issue 36). While the command line loads,
:func:`interrupt_once` ignores the SIGINTs after the first; then Python's own handler is back
(asyncio's runs take ctrl+c as a cancel only under it) and ``cli.main`` ignores the ones after
the KeyboardInterrupt it catches.
"""

from __future__ import annotations

import atexit
import signal
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import Any


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


_interrupts = 0
"""SIGINTs :func:`_interrupted` turned into a KeyboardInterrupt (at most one)."""


def interrupt_once() -> bool:
    """Make the first SIGINT a KeyboardInterrupt, and ignore the ones after it; whether it did
    (not when SIGINT is not Python's default, e.g. ignored by the caller). A KeyboardInterrupt
    that lands in a callback Python cannot raise from (the import system's module-lock weakref
    callback, while Textual loads) is swallowed, and was printed as ``Exception ignored in ...``
    with a traceback while the start went on: it is kept quiet here, and :func:`main` ends the
    start as the KeyboardInterrupt would have."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, _interrupted)
    sys.unraisablehook = _quiet_interrupt(sys.unraisablehook)
    return True


def _interrupted(number: int, frame: object) -> None:
    global _interrupts
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _interrupts += 1
    raise KeyboardInterrupt


def _quiet_interrupt(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """``hook`` for every unraisable exception but a KeyboardInterrupt."""
    def unraisable(info: Any) -> object:
        return None if info.exc_type is KeyboardInterrupt else hook(info)
    return unraisable


def _restore(fd: int, attributes: list[object]) -> None:
    import termios

    with suppress(OSError, termios.error):
        termios.tcsetattr(fd, termios.TCSANOW, attributes)


def main() -> int:
    """The ``cudatui`` command: the early keys kept, then the command line (imported after: it
    loads Textual, which takes a while; a ctrl+c meanwhile is the line :func:`cli.main` says)."""
    hook = sys.unraisablehook
    ours = interrupt_once()
    keep_early_keys()
    try:
        from cudatui.tui.cli import main as cli_main
        if _interrupts:  # raised where Python swallowed it (see interrupt_once)
            raise KeyboardInterrupt
    except KeyboardInterrupt:  # ctrl+c while Textual loads: the line cli.main says for it
        sys.stderr.write("cudatui: interrupted\n")
        return 130
    finally:
        sys.unraisablehook = hook
    if ours and signal.getsignal(signal.SIGINT) is _interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return cli_main()
