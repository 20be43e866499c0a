"""Both sides of a racecheck finding in the Sanitize pane, and ``d`` stopping on the side picked
(Pilot, on real H200 reports: racecheck's hazard report, which names each access's thread, and
its default analysis report, which names the lines only).

- racecheck_synccheck.txt: the head of a ``--racecheck-report hazard`` text report (WAW between
  threads 32 and 33 of block 0, both at r.cu:1), then an analysis report of the same kernel.
- racecheck_head.xml: the same hazards as ``--xml --save`` (cut short).
- lessons/tile_racecheck_buggy.*: the tile lesson's analysis report: the read in box3x3 at
  tile.cu:37 races with the write in load_tile at tile.cu:28.
- lessons/race_racecheck_buggy.xml: the race lesson's: the read and the write on race.cu:25.
"""

from __future__ import annotations

import pytest

from cudatui.gdbbridge import set_language
from cudatui.gdbbridge.sanitizer.culprit_stop import debug_breakpoint_for
from cudatui.gdbbridge.sanitizer.report import read_report
from cudatui.gdbbridge.sanitizer.run import SanitizerRequest
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.apps.sanitize_app import SanitizeApp
from cudatui.tui.messages import DebugFinding
from cudatui.tui.panes.sanitizer import SanitizerPane
from cudatui.tui.plans.demo_plan import plan_demo
from cudatui.tui.widgets.race_side import RaceSideScreen, fit, side_text
from cudatui.tui.textual_compat import app_notifications
from tests.support import paths
from tests.support.app import gdb_config, phase
from tests.support.programs import needs_gdb
from tests.support.screen import screen_rows, screen_text
from tests.support.wait import wait_for

FIXTURES = paths.FIXTURES / "sanitizer"
SIZES = [(80, 24), (120, 36), (160, 48)]
HAZARD_SIDES = ("Write  r.cu:1  block (0,0,0) thread (32,0,0)  r", "Write  r.cu:1  block (0,0,0) thread (33,0,0)  r")
TILE_SIDES = ("Read   tile.cu:37  box3x3", "Write  tile.cu:28  load_tile  [11,196 hazards]")


class DebugRecorder(SanitizeApp):
    """SanitizeApp that keeps the "Debug this finding" messages it gets, then handles them."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.debugged: list[DebugFinding] = []

    def on_sanitizer_pane_debug_finding(self, message: DebugFinding) -> None:
        self.debugged.append(message)
        super().on_sanitizer_pane_debug_finding(message)


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language(None)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("report", "sides"), [
    ("racecheck_synccheck.txt", HAZARD_SIDES), ("racecheck_head.xml", HAZARD_SIDES),
    ("lessons/tile_racecheck_buggy.txt", TILE_SIDES),
])
async def test_the_details_show_both_sides_of_the_race(report, sides, size):
    app = SanitizeApp(report=read_report(str(FIXTURES / report)))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: all(side in screen_text(app) for side in sides),
                       why=lambda: f"both sides on the screen:\n{screen_text(app)}")
        rows = screen_rows(app)
        first, second = (next(i for i, row in enumerate(rows) if side in row) for side in sides)
        assert second == first + 1 and rows[first].startswith("   ")  # one under the other, indented


async def test_the_where_column_names_both_lines_of_the_race():
    app = SanitizeApp(report=read_report(str(FIXTURES / "lessons" / "tile_racecheck_buggy.xml")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "tile.cu:37/28" in screen_rows(app)[2]


async def test_a_side_too_long_for_the_pane_is_cut_not_wrapped():
    """At 80 columns the details are 78 wide: a side is one row ending in "…", never two."""
    report = read_report(str(FIXTURES / "lessons" / "tile_racecheck_buggy.xml"))
    finding = report.groups[0].first
    assert side_text(finding, 0) == "Read   tile.cu:37  box3x3"
    cut = side_text(finding, 1, 30)
    assert cut == "Write  tile.cu:28  load_tile…"
    assert fit("读写冲突在这一行", 7) == "读写冲…"  # wide characters count two columns
    app = SanitizeApp(report=report)
    async with app.run_test(size=(40, 24)) as pilot:
        await pilot.pause()
        rows = screen_rows(app)
        (row,) = [r for r in rows if "Write  tile.cu:28" in r]
        assert row.rstrip().endswith("…") and not any(r.strip().startswith("hazards]") for r in rows)


async def run_to_result(pilot, app) -> None:
    await wait_for(pilot, lambda: app.result is not None, why="the sanitizer run to finish")


@pytest.mark.parametrize(("keys", "thread"), [(("1",), 32), (("2",), 33), (("enter",), 32), (("down", "enter"), 33)])
async def test_d_asks_which_side_and_stops_on_its_thread(fake_sanitizer, keys, thread):
    """A racecheck run (hazard report): ``d`` lists both sides, the side picked is the thread the
    debugger is handed (its line, the hazard's block)."""
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "racecheck_synccheck.txt"))
    app = DebugRecorder(request=SanitizerRequest(program="./r", tool="racecheck"))
    async with app.run_test(size=(80, 24)) as pilot:
        await run_to_result(pilot, app)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceSideScreen), why="the side dialog")
        await pilot.pause()
        text = screen_text(app)
        assert "Debug which side of the race?" in text
        assert f"1  {HAZARD_SIDES[0]}" in text and f"2  {HAZARD_SIDES[1]}" in text
        await pilot.press(*keys)
        await wait_for(pilot, lambda: app.handoff is not None, why="the handoff to the debugger")
    assert app.handoff is not None and app.handoff.target == ("./r",)
    assert app.handoff.breakpoints == (f"r.cu:1 if blockIdx.x == 0 && threadIdx.x == {thread}",)
    assert [m.side for m in app.debugged] == [thread - 32]


