"""Bytes that are not UTF-8 in the program path, its arguments and ``-b``: passed through as the
same bytes (Python's ``surrogateescape`` characters are sent to gdb as octal escapes of their
byte); text that stands for no byte (another lone surrogate, only possible through the API) is
refused by the MI builder with :class:`MIBuildError`, an :class:`MIError`, before anything is
written, so the request fails instead of never being answered.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import FIXTURES, ROOT
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.mi import MIBuildError, build, quote
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.cli import check_program
from cudatui.tui.apps.launch import debug_config
from cudatui.tui.panes.output import OutputPane
from tests.support.app import messages, no_internal_errors, phase
from tests.support.terminal import TerminalApp
from tests.support.wait import wait_for, wait_until

needs_gdb = pytest.mark.skipif(not (shutil.which("gdb") and shutil.which("gcc")), reason="needs gdb and gcc")
ECHO_ARGS = FIXTURES / "c" / "bridge" / "echo_args.c"
BREAK_LINE = next(i for i, line in enumerate(ECHO_ARGS.read_text().splitlines(), 1) if "BREAK_LINE" in line)
FF = os.fsdecode(b"\xff")
"""What Python makes of the byte 0xFF in a command-line word or a file name: U+DCFF."""


def test_surrogateescape_characters_are_sent_as_their_bytes() -> None:
    assert FF == "\udcff"
    assert quote(f"a{FF}é") == '"a\\377é"'
    assert build(7, "-break-insert", os.fsdecode(b"f\x80\xfe.c:3")) == '7-break-insert "f\\200\\376.c:3"'


@pytest.mark.parametrize("text", ["\ud800", "x\udfffy", "\udc7f", "\udd00"])
def test_other_lone_surrogates_cannot_be_built(text: str) -> None:
    with pytest.raises(MIBuildError, match="lone surrogate") as caught:
        build(1, "-break-insert", text)
    assert isinstance(caught.value, MIError) and isinstance(caught.value, ValueError)
    assert caught.value.command == "-break-insert" and "\n" not in str(caught.value)


@needs_gdb
async def test_an_unsendable_request_fails_before_anything_is_written() -> None:
    session = GdbSession(["gdb"], ["/bin/true"])
    sent: list[str] = []
    session.subscribe_raw(lambda line: sent.append(line.text) if line.direction == "in" else None)
    try:
        await asyncio.wait_for(session.start(), 30)
        before = list(sent)
        with pytest.raises(MIBuildError):
            await asyncio.wait_for(session.command("-break-insert", "main\ud800"), 30)
        assert sent == before
        answer = await asyncio.wait_for(session.command("-data-evaluate-expression", "1+1"), 30)
        assert answer["value"] == "2" and session.alive
    finally:
        await session.close()


@pytest.fixture
def byte_named(tmp_path: Path) -> tuple[Path, Path]:
    """echo_args.c as ``echo\\xffargs.c``, built (with a relative name, so its debug info holds
    the byte) into ``prog\\xff``."""
    source = Path(os.fsdecode(bytes(tmp_path) + b"/echo\xffargs.c"))
    shutil.copy(ECHO_ARGS, source)
    program = Path(os.fsdecode(bytes(tmp_path) + b"/prog\xff"))
    subprocess.run(["gcc", "-g", "-O0", "-o", program.name, source.name], cwd=tmp_path, check=True)
    return source, program


@needs_gdb
async def test_bytes_in_the_program_path_its_arguments_and_b_reach_gdb_and_the_program(
        byte_named: tuple[Path, Path]) -> None:
    source, program = byte_named
    assert check_program(str(program)) is None
    config = debug_config(str(program), (os.fsdecode(b"\xfe\xff"), "ok", f"{FF}x"),
                          breakpoints=(f"{source.name}:{BREAK_LINE}",), debugger="gdb")
    app = DebuggerApp(config)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped", timeout=60)
        assert app.debugger.status.detail.startswith("breakpoint"), app.debugger.status.detail
        output = app.query_one(OutputPane)
        await wait_for(pilot, lambda: "end-of-args" in output.text)
        assert "arg1:feff" in output.text and "arg2:6f6b" in output.text and "arg3:ff78" in output.text
        assert not messages(app, "warning") and not messages(app, "error") and no_internal_errors(app)
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited", timeout=60)
        await pilot.press("q")
    assert app.return_code == 0 and app.failure is None


@needs_gdb
async def test_a_b_location_that_cannot_be_sent_is_a_warning_and_the_program_runs(tmp_path: Path) -> None:
    config = debug_config("/bin/true", breakpoints=("main\ud800",), debugger="gdb")
    app = DebuggerApp(config)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "exited", timeout=60)
        warnings = messages(app, "warning")
        assert any("lone surrogate" in w for w in warnings), warnings
        assert app.debugger.session is not None and app.debugger.session.alive and no_internal_errors(app)
        await pilot.press("q")
    assert app.return_code == 0


def test_a_missing_program_named_with_a_byte_is_one_line() -> None:
    name = os.fsdecode(b"/nonexistent/prog\xff")
    done = subprocess.run([sys.executable, "-m", "cudatui", "--debugger", "gdb", os.fsencode(name), os.fsencode(FF)],
                          cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr == b"cudatui: program /nonexistent/prog\\xff not found\n"  # the byte, shown (issue 36)


@needs_gdb
def test_bytes_through_the_command_line_in_a_real_terminal(byte_named: tuple[Path, Path]) -> None:
    """``cudatui --record rec\\xff.jsonl -b echo\\xffargs.c:LINE ./prog\\xff $'\\xfe\\xff'`` as a user
    types it: stops at the breakpoint, c runs the program to its end, q exits 0, nothing printed
    (the CLI said ``surrogates not allowed``)."""
    source, program = byte_named
    record = Path(os.fsdecode(bytes(program.parent) + b"/rec\xff.jsonl"))
    app = TerminalApp(["--debugger", "gdb", "--record", record.name, "-b", f"{source.name}:{BREAK_LINE}",
                       f"./{program.name}", os.fsdecode(b"\xfe\xff"), f"{FF}x"], cwd=program.parent)
    try:
        wait_until(lambda: record.exists() and "breakpoint-hit" in record.read_text(errors="replace"),
                   why="the breakpoint", timeout=60)
        app.send("c")
        wait_until(lambda: "exited-normally" in record.read_text(errors="replace"), why="the program's end", timeout=60)
        app.send("q")
        assert app.wait(timeout=30) == 0
    finally:
        app.close()
    assert not any(trace in app.output for trace in (b"Traceback", b"surrogates not allowed", b"Exception ignored"))
    text = record.read_text(errors="replace")
    assert "arg1:feff" in text and "arg2:ff78" in text and "end-of-args" in text
