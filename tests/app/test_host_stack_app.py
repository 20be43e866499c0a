"""The Python line behind a stop, in the app: a script under real GNU gdb stops in a C function
it called; the Stack pane lists the script's frames under gdb's, enter opens the line in the
source pane; the recording carries the host stack and its replay shows the same frames."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.widgets import DataTable

from cudatui.gdbbridge import HostStack, LaunchConfig
from cudatui.gdbbridge.record.transcript import load
from cudatui.tui.app import DebuggerApp
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
        await wait_for(pilot, lambda: phase(app) == "stopped" and app.last_state is not None)
        assert host_rows(app) == []
        await app.action_quit()


async def test_the_last_host_stack_stays_dimmed_until_the_next_stops_own_arrives(tmp_path: Path) -> None:
    """Hiding the host rows at each stop and showing them again when the new stack came laid the
    screen out twice per stop: a new stop dims the rows instead, its answer replaces them (or hides
    them: no stack at this stop), and the program's end hides them at once."""
    app = DebuggerApp(script_config(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped" and host_rows(app), why="the host stack")
        pane = app.query_one(StackPane)
        table = pane.query_one("#host-table", DataTable)
        rows, state = host_rows(app), app.last_state
        assert not table.has_class("-stale")
        later = replace(state, generation=state.generation + 1, stop=replace(state.stop))
        pane.show_state(later)
        await pilot.pause()
        assert host_rows(app) == rows and table.has_class("-stale")
        pane.show_host(state.generation, HostStack(1, error="late"), None)  # the earlier stop's answer, late
        await pilot.pause()
        assert host_rows(app) == rows and table.has_class("-stale"), "an earlier stop's host stack was shown"
        pane.show_host(later.generation, None, None)
        await pilot.pause()
        assert host_rows(app) == [] and not table.has_class("-stale")
        pane.show_host(later.generation, HostStack(1, error="x"), None)
        ended = replace(later, generation=later.generation + 1, stop=replace(state.stop, reason="exited-normally", exit_code=0))
        pane.show_state(ended)
        await pilot.pause()
        assert host_rows(app) == []
        await app.action_quit()
