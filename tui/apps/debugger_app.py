"""The debugger app: layout, keys and wiring to one :class:`~cudatui.gdbbridge.debugger.debugger.Debugger`.

Keys and the panes' intent messages become calls of the Debugger (in workers); its events go to the panes.

Where the panes go (the splits, tabs and zoom) is :mod:`cudatui.tui.apps.layout`'s Workspace.
"""

from __future__ import annotations

import asyncio
import os
from functools import partial
from typing import Any
from collections.abc import Iterable

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from cudatui.gdbbridge import (
    BreakpointSpec, ConsoleOutput, Debugger, DebuggerEvent, LaunchConfig, Notice, PhaseChanged, ProgramText,
    MIError, QueriesFailed, RawLine, SanitizerRequest, StartupFailed, StateChanged, Step, StopState, clean,
    debug_breakpoint_for, explain_all, tr,
)
from cudatui.tui.widgets.footer import KeyBar
from cudatui.tui.apps.collector import CollectorHold
from cudatui.tui.apps.debugger_link import Call, DebuggerLink
from cudatui.tui.screens.explain_screen import ExplainScreen
from cudatui.tui.screens.goto_focus import GotoFocusScreen
from cudatui.tui.screens.help import HelpScreen, key_commands, key_sections
from cudatui.tui.messages import (
    BreakpointToggled, Command, SourceFolderChosen, Condition, DebugFinding, Delete, Enable, Finished, FocusRequested, FrameSelected,
    OpenSource, PostMortem, ValueWanted, VariablesOpened, WatchAdded, WatchRemoved, CulpritAsked, LanesWatched,
)
from cudatui.tui.apps.pane_keys import PaneKeysApp
from cudatui.tui.apps.layout import SIDE_PANES, Workspace
from cudatui.tui.panes.base import StatePane
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.exception import ExceptionBanner
from cudatui.tui.panes.gpu_stats import GpuStatsPane
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.status import StatusBar
from cudatui.tui.widgets.value_screen import ValueScreen

EXPLAIN_CHARS = 64 * 1024
"""Characters of the program's output that explain reads (its end: the error a program dies of
is printed last; a printed tensor before it may be megabytes)."""


