"""The host side of a kernel stop: the Python stack of the process that launched the kernel.

When cuda-gdb stops in a kernel, the host process is held stopped too; pystack reads its Python
frames from outside (``pystack.engine.get_process_threads(pid, stop_process=False)``, 12-18 ms on
the H200 for a torch script), so the user sees the line of THEIR script behind the stop. Which
files are the user's own code is :mod:`cudatui.gdbbridge.paths`.

- :mod:`.stack`: the frozen views (:class:`~.stack.HostFrame`, ``HostThread``, ``HostStack``).
- :mod:`.reader`: the pystack read, never raising (``read_python_stack``, ``read_core_stack``).
- :mod:`.view`: library frames folded for display, and the sync-point note.
- :mod:`.encoding`: a host stack as an MI result, so recordings and replays carry it.
"""
