"""`cudatui replay FILE`: the REPLAY marker from the header, where sources are found, recordings cut
off by a crash, a core session, and recordings that cannot start.

Over real recordings (kernels/recordings, tests/fixtures/recorded); a cut recording is a copy cut
in the test's tmp directory (the fixtures are never edited).
"""

from __future__ import annotations

import re

import gzip
import shutil
from pathlib import Path

import pytest

from cudatui.gdbbridge.record.transcript import load
from cudatui.kernels.lessons import KERNELS_DIR
from cudatui.tui.cli import main
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, read_meta, read_recording
from cudatui.gdbbridge import find_source
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.apps.replay_app import ModeStatusBar, ReplayApp
from cudatui.tui.plans.replay_plan import ReplayError, ReplayPlan, plan_replay
from tests.support.app import messages, phase, status
from tests.support.paths import RECORDED
from tests.support.wait import wait_for

RECORDINGS = sorted(RECORDINGS_DIR.glob("*.jsonl.gz"))
CORE = RECORDED / "findings" / "finding_native_core.jsonl.gz"
ATTACH = RECORDED / "own" / "attach.jsonl"


def app_for(plan: ReplayPlan) -> ReplayApp:
    return ReplayApp(plan.config, "replay", plan.why, plan.recording)


def first_stop_line(path: Path) -> int:
    for exchange in load(str(path)).exchanges:
        for entry in exchange.output:
            if entry.dir == "out" and entry.line.startswith("*stopped") and ',line="' in entry.line:
                return int(entry.line.split(',line="')[1].split('"')[0])
    raise AssertionError(f"{path}: no stop with a line")


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.name)
def test_the_marker_says_what_the_header_says(path: Path) -> None:
    meta, plan = read_meta(path), plan_replay(str(path))
    assert plan.why == f"recorded on {meta['recorded_on']}, {meta['debugger']}, {meta['recorded_at']} · {path.name}"
    assert plan.config.breakpoints == read_recording(path).breakpoints  # no -b: the recorded ones
    assert plan.config.core is None


def test_a_header_without_gpu_or_date_says_so() -> None:
    plan = plan_replay(str(RECORDED / "ui_race_160x48.jsonl"))
    assert plan.why.startswith("recorded on NVIDIA H200, cuda-gdb, date not recorded · ")  # GPU from its output


async def test_replay_shows_the_marker_and_stops_at_the_recorded_breakpoint() -> None:
    path = RECORDINGS_DIR / "race.jsonl.gz"
    plan = plan_replay(str(path))
    app = app_for(plan)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: f"REPLAY — {plan.why}" in messages(app))  # said at the start: 80 columns cut the bar
        line = first_stop_line(path)
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(SourcePane).view.current == line)
        bar = app.query_one(ModeStatusBar).render().plain
        assert bar.startswith(" REPLAY ") and "stopped" in bar and bar.endswith(plan.why)
        await pilot.press("ctrl+q")


def test_sources_are_found_by_name_in_source_dirs_next_to_the_file_in_the_cwd_then_in_the_lessons(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """divergence.jsonl.gz names divergence.cu by its path on the recording machine."""
    lines = [e.line for x in load(str(RECORDINGS_DIR / "divergence.jsonl.gz")).exchanges for e in x.output]
    recorded = next(m.group(1) for line in lines if (m := re.search(r'fullname="([^"]*/divergence\.cu)"', line)))
    layout = {name: tmp_path / name for name in ("given", "beside", "cwd", "alone")}
    for folder in layout.values():
        folder.mkdir()
    for folder in ("given", "beside", "cwd"):
        shutil.copy(KERNELS_DIR / "divergence.cu", layout[folder])
    for folder in ("beside", "alone"):
        shutil.copy(RECORDINGS_DIR / "divergence.jsonl.gz", layout[folder])
    monkeypatch.chdir(layout["cwd"])

    def found(recording: Path, *given: Path) -> Path | None:
        dirs = plan_replay(str(recording), extra_dirs=tuple(map(str, given))).config.source_dirs
        return find_source(recorded, dirs, recorded=True)

    beside, alone = layout["beside"] / "divergence.jsonl.gz", layout["alone"] / "divergence.jsonl.gz"
    assert found(beside, layout["given"]) == layout["given"] / "divergence.cu"
    assert found(beside) == layout["beside"] / "divergence.cu"
    assert found(alone) == layout["cwd"] / "divergence.cu"
    monkeypatch.chdir(layout["alone"])
    assert found(alone) == KERNELS_DIR / "divergence.cu"


async def test_the_source_pane_opens_the_file_from_source_dir(tmp_path: Path) -> None:
    given = tmp_path / "src"
    given.mkdir()
    shutil.copy(KERNELS_DIR / "divergence.cu", given)
    path = RECORDINGS_DIR / "divergence.jsonl.gz"
    app = app_for(plan_replay(str(path), extra_dirs=(str(given),)))
    async with app.run_test(size=(80, 24)) as pilot:
        line = first_stop_line(path)
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(SourcePane).view.current == line)
        shown = app.query_one(SourcePane).shown
        assert shown is not None and shown.local == given / "divergence.cu"
        await pilot.press("ctrl+q")