class DebuggerApp(PaneKeysApp):
    """cudatui: a full-screen debugger for CUDA kernels (and plain C with GNU gdb)."""

    CSS_PATH = "cudatui.tcss"
    TITLE = "cudatui"
    ALLOW_IN_MAXIMIZED_VIEW = "Footer, StatusBar"
    BINDINGS = [
        Binding("r", "restart", "Run"),
        Binding("c,f5", "resume('continue')", "Cont"),
        Binding("n,f10", "resume('next')", "Next"),
        Binding("s,f11", "resume('step')", "Step"),
        Binding("f,shift+f11", "resume('finish')", "Finish"),
        Binding("b,f9", "toggle_breakpoint", "Break"),
        Binding("g", "goto_focus", "Focus"),
        Binding("colon", "console", "Console", key_display=":"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit", "Quit"),
        Binding("E", "explain", "Explain error", show=False),
        Binding("L", "launch_blocking", "Re-run with CUDA_LAUNCH_BLOCKING=1", show=False),
        Binding("D", "source_folder", "Choose the folder of the sources", show=False),
        Binding("ctrl+c", "interrupt", "Interrupt", priority=True, show=False),
        Binding("tab", "cycle_pane(1)", "Next pane", priority=True, show=False),
        Binding("shift+tab", "cycle_pane(-1)", "Previous pane", priority=True, show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
    ]

    def __init__(self, config: LaunchConfig) -> None:
        super().__init__()
        self.debugger = Debugger(config)
        self.collector = CollectorHold(self)
        """The garbage collector paused from a call of the Debugger or a new state until the screen is quiet."""
        self.link = DebuggerLink(self, self.debugger, self.show_debugger_event, self.collector.hold)
        self._explained_stop: object = None
        self._noted_stop: object = None
        """The stop whose host sync-point note was last told."""
        """The stop whose failure was last offered an explanation (E)."""
        self._post_mortem_pending = False
        self._state_panes: list[StatePane] = []
        self.failure: str | None = None
        """Why the debugger could not start (the app then exits with code 2; the CLI prints it)."""

    @property
    def config(self) -> LaunchConfig:
        """The Debugger's launch config, the one copy (after ``--rank``: the rank's program and
        directory)."""
        return self.debugger.config

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ExceptionBanner(id="exception")
        yield Workspace(self.debugger, id="main")
        yield StatusBar(id="status")
        yield KeyBar(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(GpuStatsPane).always = bool(self.config.record or self.config.replayed)
        self.start_debugger()

    def start_debugger(self) -> None:
        """Start the debugger session (once the panes are set up)."""
        self.spawn(self.debugger.start, "start")

    @property
    def wide(self) -> bool:
        return self.query_one(Workspace).wide

    # -- what the Debugger says ------------------------------------------------------------

    def spawn(self, call: Call, name: str) -> None:
        """Run a Debugger call in a worker (none once quitting began); its unexpected failure is a notification."""
        self.link.spawn(call, name)

    def show_debugger_event(self, event: DebuggerEvent) -> None:
        """Show what the Debugger says (it calls this for every event)."""
        match event:
            case RawLine():
                self.query_one(ConsolePane).log_raw(event)
            case StateChanged(state):
                self.show_state(state)
            case PhaseChanged(status):
                self.query_one(StatusBar).status = status
            case ConsoleOutput(text, kind):
                self.query_one(ConsolePane).write(text, kind)
            case ProgramText(text):
                self.query_one(OutputPane).write(text)
            case Notice(message, severity) if self._banner_says(message):
                self.log_notice(message, severity)
            case Notice(message, severity):
                self.notify_user(message, severity)
            case QueriesFailed(failures):
                self.notify_user("some queries failed: " + "; ".join(str(f) for f in failures), "warning")
            case StartupFailed(message):
                self.failure = message
                self.exit(2, return_code=2)

    def on_resize(self) -> None:
        for banner in self.query(ExceptionBanner):  # none on a screen being torn down
            banner.refit()

    def show_state(self, state: StopState) -> None:
        """Give ``state`` to every pane in one screen update (one layout pass at most)."""
        self.collector.hold()
        if not self._state_panes:
            self._state_panes = list(self.query(StatePane))
        with self.batch_update():
            for pane in self._state_panes:
                pane.show_state(state)
            device = next((d for d in state.devices if d.current), None)
            gpu = self.query_one(GpuStatsPane)
            if device is not None:
                gpu.pci_bus_id = device.pci_bus
            gpu.debuggee_pid = self.debugger.debuggee_pid
        stop = state.stop
        if state.host_note and stop is not self._noted_stop:  # once per stop; the Stack pane shows it
            self._noted_stop = stop
            self.log_notice(state.host_note, "warning")
        failed = stop.exception is not None or (stop.exited and stop.exit_code not in (0, None)) or stop.signal
        if failed and stop is not self._explained_stop:  # once per stop, not at each frame or focus change in it
            self._explained_stop = stop
            self.call_after_refresh(self._offer_explanation)

    def _banner_says(self, message: str) -> bool:
        """Whether ``message`` announces the CUDA exception the banner shows."""
        state = self.debugger.state
        exception = state.stop.exception if state else None
        return exception is not None and message == f"{exception.signal_name}: {exception.name}"

    def notify_user(self, message: str, severity: str = "information") -> None:
        self.notify(clean(message), severity=severity, markup=False, timeout=8 if severity == "error" else 5)  # type: ignore[arg-type]

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.group == "debugger":
            self.notify_user(f"internal error in {event.worker.name}: {event.worker.error}", "error")

    # -- actions ---------------------------------------------------------------------------

    def action_restart(self) -> None:
        self.spawn(self.debugger.restart, "restart")

    def action_resume(self, how: str) -> None:
        self.spawn(partial(self.debugger.resume, Step(how)), how)

    def action_interrupt(self) -> None:
        self.spawn(self.debugger.interrupt, "interrupt")

    def action_toggle_breakpoint(self) -> None:
        where = self.query_one(SourcePane).cursor_location()
        if where is None:
            self.notify_user("no source file shown: set breakpoints from the console (:break LOCATION)", "warning")
            return
        self.spawn(partial(self.debugger.toggle_breakpoint, *where), "breakpoint")

    def action_goto_focus(self) -> None:
        def chosen(request: str | None) -> None:
            if request:
                self.post_message(FocusRequested(request))

        self.push_screen(GotoFocusScreen(), chosen)

    def action_console(self) -> None:
        pane = self.show_pane("console")
        pane.focus_input()  # type: ignore[attr-defined]

    def action_help(self, first: tuple[tuple[str, Any], ...] = ()) -> None:
        self.push_screen(HelpScreen([*first, *key_sections(self, [bindings for _, bindings in first])]))

    def action_cycle_pane(self, step: int) -> None:
        panes = [self.query_one(SourcePane), *(self.query_one(f"#{s.id}") for s in SIDE_PANES), *(g for g in self.query("#guide") if g.display)]
        focused = self.focused
        index = next((i for i, p in enumerate(panes) if focused is not None and (focused is p or p in focused.ancestors)), 0)
        for offset in range(1, len(panes) + 1):
            pane = panes[(index + step * offset) % len(panes)]
            if pane.id and pane.id not in ("source", "guide"):
                self.show_pane(pane.id)
            target = next((w for w in [pane, *pane.query("*")] if w.focusable or (w.can_focus and w.display)), None)
            if target is not None:
                self.call_after_refresh(target.focus)
                return

    def action_sanitize(self) -> None:
        """Run memcheck on the program in the sanitizer pane."""
        self._sanitize("memcheck")

    async def _diagnoses(self) -> tuple[Any, ...]:
        """What cudatui.gdbbridge.explain.diagnose finds in the end of the program output
        (:data:`EXPLAIN_CHARS`) and the current stop, found in a thread (keys are answered meanwhile)."""
        state = self.debugger.state
        stop = state.stop if state else None
        text = self.query_one(OutputPane).tail(EXPLAIN_CHARS)
        if stop is not None and stop.exception is not None:
            text += f"\nreceived signal {stop.exception.signal_name}, {stop.exception.name}."
        return await asyncio.to_thread(explain_all, text)

    async def _offer_explanation(self) -> None:
        """After a CUDA exception or a failed exit: say what explain found, without a dialog."""
        found = await self._diagnoses()
        if not found:
            return
        offer = f"{found[0].title}: press E for what it means and what to do next"
        if self.debugger.state is not None and self.debugger.state.stop.exception is not None:
            self.log_notice(offer, "warning")  # the banner says E
        else:
            self.notify_user(offer, "warning")

    async def action_explain(self) -> None:
        """Explain the CUDA error in the program output or the current stop."""
        found = await self._diagnoses()
        if not found:
            self.notify_user(tr("no known CUDA error in the program output or the stop"), "warning")
            return
        self.push_screen(ExplainScreen(found[0], self.query_one(ExceptionBanner).full()), self._explained)

    async def action_quit(self) -> None:
        """Close the debugger (reaping everything it started) and exit; a second q meanwhile does nothing."""
        if await self.link.quit():
            self.exit(0)

    async def on_unmount(self) -> None:
        self.collector.close()
        await self.debugger.close()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from key_commands(self)
        yield SystemCommand("Sanitize", "run compute-sanitizer memcheck on the program", self.action_sanitize)
        yield SystemCommand("MI log", "toggle the console between gdb output and MI records", self._toggle_mi)

    # -- intents from the panes ------------------------------------------------------------

    def on_breakpoint_toggled(self, message: BreakpointToggled) -> None:
        self.spawn(partial(self.debugger.toggle_breakpoint, message.path, message.line), "breakpoint")

    def action_source_folder(self) -> None:
        """Ask for a folder to look for the program's sources in (a replay from another machine)."""
        if self.screen is self.screen_stack[0]:
            self.query_one(SourcePane).action_source_folder()

    def on_source_folder_chosen(self, message: SourceFolderChosen) -> None:
        why = self.debugger.add_source_dir(message.folder)
        if why is not None:
            self.query_one(SourcePane).note(why)

    def on_frame_selected(self, message: FrameSelected) -> None:
        self.spawn(partial(self.debugger.select_frame, message.level), "frame")

    def on_focus_requested(self, message: FocusRequested) -> None:
        self.spawn(partial(self.debugger.switch_focus, message.request), "focus")

    def on_open_source(self, message: OpenSource) -> None:
        self.query_one(SourcePane).open(message.path, message.line)

    def on_breakpoints_pane_enable(self, message: Enable) -> None:
        self.spawn(partial(self.debugger.enable_breakpoint, message.number, message.enabled), "breakpoint")

    def on_breakpoints_pane_delete(self, message: Delete) -> None:
        self.spawn(partial(self.debugger.delete_breakpoint, message.number), "breakpoint")

    def on_breakpoints_pane_condition(self, message: Condition) -> None:
        self.spawn(partial(self.debugger.set_condition, message.number, message.condition), "breakpoint")

    def on_locals_pane_watch_added(self, message: WatchAdded) -> None:
        self.spawn(partial(self.debugger.add_watch, message.expression), "watch")

    def on_locals_pane_watch_removed(self, message: WatchRemoved) -> None:
        self.spawn(partial(self.debugger.remove_watch, message.expression), "watch")

    def on_locals_pane_variables_opened(self, message: VariablesOpened) -> None:
        self.debugger.open_variables(message.paths)

    def on_locals_pane_value_wanted(self, message: ValueWanted) -> None:
        self.spawn(partial(self._show_value, message.expression, message.type), "value")

    async def _show_value(self, expression: str, type_: str) -> None:
        """The whole value of ``expression`` as gdb prints it, in a dialog (or why there is none)."""
        try:
            text = await self.debugger.evaluate(expression)
        except MIError as exc:
            text = f"not in this recording: {exc.message}" if exc.not_recorded else f"cannot print it: {exc.message}"
        if self.is_running and not self.link.quitting:
            self.push_screen(ValueScreen(expression, type_, text))

    def on_warps_pane_lanes_watched(self, message: LanesWatched) -> None:
        self.debugger.watch_lanes(message.expression)

    def on_warps_pane_culprit_asked(self, message: CulpritAsked) -> None:
        self.spawn(self.debugger.find_culprit, "culprit")

    def on_console_pane_command(self, message: Command) -> None:
        self.spawn(partial(self.debugger.console_command, message.command), "console")

    def on_sanitizer_pane_debug_finding(self, message: DebugFinding) -> None:
        spec = BreakpointSpec(*debug_breakpoint_for(message.group, message.side))
        self.spawn(partial(self.debugger.debug_finding, spec), "debug-finding")

    def on_sanitizer_pane_post_mortem(self, message: PostMortem) -> None:
        if self._sanitize("memcheck", coredump=True):
            self._post_mortem_pending = True
            self.notify_user("post-mortem: memcheck runs to the first error and writes a GPU coredump, "
                             "then the debugger opens it")

    def on_sanitizer_pane_finished(self, message: Finished) -> None:
        if not self._post_mortem_pending:
            return
        self._post_mortem_pending = False
        path = message.result.coredump_path
        if path and os.path.isfile(path):
            self.spawn(partial(self.debugger.post_mortem, path), "post-mortem")
        else:
            self.notify_user("post-mortem: compute-sanitizer wrote no coredump (it found no error)", "warning")

    # -- helpers ---------------------------------------------------------------------------

    def _sanitize(self, tool: str, *, coredump: bool = False) -> bool:
        config = self.config
        target, recording = config.target, config.recording
        if not target:  # a replay shows the report recorded with it
            if not (recording and self.open_pane("sanitizer").show_recorded(recording, tool)):  # type: ignore[attr-defined]
                self.notify_user("no program to sanitize here (a coredump opened without PROGRAM, or a replay without "
                                 "a recorded report)", "warning")
            return False
        request = SanitizerRequest(program=target[0], args=target[1:], tool=tool, cwd=config.cwd,
                                   generate_coredump=coredump)
        pane = self.open_pane("sanitizer")
        pane.start(request)  # type: ignore[attr-defined]
        return True

    def _explained(self, action: Any) -> None:
        if action is None:
            return
        if action.kind == "sanitizer":
            self._sanitize(action.argument)
        elif action.kind == "api_failures_stop":
            self.spawn(partial(self.debugger.console_command, "set cuda api_failures stop"), "console")
        else:
            self.action_launch_blocking()

    def action_launch_blocking(self) -> None:
        """Run again with CUDA_LAUNCH_BLOCKING=1 (the Python line behind a kernel is then its launch)."""
        self.spawn(self.debugger.rerun_with_launch_blocking, "restart")

    def _toggle_mi(self) -> None:
        self.show_pane("console").action_toggle_log()  # type: ignore[attr-defined]
