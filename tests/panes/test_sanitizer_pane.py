"""SanitizerPane and the sanitize app on real recorded reports (Pilot + snapshots, no GPU); the
command line of `cudatui sanitize` is tests/app/test_sanitize_command.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Log, Static

from cudatui.gdbbridge.sanitizer.run import SanitizerRequest
from cudatui.gdbbridge.sanitizer.report import read_report
from cudatui.gdbbridge.sanitizer.culprit_stop import debug_breakpoint_for
from cudatui.tui.messages import DebugFinding, OpenSource, PostMortem
from cudatui.tui.panes.sanitizer import SanitizerPane
from cudatui.tui.apps.sanitize_app import SanitizeApp
from tests.support import paths
from tests.support.processes import gone
from tests.support.wait import until, wait_for

FIXTURES = paths.FIXTURES / "sanitizer"


class RecordingApp(SanitizeApp):
    """SanitizeApp that also records the pane's messages."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.messages: list = []

    def on_open_source(self, message: OpenSource) -> None:
        self.messages.append(("open", message.path, message.line))

    def on_sanitizer_pane_debug_finding(self, message: DebugFinding) -> None:
        self.messages.append(("debug", message.group))

    def on_sanitizer_pane_post_mortem(self, message: PostMortem) -> None:
        self.messages.append(("post-mortem", message.group))


def table_rows(app) -> list[list[str]]:
    table = app.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def details(app) -> str:
    return str(app.query_one("#sanitizer-details", Static).visual)


async def test_report_rows_details_and_messages():
    app = RecordingApp(report=read_report(str(FIXTURES / "sanitizer_text.txt")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert table_rows(app) == [
            ["9", "bad read 4B global", "bugs.cu:5", "bugs.cu:45", "add_kernel", "(156,0,0)", "(96,0,0)..(104,0,0)",
             "memcheck"],
            ["1", "race (2160 hazards)", "bugs.cu:13", "-", "reduce_racy", "-", "-", "racecheck"],
            ["1", "device assert", "bugs.cu:27", "bugs.cu:48", "void checked_index(…", "(0,0,0)", "(77,0,0)",
             "memcheck"],
            ["1", "cudaDeviceSynchronize: cudaErrorAssert", "bugs.cu:51", "bugs.cu:51", "-", "-", "-", "memcheck"],
        ]
        status = str(app.query_one("#sanitizer-status", Static).visual)
        assert "12 findings in 4 groups" in status and "ERROR SUMMARY 2" in status
        text = details(app)
        assert "distance: 135,553 bytes after allocation 0x7f4692e05000" in text
        assert "python: <module> in bugs.py:4" in text and "#0 launch in bugs.cu:45 (libbugs.so)" in text
        assert "launched from: launch in bugs.cu:45 (libbugs.so)" in text

        await pilot.press("down", "down")
        assert "assertion: j >= 0 && j < n" in details(app)
        await pilot.press("enter")
        await pilot.press("d", "p")
        await pilot.pause()
        assert app.messages[0] == ("open", "bugs.cu", 27)
        assert app.messages[1][0] == "debug" and app.messages[1][1].first.line == 27
        assert app.messages[2][0] == "post-mortem"


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("report", "summary", "detail"), [
    ("race_racecheck_buggy.xml", "racecheck · 1 finding in 1 group", "Write race.cu:25 reduce_racy [2,032 hazards]"),
    ("leak_leak_buggy.xml", "memcheck · 7 findings in 3 groups", "allocated at /work/main/kernels/leak.cu:33"),
], ids=["race", "leak"])
async def test_the_lessons_reports_summary_and_details_read_right_on_the_screen(report, summary, detail, size):
    """The H200 reports of the race and leak lessons: one finding is one finding (not '1
    findings in 1 groups'), a leak says where it was allocated (not 'device: ? at')."""
    from tests.support.screen import screen_text

    app = SanitizeApp(report=read_report(str(FIXTURES / "lessons" / report)))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: detail in " ".join(screen_text(app).split()), why="the first finding's details")
        rows = [" ".join(row.split()) for row in screen_text(app).splitlines()]
        assert rows[0] == summary
        assert not any("device: ?" in row or "1 findings" in row or "1 groups" in row for row in rows), rows


async def test_torch_kernel_is_launched_from_the_script_line_and_d_stops_on_the_culprit_thread():
    """PyTorch's index assert (memcheck on the H200): the launch-time backtrace holds 23 library
    frames before `<module> in a.py:5`; that is the launch column, the details keep all of them."""
    app = RecordingApp(report=read_report(str(FIXTURES / "memcheck_torch.txt")))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert table_rows(app)[0][:5] == ["1", "device assert", "IndexKernel.cu:111", "a.py:5", "operator()"]
        text = details(app)
        assert "launched from: <module> in a.py:5" in text
        assert "#23 <module> in a.py:5" in text and "#1 cudaLaunchKernel (libcudart.so.13)" in text
        await pilot.press("d")
        await pilot.pause()
        kind, group = app.messages[0]
        assert kind == "debug"
        assert debug_breakpoint_for(group) == ("/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:111",
                                               "blockIdx.x == 0 && threadIdx.x == 0")