def cut_copy(tmp_path: Path, after: str, occurrence: int = 1) -> tuple[Path, int]:
    """race.jsonl.gz decompressed into tmp_path and cut in the middle of the line after the
    ``occurrence``-th line holding ``after`` (what a crash leaves); the file and the cut's line number."""
    lines = gzip.decompress((RECORDINGS_DIR / "race.jsonl.gz").read_bytes()).decode().splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if after in line]
    index = hits[occurrence - 1] + 1
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(lines[:index]) + lines[index][: len(lines[index]) // 2])
    assert load(str(path)).truncated
    return path, index + 1


async def test_a_recording_cut_before_its_first_stop_says_so_in_one_line(tmp_path: Path) -> None:
    path, line = cut_copy(tmp_path, '"dir": "in", "line": "5-exec-run"')
    app = app_for(plan_replay(str(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        said = f"the recording was cut off at line {line}: it replays up to there"
        await wait_for(pilot, lambda: said in messages(app))
        await wait_for(pilot, lambda: status(app) == ("dead", f"the recording ends here: it was cut off at line {line} "
                                                              "(a crash?)"))
        assert app.debugger.state is None
        assert app.query_one(ModeStatusBar).render().plain.startswith(" REPLAY ")
        await pilot.press("ctrl+q")


async def test_a_recording_cut_in_a_stops_refresh_shows_that_stop_then_says_so(tmp_path: Path) -> None:
    path, line = cut_copy(tmp_path, "-cuda-info-sms\"}")
    app = app_for(plan_replay(str(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        stop = first_stop_line(RECORDINGS_DIR / "race.jsonl.gz")
        await wait_for(pilot, lambda: app.query_one(SourcePane).view.current == stop)
        await wait_for(pilot, lambda: status(app)[1] == f"the recording ends here: it was cut off at line {line} "
                                                         "(a crash?)")
        assert phase(app) == "dead" and app.debugger.status.focus  # the stop's focus is still shown
        await pilot.press("c")
        await wait_for(pilot, lambda: any(m.startswith("the program is not running") for m in messages(app)))
        await pilot.press("ctrl+q")


async def test_a_core_session_replays_its_recorded_coredump() -> None:
    plan = plan_replay(str(CORE))
    core = next(x for x in load(str(CORE)).exchanges if "target cudacore" in x.command).command
    assert plan.config.core and plan.config.core in core and "coredump" in plan.why
    app = app_for(plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: status(app) == ("stopped", "post-mortem (GPU coredump)"))
        assert app.debugger.status.focus.startswith("block (")
        await pilot.press("ctrl+q")


def test_a_recording_that_cannot_start_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ReplayError, match=r"this recording starts its target with '-target-attach \d+', so a "
                                          "replay cannot start it"):
        plan_replay(str(ATTACH))
    assert main(["replay", str(ATTACH)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cudatui: ") and "Traceback" not in err
    assert main(["replay", str(CORE), "--speed", "-1"]) == 2
    assert capsys.readouterr().err == "cudatui: --speed must not be negative\n"
    assert main(["replay", "/nonexistent.jsonl"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
