"""Whether a debugger starts and speaks MI, asked before any screen is drawn.

The debugger UI used to open its full screen (alternate screen, mouse reporting, a first frame)
and only then start the debugger; one that could not start (``--debugger /bin/false``, a program
that is no gdb) closed it again and left one line: a terminal that records (``script``, tmux's
scrollback, a CI log) got a screen's worth of escape codes before that line (issue 36).
:func:`debugger_problem` starts the debugger alone first (no program, no pty, MI's first
commands) and says why it cannot be used, in the words the UI would have used. A debugger that
has neither answered nor ended within :data:`CHECK_WAIT` seconds is let be: the UI opens and its
own start says what happens (``starting gdb``, then its answer or its time-out).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cudatui.gdbbridge.session.errors import DebuggerGone, DebuggerNotFound
from cudatui.gdbbridge.session.gdb import GdbSession

CHECK_WAIT = 3.0
"""Seconds the check waits for the debugger's first answers before it lets the UI open."""


def debugger_problem(debugger: Sequence[str], cwd: str | None = None, wait: float = CHECK_WAIT) -> str | None:
    """Why the debugger started by ``debugger`` cannot be used (it could not start, ended at its
    start, or is no gdb), or None: it answered, or is still silent after ``wait`` seconds."""
    return asyncio.run(_check(debugger, cwd, wait))


async def _check(debugger: Sequence[str], cwd: str | None, wait: float) -> str | None:
    session = GdbSession(debugger, cwd=cwd, inferior_tty=False, cgroup=False)
    try:
        await asyncio.wait_for(session.start(), wait)
    except (DebuggerNotFound, DebuggerGone) as exc:
        return str(exc)
    except asyncio.TimeoutError:
        return None
    finally:
        await session.close()
    return None
