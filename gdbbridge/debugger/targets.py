"""The programs a Debugger did not start itself: a process it attaches to, one rank of a job.

**Attach** (``LaunchConfig.attach``): gdb attaches as it starts (``-p``, asynchronous MI set
before it, :data:`~cudatui.gdbbridge.session.gdb.ATTACH_FLAGS`), so its first stop is where the
process was; the status bar always shows the process and that q detaches (the program runs
on); ``r`` does not kill it. **Rank** (``LaunchConfig.rank``): the launcher starts, and the rank it
hands over (:class:`~cudatui.gdbbridge.jobs.ranks.RankJob`) becomes the program the Debugger
runs; its exit code goes back to the launcher.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.events import Notice, StartupFailed
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.jobs.attach import ProcessInfo, process_info, refusal, short_command
from cudatui.gdbbridge.jobs.ranks import RankJob, RankJobError

if TYPE_CHECKING:
    from cudatui.gdbbridge.debugger.core import DebuggerCore


def attach_context(pid: int, info: ProcessInfo | None) -> str:
    """The status bar's words for an attached process: what q does, and which (first what q
    does: a narrow terminal cuts the line's end)."""
    command = f" {short_command(info.command, 32)}" if info else ""
    return f"q detaches (it runs on) · pid {pid}{command}"


async def attached(core: DebuggerCore, first: bool) -> None:
    """gdb has started with ``-p``: say what it attached to (or why it could not), insert the
    ``-b`` breakpoints; the stop's refresh follows (the program stays stopped)."""
    session, pid = core.session, core.config.attach
    assert session is not None and pid is not None and core.breakpoints is not None
    if session.inferior_pid is None:
        message = refusal(pid, core._last_log)
        core._set_status(Phase.DEAD, message)
        core._emit(StartupFailed(message) if first else Notice(message, "error"))
        return
    core.attaching = True
    info = None if core.config.replayed else process_info(pid)  # a recording's pid is another machine's
    core._status = replace(core._status, context=attach_context(pid, info))
    core._notice(f"attached to process {pid}{': ' + info.command if info else ''}. It is stopped: c continues, "
                 "ctrl+c interrupts, q detaches and the program runs on")
    for text in core.config.breakpoints:
        await core._insert(BreakpointSpec.parse(text))


def restart_refused(core: DebuggerCore) -> str | None:
    """Why ``r`` does nothing in an attached session while gdb holds the process, or None."""
    session = core.session
    if core.config.attach is None or session is None or not session.alive or session.inferior_pid is None:
        return None
    return (f"attached to process {core.config.attach}: r would kill it. q detaches (it runs on); to run it again, "
            "start it under cudatui")


async def join_rank(core: DebuggerCore, first: bool) -> LaunchConfig | None:
    """Start the job's launcher and wait for its rank; the config that runs that rank (None
    when the launcher failed or ended first: said as StartupFailed)."""
    cfg = core.config
    assert cfg.rank is not None
    job = core.job = RankJob(cfg.program_argv, cfg.rank, cwd=cfg.cwd, env=dict(cfg.env))
    core._status = replace(core._status, context=f"rank {cfg.rank} · other ranks' output: {job.log}")
    core._set_status(Phase.STARTING, f"{job.name} starts the job; waiting for rank {cfg.rank}", since=core.clock())
    try:
        await job.start()
        run = await job.wait_rank()
    except RankJobError as exc:
        if core._closed:  # a quit while waiting for the rank ended the job
            return None
        core._set_status(Phase.DEAD, str(exc))
        core._emit(StartupFailed(str(exc)) if first else Notice(str(exc), "error"))
        return None
    core._notice(f"rank {cfg.rank} runs under the debugger (its output: the Output pane); {job.name} and the other "
                 f"ranks write to {job.log}")
    core.config = replace(cfg, target=run.argv, env=run.env, cwd=run.cwd)
    return core.config
