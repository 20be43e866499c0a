"""The debugger app for ``cudatui demo``: the mode in the status bar, the lesson guide, the build.

:class:`DemoApp` is the :class:`~cudatui.tui.apps.replay_app.ReplayApp` (the mode first in the status
bar, a replay's refusals said as the recorded path) with: a
:class:`~cudatui.tui.panes.guide.GuidePane` strip above the status bar (Tab reaches it, the wheel
scrolls it, ``H`` hides it) and the full-screen guide (``h``, a click on the strip); ``S`` runs
the lesson's compute-sanitizer tool; ``q`` goes back to the lesson picker (``ctrl+q`` quits); a
live lesson's kernels are built (nvcc, in a thread) before cuda-gdb starts, with nvcc's error in
the console pane when the build fails.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable

from textual import on
from textual.actions import SkipAction
from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from cudatui.gdbbridge import N_, Phase, SanitizerRequest, Status, clean
from cudatui.kernels.build import BuildError, build_lesson
from cudatui.kernels.lessons import sanitizer_options
from cudatui.tui.plans.demo_plan import BACK, DemoPlan
from cudatui.tui.screens.guide_screen import GuideScreen
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.guide import Guide, GuidePane
from cudatui.tui.panes.status import StatusBar
from cudatui.tui.apps.layout import Workspace
from cudatui.tui.apps.replay_app import ReplayApp

class DemoApp(ReplayApp):
    """The debugger on one lesson, live or replayed (see the module docstring).

    | Key | Description |
    | :- | :- |
    | h | The full-screen lesson guide (h or escape goes back). |
    | H | Hide or show the guide strip above the status bar. |
    | S | Run the lesson's sanitizer tool (racecheck, initcheck, memcheck) in the Sanitize pane. |
    | q | Back to the lesson picker (ctrl+q quits cudatui). |
    """

    BINDINGS = [
        Binding("h", "guide", "Guide"),
        Binding("H", "toggle_guide", "Guide strip", show=False),
        Binding("S", "sanitize_lesson", "Lesson's sanitizer", show=False),
        Binding("q", "back", "Lessons"),
    ]

    def __init__(self, plan: DemoPlan, build: Callable[[], Path] | None = None) -> None:
        super().__init__(plan.config, plan.mode, plan.why, plan.recording)
        self.plan = plan
        self.build = build or (lambda: build_lesson(plan.lesson.name))
        """Builds the lesson's kernels (live); raises BuildError."""
        self.title = f"cudatui demo {plan.lesson.name}"
        path = plan.recording.path_text if plan.recording else ""
        self.guide = Guide.for_lesson(plan.lesson, plan.mode, plan.banner, path, fixed="--fixed" in plan.variant)

    def above_status(self) -> list[Widget]:
        return [GuidePane(self.guide, id="guide")]

    def on_mount(self) -> None:
        self.query_one(GuidePane).set_class(self.wide, "-wide")

    def start_debugger(self) -> None:
        """A live lesson builds its kernels first."""
        if self.plan.build:
            self.run_worker(self._build_then_start(), name="build", group="debugger", exit_on_error=False)
        else:
            super().start_debugger()

    async def _build_then_start(self) -> None:
        source = self.plan.lesson.source.name
        bar, console = self.query_one(StatusBar), self.query_one(ConsolePane)
        bar.status = Status(Phase.STARTING, f"building {source} with nvcc -g -G", time.monotonic())
        try:
            library = await asyncio.to_thread(self.build)
        except BuildError as exc:
            bar.status = Status(Phase.DEAD, clean(f"build failed: {exc}"))
            console.write(clean(f"{exc}\n{exc.stderr.rstrip()}\n" if exc.stderr else f"{exc}\n"), "error")
            self.show_pane("console")
            self.notify_user(f"{exc} (nvcc's output is in the console pane)", "error")
            return
        console.write(f"built {library}\n", "console")
        await self.debugger.start()

    @on(Workspace.Laid)
    def _fit_guide(self, event: Workspace.Laid) -> None:
        """The guide strip's height follows the screen's size at once (at every resize)."""
        for guide in self.query(GuidePane):
            guide.set_class(event.wide, "-wide")

    # -- the guide -----------------------------------------------------------------------------

    def action_guide(self) -> None:
        """The full-screen guide."""
        if not isinstance(self.screen, GuideScreen):
            self.push_screen(GuideScreen(self.guide))

    @on(GuidePane.Open)
    def _open_guide(self) -> None:
        self.action_guide()

    def action_toggle_guide(self) -> None:
        """Show or hide the guide strip."""
        guide = self.query_one(GuidePane)
        guide.display = not guide.display

    def action_cycle_pane(self, step: int) -> None:
        """Tab moves between the panes and the guide strip; on another screen (the full guide, a
        dialog) it is that screen's."""
        if self.screen is not self.default_screen:
            raise SkipAction()
        super().action_cycle_pane(step)

    # -- keys, help, palette -------------------------------------------------------------------

    def action_help(self, first: tuple[tuple[str, Any], ...] = ()) -> None:
        super().action_help(((N_("Lesson"), DemoApp.BINDINGS), (N_("Guide strip"), GuidePane.BINDINGS),
                             (N_("Full-screen guide"), GuideScreen.BINDINGS), *first))

    def action_back(self) -> None:
        """Back to the lesson picker: close the debugger (reaping what it started), then exit."""
        self.spawn(self._back, "back")

    async def _back(self) -> None:
        if await self.link.quit():
            self.exit(BACK)  # type: ignore[arg-type]

    def action_sanitize_lesson(self) -> None:
        """Run the lesson's sanitizer tool (its first compute-sanitizer outcome) on the demo."""
        lesson = self.plan.lesson
        tool = next((o.tool for o in lesson.outcomes if o.tool != "cuda-gdb"), None)
        if tool is None:
            self.notify_user(f"no sanitizer tool reports the {lesson.name} lesson's bug: {lesson.tool} shows it",
                             "warning")
            return
        options = sanitizer_options(tool)
        config = self.config  # the Debugger's: after --rank the rank's program and directory
        if not config.target or tool != "leak":
            self._sanitize(options[1])
            return
        request = SanitizerRequest(program=config.target[0], args=config.target[1:], tool="memcheck",
                                   leak_check=True, cwd=config.cwd)
        self.open_pane("sanitizer").start(request)  # type: ignore[attr-defined]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Lesson guide", "the full-screen guide of the lesson (h)", self.action_guide)
        yield SystemCommand("Guide strip", "show or hide the guide strip (H)", self.action_toggle_guide)
        yield SystemCommand("Lesson's sanitizer", "run the lesson's compute-sanitizer tool (S)",
                            self.action_sanitize_lesson)
        yield SystemCommand("Back to the lessons", "close this lesson and pick another (q)",
                            partial(self.run_action, "back"))
