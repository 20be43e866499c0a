"""The workspace's split sizes follow every change of its height within one layout pass (the
exception banner coming, the guide strip going), and a container back at a height it had before
lays its panes out for the sizes of now: at 80x24, oob's exception stop with the guide hidden
(``H``) showed the source pane two rows short with a blank row under it (Textual's arrangement
cached for that height before the banner came)."""

from __future__ import annotations

import re

import pytest

from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.plans.demo_plan import plan_demo
from tests.support.screen import screen_rows
from tests.support.wait import wait_for

NUMBERED = re.compile(r"^\s*(▶)?\s*\d+( |$)")
"""A row of the source view: its line number first."""


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_the_source_view_fills_its_rows_after_the_banner_came_and_the_guide_went(size) -> None:
    plan = plan_demo("oob", "replay")
    assert plan.recording is not None
    app = DemoApp(plan)
    async with app.run_test(size=size) as pilot:
        debugger = app.debugger

        def at(generation: int) -> bool:
            return debugger.state is not None and debugger.state.generation > generation and debugger.phase in (
                "stopped", "exited")

        await wait_for(pilot, lambda: at(0), why="the first stop")
        for step in plan.recording.steps:
            if debugger.state.stop.exception is not None:
                break
            before = debugger.state.generation
            if step.startswith("g "):
                await debugger.switch_focus(step[2:])
            else:
                await pilot.press(step)
            await wait_for(pilot, lambda: at(before), why=f"the stop after {step!r}")
        assert debugger.state.stop.exception is not None
        source = app.query_one(SourcePane)
        await pilot.press("H")
        await wait_for(pilot, lambda: not app.query_one("#guide").display and
                       source.outer_size.height == source.styles.height.cells,
                       why=lambda: f"the source pane at its set height ({source.outer_size} vs {source.styles.height})")
        view = source.view.region
        rows = screen_rows(app)[view.y:view.bottom]
        assert rows and all(NUMBERED.match(row[view.x:]) for row in rows), rows
        await app.action_quit()


@pytest.mark.parametrize("size", [(120, 36), (160, 48)], ids=["120x36", "160x48"])
async def test_locals_keep_room_for_the_arguments_beside_a_lesson_guide(size) -> None:
    """The assert lesson's first stop beside its guide: Locals shows the kernel's arguments, not
    only its first two locals over an empty Warps pane (120x36: Warps kept 16 rows whatever the
    height); Warps still shows its focused warp and PC summary."""
    app = DemoApp(plan_demo("assert", "replay"))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.phase == "stopped",
                       why="the first stop")

        def right_column() -> list[str]:
            return [row[row.rfind("│ │") + 3:] if "│ │" in row else row for row in screen_rows(app)]

        await wait_for(pilot, lambda: any("labels (arg)" in row for row in right_column())
                       and any("out (arg)" in row for row in right_column())
                       and any(row.lstrip(" │").startswith("*2") for row in right_column())
                       and any("assert.cu:20" in row and "warps" in row for row in right_column()),
                       why=lambda: "the arguments in Locals, warp 2 and the PC summary in Warps:\n" + "\n".join(screen_rows(app)))
        await app.action_quit()
