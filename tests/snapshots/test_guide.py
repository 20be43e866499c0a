"""Snapshots of the lesson guide at 80x24 and 160x48: the strip above the status bar (Tab reaches
it) and the full-screen guide (h), for the race lesson replayed from its packaged recording."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Static

from cudatui.tui.demo_plan import plan_demo
from cudatui.tui.guide_screen import GuideScreen
from cudatui.tui.panes.guide import Guide, GuidePane

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


class GuideHost(App[None]):
    """The guide strip under a stand-in for the panes (``-wide`` as the demo sets it), and the
    full-screen guide over it when ``full``."""

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


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", ["strip", "full"])
def test_guide(snap_compare, view: str, size: str) -> None:
    app = GuideHost("race", full=view == "full")

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        if view == "strip":
            app.query_one(GuidePane).focus()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
