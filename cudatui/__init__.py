"""cudatui: a full-screen terminal debugger for CUDA kernels launched from Python.

The installed package maps the repository's folders: ``cudatui.gdbbridge`` (gdbbridge/, the
library that talks to cuda-gdb, compute-sanitizer and NVML; no textual), ``cudatui.tui``
(tui/, the Textual UI) and ``cudatui.kernels`` (kernels/, the teaching kernels).
"""
