"""C programs compiled by the tests (gcc -g -O0), and the lines the tests look for in them; the
stand-in debugger of the transport tests.

The fixtures that build them (``steps``, ``forever``, ``panes_program``) are in tests/conftest.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .paths import C_SOURCES, FIXTURES

needs_gdb = pytest.mark.skipif(not (shutil.which("gdb") and shutil.which("gcc")), reason="needs gdb and gcc")

STEPS = C_SOURCES / "app" / "steps.c"
"""A local that changes, a function to step into and finish, hostile output, exit code 0."""

PANES = C_SOURCES / "app" / "panes.c"
"""Nested calls, arguments, a struct and an array, a loop: for the pane tests."""

FOREVER = C_SOURCES / "bridge" / "forever.c"
"""Prints ``looping`` and never stops."""

NAV_MAIN = C_SOURCES / "nav" / "nav_main.c"
NAV_WALK = C_SOURCES / "nav" / "nav_walk.c"
"""Two source files, four frames at ``leaf`` (leaf, walk, outer, main): the navigation tests."""


def marked_line(source: Path, marker: str) -> int:
    """The number of the first line of ``source`` holding ``marker`` (e.g. ``/* BREAK */``)."""
    return line_with(source.read_text(), marker)


def line_with(text: str, marker: str) -> int:
    """The number of the first line of ``text`` holding ``marker``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


BREAK_LINE = marked_line(STEPS, "/* BREAK */")
"""The line of steps.c where the tests break: ``total = square(3);``."""


def compile_c(source: Path, out: Path, *flags: str) -> Path:
    """``gcc -g -O0 [flags] -o out source``; returns ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["gcc", "-g", "-O0", *flags, "-o", str(out), str(source)], check=True)
    return out


def compile_nav(out: Path) -> Path:
    """nav_main.c and nav_walk.c built into ``out`` (gcc -g -O0)."""
    return compile_c(NAV_MAIN, out, str(NAV_WALK))


def stand_in(*flags: str) -> list[str]:
    """The command of the stand-in debugger tests/fixtures/stand_in_gdb.py (see its docstring)."""
    return [sys.executable, str(FIXTURES / "stand_in_gdb.py"), *flags]
