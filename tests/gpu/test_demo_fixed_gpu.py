"""`cudatui demo LESSON --fixed` live on a GPU box: the fixed kernel runs under cuda-gdb, stops once
at the fix (its first thread, or the host line for leak), and the demo exits 0 with its check OK.

Run: ``python -m pytest -m gpu tests/gpu/test_demo_fixed_gpu.py -v`` (about a minute per lesson).
"""

from __future__ import annotations

import pytest

from cudatui.kernels.lessons import LESSONS
from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.plans.demo_plan import plan_demo
from cudatui.tui.panes.guide import GuidePane
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.source import SourcePane
from tests.support.app import phase, status
from tests.support.paths import record_to
from tests.support.wait import wait_for

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
async def test_fixed_stops_at_the_fix_then_exits_0(lesson, tmp_path) -> None:
    plan = plan_demo(lesson.name, "live", variant=("--fixed",), record=record_to(f"fixed_{lesson.name}", tmp_path))
    assert plan.mode == "live" and plan.config.target[-1] == "--fixed"
    app = DemoApp(plan)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) in ("stopped", "exited", "dead"), timeout=240,
                       why=lambda: f"the first stop; the app: {status(app)}")
        assert phase(app) == "stopped", status(app)
        assert app.query_one(SourcePane).view.current == lesson.fix_line
        assert "--fixed: the fixed kernel runs" in str(app.query_one("#guide-header").render())
        assert app.query_one(GuidePane).display
        for _ in range(30):  # leak's host line is hit once per call
            if phase(app) != "stopped":
                break
            before = app.debugger.state.generation if app.debugger.state else 0
            await pilot.press("c")
            await wait_for(pilot, lambda: phase(app) == "exited" or (
                phase(app) == "stopped" and app.debugger.state is not None and app.debugger.state.generation > before),
                timeout=120)
        assert status(app) == ("exited", "0")
        assert ": OK (" in app.query_one(OutputPane).text
        await pilot.press("ctrl+q")
