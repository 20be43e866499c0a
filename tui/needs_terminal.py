"""Whether the full-screen UI has a terminal to run on.

A valid command line started from cron, ``ssh host cudatui ...`` without ``-t`` or with stdin
on /dev/null has no terminal: the UI would wait for keys that never come and write its screen
codes into a pipe or a log. Every full-screen start (the debugger, replay, follow, the demo and
its picker, sanitize and stats without their printing options) asks :func:`missing_terminal`
first and refuses in one line, exit 2 (issue 36). The sub-commands that print (``demo --list``,
``sanitize --read`` into a pipe, ``explain``, ``doctor``, ``stats --once``) need none.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False


WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The driver textual-serve gives each browser's app (``$TEXTUAL_DRIVER``): its screen is the browser."""


def missing_terminal() -> str | None:
    """Why the full-screen UI cannot run here (stdin or stdout is no terminal, and it is not a
    browser's app under ``cudatui follow --serve``), or None."""
    if os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER:
        return None
    gone = [name for name, stream in (("standard input", sys.stdin), ("standard output", sys.stdout))
            if not _is_terminal(stream)]
    if not gone:
        return None
    return (f"needs a terminal for the full-screen UI, and {' and '.join(gone)} {'is' if len(gone) == 1 else 'are'} "
            "not one (run it in a terminal, or `ssh -t`; printing commands: demo --list, explain, doctor, "
            "sanitize --json, stats --once)")
