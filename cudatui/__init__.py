"""cudatui: a full-screen terminal debugger for CUDA kernels launched from Python.

The installed package maps the repository's folders: ``cudatui.gdbbridge`` (gdbbridge/, the
library that talks to cuda-gdb, compute-sanitizer and NVML; no textual), ``cudatui.tui``
(tui/, the Textual UI) and ``cudatui.kernels`` (kernels/, the teaching kernels). Run from a
source checkout that is not installed (``PYTHONPATH=checkout python -m cudatui`` on a GPU box
without package access), the same names resolve to those folders beside this one.
"""

from pathlib import Path as _Path

_CHECKOUT = _Path(__file__).resolve().parent.parent
if not (_Path(__file__).parent / "gdbbridge").is_dir() and (_CHECKOUT / "gdbbridge" / "__init__.py").is_file():
    __path__.append(str(_CHECKOUT))
