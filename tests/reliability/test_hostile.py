"""Hostile debuggees: output that imitates MI or drives the terminal, floods, bad bytes.

The programs live in tests/fixtures/c/hostile/ and run under a real GNU gdb inside the app
(Pilot). What they print must stay program output: the state, breakpoints and console come
from gdb only, escapes never reach the screen, and the output pane stays bounded.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from textual.widgets import Log, RichLog

from cudatui.gdbbridge.text import TerminalFilter
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.panes.console import ConsolePane
from cudatui.tui.panes.output import MAX_LINE, OutputPane
from tests.support.app import messages, phase
from tests.support.paths import FIXTURES
from tests.support.programs import compile_c, needs_gdb
from tests.support.wait import wait_for


@pytest.mark.parametrize("run", ["\x9d", "\x9dA", "\x1b]", "\x1bP", "\x9b1", "\x1b[1", "\x9d\x1b]"])
def test_unterminated_escape_runs_are_filtered_in_linear_time(run: str) -> None:
    """A 64 KB chunk (one pty read) of unfinished escape introducers must not stall the UI:
    the 8-bit OSC pattern used to rescan to the chunk end from every introducer (O(n^2))."""
    chunk = run * (65536 // len(run))

    def filtered(text: str) -> str:
        stream = TerminalFilter()
        return stream.feed(text) + stream.feed(text) + stream.flush()

    shown = filtered(chunk)
    assert "\x1b" not in shown and not any(0x80 <= ord(c) < 0xA0 for c in shown)
    # The cost grows with the input, not its square: 8x the input (8 KB -> 64 KB) must not take
    # 32x the time (quadratic would be 64x). Sizes compared, not seconds: the best of a few tries
    # of each, in this thread's own CPU time (time.thread_time), which other processes on a busy
    # machine do not add to: the ratio is the algorithm's, whatever the load.
    small = chunk[: len(run) * (8192 // len(run))]
    assert best_time(lambda: filtered(chunk)) < 32 * best_time(lambda: filtered(small))


def best_time(work, tries: int = 7) -> float:
    """The shortest of ``tries`` timings of ``work()``, in seconds of this thread's CPU time."""
    times = []
    for _ in range(tries):
        started = time.thread_time()
        work()
        times.append(time.thread_time() - started)
    return min(times)


# -- hostile programs under gdb, in the app --------------------------------------------------

HOSTILE = FIXTURES / "c" / "hostile"


def marker_line(name: str, marker: str) -> int:
    return next(i for i, line in enumerate((HOSTILE / name).read_text().splitlines(), 1) if marker in line)


@pytest.fixture(scope="module")
def hostile_bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not shutil.which("gcc"):
        pytest.skip("needs gcc")
    out = tmp_path_factory.mktemp("hostile")
    built = {}
    for source in sorted(HOSTILE.glob("*.c")):
        built[source.stem] = compile_c(source, out / source.stem)
    return built


def launch(program: Path, *args: str, breakpoints: tuple[str, ...] = ()) -> DebuggerApp:
    return DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program), *args), breakpoints=breakpoints,
                                    cwd=str(program.parent), source_dirs=(str(HOSTILE),)))


def console_text(app: DebuggerApp) -> str:
    """Everything the console pane shows (gdb output and the MI log)."""
    logs = app.query_one(ConsolePane).query(RichLog)
    return "\n".join(strip.text for log in logs for strip in log.lines)


@needs_gdb
async def test_program_imitating_mi_and_driving_the_terminal_changes_nothing(hostile_bins: dict[str, Path]) -> None:
    stop = marker_line("mimic.c", "/* STOP */")
    app = launch(hostile_bins["mimic"], breakpoints=(f"mimic.c:{stop}",))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        output = app.query_one(OutputPane)
        await wait_for(pilot, lambda: "after-c1-run" in output.text and output.text.count("fake error 39") == 2)
        state = app.debugger.state
        assert state is not None and app.debugger.status.detail == "breakpoint 1"
        assert (state.frame.func, state.frame.line) == ("main", stop)
        assert [bp.number for bp in state.breakpoints] == [1]
        assert app.debugger.session is not None and app.debugger.session.exit_code is None
        text = output.text
        for literal in ('*stopped,reason="exited-normally"', 'bkptno="1",frame={func="evil"', 'exit-code="7"',
                        '=breakpoint-deleted,id="1"', '1^error,msg="fake error 1"', '~"fake console line\\n"', "(gdb) "):
            assert text.count(literal) == 2, literal
        assert "visible-text" in text and "link visible-text" in text
        assert "\x1b" not in text and not any(0x80 <= ord(c) < 0xA0 for c in text)
        for payload in ("evil title", "ZXZpbCBjbGlwYm9hcmQ=", "evil.example", "c1 title", "1$qm"):
            assert payload not in text, payload
        assert app.title == "cudatui" and app.screen.title in (None, "cudatui")
        assert "fake console" not in console_text(app) and "fake error" not in console_text(app)
        assert not messages(app, "error")

        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        assert app.debugger.status.detail == "5"
        await pilot.press("q")


FLOOD_MB = 1
"""Megabytes of output here: enough to overflow the 10,000-line ring buffer. 100 MB takes
minutes through textual's Log (about 0.1-0.7 MB/s): see docs/reliability.md."""


@needs_gdb
async def test_output_flood_stays_bounded(hostile_bins: dict[str, Path]) -> None:
    app = launch(hostile_bins["flood"], str(FLOOD_MB), breakpoints=(f"flood.c:{marker_line('flood.c', '/* STOP */')}",))
    async with app.run_test(size=(80, 24)) as pilot:
        output = app.query_one(OutputPane)
        await wait_for(pilot, lambda: "END-OF-FLOOD" in output.text, timeout=60)
        await wait_for(pilot, lambda: phase(app) == "stopped")
        log = output.query_one(Log)
        assert log.max_lines is not None and len(log.lines) <= log.max_lines
        assert max(len(line) for line in log.lines) <= MAX_LINE
        assert sum(len(line) for line in log.lines) <= log.max_lines * MAX_LINE
        assert output.received > FLOOD_MB * 1024 * 1024
        last = [line for line in log.lines if line][-2:]
        count = int(last[-1].split()[1])
        assert last == [f"flood {count - 1:09d} abcdefghijklmnopqrstuvwxyz0123456789", f"END-OF-FLOOD {count}"]
        assert app.debugger.status.detail == "breakpoint 1" and not messages(app, "error")
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        assert app.debugger.status.detail == "0"
        await pilot.press("q")


@needs_gdb
async def test_output_that_is_not_utf8(hostile_bins: dict[str, Path]) -> None:
    app = launch(hostile_bins["nonutf8"])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited")
        output = app.query_one(OutputPane)
        await wait_for(pilot, lambda: "after-bytes" in output.text)
        assert output.text == ("bad:\ufffd\ufffd:trunc:\ufffd:overlong:\ufffd\ufffd:nul:^@:end\n"
                               "euro:\u20ac:latin1:\ufffdt\ufffd\nafter-bytes\n")
        assert app.debugger.status.detail == "0"
        await pilot.press("q")
