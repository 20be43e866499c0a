"""A replay's Sanitize shows the sanitizer report recorded with the session (``LESSON.TOOL.xml.gz``
beside the recording), marked as recorded; without one it says there is none. The reports are
real compute-sanitizer XML reports of the lessons recorded on an H200 (tests/fixtures/sanitizer)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from cudatui.gdbbridge import read_report
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, read_recording, replay_config
from cudatui.tui.panes.sanitizer import SanitizerPane
from tests.support.app import phase
from tests.support.paths import FIXTURES
from tests.support.wait import wait_for

REPORT = FIXTURES / "sanitizer" / "lessons" / "race_racecheck_buggy.xml"


def beside(tmp_path: Path, with_report: bool) -> Path:
    recording = tmp_path / "race.jsonl.gz"
    shutil.copy(RECORDINGS_DIR / "race.jsonl.gz", recording)
    if with_report:
        with open(REPORT, "rb") as src, gzip.open(tmp_path / "race.racecheck.xml.gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
    return recording


async def test_sanitize_in_a_replay_shows_the_recorded_report(tmp_path: Path) -> None:
    recording = beside(tmp_path, with_report=True)
    want = read_report(str(REPORT), "racecheck")
    app = DebuggerApp(replay_config(read_recording(recording)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        app.action_sanitize()  # the palette's Sanitize (memcheck): the lesson recorded racecheck
        pane = app.query_one(SanitizerPane)
        await wait_for(pilot, lambda: pane.status.startswith("RECORDED"))
        assert pane.status.startswith("RECORDED racecheck run")
        assert pane.groups == want.groups and want.finding_count > 0
        assert pane.display


async def test_sanitize_in_a_replay_without_a_report_says_so(tmp_path: Path) -> None:
    recording = beside(tmp_path, with_report=False)
    app = DebuggerApp(replay_config(read_recording(recording)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        app.action_sanitize()
        await wait_for(pilot, lambda: any("recorded report" in str(n.message) for n in app.notices.entries))
        assert app.query_one(SanitizerPane).status == "no sanitizer run yet"
