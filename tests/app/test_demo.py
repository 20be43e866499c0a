"""`cudatui demo`: lesson list, unknown lessons, live/replay decision, picker, guide, replay.

The replays use the packaged recordings in kernels/recordings/ (real H200 sessions); what a
test expects is read from those recordings (their first stop, their recorded path).
"""

from __future__ import annotations

import io
import shutil
import stat
from pathlib import Path

import pytest
from rich.console import Console
from textual import events
from textual.widgets import DataTable, Static

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.record.stop_state import summarize
from cudatui.gdbbridge.doctor.probe import DoctorConfig
from cudatui.gdbbridge.session.mi import parse_line
from cudatui.gdbbridge.record.transcript import load
from cudatui.kernels.build import build_source
from cudatui.kernels.lessons import LESSONS, get_lesson
from cudatui.tui.cli import main
from cudatui.tui.apps.demo_app import DemoApp
from cudatui.tui.plans.demo_plan import (
    RECORDINGS_DIR, DemoError, DemoPlan, live_config, packaged_recording, plan_demo, probe_live, read_meta,
    read_recording,
)
from cudatui.tui.screens.help import HelpScreen, key_label
from cudatui.tui.screens.lesson_picker import LessonPicker, LessonTable
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.gpu_stats import GpuStatsPane
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.apps.picker_app import PickerApp
from cudatui.tui.apps.replay_app import ModeStatusBar
from tests.support.app import phase
from tests.support.recorded_path import awaits_rerecording, path_of, walk_path
from tests.support.screen import screen_rows
from tests.support.wait import wait_for


RECORDED = sorted(p.name.removesuffix(".jsonl.gz") for p in RECORDINGS_DIR.glob("*.jsonl.gz"))


def first_stop(path: Path) -> tuple[str, int]:
    """File name and line of the recording's first ``*stopped`` in a kernel frame."""
    transcript = load(str(path))
    for exchange in transcript.exchanges:
        for entry in exchange.output:
            if entry.dir == "out" and entry.line.startswith("*stopped"):
                frame = parse_line(entry.line).payload.get("frame", {})
                if frame.get("line"):
                    return Path(frame["file"]).name, int(frame["line"])
    raise AssertionError(f"{path} has no stop with a source line")


# -- the command line --------------------------------------------------------------------------


