"""A small full-screen app around :class:`SanitizerPane`, for ``cudatui sanitize``."""

from __future__ import annotations

import os
import shlex
from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding

from cudatui.gdbbridge import (
    BreakpointSpec, LaunchConfig, SanitizerReport, SanitizerRequest, SanitizerResult, debug_breakpoint_for,
)
from cudatui.tui.widgets.footer import KeyBar
from cudatui.tui.apps.launch import debug_config
from cudatui.tui.messages import DebugFinding, Finished, OpenSource, PostMortem
from cudatui.tui.panes.sanitizer import SanitizerPane
from cudatui.tui.apps.toasts import ToastingApp


class SanitizeApp(ToastingApp[int]):
    """Shows one sanitizer run (``request``) or one saved report (``report``).

    With a program (``request``), "Debug this finding" and "Post-mortem" end this app and leave
    :attr:`handoff`: the debugger to open next, stopped on the finding's thread or on the GPU
    coredump. A saved report has no program to run, so they say the command line to use.
    """

    TITLE = "cudatui sanitize"
    BINDINGS = [Binding("q", "quit", "Quit")]

    def __init__(self, *, report: SanitizerReport | None = None,
                 request: SanitizerRequest | None = None) -> None:
        super().__init__()
        self.report = report
        self.request = request
        self.result: SanitizerResult | None = None
        self.handoff: LaunchConfig | None = None
        """What to debug after this app ends (set by "Debug this finding" and "Post-mortem")."""
        self._post_mortem = False

    def compose(self) -> ComposeResult:
        yield SanitizerPane(self.report)
        yield KeyBar()

    def on_mount(self) -> None:
        if self.request is not None:
            self.query_one(SanitizerPane).start(self.request)

    def on_open_source(self, message: OpenSource) -> None:
        self.notify(f"{message.path}:{message.line}", title="Source")

    def on_sanitizer_pane_debug_finding(self, message: DebugFinding) -> None:
        spec = str(BreakpointSpec(*debug_breakpoint_for(message.group, message.side)))
        if self.request is None:
            self.notify(f"cudatui -b {shlex.quote(spec)} PROGRAM [ARGS]", title="Debug this finding: run")
            return
        self.handoff = debug_config(self.request.program, self.request.args, breakpoints=(spec,))
        self.exit(1)

    def on_sanitizer_pane_post_mortem(self, message: PostMortem) -> None:
        if self.request is None:
            self.notify("a saved report has no program to re-run: `cudatui sanitize PROGRAM`, then p",
                        title="Post-mortem", severity="warning")
            return
        self._post_mortem = True
        self.query_one(SanitizerPane).start(replace(self.request, tool="memcheck", leak_check=False,
                                                    generate_coredump=True))
        self.notify("memcheck runs to the first error and writes a GPU coredump; cuda-gdb opens it next",
                    title="Post-mortem")

    def on_sanitizer_pane_finished(self, message: Finished) -> None:
        self.result = message.result
        if not self._post_mortem or self.request is None:
            return
        self._post_mortem = False
        path = message.result.coredump_path
        if path and os.path.isfile(path):
            self.handoff = debug_config(self.request.program, self.request.args, core=path)
            self.exit(1)
        else:
            self.notify("compute-sanitizer wrote no coredump (it found no error)", title="Post-mortem",
                        severity="warning")

    def action_quit(self) -> None:
        """Quit; exit code 1 when findings are shown, else 0."""
        self.exit(1 if self.query_one(SanitizerPane).groups else 0)
