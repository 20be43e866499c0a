"""ExplainPanel / ExplainScreen: Pilot tests and snapshots with diagnoses of recorded errors."""

from __future__ import annotations


import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button, Static

from cudatui.gdbbridge.explain.diagnose import ActionSuggestion, Diagnosis, explain
from cudatui.tui.screens.explain_screen import ExplainScreen
from cudatui.tui.widgets.explain_view import ExplainPanel
from cudatui.tui.messages import ActionChosen, Closed
from tests.support import paths

FIXTURES = paths.FIXTURES / "explain"


def diagnosis_of(name: str) -> Diagnosis:
    found = explain((FIXTURES / name).read_text(encoding="utf-8"))
    assert found is not None
    return found


class PanelApp(App[None]):
    """One ExplainPanel filling the screen; records the messages it posts."""

    def __init__(self, diagnosis: Diagnosis | None) -> None:
        super().__init__()
        self.diagnosis = diagnosis
        self.chosen: list[ActionSuggestion] = []
        self.closed = 0

    def compose(self) -> ComposeResult:
        yield ExplainPanel(self.diagnosis)

    def on_mount(self) -> None:
        self.query_one(ExplainPanel).focus()

    def on_explain_panel_action_chosen(self, message: ActionChosen) -> None:
        self.chosen.append(message.action)

    def on_explain_panel_closed(self, message: Closed) -> None:
        self.closed += 1


def _labels(app: App[None]) -> list[str]:
    return [str(button.label) for button in app.query("#actions Button").results(Button)]


async def test_shows_the_diagnosis_and_one_button_per_action() -> None:
    diagnosis = diagnosis_of("gdb_assert.txt")
    app = PanelApp(diagnosis)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert str(app.query_one("#title", Static).render()) == "Device-side assert triggered"
        facts = str(app.query_one("#facts", Static).render())
        assert "bugs.cu:27" in facts and "(77,0,0)" in facts
        steps = str(app.query_one("#steps", Static).render())
        assert "1. Stop at the failing thread: `break bugs.cu:27 if blockIdx.x == 0" in steps
        assert _labels(app) == [
            "1 Re-run with launch blocking", "2 Run memcheck", "Close"
        ]


async def test_keys_and_buttons_post_action_chosen() -> None:
    diagnosis = diagnosis_of("messages/seed_unspecified_launch_failure.txt")
    app = PanelApp(diagnosis)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("3")
        await pilot.click("#action-1")
        await pilot.press("9")
        await pilot.pause()
        assert [a.kind for a in app.chosen] == ["api_failures_stop", "launch_blocking"]
        assert app.chosen == [diagnosis.actions[2], diagnosis.actions[0]]
        await pilot.press("escape")
        await pilot.click("#close")
        await pilot.pause()
        assert app.closed == 2


async def test_changing_the_diagnosis_rebuilds_the_buttons() -> None:
    app = PanelApp(diagnosis_of("gdb_oob.txt"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert _labels(app) == ["1 Run memcheck", "Close"]
        panel = app.query_one(ExplainPanel)
        panel.diagnosis = explain("RuntimeError: CUDA error: invalid argument")
        await pilot.pause()
        assert _labels(app) == [
            "1 Stop on API errors", "2 Re-run with launch blocking", "Close"
        ]
        assert app.query_one("#facts", Static).display is False
        panel.diagnosis = None
        await pilot.pause()
        assert _labels(app) == ["Close"]


async def test_screen_dismisses_with_the_chosen_action() -> None:
    diagnosis = diagnosis_of("torch_device_assert.txt")
    results: list[ActionSuggestion | None] = []
    app = App[None]()
    async with app.run_test(size=(100, 40)) as pilot:
        app.push_screen(ExplainScreen(diagnosis), results.append)
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        app.push_screen(ExplainScreen(diagnosis), results.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert results == [diagnosis.actions[1], None]
    assert results[0].kind == "sanitizer" and results[0].argument == "memcheck"


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_snapshot(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(PanelApp(diagnosis_of("gdb_torch_assert.txt")), terminal_size=size)
