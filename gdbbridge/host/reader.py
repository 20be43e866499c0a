"""Reading the Python stack of a process that the debugger holds stopped, with pystack.

``pystack.engine.get_process_threads(pid, stop_process=False)`` reads the interpreter's
memory from outside (``process_vm_readv``) without attaching, so it works while cuda-gdb (or
gdb) holds the process with ptrace, and leaves it stopped. pystack is imported on first use:
cudatui runs without it (it is Linux-only). Nothing here raises: a missing pystack, a process
that is not Python, one that is gone or not readable, all give a :class:`HostStack` whose
``error`` says so in one line. Where a stop's read runs (the event loop, or a worker thread) is
:func:`cudatui.gdbbridge.debugger.host.start_live_read`'s choice.
"""

from __future__ import annotations

import os
from typing import Any

from cudatui.gdbbridge.models.host import HostFrame, HostStack, HostThread, clean

INSTALL_HINT = "the Python stack needs pystack (Linux only): pip install pystack"


def read_python_stack(pid: int) -> HostStack:
    """The Python threads of process ``pid``, frames innermost first; never raises."""
    try:
        from pystack.engine import get_process_threads
    except ImportError:
        return HostStack(pid, error=INSTALL_HINT)
    except Exception as exc:  # a broken install (its native library does not load): say so
        return HostStack(pid, error=f"pystack cannot be loaded: {_one_line(exc)}")
    try:
        threads = get_process_threads(pid, stop_process=False)
        cwd = _cwd(pid)
        return HostStack(pid, tuple(_thread(thread, cwd) for thread in threads))
    except Exception as exc:  # pystack's errors (EngineError, ...) and anything else it may raise
        return HostStack(pid, error=f"cannot read the Python stack of process {pid}: {_one_line(exc)}")


def read_core_stack(core: str, executable: str) -> HostStack:
    """The Python threads in a CPU core file of a Python process (pystack's core analysis, with
    ``executable`` the Python that ran it); never raises."""
    try:
        from pystack.engine import NativeReportingMode, get_process_threads_for_core
    except ImportError:
        return HostStack(0, error=INSTALL_HINT)
    except Exception as exc:
        return HostStack(0, error=f"pystack cannot be loaded: {_one_line(exc)}")
    try:
        threads = list(get_process_threads_for_core(core, executable, native_mode=NativeReportingMode.OFF))
        pid = int(threads[0].tid) if threads else 0
        return HostStack(pid, tuple(_thread(thread, None) for thread in threads))
    except Exception as exc:
        return HostStack(0, error=f"cannot read the Python stack in {os.path.basename(core)}: {_one_line(exc)}")


def _thread(thread: Any, cwd: str | None) -> HostThread:
    """One pystack ``PyThread`` as a :class:`HostThread` (pystack lists frames outermost first)."""
    frames = [HostFrame.at(_absolute(f.code.filename, cwd), int(f.code.location.lineno), f.code.scope)
              for f in thread.frames]
    name = thread.name
    return HostThread(int(thread.tid), clean(name) if isinstance(name, str) else None, tuple(reversed(frames)))


def _cwd(pid: int) -> str | None:
    """The working directory of process ``pid`` (its relative file names start there), or None."""
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None


def _absolute(path: str, cwd: str | None) -> str:
    """``path`` made absolute against the process's directory; pseudo-files (``<string>``) as they are."""
    if path.startswith("<") or os.path.isabs(path) or cwd is None:
        return path
    return os.path.normpath(os.path.join(cwd, path))


def _one_line(exc: BaseException) -> str:
    """The first line of an exception's message (pystack's own prefix dropped), at most 300 characters."""
    text = str(exc).removeprefix("Engine error: ").strip()
    line = next((part.strip() for part in text.splitlines() if part.strip()), "") or type(exc).__name__
    return clean(line[:300])
