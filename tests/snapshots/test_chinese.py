"""Chinese (``--lang zh``) snapshots at 80x24 and 160x48: the exception banner over a replayed
H200 stop, the explain panel on a real error text, and the race lesson's guide (strip and full
screen) over its packaged recording: wide characters must align."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from cudatui.gdbbridge.explain.diagnose import explain
from cudatui.gdbbridge.i18n import set_language
from cudatui.tui.widgets.explain_view import ExplainPanel
from cudatui.tui.panes.exception import ExceptionBanner
from tests.support import paths
from tests.support.guide_host import GuideHost
from tests.support.panes import PaneApp, Replay
from tests.support.wait import wait_for

SIZES = [(80, 24), (160, 48)]


@pytest.fixture(autouse=True)
def chinese():
    set_language("zh")
    yield
    set_language(None)


async def with_console_lanes(app: PaneApp, replay: Replay) -> None:
    state = await replay.state(await replay.resume())
    app.show(await replay.with_console_lanes(state))


class ExplainApp(App[None]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.diagnosis = explain(text)

    def compose(self) -> ComposeResult:
        yield ExplainPanel(self.diagnosis)


@pytest.mark.parametrize("size", SIZES)
def test_exception_banner_in_chinese(snap_compare, size):
    app = PaneApp(ExceptionBanner(), "oob.jsonl", with_console_lanes)

    async def run_before(pilot) -> None:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_explain_panel_in_chinese(snap_compare, size):
    text = (paths.FIXTURES / "explain" / "gdb_assert.txt").read_text(encoding="utf-8")
    app = ExplainApp(text)
    assert app.diagnosis is not None and app.diagnosis.title == "触发了设备端 assert"
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", ["strip", "full"])
def test_guide_in_chinese(snap_compare, view, size):
    app = GuideHost("race", full=view == "full")
    assert snap_compare(app, terminal_size=size)
