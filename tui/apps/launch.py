"""Opening the debugger UI: the launch of a program or a coredump, and the app's run.

The command line (``tui/cli.py``) and the sanitize app's hand-offs ("Debug this finding",
"Post-mortem", ``tui/commands/sanitize.py``) build their :class:`LaunchConfig` with
:func:`debug_config`, check the debugger with :func:`check_debugger` and open the UI with
:func:`run_app`.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable

from cudatui.gdbbridge import LaunchConfig, attach_debugger, debugger_problem, effective_line_limit, process_info
from cudatui.tui.cli_errors import fail
from cudatui.tui.needs_terminal import missing_terminal

if TYPE_CHECKING:
    from cudatui.tui.apps.debugger_app import DebuggerApp

RANK_WAIT = 10.0
"""Seconds a job's launcher (``--rank``) has to hand its rank before the screen opens: one that
fails or ends first is one line on the terminal; a slower one is waited for in the UI (torchrun
imports torch first: 3-5 s)."""


def check_debugger(debugger: str) -> str | None:
    """Why ``debugger`` cannot be run, or None."""
    if shutil.which(debugger):
        return None
    hint = "install the CUDA toolkit or pass --debugger gdb" if debugger == "cuda-gdb" else "check --debugger"
    return f"debugger {debugger} not found or not executable ({hint})"


def debug_config(program: str | None, args: tuple[str, ...] = (), *, breakpoints: tuple[str, ...] = (),
                 core: str | None = None, debugger: str = "cuda-gdb") -> LaunchConfig:
    """The debugger UI on PROGRAM ARGS from the current directory (or on a coredump)."""
    anchor = program if program is not None and Path(program).exists() else core
    program_dir = str(Path(anchor).resolve().parent) if anchor else os.getcwd()
    return LaunchConfig(
        debugger=(debugger,),
        target=(program, *args) if program is not None else (),
        breakpoints=breakpoints,
        cwd=os.getcwd(),
        source_dirs=tuple(dict.fromkeys((program_dir, os.getcwd()))),
        core=str(Path(core).resolve()) if core else None,
    )


def attach_config(pid: int, debugger: str | None, breakpoints: tuple[str, ...] = ()) -> LaunchConfig:
    """The debugger UI attached to the running process ``pid`` (``debugger`` None: cuda-gdb for a
    CUDA program, GNU gdb for another); its sources are looked for in its directory and here."""
    info = process_info(pid)
    chosen = debugger if debugger is not None else (
        attach_debugger(info, shutil.which("gdb") is not None) if info else "cuda-gdb")
    try:
        where = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        where = os.getcwd()
    return LaunchConfig(debugger=(chosen,), attach=pid, breakpoints=breakpoints, cwd=os.getcwd(),
                        source_dirs=tuple(dict.fromkeys((where, os.getcwd()))))


def run_app(config: LaunchConfig, make: Callable[[LaunchConfig], DebuggerApp] | None = None) -> int:
    """The debugger UI on ``config`` (the app ``make`` builds; by default the plain debugger, or
    the follower's when it follows a recording); its exit code (2 and a one-line error when it
    could not start: a live debugger is checked before the screen opens, :func:`debugger_problem`)."""
    try:
        effective_line_limit()
    except ValueError as exc:  # a bad $CUDATUI_MI_LINE_LIMIT
        return fail(str(exc))
    if why := missing_terminal():
        return fail(why)
    if not config.replayed and (problem := debugger_problem(config.debugger, config.cwd)):
        return fail(problem)  # before any screen code: the one line is all the terminal gets
    from cudatui.tui.apps.debugger_app import DebuggerApp  # Textual: once the checks passed
    from cudatui.tui.apps.follow_app import FollowApp

    app = (make or (FollowApp if config.follow else DebuggerApp))(config)
    if config.rank is not None and not config.replayed:
        problem, code = asyncio.run(_with_job(app))
        if problem:
            return fail(problem)  # the launcher failed before the screen opened: one line, as above
    else:
        code = app.run() or 0
    if app.failure:
        return fail(app.failure)
    return code


async def _with_job(app: DebuggerApp) -> tuple[str | None, int]:
    """Start the job's launcher (``--rank``), and the app in the same event loop once it handed
    its rank or :data:`RANK_WAIT` seconds passed: why the launcher failed first, or the app's
    exit code."""
    if problem := await app.debugger.start_job(RANK_WAIT):
        return problem, 2
    return None, await app.run_async() or 0
