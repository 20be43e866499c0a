"""The stop a GPU coredump holds, from what cuda-gdb prints when it opens one.

cuda-gdb 13.0 prints no ``*stopped`` for ``target cudacore PATH``, only console text: the focus
("[Current focus set to CUDA kernel 0, ..., lane 5]"), and either the signal that ended the program
("Program terminated with signal SIGTRAP, ...") or, for the driver's dump of a fault, the
exception alone ("CUDA Exception: Warp Illegal Address", batch 27 on the H200).
"""

from __future__ import annotations

import re

from cudatui.gdbbridge.models import StopEvent
from cudatui.gdbbridge.models.cuda import CudaException, CudaFocus

_TERMINATED = re.compile(r"Program terminated with signal (?P<name>\S+), (?P<meaning>[^.\n]+)")
"""How gdb says which signal ended the program a core file holds."""
_CUDA_EXCEPTION = re.compile(r"CUDA Exception: *(?P<name>[^\n]+)")
"""How cuda-gdb names the exception a GPU coredump holds (the driver's dump of a fault: no signal)."""


def core_stop(text: str) -> StopEvent:
    """The stop (reason ``core``) that the console ``text`` of opening a coredump describes."""
    ended, raised = _TERMINATED.search(text), _CUDA_EXCEPTION.search(text)
    exception = CudaException.from_name(raised["name"]) if raised else None
    return StopEvent(reason="core", focus=CudaFocus.from_console(text),
                     signal=ended["name"] if ended else exception.signal_name if exception else None,
                     signal_meaning=ended["meaning"] if ended else exception.name if exception else None,
                     exception=exception)
