"""The Python stack that ``faulthandler`` prints when a program is ended by a fatal signal
(or, failing that, the program's last traceback).

``cudatui triage`` runs the program with ``PYTHONFAULTHANDLER=1``: when the CUDA driver ends it
with ``abort()`` after writing the GPU coredump, Python prints every thread's stack on stderr::

    Fatal Python error: Aborted

    Thread 0x00007f04d495d6c0 (most recent call first):
      File "/tmp/x.py", line 6 in <lambda>
      ...

    Current thread 0x00007f04d55c3b80 (most recent call first):
      File "/tmp/x.py", line 3 in inner
      File "/tmp/x.py", line 8 in <module>

:func:`parse` reads the last such report of an output into a :class:`HostStack` whose first
thread is the current one (the thread that was waiting for the GPU), frames innermost first as
the live reader gives them. The text is the program's own output, so nothing here trusts it: a
line that does not match is skipped, and a report with no frame gives None.
"""

from __future__ import annotations

import os
import re

from cudatui.gdbbridge.models.host import HostFrame, HostStack, HostThread

_FATAL = "Fatal Python error:"
_TRACEBACK = "Traceback (most recent call last):"
_THREAD = re.compile(r"^(Current thread|Thread) (0x[0-9a-fA-F]+) \(most recent call first\):$")
_FRAME = re.compile(r'^  File "(?P<file>[^"\x00-\x1f\x7f]{1,4096})", line (?P<line>\d{1,9}),? in (?P<func>[^\s\x00-\x1f\x7f-\x9f]{1,500})$')
MAX_FRAMES = 1000
"""Frames read per thread at most (a report is bounded; a hostile output is not)."""


def parse(output: str, pid: int, cwd: str | None = None) -> HostStack | None:
    """The stack of the last faulthandler report in ``output`` (relative file names taken from
    ``cwd``), the current thread first with ``pid`` as its id; None when there is none."""
    start = output.rfind(_FATAL)
    if start < 0:
        return _traceback(output, pid, cwd)
    current: list[HostThread] = []
    others: list[HostThread] = []
    frames: list[HostFrame] | None = None
    is_current = False

    def close() -> None:
        if frames:
            (current if is_current else others).append(
                HostThread(pid if is_current else 0, None, tuple(frames)))

    for raw in output[start:].splitlines():
        line = raw.rstrip("\r")
        if (thread := _THREAD.match(line)) is not None:
            close()
            frames, is_current = [], thread.group(1) == "Current thread"
        elif frames is not None and (frame := _FRAME.match(line)) is not None and len(frames) < MAX_FRAMES:
            frames.append(_frame(frame, cwd))
    close()
    threads = (*current, *others)
    return HostStack(pid, threads) if threads else None


def _frame(match: re.Match[str], cwd: str | None) -> HostFrame:
    file = match["file"]
    if cwd and not file.startswith("<") and not os.path.isabs(file):
        file = os.path.normpath(os.path.join(cwd, file))
    return HostFrame.at(file, int(match["line"]), match["func"])


def _traceback(output: str, pid: int, cwd: str | None) -> HostStack | None:
    """The last Python traceback of ``output`` (an uncaught exception: PyTorch raises one at the
    sync point after the driver wrote its dump), innermost frame first."""
    start = output.rfind(_TRACEBACK)
    if start < 0:
        return None
    frames = [_frame(m, cwd) for raw in output[start:].splitlines()[1:MAX_FRAMES]
              if (m := _FRAME.match(raw.rstrip("\r"))) is not None]
    return HostStack(pid, (HostThread(pid, None, tuple(reversed(frames))),)) if frames else None