async def test_escape_closes_the_side_dialog_and_debugs_nothing():
    app = DebugRecorder(report=read_report(str(FIXTURES / "racecheck_head.xml")))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await wait_for(pilot, lambda: "Debug which side of the race?" in screen_text(app), why="the side dialog")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Debug which side of the race?" not in screen_text(app), why="the dialog gone")
        assert app.debugged == [] and app.is_running and HAZARD_SIDES[1] in screen_text(app)


@pytest.mark.parametrize(("key", "command"), [("1", "cudatui -b tile.cu:37 PROGRAM"),
                                              ("2", "cudatui -b tile.cu:28 PROGRAM")])
async def test_a_saved_analysis_report_offers_the_read_and_the_write_line(key, command):
    """tile's analysis report has no threads: each side is its own line, any thread."""
    app = DebugRecorder(report=read_report(str(FIXTURES / "lessons" / "tile_racecheck_buggy.txt")))
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceSideScreen), why="the side dialog")
        await pilot.pause()
        assert all(f"{n}  {side}" in screen_text(app) for n, side in enumerate(TILE_SIDES, 1))
        await pilot.press(key)
        await wait_for(pilot, lambda: command in screen_text(app), why=lambda: f"the command line:\n{screen_text(app)}")
        assert any(command in n.message for n in app_notifications(app))


async def test_one_place_to_stop_needs_no_question():
    """The race lesson's read and write share race.cu:25 (no threads): d stops there at once."""
    report = read_report(str(FIXTURES / "lessons" / "race_racecheck_buggy.xml"))
    app = DebugRecorder(report=report)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Read   race.cu:25  reduce_racy" in screen_text(app)
        await pilot.press("d")
        await wait_for(pilot, lambda: app.debugged, why="the finding debugged")
        assert not isinstance(app.screen, RaceSideScreen) and app.debugged[0].side == 0
        assert debug_breakpoint_for(app.debugged[0].group, 0) == ("/work/main/kernels/race.cu:25", "")


async def test_the_side_dialog_in_chinese():
    set_language("zh")
    app = SanitizeApp(report=read_report(str(FIXTURES / "racecheck_head.xml")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceSideScreen), why="the side dialog")
        await pilot.pause()
        text = screen_text(app)
        assert "调试竞争的哪一侧？" in text and "1  写" in text and "r.cu:1  block (0,0,0) thread (33,0,0)" in text


