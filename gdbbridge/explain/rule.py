"""What a rule of ``cudatui explain`` is: :class:`Rule`, :func:`rx`, and the advice texts that the
CUDA rules (:mod:`cudatui.gdbbridge.explain.kb`) and the PyTorch ones
(:mod:`cudatui.gdbbridge.explain.kb_torch`) share. Step texts are templates filled from the facts
(``{script}``, ``{tool}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ASYNC_WHY = (
    "Kernel launches are asynchronous: the launch returns at once and a failure inside the "
    "kernel is only noticed by a later CUDA call (a copy, .item(), .cpu(), a synchronize, the "
    "next launch). The traceback shows that later call, not the kernel that failed, and every "
    "CUDA call after the failure reports the same error."
)
BLOCKING = (
    "Re-run with CUDA_LAUNCH_BLOCKING=1 python {script} (in cudatui: `set cuda launch_blocking "
    "on`): each launch then waits for its kernel, so the error is raised at the launch that failed."
)
SANITIZE = (
    "Run `cudatui sanitize --tool {tool} {script}`: it names the kernel, the source line, the "
    "block and thread, and the Python line that launched it."
)
TRIAGE = (
    "For a long job (many launches, a fault after minutes), `cudatui triage {script}` runs it "
    "at full speed without a debugger and opens the faulting thread from the driver's GPU coredump, "
    "with the Python line; the live debugger makes every launch several times slower."
)
API_STOP = (
    "In cudatui, `set cuda api_failures stop` stops at the CUDA API call that returned the error, "
    "with its host backtrace."
)


@dataclass(frozen=True)
class Rule:
    """One family of error messages and what to tell the user about it."""

    key: str
    pattern: re.Pattern[str]
    title: str
    meaning: str
    why_wrong_line: str
    steps: tuple[str, ...]
    tool: str | None = None
    lesson: str | None = None
    actions: tuple[str, ...] = ()
    requires: str | None = None
    """A fact the input must yield for the rule to match, beyond its pattern."""


def rx(pattern: str) -> re.Pattern[str]:
    """A case-insensitive pattern."""
    return re.compile(pattern, re.IGNORECASE)