async def test_log_toggle_and_group_without_source_line():
    app = RecordingApp(report=read_report(str(FIXTURES / "memcheck.xml")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")  # the API error: no device line, host frame main in t.cu:9
        assert "cudaDeviceSynchronize" in details(app)
        await pilot.press("enter")
        assert app.messages == [("open", "/tmp/t.cu", 9)]
        await pilot.press("l")
        assert app.query_one("ContentSwitcher").current == "sanitizer-log"


async def test_live_run_streams_log_and_fills_table(fake_sanitizer):
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "initcheck.txt"))
    fake_sanitizer.setenv("FAKE_SANITIZER_REPEAT", "20")
    app = RecordingApp(request=SanitizerRequest(program="./r", tool="initcheck"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.result is not None, why="the run's result")
        await pilot.pause()
        replay_lines = len((FIXTURES / "initcheck.txt").read_text().splitlines())
        assert app.result is not None and app.result.line_count == 20 * replay_lines
        assert table_rows(app) == [["640", "uninit read 4B", "r.cu:2", "r.cu:4", "u(int *, int *)", "(0,0,0)",
                                    "(0,0,0)..(31,0,0)", "initcheck"]]
        log = app.query_one(Log)
        assert log.line_count == 2000  # bounded to the last 2000 lines
        assert log.lines[-1] == "========= ERROR SUMMARY: 32 errors"


async def test_missing_sanitizer_shows_one_line_status(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    app = SanitizeApp(request=SanitizerRequest(program="./r"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: str(app.query_one("#sanitizer-status", Static).visual).startswith("compute-sanitizer not found"),
                       why="the run's status")
        status = str(app.query_one("#sanitizer-status", Static).visual)
        assert status.startswith("compute-sanitizer not found on PATH")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_snapshot_report(snap_compare, size):
    app = SanitizeApp(report=read_report(str(FIXTURES / "sanitizer_text.txt")))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_snapshot_torch_assert_details(snap_compare, size):
    app = SanitizeApp(report=read_report(str(FIXTURES / "memcheck_torch.txt")))
    assert snap_compare(app, terminal_size=size)


async def test_quitting_during_a_run_stops_the_sanitizer(fake_sanitizer, tmp_path):
    child_pid = tmp_path / "child.pid"
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "memcheck.txt"))
    fake_sanitizer.setenv("FAKE_SANITIZER_HANG", "1")
    fake_sanitizer.setenv("FAKE_SANITIZER_CHILD_PID", str(child_pid))
    app = RecordingApp(request=SanitizerRequest(program="./t"))
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(SanitizerPane)
        await wait_for(pilot, lambda: child_pid.exists() and child_pid.read_text() and pane.running,
                       why="the sanitizer's child, the run started in the pane")
        assert pane.running and "running" in str(app.query_one("#sanitizer-status", Static).visual)
        await pilot.press("q")
    await until(lambda: gone(int(child_pid.read_text())), why="the sanitizer's child to end")


async def run_to_result(pilot, app) -> None:
    await wait_for(pilot, lambda: app.result is not None, why="the sanitizer run to finish")


async def test_debug_this_finding_with_a_program_hands_the_culprit_thread_to_the_debugger(fake_sanitizer, tmp_path):
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "memcheck.txt"))
    app = SanitizeApp(request=SanitizerRequest(program="./t", args=("--n", "it's")))
    async with app.run_test(size=(100, 30)) as pilot:
        await run_to_result(pilot, app)
        group = app.query_one(SanitizerPane).groups[0]
        assert (group.first.file, group.first.line) == ("t.cu", 8)
        await pilot.press("d")
        await pilot.pause()
    assert app.handoff is not None and app.return_value == 1
    assert app.handoff.target == ("./t", "--n", "it's") and app.handoff.core is None
    assert app.handoff.breakpoints == ("t.cu:8 if blockIdx.x == 1 && threadIdx.x == 5",)
    assert app.handoff.debugger == ("cuda-gdb",) and not app.handoff.replayed


async def test_post_mortem_reruns_memcheck_with_a_coredump_then_hands_it_to_the_debugger(fake_sanitizer, tmp_path):
    fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "memcheck.txt"))
    app = SanitizeApp(request=SanitizerRequest(program="./t", tool="racecheck"))
    async with app.run_test(size=(100, 30)) as pilot:
        await run_to_result(pilot, app)
        first = app.result
        log = tmp_path / "argv.json"
        fake_sanitizer.setenv("FAKE_SANITIZER_LOG", str(log))
        fake_sanitizer.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "cd.txt"))
        await pilot.press("p")
        await wait_for(pilot, lambda: app.result is not first and app.handoff is not None, why="the rerun's handoff")
    argv = json.loads(log.read_text())["argv"]
    assert argv[argv.index("--tool") + 1] == "memcheck" and "--generate-coredump" in argv
    assert argv[argv.index("--coredump-behavior") + 1] == "exit"
    assert app.handoff is not None and app.handoff.target == ("./t",) and app.handoff.breakpoints == ()
    assert app.handoff.core == app.result.coredump_path and Path(app.handoff.core).read_bytes().startswith(b"\x7fELF")


async def test_a_saved_report_says_the_command_line_instead_of_launching():
    app = SanitizeApp(report=read_report(str(FIXTURES / "memcheck.txt")))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("d", "p")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert app.handoff is None and app.is_running
    assert "cudatui -b 't.cu:8 if blockIdx.x == 1 && threadIdx.x == 5' PROGRAM [ARGS]" in said
    assert any("no program to re-run" in text for text in said)