def test_list_prints_every_lesson_on_one_line(capsys) -> None:
    assert main(["demo", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [lesson.name for lesson in LESSONS]
    for line, lesson in zip(lines, LESSONS):
        assert lesson.title in line and lesson.tool in line


def test_unknown_lesson_is_one_line_listing_the_valid_names(capsys) -> None:
    assert main(["demo", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown lesson 'nosuch'" in err
    assert all(lesson.name in err for lesson in LESSONS)


def test_replay_of_a_lesson_without_recording_and_bad_speed_are_one_line(capsys) -> None:
    unrecorded = [lesson.name for lesson in LESSONS if packaged_recording(lesson) is None]
    for name in unrecorded:
        assert main(["demo", name, "--replay"]) == 2
        assert capsys.readouterr().err == f"cudatui demo: no recording of lesson {name} in this install, " \
                                          "and it cannot run live: --replay given\n"
    assert main(["demo", "race", "--replay", "--speed", "-1"]) == 2
    assert capsys.readouterr().err == "cudatui demo: --speed must not be negative\n"


# -- live or replay ----------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("cuda-gdb") is not None, reason="this machine has cuda-gdb")
def test_without_cuda_gdb_the_default_is_replay_and_says_why() -> None:
    assert probe_live().problem == "no cuda-gdb on PATH"
    plan = plan_demo("race")
    meta = read_meta(RECORDINGS_DIR / "race.jsonl.gz")
    assert plan.mode == "replay"
    assert plan.banner == (f"REPLAY — recorded on {meta['recorded_on']}, {meta['debugger']}, {meta['recorded_at']}: "
                           "no cuda-gdb on PATH")
    assert plan.config.debugger[1:3] == ("-m", "cudatui.gdbbridge.record.replay") and plan.recording is not None
    with pytest.raises(DemoError, match=r"cannot run lesson race live: no cuda-gdb on PATH \(try --replay\)"):
        plan_demo("race", "live")


def test_with_cuda_gdb_but_no_gpu_the_default_is_replay_and_names_the_gpu_problem(tmp_path) -> None:
    """A cuda-gdb that answers --version is found by the doctor's check; NVML is then asked for real."""
    fake = tmp_path / "cuda-gdb"
    fake.write_text("#!/bin/sh\necho 'NVIDIA (R) CUDA Debugger'\necho 'CUDA Toolkit 13.0 release'\n"
                    "echo 'GNU gdb (GDB) 14.2 cuda-gdb 13.0'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    config = DoctorConfig(env={"PATH": str(tmp_path)}, cuda_roots=())
    probe = probe_live(config)
    if probe.problem is None:
        pytest.skip("this machine has a GPU")
    assert probe.debugger == str(fake) and probe.problem.startswith("no usable GPU (")
    plan = plan_demo("tile", probe=lambda: probe)
    assert plan.mode == "replay" and plan.why.endswith(f": {probe.problem}")


@pytest.mark.gpu
def test_on_a_gpu_box_the_default_is_live() -> None:
    plan = plan_demo("race")
    assert plan.mode == "live" and plan.build and plan.config.target == (str(get_lesson("race").demo_path),)
    assert plan.banner.startswith("LIVE — cuda-gdb ")


def test_packaged_recordings_match_the_lessons_and_stop_after_every_step() -> None:
    """Each recording was made with its lesson's breakpoints, and every recorded step that ran
    the target holds its stop (else a replay of that step would never stop)."""
    assert RECORDED, "no packaged recordings"
    for name in RECORDED:
        lesson, path = get_lesson(name), RECORDINGS_DIR / f"{name}.jsonl.gz"
        info, meta = read_recording(path), read_meta(path)
        assert (info.recorded_on, info.debugger, info.made_with) == (meta["recorded_on"], meta["debugger"],
                                                                    meta["made_with"])
        specs = tuple(str(BreakpointSpec(loc, cond)) for loc, cond in lesson.breakpoint_specs())
        assert info.breakpoints == specs or awaits_rerecording(name), (
            f"{name}: recorded with other breakpoints than the lesson's")
        assert not any(step.startswith("g lane") for step in info.steps)
        for exchange in load(str(path)).exchanges:
            lines = [e.line for e in exchange.output if e.dir == "out"]
            if exchange.command.startswith("-exec-") and any(line.endswith("^running") for line in lines):
                assert any(line.startswith("*stopped") for line in lines), f"{name}: {exchange.command} has no stop"


# -- the picker and the guide ------------------------------------------------------------------


async def test_picker_lists_title_symptom_tool_and_opens_the_chosen_lesson() -> None:
    app = PickerApp()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert isinstance(app.screen, LessonPicker)
        assert [str(key.value) for key in table.rows] == [lesson.name for lesson in LESSONS]
        for lesson in LESSONS:
            name, title, tool, replay = table.get_row(lesson.name)
            assert (name, tool) == (lesson.name, lesson.tool)
            assert title.plain == f"{lesson.title}\n{lesson.symptom}"
            assert replay.plain == ("recorded" if packaged_recording(lesson) else "live only")
        await pilot.press("down", "down", "enter")
    assert app.return_value == LESSONS[2].name


async def test_picker_opens_the_lesson_moved_to_when_the_keys_come_in_one_burst() -> None:
    """Down and Enter in one read of the terminal (typed fast, pasted, tmux send-keys): Enter
    opened the lesson the cursor was on before Down (a priority binding ran ahead of the table)."""
    app = PickerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(events.Key("down", None))
        app.post_message(events.Key("enter", "\r"))
        await wait_for(pilot, lambda: app.return_value is not None)
    assert app.return_value == LESSONS[1].name


async def test_picker_question_mark_lists_its_keys_and_escape_goes_back() -> None:
    app = PickerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("?")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=80, record=True, file=io.StringIO())
        for static in app.screen.query(Static):
            console.print(static.content)
        rows = [" ".join(line.split()) for line in console.export_text().splitlines()]
        for binding in (*LessonPicker.BINDINGS, *LessonTable.BINDINGS):
            assert f"{key_label(binding)} {binding.description}" in rows
        assert "up / down Move between lessons" in rows
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LessonPicker)
        await pilot.press("down", "enter")
    assert app.return_value == LESSONS[1].name


async def test_picker_quits_without_a_lesson() -> None:
    app = PickerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("q")
    assert app.return_value is None


# -- replay through the UI ---------------------------------------------------------------------


async def test_replay_reaches_the_recorded_stop_explains_a_step_outside_it_follows_the_path_and_restarts() -> None:
    plan = plan_demo("race", "replay")
    info = plan.recording
    assert info is not None
    file, line = first_stop(info.path)
    app = DemoApp(plan)
    message = (f"this step is not in the recording; from here it goes on with: {path_of(info.path)[1].keys} (the "
               f"recorded path: {info.path_text})")  # the step after the first stop
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(SourcePane).view.current == line)
        source = app.query_one(SourcePane)
        assert source.shown is not None and source.shown.local == get_lesson("race").source and file == "race.cu"
        bar = app.query_one(ModeStatusBar).render().plain
        assert bar.startswith(" REPLAY  ") and bar.endswith(plan.why) and "stopped" in bar
        assert "-exec-finish" not in {x.command for x in load(str(info.path)).exchanges}
        assert ": print sdata[0]@16" in info.path_text and "Sanitize: racecheck" in info.path_text
        await pilot.press("f")
        await wait_for(pilot, lambda: any(n.message == message for n in app.notices.entries))
        assert not any("not in this recording" in n.message for n in app.notices.entries)
        await walk_path(app, pilot, info.path)
        last = path_of(info.path)[-1].state
        assert last is not None and summarize(app.debugger.state) == last
        await pilot.press("r")
        await wait_for(pilot, lambda: any(n.message == "replaying the recording from the start" for n in app.notices.entries))
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.query_one(SourcePane).view.current == line)
        await pilot.press("q")


async def test_a_notice_takes_the_room_of_the_recordings_provenance_in_the_status_bar() -> None:
    """At 160x48 the status, the recording's provenance (dim) and a notice do not all fit: the
    notice the user's key brought is shown, the provenance (the guide strip and ! say it) gives
    way (with no notice it is shown: the replay test above)."""
    app = DemoApp(plan_demo("race", "replay"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("f")  # off the recorded path: a notice
        await wait_for(pilot, lambda: "⚠ this step is not in the recording" in screen_rows(app)[-2],
                       why="the off-path notice in the status bar")
        row = screen_rows(app)[-2]
        assert row.lstrip().startswith("REPLAY") and "stopped" in row and "kernel reduce_racy" in row, row
        assert "recorded on" not in row, row
        await pilot.press("q")


async def test_a_console_command_outside_the_recording_says_so_in_the_console() -> None:
    app = DemoApp(plan_demo("tile", "replay"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        app.show_pane("console")  # a tab under the source: its log fills in once shown
        await app.debugger.console_command("info frame")
        log = app.query_one(ConsolePane).query_one("#console-log")
        await wait_for(pilot, lambda: any("this step is not in the recording" in line.text for line in log.lines))
        await pilot.press("q")


# -- live: the kernel build --------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
async def test_live_build_failure_shows_nvccs_error_and_starts_no_debugger(tmp_path) -> None:
    broken = tmp_path / "broken.cu"
    broken.write_text("__global__ void k(int *p) { p[0] = undefined_name; }\n")
    lesson = get_lesson("race")
    plan = DemoPlan(lesson, "live", "cuda-gdb on a test machine", live_config(lesson, "cuda-gdb"), build=True)
    app = DemoApp(plan, build=lambda: build_source(broken, arch="sm_90", cache_root=tmp_path / "cache"))
    async with app.run_test(size=(160, 48)) as pilot:
        bar = app.query_one(ModeStatusBar)
        await wait_for(pilot, lambda: bar.status.phase == "dead", timeout=60)
        status = bar.status
        assert status.detail.startswith("build failed: nvcc failed to compile broken.cu: ")
        assert "undefined_name" in status.detail
        log = app.query_one(ConsolePane).query_one("#console-log")  # shown (a tab): its lines come once laid out
        await wait_for(pilot, lambda: any('identifier "undefined_name" is undefined' in line.text for line in log.lines))
        assert app.debugger.debugger_pid is None
        await pilot.press("q")


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
async def test_a_recorded_live_lesson_sets_its_panes_up_before_the_build(tmp_path) -> None:
    """A live lesson that builds first still sets its panes up as any session: recording, the GPU
    pane samples while hidden (each stop of the recording gets its sample; the assert lesson's
    recordings held none, batches 13-18), the Shared pane gets the source directories."""
    broken = tmp_path / "broken.cu"
    broken.write_text("__global__ void k(int *p) { p[0] = undefined_name; }\n")
    lesson = get_lesson("assert")
    config = live_config(lesson, "cuda-gdb", record=str(tmp_path / "rec.jsonl"))
    app = DemoApp(DemoPlan(lesson, "live", "cuda-gdb on a test machine", config, build=True),
                  build=lambda: build_source(broken, arch="sm_90", cache_root=tmp_path / "cache"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.query_one(ModeStatusBar).status.phase == "dead", timeout=60)
        assert app.query_one(GpuStatsPane).always
        assert app.query_one(SharedMemoryPane).search_dirs() == config.source_dirs
        await pilot.press("q")


@pytest.mark.gpu
async def test_live_lesson_builds_and_stops_at_its_first_breakpoint() -> None:
    plan = plan_demo("race", "live")
    app = DemoApp(plan)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) in ("stopped", "dead"), timeout=180)
        location = get_lesson("race").breakpoint_specs()[0][0]
        assert phase(app) == "stopped" and app.query_one(SourcePane).view.current == int(location.split(":")[1])
        assert app.query_one(ModeStatusBar).render().plain.startswith(" LIVE  ")
        await pilot.press("q")
