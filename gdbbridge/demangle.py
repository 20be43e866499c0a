"""C++ symbol names as a person reads them: ``_Z6box3x3PA18_fii`` is ``box3x3(float (*) [18], int, int)``.

cuda-gdb names a kernel's SASS by its linker symbol (``func-name`` of ``-data-disassemble``).
binutils' ``c++filt``, installed beside every gdb, turns it into the C++ name, once per name (the
answers are cached); without ``c++filt``, or for a name it does not know, the name stays as it is.
"""

from __future__ import annotations

import functools
import shutil
import subprocess

CACHED = 4096
"""Names whose demangled form is kept."""


def demangle(name: str) -> str:
    """The C++ name of the Itanium-mangled ``name`` (``_Z...``); any other name as it is."""
    return _demangled(name) if name.startswith("_Z") else name


@functools.lru_cache(maxsize=CACHED)
def _demangled(name: str) -> str:
    tool = shutil.which("c++filt")
    if tool is None:
        return name
    try:
        done = subprocess.run([tool, name], capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return name
    shown = done.stdout.strip()
    return shown if done.returncode == 0 and shown and "\n" not in shown else name


def forget() -> None:
    """Drop the cached answers (a test changes PATH)."""
    _demangled.cache_clear()
