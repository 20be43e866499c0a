"""The program's end in the source pane, with real GNU gdb running Python scripts as the app runs
every ``.py`` program (``gdb --args python3 script.py``): the exception it died of at its frame
(the file shown, the line marked), and the next step; a plain exit says its code."""

from __future__ import annotations

from textual.widgets import Static

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.source import SourcePane
from tests.support.app import phase
from tests.support.paths import C_SOURCES, FIXTURES
from tests.support.programs import STEPS, compile_c, marked_line, needs_gdb
from tests.support.wait import wait_for

pytestmark = needs_gdb

SCRIPTS = FIXTURES / "python"


def line_shown(app: DebuggerApp, widget: str) -> str:
    info = app.query_one(SourcePane).query_one(f"#source-{widget}")
    return str(info.render()) if info.display else ""


def python_app(script: str, tmp_path) -> DebuggerApp:
    return DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(SCRIPTS / script),), cwd=str(tmp_path)))


async def test_a_python_exception_is_shown_at_its_line_with_the_next_step(tmp_path) -> None:
    app = python_app("raises.py", tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited" and line_shown(app, "note"), why="the exception's note")
        raise_line = marked_line(SCRIPTS / "raises.py", "# THE RAISE")
        source = app.query_one(SourcePane)
        assert source.shown is not None and source.shown.local == SCRIPTS / "raises.py"
        assert source.view.current == raise_line and source.view.cursor == raise_line
        assert line_shown(app, "note") == (f"exited with code 1: ZeroDivisionError: division by zero at raises.py:"
                                           f"{raise_line}\nr runs it again")
        error = app.debugger.state.notes.error
        assert [f.line for f in error.frames] == [marked_line(SCRIPTS / "raises.py", "# THE CALL"), raise_line]
        assert error.frames[-1].code == "return sum(values) / len(values)  # THE RAISE"
        await app.action_quit()


async def test_an_asynchronous_cuda_error_offers_launch_blocking_and_memcheck(tmp_path) -> None:
    app = python_app("async_error.py", tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited" and line_shown(app, "note"), why="the exception's note")
        raise_line = marked_line(SCRIPTS / "async_error.py", "# THE RAISE")
        # the innermost frame is synchronize() in the same script: the user's innermost frame
        assert app.query_one(SourcePane).view.current == raise_line
        note = line_shown(app, "note").split("\n")
        assert note[0] == (f"exited with code 1: RuntimeError: CUDA error: an illegal memory access was encountered "
                           f"at async_error.py:{raise_line}")
        assert note[1].startswith("a kernel failed before the call that reported it")
        assert "L re-runs with CUDA_LAUNCH_BLOCKING=1" in note[1]
        assert "m runs memcheck" in note[1]
        await pilot.press("m")  # the next step: memcheck in the Sanitize pane (no compute-sanitizer here: it says so)
        status = app.query_one("#sanitizer-status", Static)
        await wait_for(pilot, lambda: str(status.render()) != "no sanitizer run yet", why="the sanitizer's status")
        await app.action_quit()


async def test_a_plain_exit_says_its_code_and_no_cuda_step(tmp_path) -> None:
    program = compile_c(STEPS, tmp_path / "steps")
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program),), cwd=str(tmp_path)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited" and line_shown(app, "missing"), why="the exit line")
        assert line_shown(app, "missing") == "the program exited with code 0; r runs it again"
        assert line_shown(app, "note") == ""
        await app.action_quit()


async def test_a_python_program_runs_with_cupys_source_and_debug_variables(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("CUPY_CACHE_SAVE_CUDA_SOURCE", raising=False)
    monkeypatch.setenv("CUPY_CUDA_COMPILE_WITH_DEBUG", "0")  # the user's own value wins
    app = python_app("env.py", tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited" and "DEBUG=" in app.query_one(OutputPane).text,
                       why="the program's output")
        text = app.query_one(OutputPane).text
        assert "CUPY_CACHE_SAVE_CUDA_SOURCE=1" in text and "CUPY_CUDA_COMPILE_WITH_DEBUG=0" in text
        await app.action_quit()


async def test_a_compiled_programs_cuda_error_message_is_its_end(tmp_path) -> None:
    """A native program that prints a CUDA runtime error and exits 1 (as the lessons' C hosts do)."""
    program = compile_c(C_SOURCES / "end" / "cuda_error.c", tmp_path / "cuda_error")
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program),), cwd=str(tmp_path)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited" and "CUDA error" in line_shown(app, "missing"),
                       why="the exit line")
        lines = line_shown(app, "missing").split("\n")
        assert lines[0] == ("the program exited with code 1: CUDA error: an illegal memory access was encountered "
                            "(cudaMemcpy at main.c:12)")
        assert lines[1].startswith("a kernel failed before the call that reported it")
        await app.action_quit()
