"""``cudatui --pid``: the debugger app attached to a running C program by real GNU gdb (Pilot)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import DataTable

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.jobs.attach import attach_problem, attached_pid
from cudatui.gdbbridge.record.transcript import load
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.launch import attach_config
from cudatui.tui.panes.stack import StackPane
from cudatui.tui.panes.status import StatusBar, status_text
from cudatui.tui.screens.notices_screen import NoticesScreen
from tests.support.app import messages, no_internal_errors, phase, rows, status
from tests.support.cli import run_main
from tests.support.jobs import HUNG, Beating, beats, keeps_beating, traced_by_gdb, untrace
from tests.support.notices_log import log_rows, squeezed
from tests.support.programs import marked_line, needs_gdb
from tests.support.screen import screen_text
from tests.support.wait import wait_for, wait_until

pytestmark = needs_gdb


async def test_attach_shows_the_process_and_its_stack_c_ctrl_c_and_q_detaches(tmp_path: Path) -> None:
    beat = Beating(tmp_path)
    try:
        config = attach_config(beat.pid, None)
        assert config.debugger == ("gdb",) and config.source_dirs[0] == str(tmp_path)  # not a CUDA program
        app = DebuggerApp(config)
        async with app.run_test(size=(160, 48)) as pilot:
            said = f"attached to process {beat.pid}: {tmp_path / 'beat'} {tmp_path / 'beat.txt'}. It is stopped"
            await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app)))
            await wait_for(pilot, lambda: status(app) == ("stopped", "attached"))
            context = app.debugger.status.context
            assert context.startswith(f"q detaches (it runs on) · pid {beat.pid} beat {tmp_path}"[:50])
            assert status_text(app.query_one(StatusBar).status, 0).plain.startswith(f" stopped  attached · {context}")
            await wait_for(pilot, lambda: any("main" in cells for cells in rows(app, StackPane).values()))

            await pilot.press("c")
            await wait_for(pilot, lambda: phase(app) == "running")
            await pilot.press("ctrl+c")
            await wait_for(pilot, lambda: status(app) == ("stopped", "SIGINT"))
            await pilot.press("r")  # would kill it: refused, said
            await wait_for(pilot, lambda: any("r would kill it" in m for m in messages(app, "warning")))
            assert phase(app) == "stopped" and beat.process.poll() is None
            await pilot.press("q")
        assert no_internal_errors(app)
        keeps_beating(beat.file, beat.process)  # detached while stopped: it runs on
    finally:
        beat.stop()


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (160, 48)])
async def test_attached_l_is_refused_as_r_is_and_said_on_the_screen(tmp_path: Path, size) -> None:
    """L re-runs with launch blocking: attached, it would kill the process as r would. It is
    refused before anything changes, and the notices log (!) says so with L's own name."""
    beat = Beating(tmp_path)
    try:
        app = DebuggerApp(attach_config(beat.pid, None))
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: status(app) == ("stopped", "attached"))
            await pilot.press("L")
            said = f"attached to process {beat.pid}: L would kill it. q detaches (it runs on)"
            await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app, "warning")))
            assert phase(app) == "stopped" and beat.process.poll() is None
            await pilot.press("!")
            await wait_for(pilot, lambda: isinstance(app.screen, NoticesScreen))
            await wait_for(pilot, lambda: squeezed(said) in squeezed("".join(log_rows(screen_text(app)))),
                           why="L's refusal in the notices log on the screen")
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, NoticesScreen))
            await pilot.press("q")
        assert no_internal_errors(app)
        keeps_beating(beat.file, beat.process)  # never killed, detached: it runs on
    finally:
        beat.stop()


