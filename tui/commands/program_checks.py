"""Why a PROGRAM given on the command line cannot be run: checked before anything starts, each
answer one line (``cudatui PROGRAM``, ``cudatui triage PROGRAM``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def check_program(program: str) -> str | None:
    """Why ``program`` cannot be debugged, or None."""
    try:
        return _program_problem(program)
    except OSError as exc:  # a name too long for the system, a loop of links ...
        return f"cannot use program {program}: {exc.strerror or exc}"


def _program_problem(program: str) -> str | None:
    path = Path(program)
    if path.is_dir():
        return f"{program} is a directory, not a program"
    if path.exists() and not path.is_file():
        return f"{program} is not a regular file (a device or a FIFO), not a program"
    if program.endswith(".py"):
        if not path.is_file():
            return f"program {program} not found"
        return None if os.access(path, os.R_OK) else f"{program} is not readable"
    if path.is_file() or "/" in program:
        if not path.is_file():
            return f"program {program} not found"
        return None if os.access(path, os.X_OK) else f"{program} is not executable"
    return None if shutil.which(program) else f"program {program} not found (not a file here, not on PATH)"


def check_script(program: str) -> str | None:
    """Why a ``.py`` PROGRAM would fail before running a line: ``file:line: message`` of its
    syntax error (compiled, not run, as the Python that runs it would), or None."""
    if not program.endswith(".py"):
        return None
    try:
        compile(Path(program).read_bytes(), program, "exec", dont_inherit=True)
    except OSError as exc:
        return f"{program}: {exc.strerror or exc}"
    except SyntaxError as exc:
        where = f"{exc.filename or program}:{exc.lineno}" if exc.lineno else (exc.filename or program)
        return f"{where}: {type(exc).__name__}: {' '.join(str(exc.msg).split())}"
    except (ValueError, RecursionError, MemoryError) as exc:  # the parser's limits (nesting)
        said = " ".join(str(exc).split())
        return f"{program}: does not compile ({type(exc).__name__}{': ' + said if said else ''})"
    return None
