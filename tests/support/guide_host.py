"""A host for snapshots of a lesson's guide: the guide strip under a stand-in for the panes
(``-wide`` as the demo sets it), and the full-screen guide over it when ``full``."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from cudatui.tui.plans.demo_plan import plan_demo
from cudatui.tui.screens.guide_screen import GuideScreen
from cudatui.tui.panes.guide import Guide, GuidePane


class GuideHost(App[None]):
    """The lesson's guide, replayed from its packaged recording, as the demo shows it."""

    CSS = "#panes { height: 1fr; border: solid $primary; }"

    def __init__(self, lesson: str, full: bool) -> None:
        super().__init__()
        plan = plan_demo(lesson, "replay")
        assert plan.recording is not None
        self.guide = Guide.for_lesson(plan.lesson, plan.mode, plan.banner, plan.recording.path_text)
        self.full = full

    def compose(self) -> ComposeResult:
        yield Static("the debugger's panes", id="panes")
        yield GuidePane(self.guide, id="guide")

    def on_mount(self) -> None:
        self.query_one(GuidePane).set_class(self.size.width >= 160 and self.size.height >= 48, "-wide")
        if self.full:
            self.push_screen(GuideScreen(self.guide))