def test_attach_refusals_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(capsys, "--pid", str(2**22 + 1)) == (2, "", f"cudatui: no process {2**22 + 1}\n")
    beat = Beating(tmp_path)
    gdb = traced_by_gdb(beat.pid)
    try:
        rc, out, err = run_main(capsys, "--pid", str(beat.pid), "--debugger", "gdb")
        assert (rc, out) == (2, "") and err == (f"cudatui: process {beat.pid} is already traced by process {gdb.pid} "
                                                "(gdb): detach that debugger first\n")
    finally:
        untrace(gdb)
        beat.stop()
    assert run_main(capsys, "--pid", "0")[::2] == (2, "cudatui: error: --pid 0 is not a process id\n")
    rc, _, err = run_main(capsys, "--pid", "1", "./prog")
    assert rc == 2 and err == "cudatui: error: --pid attaches to a running process: give no PROGRAM, --core or --rank\n"
    rc, _, err = run_main(capsys, "--pid", "x")
    assert rc == 2 and err.count("\n") == 1 and "invalid int value: 'x'" in err


async def test_an_attached_session_recorded_replays_as_attached(tmp_path: Path) -> None:
    beat = Beating(tmp_path)
    recording = tmp_path / "attach.jsonl"
    try:
        app = DebuggerApp(replace(attach_config(beat.pid, "gdb"), record=str(recording)))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: status(app) == ("stopped", "attached"))
            await pilot.press("c")
            await wait_for(pilot, lambda: phase(app) == "running")
            await pilot.press("ctrl+c")
            await wait_for(pilot, lambda: status(app) == ("stopped", "SIGINT"))
            await pilot.press("q")
    finally:
        beat.stop()
    pid = attached_pid(load(recording).meta.get("argv"))
    assert pid == beat.pid
    replayed = DebuggerApp(LaunchConfig.replay(recording, attach=pid))
    async with replayed.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: status(replayed) == ("stopped", "attached"))
        assert replayed.debugger.status.context == f"q detaches (it runs on) · pid {pid}"  # not this machine's process
        await wait_for(pilot, lambda: any("main" in cells for cells in rows(replayed, StackPane).values()))
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(replayed) == "running")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: status(replayed) == ("stopped", "SIGINT"))
        await pilot.press("q")
    assert no_internal_errors(replayed)


async def test_attached_to_a_hung_python_program_shows_its_python_line(tmp_path: Path) -> None:
    beat = tmp_path / "beat.txt"
    hung = subprocess.Popen([sys.executable, str(HUNG), str(beat)], cwd=tmp_path)
    try:
        wait_until(lambda: beats(beat) > 0, why="the first heartbeat")
        problem = attach_problem(hung.pid)
        if problem:
            pytest.skip(f"cannot attach here: {problem}")
        app = DebuggerApp(attach_config(hung.pid, "gdb"))
        async with app.run_test(size=(160, 48)) as pilot:
            await wait_for(pilot, lambda: status(app) == ("stopped", "attached"))
            table = app.query_one(StackPane).query_one("#host-table", DataTable)
            line = f"hung.py:{marked_line(HUNG, '# WAITS')}"
            await wait_for(pilot, lambda: any(line in " ".join(str(c) for c in table.get_row(k)) for k in table.rows),
                           why="the script's line in the host stack")
            assert any("wait_for_peer" in " ".join(str(c) for c in table.get_row(k)) for k in table.rows)
            await pilot.press("q")
        keeps_beating(beat, hung)
    finally:
        hung.kill()
        hung.wait()


async def test_gdb_refused_to_attach_is_a_startup_failure_in_one_line(tmp_path: Path) -> None:
    """Past the command line's checks (the app given the config directly), gdb itself is refused:
    the app ends with the reason /proc gives for what gdb said."""
    beat = Beating(tmp_path)
    gdb = traced_by_gdb(beat.pid)
    try:
        app = DebuggerApp(attach_config(beat.pid, "gdb"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.failure is not None)
        assert app.failure == f"process {beat.pid} is already traced by process {gdb.pid} (gdb): detach that debugger first"
    finally:
        untrace(gdb)
        beat.stop()
