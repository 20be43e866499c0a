"""The Debugger's part that hears its session: each event of the
:class:`~cudatui.gdbbridge.session.gdb.GdbSession` goes to the part whose job it is.

``*stopped`` and ``*running`` go to the stop refresh; gdb's console and log text to the console
pane (held back while the user's console command runs, which shows it as it ends); the
program's output through its terminal filter to the Output pane and the stop's notes; a library
load to the starting phase; breakpoint notifications to the table; a replay's cut and gdb's
death to the phase; a silent debugger to a notice; the follow stand-in's words to the follow part."""

from __future__ import annotations

import os

from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.debugger.console_commands import ConsoleCommands
from cudatui.gdbbridge.debugger.context import DebuggerContext
from cudatui.gdbbridge.debugger.events import ConsoleOutput
from cudatui.gdbbridge.debugger.follow import Follow
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.debugger.stop_refresh import StopRefresh
from cudatui.gdbbridge.i18n import tr
from cudatui.gdbbridge.record.follow import FOLLOW
from cudatui.gdbbridge.record.replay import REPLAY_CUT
from cudatui.gdbbridge.session import events as ev


class SessionEvents:
    """Routes a session's events (see the module docstring)."""

    def __init__(self, ctx: DebuggerContext, refresh: StopRefresh, console: ConsoleCommands, follow: Follow) -> None:
        self.ctx = ctx
        self.refresh = refresh
        self.console = console
        self.follow = follow

    def on_event(self, event: ev.Event) -> None:
        ctx = self.ctx
        if isinstance(event, ev.Running):
            self.refresh.running()
            if ctx.phase not in (Phase.STARTING, Phase.RUNNING):
                ctx.set_status(Phase.RUNNING, "", since=ctx.clock())
        elif isinstance(event, ev.Stopped):
            self.refresh.stopped(event.stop)
        elif isinstance(event, ev.Notify):
            self._on_notify(event)
        elif isinstance(event, ev.Stream):
            self._on_stream(event)
        elif isinstance(event, ev.ProgramOutput):
            text = ctx.program_output.feed(event.text)
            if text:
                self.refresh.program_said(text)
        elif isinstance(event, ev.NonMI):
            self.refresh.program_said(event.line + "\n")
        elif isinstance(event, ev.RecordingStopped):
            ctx.notice(event.message, "error")
        elif isinstance(event, ev.LineDropped):
            ctx.notice(event.description, "warning")
        elif isinstance(event, ev.Silent):
            ctx.notice(tr("{debugger} has not answered {asked} for {seconds} s, and says nothing: "
                          "it may be hung or stopped (ctrl+q quits)").format(
                debugger=ctx.config.debugger_name, asked=event.asked, seconds=round(event.seconds)), "warning")
        elif isinstance(event, ev.Answered):
            ctx.notice(tr("{debugger} answered {asked} after {seconds} s").format(
                debugger=ctx.config.debugger_name, asked=event.asked, seconds=round(event.seconds)))
        elif isinstance(event, ev.DebuggerExited) and not event.expected:
            ctx.set_status(Phase.DEAD, event.description)
            ctx.notice(f"{ctx.config.debugger_name}: {event.description}. Press r to restart.", "error")

    def _on_stream(self, event: ev.Stream) -> None:
        ctx = self.ctx
        if event.kind == "log":
            ctx.last_log = event.text.strip()
        # gdb's own console text is shown while the program runs (when stopped it answers a
        # query); a console command of the user's shows what it made gdb say once, as it ends
        said = self.console.said
        if said is not None and event.kind in ("console", "log"):
            if event.kind == "log":
                said.append(event.text)
        elif event.kind != "console" or ctx.phase in (Phase.STARTING, Phase.RUNNING):
            ctx.emit(ConsoleOutput(event.text, event.kind))

    def _on_notify(self, event: ev.Notify) -> None:
        ctx, payload = self.ctx, event.payload
        if event.name == "library-loaded" and "libcuda.so" in str(payload.get("id") or ""):
            ctx.uses_cuda = True
        if event.name == "library-loaded" and ctx.phase is Phase.STARTING:
            name = os.path.basename(str(payload.get("target-name") or payload.get("id") or ""))
            base = ctx.status.detail.split(" · ", 1)[0]
            ctx.set_status(Phase.STARTING, f"{base} · loaded {name}")
        elif event.name == "thread-selected" and isinstance(payload.get("frame"), dict):
            self.console.selected = to_int(payload["frame"].get("level"), 0)
        elif event.name == REPLAY_CUT:
            line = payload.get("line", "?")
            ctx.cut = f"the recording ends here: it was cut off at line {line} (a crash?)"
            ctx.set_status(Phase.DEAD, ctx.cut)
            ctx.notice(f"the recording was cut off at line {line}: it replays up to there", "warning")
        elif event.name == FOLLOW:
            self.follow.instructor_said(payload)
        elif ctx.breakpoints is not None and ctx.breakpoints.note(event.name, payload):
            self.refresh.publish_breakpoints()
