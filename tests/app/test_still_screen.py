"""cudatui's screen does not animate unless TEXTUAL_ANIMATIONS asks for it (README, Layouts and
zoom): a tab clicked has its underline under it in the same paint, not 25 frames later."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Tabs

from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.apps.toasts import ANIMATIONS_ENV
from cudatui.tui.plans.demo_plan import plan_demo
from tests.support.app import phase
from tests.support.wait import wait_for


async def test_a_clicked_tab_is_underlined_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ANIMATIONS_ENV, raising=False)
    monkeypatch.setattr("textual.constants.TEXTUAL_ANIMATIONS", "full")  # Textual's default (tests/conftest.py sets none)
    app = DemoApp(plan_demo("oob", "replay"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        assert app.animation_level == "none"
        tabs = app.query_one("#side-tabs", Tabs)
        underline: Any = tabs.query_one("Underline")  # Textual's tab underline, by its type's name
        await pilot.click("#tab-stack")
        await wait_for(pilot, lambda: tabs.active == "tab-stack", why="the Stack tab chosen")
        assert not app.animator.is_being_animated(underline, "highlight_start")
        stack = tabs.query_one("#tab-stack").region
        lit = underline.region.x + underline.highlight_start, underline.region.x + underline.highlight_end
        assert stack.x <= lit[0] < lit[1] <= stack.right, (lit, stack)
        await pilot.press("ctrl+q")


def test_textual_animations_set_by_the_user_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ANIMATIONS_ENV, "full")
    monkeypatch.setattr("textual.constants.TEXTUAL_ANIMATIONS", "full")
    assert DemoApp(plan_demo("oob", "replay")).animation_level == "full"
