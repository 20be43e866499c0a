"""C programs compiled by the tests (gcc -g -O0), and the lines the tests look for in them; the
stand-in debugger of the transport tests.

The fixtures that build them (``steps``, ``forever``, ``panes_program``) are in tests/conftest.py.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from .paths import C_SOURCES, FIXTURES, ROOT

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


C_CACHE = ROOT / ".pytest_cache" / "c-programs"
"""Programs compiled by earlier calls (of any worker, of any run), one folder per build key."""


def compile_c(source: Path, out: Path, *flags: str) -> Path:
    """``gcc -g -O0 [flags] -o out source``; returns ``out``, a copy of the program the same
    command built before if any (the key: gcc's version, the folder gcc runs in, the command, and
    what each source file named in it holds), so a program of tests/fixtures is compiled once,
    not once per test module and worker."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if not source.resolve().is_relative_to(ROOT):  # written by the test itself: built once anyway
        subprocess.run(["gcc", "-g", "-O0", *flags, "-o", str(out), str(source)], check=True)
        return out
    key = hashlib.sha256("\0".join([_gcc_version(), os.getcwd(), *flags, out.name, str(source)]).encode())
    for arg in (*flags, str(source)):
        if os.path.isfile(arg):
            key.update(Path(arg).read_bytes())
    cached = C_CACHE / key.hexdigest()[:32] / out.name
    if not cached.is_file():
        building = cached.parent.with_name(f"{cached.parent.name}.{os.getpid()}")
        building.mkdir(parents=True, exist_ok=True)
        subprocess.run(["gcc", "-g", "-O0", *flags, "-o", str(building / out.name), str(source)], check=True)
        try:
            building.rename(cached.parent)  # whole or not at all: another worker may build it too
        except OSError:
            shutil.rmtree(building)  # it did, first
    shutil.copy2(cached, out)
    return out


@lru_cache(maxsize=1)
def _gcc_version() -> str:
    return subprocess.run(["gcc", "--version"], capture_output=True, text=True, check=True).stdout


def compile_nav(out: Path) -> Path:
    """nav_main.c and nav_walk.c built into ``out`` (gcc -g -O0)."""
    return compile_c(NAV_MAIN, out, str(NAV_WALK))


def stand_in(*flags: str) -> list[str]:
    """The command of the stand-in debugger tests/fixtures/stand_in_gdb.py (see its docstring)."""
    return [sys.executable, str(FIXTURES / "stand_in_gdb.py"), *flags]
