"""gdb SIGKILLed while a ``shell`` command it runs still holds its streams (the reaping and
transport tests both start from there)."""

from __future__ import annotations

import asyncio
import os
import signal

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.mi import Flag

from .processes import children_named
from .wait import until


async def gdb_killed_under_a_shell_sleep(session: GdbSession, seen: list[ev.Event]) -> tuple[asyncio.Future[object], int]:
    """gdb runs ``shell sleep 120`` (the sleep inherits its stdin, stdout and stderr) and is
    SIGKILLed once the sleep runs; returns when the session has said DebuggerExited: the
    command's future and the sleep's pid."""
    shell = asyncio.ensure_future(session.command("-interpreter-exec", Flag("console"), "shell sleep 120"))
    assert session.pid is not None
    gdb = session.pid
    await until(lambda: children_named(gdb, "sleep"))
    sleeper = children_named(gdb, "sleep")[0]
    os.kill(gdb, signal.SIGKILL)
    await until(lambda: any(isinstance(e, ev.DebuggerExited) for e in seen))
    return shell, sleeper
