"""Command-line checks made before any UI opens: an empty PROGRAM, a PROGRAM or ``--core``
that is a device, a FIFO or a directory, a ``.py`` PROGRAM that does not compile (``file:line: message``, the script is compiled, never run), and checks made in
order, so a failed one creates no ``--record`` file. Each is one line on stderr and exit 2.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import cudatui as run_cudatui, one_line

cudatui = partial(run_cudatui, term="dumb")
"""cudatui as a subprocess, on a dumb terminal."""


@pytest.mark.parametrize("argv", [[""], ["--debugger", "gdb", ""], ["--", ""], ["-b", "main", "", "arg"]],
                         ids=["empty", "with-debugger", "after-dashes", "with-args"])
def test_an_empty_program_name_is_no_program(argv: list[str]) -> None:
    assert one_line(cudatui(*argv)) == "cudatui: error: no PROGRAM given (the name is empty; see cudatui --help)\n"


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "fifo.py", "directory"])
def test_a_program_or_a_core_that_is_no_regular_file_is_said_so(tmp_path: Path, kind: str) -> None:
    """They said ``program /dev/zero not found`` and ``coredump /tmp not found``."""
    path = {"dev-zero": Path("/dev/zero"), "directory": tmp_path}.get(kind, tmp_path / kind)
    if kind.startswith("fifo"):
        os.mkfifo(path)
    program = {"directory": f"cudatui: {path} is a directory, not a program\n"}.get(
        kind, f"cudatui: {path} is not a regular file (a device or a FIFO), not a program\n")
    assert one_line(cudatui("--debugger", "gdb", str(path))) == program
    core = one_line(cudatui("--debugger", "gdb", "--core", str(path), "/bin/true"))
    assert core == f"cudatui: coredump {path} is not a regular file\n"


SCRIPTS = {
    "syntax-error": (b"print('before')\ndef f(:\n    pass\n", "broken.py:2: SyntaxError: invalid syntax"),
    "indentation": (b"if 1:\n    x = 1\n  y = 2\n", "broken.py:3: IndentationError: unindent does not match"),
    "tab-error": (b"if 1:\n        x = 1\n\ty = 2\n", "broken.py:3: TabError: inconsistent use of tabs"),
    "nul-byte": (b"x = 1\x00\n", "broken.py: SyntaxError: source code string cannot contain null bytes"),
    "not-utf8": (b"x = '\xff'\n", "broken.py:1: SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0xff"),
    "unclosed": (b"x = (1,\n", "broken.py:1: SyntaxError: '(' was never closed"),
    "too-nested": (b"x = " + b"(" * 300 + b")" * 300 + b"\n", "broken.py:1: SyntaxError: too many nested parentheses"),
}


@pytest.mark.parametrize("kind", SCRIPTS.keys())
def test_a_script_that_does_not_compile_is_one_line_with_its_place(tmp_path: Path, kind: str) -> None:
    source, expected = SCRIPTS[kind]
    script = tmp_path / "broken.py"
    script.write_bytes(source)
    ran = tmp_path / "ran"
    if kind == "syntax-error":  # compiling must not run it: a valid first line that would leave a mark
        script.write_bytes(f"open({str(ran)!r}, 'w').close()\n".encode() + source)
        expected = expected.replace(":2:", ":3:")
    message = one_line(cudatui("--debugger", "gdb", str(script), "arg"))
    assert message.startswith(f"cudatui: {tmp_path}/") and expected in message, message
    assert not ran.exists()


def test_a_script_that_compiles_gets_past_the_check(tmp_path: Path) -> None:
    """A valid script fails only at the next check (here: a missing debugger), not at compile."""
    script = tmp_path / "fine.py"
    script.write_text("import sys\nprint(sys.argv)\n")
    assert one_line(cudatui("--debugger", "no-such-gdb", str(script))) == (
        "cudatui: debugger no-such-gdb not found or not executable (check --debugger)\n")


def test_a_failed_check_creates_no_recording(tmp_path: Path) -> None:
    record = tmp_path / "session.jsonl"
    assert "debugger no-such-gdb not found" in one_line(cudatui("--debugger", "no-such-gdb", "--record", str(record), "/bin/true"))
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    assert "SyntaxError" in one_line(cudatui("--debugger", "gdb", "--record", str(record), str(broken)))
    assert not record.exists()


@pytest.mark.parametrize(("given", "why"), [
    ("target if", 'no condition after "if"'), ("main if   ", 'no condition after "if"'),
    ("if x > 1", 'no location before "if"'), ("   ", "no location"),
], ids=["target-if", "if-and-spaces", "no-location", "blank"])
@pytest.mark.parametrize("where", ["run", "attach", "replay"])
def test_a_b_without_its_condition_or_location_is_one_line(tmp_path: Path, given: str, why: str, where: str) -> None:
    """``-b 'target if'`` was accepted as a pending breakpoint at a location named "target if"."""
    command = {"run": ["--debugger", "gdb", "/bin/true"], "attach": ["--pid", str(os.getpid())],
               "replay": ["replay", str(tmp_path / "missing.jsonl")]}[where]
    words = [*command[:1], "-b", given, *command[1:]] if where == "replay" else ["-b", given, *command]
    assert one_line(cudatui(*words)) == f"cudatui: -b {given!r}: {why} (-b LOCATION, or -b 'LOCATION if CONDITION')\n"
