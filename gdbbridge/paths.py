"""Which source files are the user's own code, and which package a library file belongs to.

A frame is the user's unless its file is

- in a ``site-packages`` or ``dist-packages`` folder (installed packages: torch, numpy ...);
- in the standard library: under this interpreter's ``sysconfig`` stdlib paths, or under any
  ``…/lib/python3.X/`` folder (the debuggee may run another interpreter than cudatui: a conda
  env, the system Python);
- not a file at all: ``<frozen importlib._bootstrap>``, ``<string>`` (code made by ``exec``).
  Only ``<stdin>`` and ``<ipython-input-…>`` (code the user typed) count as the user's.

:func:`source_line` reads one line of a frame's file without ever blocking on a FIFO or reading
a huge file.
"""

from __future__ import annotations

import linecache
import os
import re
import stat
import sysconfig
from pathlib import PurePosixPath

PACKAGE_DIRS = ("site-packages", "dist-packages")
TYPED = ("<stdin>", "<ipython-input-")
"""Pseudo-file names of code the user typed (their own code, though no file holds it)."""
MAX_SOURCE = 8 * 1024 * 1024
"""Bytes a source file may have for its line to be shown (a bigger one is generated code)."""

_STDLIB = re.compile(r"/lib(?:64)?/python3\.\d+t?/")
_FROZEN = re.compile(r"^<frozen ([A-Za-z_][\w.]*)>$")


def _stdlib_roots() -> tuple[str, ...]:
    """This interpreter's standard library folders, each ending with a slash."""
    paths = sysconfig.get_paths()
    return tuple(sorted({os.path.join(os.path.realpath(paths[key]), "") for key in ("stdlib", "platstdlib")
                         if key in paths}))


_ROOTS = _stdlib_roots()


def is_user_file(path: str) -> bool:
    """True when ``path`` is the user's own code (see the module docstring)."""
    if path.startswith("<"):
        return path.startswith(TYPED)
    if any(part in PACKAGE_DIRS for part in PurePosixPath(path).parts):
        return False
    return not (_STDLIB.search(path) or path.startswith(_ROOTS))


def package_of(path: str) -> str:
    """The top-level package (or module) of a library file: ``torch`` for
    ``…/site-packages/torch/_tensor.py``, ``ctypes`` for ``/usr/lib/python3.11/ctypes/__init__.py``,
    ``importlib`` for ``<frozen importlib._bootstrap>``; a pseudo-file is named as it is."""
    if path.startswith("<"):
        frozen = _FROZEN.match(path)
        return frozen.group(1).split(".")[0] if frozen else path
    parts = PurePosixPath(path).parts
    inside = [i for i, part in enumerate(parts) if part in PACKAGE_DIRS]
    if inside:
        rest = parts[inside[-1] + 1:]
    elif (found := _STDLIB.search(path)) is not None:
        rest = PurePosixPath(path[found.end():]).parts
    else:
        root = next((r for r in _ROOTS if path.startswith(r)), None)
        rest = PurePosixPath(path[len(root):]).parts if root else parts[-1:]
    return PurePosixPath(rest[0]).stem if rest else path


def source_line(path: str, line: int) -> str:
    """Line ``line`` (1-based) of the file ``path``, stripped; '' when it is not a readable
    regular file of at most ``MAX_SOURCE`` bytes, or has no such line."""
    if line < 1 or not os.path.isabs(path):
        return ""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return ""
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SOURCE:
        return ""
    linecache.checkcache(path)
    return linecache.getline(path, line).strip()
