"""Source files as a UI shows them: where a file gdb names is found here, and its text.

:func:`find_source` is the one lookup of every pane (source, SASS, shared memory). A path gdb
reports is tried as it is, then where the tools that compile kernels at run time keep theirs:

- **CuPy** compiles in a temporary folder that is gone by the time the kernel runs
  (``/tmp/tmpXXXX/<sha1>.cubin.cu``); with ``CUPY_CACHE_SAVE_CUDA_SOURCE=1`` (which cudatui sets
  for the programs it runs) it keeps the source in its kernel cache under the same name:
  ``$CUPY_CACHE_DIR`` or ``~/.cupy/kernel_cache``;
- **torch.utils.cpp_extension** builds in ``~/.cache/torch_extensions/pyXY_cuZZ/NAME/`` (or
  ``$TORCH_EXTENSIONS_DIR/NAME/``): a recorded path below ``torch_extensions/`` is looked for in
  this machine's build folder;
- **NVRTC** programs are named by the program's own name (``nvrtcCreateProgram``'s ``name``,
  often a bare ``kernel.cu`` or ``default_program``), searched in the source folders;
- **Triton**'s line information names the kernel's Python file: it is found as any file is.

Then a file of the same base name in one of the source folders. A path from a recording
(``recorded``) comes from the machine it was made on, so the source folders win over a file that
happens to sit at that path here. :func:`missing_reason` says in one line why a file was not found.

A source file is the debuggee's own text, and a hostile one holds escape sequences in its
lines: :func:`read_source` reads it as UTF-8 (bad bytes replaced) and cleaned
(:func:`~cudatui.gdbbridge.text.clean`) before any pane sees it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from collections.abc import Mapping

from cudatui.gdbbridge.text import clean

CUPY_SOURCE = re.compile(r"^[0-9a-f]{40}\.cubin\.cu$")
"""The name CuPy gives the source of a kernel it compiles (the SHA-1 of its code and options)."""
TORCH_EXTENSIONS = "torch_extensions"


def read_source(path: str | os.PathLike[str]) -> str:
    """The text of the file ``path``, cleaned; OSError when it cannot be read."""
    return clean(Path(path).read_text(encoding="utf-8", errors="replace"))


def _cupy_cache(env: Mapping[str, str]) -> Path:
    return Path(env.get("CUPY_CACHE_DIR") or os.path.join(env.get("HOME", "~"), ".cupy", "kernel_cache")).expanduser()


def _extension_roots(env: Mapping[str, str]) -> tuple[Path, ...]:
    default = Path(env.get("HOME", "~"), ".cache", TORCH_EXTENSIONS).expanduser()
    return tuple(Path(p).expanduser() for p in (env.get("TORCH_EXTENSIONS_DIR"), default) if p)


def jit_candidates(path: str, env: Mapping[str, str] | None = None) -> list[Path]:
    """Where a run-time compiler keeps the file gdb names ``path`` (see the module docstring)."""
    env = os.environ if env is None else env
    pure = PurePosixPath(path)
    found: list[Path] = []
    if CUPY_SOURCE.match(pure.name):
        found.append(_cupy_cache(env) / pure.name)
    if TORCH_EXTENSIONS in pure.parts:
        rest = pure.parts[pure.parts.index(TORCH_EXTENSIONS) + 1:]
        for root in _extension_roots(env):
            found.extend(root.joinpath(*tail) for tail in (rest, rest[1:]) if tail)
    return found


def find_source(path: str, search_dirs: tuple[str, ...] = (), *, recorded: bool = False,
                env: Mapping[str, str] | None = None) -> Path | None:
    """The local file for a path gdb reported, or None (see the module docstring)."""
    candidate = Path(path)
    in_dirs = [Path(directory) / candidate.name for directory in search_dirs]
    jit = jit_candidates(path, env)
    order = [*in_dirs, *jit, candidate] if recorded else [candidate, *jit, *in_dirs]
    return next((found for found in order if found.is_file()), None)


def missing_reason(path: str, search_dirs: tuple[str, ...] = (), env: Mapping[str, str] | None = None) -> str:
    """One line: why no file was found for ``path``, and what would find it."""
    env = os.environ if env is None else env
    name = PurePosixPath(path).name
    dirs = ", ".join(search_dirs) or "no source folder given (--source-dir DIR)"
    if CUPY_SOURCE.match(name):
        return (f"source not available: {path} is CuPy's compile folder, gone; its kernel cache "
                f"{_cupy_cache(env)} has no {name} (run the program under cudatui, which sets "
                "CUPY_CACHE_SAVE_CUDA_SOURCE=1, or set it yourself)")
    if TORCH_EXTENSIONS in PurePosixPath(path).parts:
        roots = " or ".join(str(r) for r in _extension_roots(env))
        return (f"source not available: {path}: the extension's build folder is not here ({roots}); point at "
                "a copy of its folder with --source-dir DIR")
    if "/" not in path:
        return (f"source not available: {path} is a name, not a file (an NVRTC program's name?): "
                f"not found in {dirs}; pass --source-dir DIR where a file of that name lives")
    return (f"source not available: {path} (not found here, nor in {dirs}); point at its folder with "
            f"--source-dir DIR (cudatui replay FILE --source-dir DIR)")
