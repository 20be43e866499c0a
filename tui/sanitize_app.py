"""A small full-screen app around :class:`SanitizerPane`, for ``cudatui sanitize``."""

from __future__ import annotations

from typing import Optional

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer

from gdbbridge.findings import SanitizerReport, debug_breakpoint_for
from gdbbridge.sanitizer import SanitizerRequest, SanitizerResult
from tui.panes.sanitizer import SanitizerPane


class SanitizeApp(App[int]):
    """Shows one sanitizer run (``request``) or one saved report (``report``).

    Without the debugger around, the pane's requests are answered with notifications that
    say what the full debugger would do (open the line, break on the thread, open a coredump).
    """

    TITLE = "cudatui sanitize"
    BINDINGS = [Binding("q", "quit", "Quit")]

    def __init__(self, *, report: Optional[SanitizerReport] = None,
                 request: Optional[SanitizerRequest] = None) -> None:
        super().__init__()
        self.report = report
        self.request = request
        self.result: Optional[SanitizerResult] = None

    def compose(self) -> ComposeResult:
        yield SanitizerPane(self.report)
        yield Footer()

    def on_mount(self) -> None:
        if self.request is not None:
            self.query_one(SanitizerPane).start(self.request)

    def on_sanitizer_pane_open_source(self, message: SanitizerPane.OpenSource) -> None:
        self.notify(f"{message.path}:{message.line}", title="Source")

    def on_sanitizer_pane_debug_finding(self, message: SanitizerPane.DebugFinding) -> None:
        location, condition = debug_breakpoint_for(message.group)
        where = f"break {location}" + (f" if {condition}" if condition else "")
        self.notify(f"{where}\n(run `cudatui PROGRAM` to debug it)", title="Debug this finding")

    def on_sanitizer_pane_post_mortem(self, message: SanitizerPane.PostMortem) -> None:
        self.notify("Post-mortem opens the GPU coredump in the debugger: run `cudatui PROGRAM`.",
                    title="Post-mortem")

    def on_sanitizer_pane_finished(self, message: SanitizerPane.Finished) -> None:
        self.result = message.result

    def action_quit(self) -> None:
        """Quit; exit code 1 when findings are shown, else 0."""
        self.exit(1 if self.query_one(SanitizerPane).groups else 0)