@needs_gdb
async def test_in_the_debugger_d_and_2_break_on_the_second_thread(steps):
    """The debugger's own Sanitize pane (GNU gdb on a C program, the real racecheck report shown
    there): ``2`` in the dialog picks the side, not the Locals pane; the breakpoint gdb gets is
    the second thread's, at its line (pending: the report's r.cu is not this program's)."""
    app = DebuggerApp(gdb_config(steps))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited", why="the program to run to its end")
        pane = app.open_pane("sanitizer")
        assert isinstance(pane, SanitizerPane)
        pane.show_report(read_report(str(FIXTURES / "racecheck_head.xml")))
        await wait_for(pilot, lambda: HAZARD_SIDES[1] in screen_text(app), why="the sides on the screen")
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceSideScreen), why="the side dialog")
        await pilot.press("2")
        await wait_for(pilot, lambda: app.debugger.state is not None and app.debugger.state.breakpoints,
                       why="the breakpoint in gdb")
        (bp,) = app.debugger.state.breakpoints
        assert (bp.original_location, bp.pending) == ("/tmp/r.cu:1", True)
        assert bp.condition == "blockIdx.x == 0 && threadIdx.x == 33"
        assert app.query_one(SanitizerPane).display and not isinstance(app.screen, RaceSideScreen)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_tile_lessons_race_in_the_debugger_and_d_1_follows_the_recording(size):
    """The tile lesson replayed (H200): S shows the recorded racecheck report; zoomed (z), the
    Sanitize pane shows both sides at every size; d asks, 1 (the read in box3x3, the side the
    recording debugged) runs the program again to the breakpoint there."""
    app = DemoApp(plan_demo("tile", "replay"))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped", why="the first stop")
        await pilot.press("S")
        pane = app.query_one(SanitizerPane)
        await wait_for(pilot, lambda: str(pane.status).startswith("RECORDED racecheck run"), why="the recorded report")
        await wait_for(pilot, lambda: pane.has_focus_within, why="the Sanitize pane focused")
        await pilot.press("z")
        sides = ("Read   tile.cu:37  box3x3", "Write  tile.cu:28  load_tile  [11,560 hazards]")
        await wait_for(pilot, lambda: all(side in screen_text(app) for side in sides),
                       why=lambda: f"both sides on the screen:\n{screen_text(app)}")
        before = app.debugger.state
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceSideScreen), why="the side dialog")
        await pilot.pause()
        assert all(f"{n}  {side}" in screen_text(app) for n, side in enumerate(sides, 1))
        await pilot.press("1")
        await wait_for(pilot, lambda: app.debugger.state is not before and phase(app) == "stopped"
                       and app.debugger.state.stop.reason == "breakpoint-hit", why="the rerun's stop")
        state = app.debugger.state
        assert (state.frame.func, state.frame.line) == ("box3x3", 37)
        assert any(bp.original_location.endswith("tile.cu:37") and not bp.condition for bp in state.breakpoints)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lesson", ["race", "tile"])
async def test_a_lessons_hazard_report_shows_both_threads_and_d_offers_them(lesson, size):
    """The lessons' hazard reports (H200, scripts/record_racecheck_hazards.sh): both sides with
    their block and thread on the screen, and in the dialog of d."""
    path = FIXTURES / "hazards" / f"{lesson}_hazard.txt"
    if not path.is_file():
        pytest.skip(f"record {path.relative_to(paths.ROOT)} on a GPU box first: scripts/record_racecheck_hazards.sh")
    report = read_report(str(path))
    first = report.groups[0].first
    app = SanitizeApp(report=report)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        width = app.query_one("#sanitizer-details").content_size.width
        sides = [side_text(first, index, width - 2) for index in (0, 1)]
        assert all("block (" in side and " thread (" in side for side in sides)
        await wait_for(pilot, lambda: all(side in screen_text(app) for side in sides),
                       why=lambda: f"both sides on the screen:\n{screen_text(app)}")
        rows = screen_rows(app)
        header = next(r for r in rows if " Blocks " in r)
        row = next(r for r in rows if first.hazard_type in r and r.split()[0] == str(report.groups[0].count))
        blocks = row[header.index(" Blocks ") + 1:].split()[0]  # the Blocks column: the report's blocks, not '-'
        assert blocks.startswith("(") and (blocks.endswith(")") or size[0] == 80), row  # at 80x24 cut at the edge
        assert f"({first.block.x},{first.block.y},{first.block.z})" in row or size[0] == 80, row
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceSideScreen), why="the side dialog")
        await pilot.pause()
        text = screen_text(app)
        assert "1  Read  " in text or "1  Write " in text
        assert all(side_text(first, index)[:40] in text for index in (0, 1))
