"""The Python line behind a stop, in the app: a script under real GNU gdb stops in a C function
it called; the Stack pane lists the script's frames under gdb's, enter opens the line in the
source pane; the recording carries the host stack and its replay shows the same frames."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from cudatui.gdbbridge import LaunchConfig, StateChanged, StopState
from cudatui.gdbbridge.record.transcript import load
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.stack import StackPane
from tests.support.app import gdb_config, phase
from tests.support.paths import C_SOURCES
from tests.support.programs import BREAK_LINE, STEPS, compile_c, marked_line, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb

SCRIPT = C_SOURCES / "host" / "launch.py"
LAUNCH_LINE = marked_line(SCRIPT, "# THE LAUNCH")
SCRIPT_LINE = marked_line(SCRIPT, "# THE SCRIPT LINE")


def host_rows(app: DebuggerApp) -> list[list[str]]:
    table = app.query_one(StackPane).query_one("#host-table", DataTable)
    return [[str(cell) for cell in table.get_row(key)] for key in table.rows] if table.display else []


def script_config(tmp_path: Path, **fields: str) -> LaunchConfig:
    """The script under GNU gdb, stopping in the C function it calls (its library built in ``tmp_path``)."""
    library = compile_c(C_SOURCES / "host" / "hook.c", tmp_path / "libhook.so", "-shared", "-fPIC")
    return LaunchConfig(debugger=("gdb",), target=(str(SCRIPT), str(library)), breakpoints=("cudatui_hook",),
                        cwd=str(tmp_path), source_dirs=(str(SCRIPT.parent),), **fields)


async def test_the_scripts_lines_behind_a_stop_live_then_replayed(tmp_path: Path) -> None:
    record = tmp_path / "host.jsonl"
    app = DebuggerApp(script_config(tmp_path, record=str(record)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and host_rows(app), why="the host stack")
        rows = host_rows(app)
        assert rows[0][2:] == ["launch", f"launch.py:{LAUNCH_LINE}  return hook(n)  # THE LAUNCH"]
        assert rows[1][2:] == ["<module>", f'launch.py:{SCRIPT_LINE}  print("result", launch(41))  # THE SCRIPT LINE']
        assert rows[0][0] == "•"  # the innermost frame of the user's code
        assert app.query_one(StackPane).query_one("#host-note").display is False  # no kernel: no launch note
        table = app.query_one(StackPane).query_one("#host-table", DataTable)
        table.focus()
        table.move_cursor(row=1)
        await pilot.press("enter")
        source = app.query_one(SourcePane)
        await wait_for(pilot, lambda: source.shown is not None and source.shown.local == SCRIPT, why="the script")
        assert source.view.cursor == SCRIPT_LINE
        await app.action_quit()

    exchanges = load(str(record)).exchanges
    assert sum(x.command == "-cudatui-host-stack" for x in exchanges) == 1
    replay = DebuggerApp(LaunchConfig.replay(record, breakpoints=("cudatui_hook",),
                                             source_dirs=(str(SCRIPT.parent),)))
    async with replay.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(replay) == "stopped" and host_rows(replay), why="the replayed host stack")
        assert host_rows(replay) == rows
        await replay.action_quit()


async def test_a_program_that_is_not_python_has_no_host_section(tmp_path: Path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    app = DebuggerApp(gdb_config(program, f"steps.c:{BREAK_LINE}"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.debugger.state is not None)
        assert host_rows(app) == []
        await app.action_quit()


async def test_a_stop_reaches_the_panes_with_its_host_stack_in_one_state(tmp_path: Path) -> None:
    """One snapshot per stop: the first state that shows a stop carries its host stack (no state
    of the stop without it, so the Stack pane is laid out once), and the program's end carries
    none (the host rows are hidden)."""
    app = DebuggerApp(script_config(tmp_path))
    states: list[StopState] = []
    app.debugger.subscribe(lambda event: isinstance(event, StateChanged) and states.append(event.state))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and host_rows(app), why="the host stack")
        stop = app.debugger.state.stop
        first = next(state for state in states if state.stop is stop)
        assert first.host is not None and first.host.user_frame is not None
        assert first.host.user_frame.line == LAUNCH_LINE
        assert host_rows(app)[0][2:] == ["launch", f"launch.py:{LAUNCH_LINE}  return hook(n)  # THE LAUNCH"]
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited", why="the program's end")
        assert app.debugger.state.host is None
        await wait_for(pilot, lambda: host_rows(app) == [], why="the host rows hidden")
        await app.action_quit()
