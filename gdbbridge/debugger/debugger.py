"""The one object the UI drives a debugging session through.

A :class:`Debugger` is composed of parts with one job each, all given one shared
:class:`~cudatui.gdbbridge.debugger.context.DebuggerContext` (the session of the moment, its
StateBuilder, Breakpoints and variable objects, the state last published, the phase, the
subscribers and the lock):

- :class:`~.run_control.RunControl`: start, resume, interrupt, restart, post mortem, close;
- :class:`~.session_events.SessionEvents`: the session's events, each to the part whose job it is;
- :class:`~.stop_refresh.StopRefresh`: a ``*stopped`` becomes ONE published StopState (and the
  bumps of the same stop: breakpoints, watches, notes);
- :class:`~.stop_queries.StopQueries`: what the app asks once at a stop (a value, the source files);
- :class:`~.shown.Shown`: what the panes on the screen show (the rest of a stop asked when shown);
- :class:`~.breakpoint_edits.BreakpointEdits`, :class:`~.viewpoint.Viewpoint` (frame, focus,
  watches), :class:`~.console_commands.ConsoleCommands`;
- :class:`~.targets.Targets` (a process attached to, a job's rank), :class:`~.follow.Follow`
  (a follower: read-only, moves with the instructor).

The Debugger holds no state of its own: its methods are the UI's whole contract, each handed to
the part that does it. It tells its subscribers what happened through the typed events of
:mod:`cudatui.gdbbridge.debugger.events`. Every method catches gdb's errors and reports them as
events (the on-demand queries raise MIError to the pane that asked).

gdb's focus and selected frame are shared by everything sent to it, so every operation that
sends commands holds one lock: the stop's refresh batch, steps, focus switches, frame
selection, console commands, watches, breakpoints, the parts a stop gathers and every query.
The warp watch's walk over a warp's lanes therefore never interleaves with a step or with a
query. An execution command
releases the lock at its ``^running``; the stop's refresh, started from the ``*stopped``
event, takes it next. :meth:`interrupt` and :meth:`close` take no lock (they must work while an
operation waits on gdb).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection
from dataclasses import replace

from cudatui.gdbbridge.debugger.breakpoint_edits import BreakpointEdits
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints, BreakpointSpec
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.console_commands import ConsoleCommands
from cudatui.gdbbridge.debugger.context import DebuggerContext, Listener
from cudatui.gdbbridge.debugger.follow import READ_ONLY, Follow
from cudatui.gdbbridge.debugger.host import LAUNCH_BLOCKING
from cudatui.gdbbridge.debugger.run_control import RunControl
from cudatui.gdbbridge.debugger.session_events import SessionEvents
from cudatui.gdbbridge.debugger.shown import Shown
from cudatui.gdbbridge.debugger.status import Phase, Status
from cudatui.gdbbridge.debugger.steps import Step
from cudatui.gdbbridge.debugger.stop_queries import StopQueries
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.debugger.targets import Targets
from cudatui.gdbbridge.debugger.varobj import VariableObjects
from cudatui.gdbbridge.debugger.viewpoint import Viewpoint
from cudatui.gdbbridge.i18n import tr
from cudatui.gdbbridge.jobs.ranks import RankJob
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.shared import SharedWindow
from cudatui.gdbbridge.models.members import Path
from cudatui.gdbbridge.nvml.models import Snapshot
from cudatui.gdbbridge.outcome import OutputTail
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import clean

__all__ = ["READ_ONLY", "Debugger", "Step"]


class Debugger:
    """Run control, breakpoints, focus, console, watches and queries of one debugging session,
    composed of parts (see the module docstring)."""

    def __init__(self, config: LaunchConfig, clock: Callable[[], float] = time.monotonic) -> None:
        ctx = self._ctx = DebuggerContext(config, clock)
        self._refresh = StopRefresh(ctx)
        self._queries = StopQueries(ctx)
        self._shown = Shown(ctx, self._refresh)
        self._edits = BreakpointEdits(ctx, self._refresh)
        self._viewpoint = Viewpoint(ctx, self._refresh)
        self._console = ConsoleCommands(ctx, self._refresh)
        self._follow = Follow(ctx, self._viewpoint)
        events = SessionEvents(ctx, self._refresh, self._console, self._follow)
        self._run = RunControl(ctx, self._refresh, self._edits, Targets(ctx, self._refresh, self._edits), events)

    # -- what the UI reads -----------------------------------------------------------------

    @property
    def config(self) -> LaunchConfig:
        """The one launch config: what runs (after ``--rank``, the rank's program, environment
        and directory), the recording, the source dirs. Nobody else keeps a copy."""
        return self._ctx.config

    @property
    def state(self) -> StopState | None:
        """The state last published: the one snapshot of the stop shown."""
        return self._ctx.state

    @property
    def status(self) -> Status:
        """The phase and what the status bar says about it."""
        return self._ctx.status

    @property
    def phase(self) -> Phase:
        return self._ctx.phase

    @property
    def busy(self) -> bool:
        """Whether an operation or a stop's refresh is in flight (a driver waits for False)."""
        return self._ctx.busy

    @property
    def debuggee_pid(self) -> int | None:
        """The pid the debugger reports for its debuggee (the recording machine's in a replay): to
        match it among the GPU's processes, never to signal it (GdbSession.own_debuggee)."""
        session = self._ctx.session
        return session.inferior_pid if session is not None else None

    @property
    def alive(self) -> bool:
        """Whether the debugger process of the moment is running."""
        return self._ctx.session is not None and self._ctx.session.alive

    @property
    def debugger_pid(self) -> int | None:
        """The pid of the debugger process of the moment (cuda-gdb, gdb, a replay's stand-in)."""
        session = self._ctx.session
        return session.pid if session is not None else None

    @property
    def following_instructor(self) -> bool:
        """A follower moves with the instructor's focus and frame (see :meth:`follow_instructor`)."""
        return self._follow.following_instructor

    def add_source_dir(self, folder: str) -> str | None:
        """Look for source files in ``folder`` first from now on (``--source-dir``, chosen at a
        stop whose file was not found), and show the stop again; or one line saying why not."""
        path = os.path.abspath(os.path.expanduser(folder.strip()))
        if not os.path.isdir(path):
            return tr("not a folder: {folder}").format(folder=clean(folder.strip()))
        config = self._ctx.config
        self._ctx.config = replace(config, source_dirs=tuple(dict.fromkeys((path, *config.source_dirs))))
        self._refresh.publish_again()
        return None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` for every event from now on; returns an unsubscriber."""
        return self._ctx.events.subscribe(listener)

    def record(self, direction: str, line: str) -> None:
        """Add a line to the session's recording, if it is recorded (what a front end measured
        beside gdb: a GPU sample, a lesson path's step)."""
        self._ctx.record(direction, line)

    # -- for white-box tests: the parts' objects (the UI never reads them) ----------------

    @property
    def session(self) -> GdbSession | None:
        """The GdbSession of the moment. Only white-box tests read it (its pid, whether it was
        reaped); nothing outside gdbbridge does (tests/gdbbridge/test_debugger_parts.py)."""
        return self._ctx.session

    @property
    def breakpoints(self) -> Breakpoints | None:
        return self._ctx.breakpoints

    @property
    def variables(self) -> VariableObjects | None:
        return self._ctx.variables

    @property
    def job(self) -> RankJob | None:
        """The distributed job whose rank is debugged (``config.rank``), once started."""
        return self._ctx.job

    @property
    def output_tail(self) -> OutputTail:
        return self._ctx.output_tail

    # -- run control -----------------------------------------------------------------------

    async def start(self) -> None:
        """Start the debugger, insert the config's breakpoints, and run (unless ``run`` is off);
        when it cannot start (no debugger, not a gdb) the event is StartupFailed."""
        await self._run.start()

    async def start_job(self, wait: float) -> str | None:
        """With ``config.rank``: start the job's launcher before any screen is drawn and wait up to
        ``wait`` seconds for the rank; why it failed or ended first, or None (:meth:`start` waits
        on for the rank)."""
        return await self._run.targets.start_job(wait)

    async def restart(self) -> None:
        """Run again (a follower: follow the instructor's newest session)."""
        await self._run.restart()

    async def close(self) -> None:
        """Close the debugger and reap everything it started."""
        await self._run.close()

    async def resume(self, how: Step) -> None:
        """Continue, next, step or finish."""
        if not self._follow.refuses():
            await self._run.resume(how)

    async def interrupt(self) -> None:
        """Stop the running program (also one a resume asked for just before is starting)."""
        if not self._follow.refuses():
            await self._run.interrupt()

    async def post_mortem(self, path: str) -> None:
        """Leave the live session and open the GPU coredump ``path`` (a restart re-opens it)."""
        if not self._follow.refuses():
            await self._run.post_mortem(path)

    async def debug_finding(self, spec: BreakpointSpec) -> None:
        """Break at ``spec`` (a sanitizer finding's thread) and run the program again."""
        if not self._follow.refuses():
            await self._run.debug_finding(spec)

    async def rerun_with_launch_blocking(self) -> None:
        """Run again with ``CUDA_LAUNCH_BLOCKING=1``: every launch waits for its kernel, so the
        host line behind a kernel's stop is the line that launched it. Attached, refused as ``r``
        is, before anything changes (the sync-point notes would take the next stop's host line
        for the launch)."""
        if self._follow.refuses() or self._run.refuses_restart("L"):
            return
        await self._console.run(f"set environment {LAUNCH_BLOCKING}=1")
        self._ctx.launch_blocking = True
        await self.restart()

    # -- breakpoints -----------------------------------------------------------------------

    async def toggle_breakpoint(self, path: str, line: int) -> None:
        """Delete the breakpoints at ``path:line``, or insert one there."""
        if not self._follow.refuses():
            await self._edits.toggle(path, line)

    async def delete_breakpoint(self, number: int) -> None:
        if not self._follow.refuses():
            await self._edits.delete(number)

    async def enable_breakpoint(self, number: int, enabled: bool) -> None:
        if not self._follow.refuses():
            await self._edits.enable(number, enabled)

    async def set_condition(self, number: int, condition: str) -> None:
        if not self._follow.refuses():
            await self._edits.set_condition(number, condition)

    # -- where the UI looks ----------------------------------------------------------------

    def show_parts(self, *, registers: bool, threads: bool, sass: int = 0, members: bool = False,
                   lanes: bool = False, blocks: bool = False) -> None:
        """The screen shows the registers (the Registers or SASS pane), the kernels' thread ranges
        (the Warps pane's lines, the Focus pane's open block ranges), ``sass`` bytes of SASS after
        pc (the SASS pane; 0: no SASS), the members of the variables opened (the Locals pane), the
        warp watch (``lanes``: the Warps pane) and the block ranges (the Focus pane's open
        kernels), or not: a stop asks gdb only for what is shown (``StopState.unasked`` names what
        its batch left out; ``StopState.sass``, ``members``, ``lane_watch`` and ``blocks`` are None
        unless shown), and a part shown now that the stop shown lacks is asked at once and the
        stop shown again with it. Every part of the batch (and the warp watch) is asked until the
        UI says."""
        self._shown.set(registers=registers, threads=threads, sass=sass, members=members, lanes=lanes, blocks=blocks)

    def open_variables(self, paths: Collection[Path]) -> None:
        """The Locals tree shows ``paths`` opened (a local or watch expression, then child names)
        at the frame of the stop shown, and no other: while the Locals pane is on the screen each
        stop in that frame carries their children (``StopState.members``); one opened now is read
        at once and the stop shown again with it."""
        self._shown.open_variables(paths)

    def show_shared(self, windows: tuple[SharedWindow, ...], *, on_screen: bool = True) -> None:
        """The Shared pane shows these pages of shared arrays, on the screen or not: while it is
        (and always in a recorded session that asks every part: its replays and followers may show
        any pane) a stop reads them with it (``StopState.shared``), and a window the stop shown
        lacks is read at once and the stop shown again with it."""
        self._shown.set_shared(windows, on_screen)

    def watch_lanes(self, expression: str) -> None:
        """The warp watch: ``expression`` ("" none) evaluated in every active lane of the focused
        warp at each stop while the Warps pane is on the screen (``StopState.lane_watch``); the
        stop shown is shown again with its values."""
        self._shown.watch_lanes(expression)

    async def find_culprit(self) -> None:
        """At a warp-wide exception: find the lane whose values on the faulting line are out of
        range, move the focus there and watch that expression in every lane, shown as one state
        (``StopState.culprit``: the lane and why, or why none was found)."""
        async with self._ctx.lock:
            await self._refresh.find_culprit()

    def forget_sass(self) -> None:
        """Drop the SASS read so far: the next stop shown with the SASS pane reads it again."""
        self._refresh.on_demand.sass.forget()

    async def select_frame(self, level: int) -> None:
        """Show stack frame ``level`` (its locals, registers, source)."""
        await self._viewpoint.select_frame(level)

    async def move_frame(self, step: int) -> None:
        """Select the frame ``step`` levels up (positive: the callers) or down from the one shown."""
        await self._viewpoint.move_frame(step)

    async def switch_focus(self, request: str) -> None:
        """Move the CUDA focus (``block (1,0,0) thread (5,0,0)``, ``warp 2 lane 3``, ``sm 4``)."""
        await self._viewpoint.switch_focus(request)

    def follow_instructor(self, on: bool) -> None:
        """A follower: move with the instructor's focus and frame within a stop (on), or look
        around on one's own (off; the next stop is shown either way)."""
        self._follow.follow_instructor(on)

    async def console_command(self, command: str) -> None:
        """Run a gdb CLI command; its output is ConsoleOutput."""
        if not self._follow.refuses():
            await self._console.run(command)

    async def add_watch(self, expression: str) -> None:
        """Watch ``expression``: evaluated at every stop (``StopState.watches``)."""
        await self._viewpoint.add_watch(expression)

    async def remove_watch(self, expression: str) -> None:
        await self._viewpoint.remove_watch(expression)

    # -- what the user asks once (not a part of the stop) ------------------------------------

    async def evaluate(self, expression: str) -> str:
        """The value of ``expression`` in the focused thread, as gdb prints it (a value shown
        whole in a dialog); MIError when gdb refuses."""
        return await self._queries.evaluate(expression)

    async def source_files(self) -> tuple[str, ...]:
        """The program's source files as gdb names them."""
        return await self._queries.source_files()

    async def recorded_gpu_sample(self) -> Snapshot | None:
        """In a replay, the next GPU sample recorded at this stop; None live or when none is."""
        return await self._queries.recorded_gpu_sample()
