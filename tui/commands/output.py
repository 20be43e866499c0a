"""What the printing sub-commands write to stdout, and what happens when its reader goes away.

``cudatui doctor | head -1`` closes the pipe early: the next write fails with EPIPE (Python
ignores SIGPIPE). :func:`reader_gone` points stdout at /dev/null, so the flush at exit is silent
too, and gives :data:`READER_GONE` (141, the status a shell reports for a command killed by
SIGPIPE), without a word: the reader asked for no more. ``cudatui.tui.cli.main`` does this for
every command; :func:`print_text` is how a command prints plain text (no escape sequence from
the input reaches the pipe or the terminal, no lone surrogate makes ``print`` raise).
"""

from __future__ import annotations

import re
import select
import sys

from cudatui.gdbbridge import sanitize
from cudatui.tui.cli_errors import silence_stdout

READER_GONE = 141
"""Exit status when stdout's reader went away (128 + SIGPIPE)."""

INTERRUPTED = 130
"""Exit status after ctrl+c (128 + SIGINT)."""

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def plain(text: str) -> str:
    """``text`` safe to print: escape sequences removed, controls shown as ``^X``, undecodable
    bytes (lone surrogates from the command line) as U+FFFD."""
    return _SURROGATE.sub("\ufffd", sanitize(text))


def print_text(text: str) -> None:
    """Print ``text`` as plain text (see :func:`plain`)."""
    print(plain(text))


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def stdout_reader_gone() -> bool:
    """Whether stdout is a pipe whose reading end is closed (poll reports an error on it)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, ValueError, OSError):
        return False


def reader_gone() -> int:
    """Silence stdout (it points at /dev/null from now on) and return :data:`READER_GONE`."""
    silence_stdout()
    return READER_GONE
