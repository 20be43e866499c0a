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

from cudatui.gdbbridge.debugger.breakpoint_edits import BreakpointEdits
from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.events import Notice, StartupFailed
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.i18n import tr
from cudatui.gdbbridge.session.errors import DebuggerNotFound, MIError, StartupTimeout
from cudatui.gdbbridge.jobs.attach import ProcessInfo, attach_hung, process_info, refusal, short_command
from cudatui.gdbbridge.jobs.ranks import RankJob, RankJobError


def attach_context(pid: int, info: ProcessInfo | None) -> str:
    """The status bar's words for an attached process: what q does, and which (first what q
    does: a narrow terminal cuts the line's end)."""
    command = f" {short_command(info.command, 32)}" if info else ""
    return f"q detaches (it runs on) · pid {pid}{command}"


class Targets:
    """The Debugger's part for a process it attaches to and a job's rank (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, refresh: StopRefresh, edits: BreakpointEdits) -> None:
        self.ctx = ctx
        self.refresh = refresh
        self.edits = edits

    async def attached(self, first: bool) -> None:
        """gdb has started with ``-p``: say what it attached to (or why it could not), insert the
        ``-b`` breakpoints; the stop's refresh follows (the program stays stopped)."""
        ctx = self.ctx
        session, pid = ctx.session, ctx.config.attach
        assert session is not None and pid is not None and ctx.breakpoints is not None
        if session.inferior_pid is None:
            message = refusal(pid, ctx.last_log)
            ctx.set_status(Phase.DEAD, message)
            ctx.emit(StartupFailed(message) if first else Notice(message, "error"))
            return
        self.refresh.attaching = True
        info = None if ctx.config.replayed else process_info(pid)  # a recording's pid is another machine's
        ctx.set_context(attach_context(pid, info))
        ctx.notice(f"attached to process {pid}{': ' + info.command if info else ''}. It is stopped: c continues, "
                   "ctrl+c interrupts, q detaches and the program runs on")
        for text in ctx.config.breakpoints:
            await self.edits.insert(BreakpointSpec.parse(text))

    def startup_failure(self, exc: MIError | DebuggerNotFound) -> str:
        """What a debugger that did not start says; gdb stuck attaching (its start-up bound
        passed, ``-p``) is told with the process's state, not as "is it a gdb?"."""
        pid = self.ctx.config.attach
        if pid is not None and isinstance(exc, StartupTimeout) and not self.ctx.config.replayed:
            return attach_hung(pid, exc.seconds)
        return str(exc)

    def restart_refused(self, key: str) -> str | None:
        """Why ``key`` (``r``, or ``L`` that re-runs with launch blocking) does nothing in an
        attached session while gdb holds the process, or None."""
        ctx = self.ctx
        session = ctx.session
        if ctx.config.attach is None or session is None or not session.alive or session.inferior_pid is None:
            return None
        return tr("attached to process {pid}: {key} would kill it. q detaches (it runs on); to run it again, "
                  "start it under cudatui").format(pid=ctx.config.attach, key=key)

    def _new_job(self) -> RankJob:
        cfg = self.ctx.config
        assert cfg.rank is not None
        job = self.ctx.job = RankJob(cfg.program_argv, cfg.rank, cwd=cfg.cwd, env=dict(cfg.env))
        return job

    async def start_job(self, wait: float) -> str | None:
        """Start the job's launcher before the screen opens and wait up to ``wait`` seconds for its
        rank: why the launcher failed or ended first (the job then closed, its log kept), or None
        (the rank came, or has not yet: :meth:`join_rank` waits on for it, in the UI)."""
        job = self._new_job()
        try:
            await job.start()
            await job.rank_within(wait)
        except RankJobError as exc:
            await job.close()
            return str(exc)
        except BaseException:  # ctrl+c while waiting: no launcher is left behind
            await job.close()
            raise
        return None

    async def join_rank(self, first: bool) -> LaunchConfig | None:
        """Start the job's launcher and wait for its rank; the config that runs that rank (None
        when the launcher failed or ended first: said as StartupFailed). The Debugger's config
        becomes the rank's: its program, environment and directory, for everything after."""
        ctx = self.ctx
        cfg = ctx.config
        job = ctx.job if ctx.job is not None else self._new_job()
        ctx.set_context(f"rank {cfg.rank} · other ranks' output: {job.log}")
        ctx.set_status(Phase.STARTING, f"{job.name} starts the job; waiting for rank {cfg.rank}", since=ctx.clock())
        try:
            if not job.started:
                await job.start()
            run = await job.wait_rank()
        except RankJobError as exc:
            if ctx.closed:  # a quit while waiting for the rank ended the job
                return None
            ctx.set_status(Phase.DEAD, str(exc))
            ctx.emit(StartupFailed(str(exc)) if first else Notice(str(exc), "error"))
            return None
        ctx.notice(f"rank {cfg.rank} runs under the debugger (its output: the Output pane); {job.name} and the "
                   f"other ranks write to {job.log}")
        ctx.config = replace(cfg, target=run.argv, env=run.env, cwd=run.cwd)
        return ctx.config
