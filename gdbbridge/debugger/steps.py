"""The execution commands: how :meth:`~cudatui.gdbbridge.debugger.debugger.Debugger.resume` moves
the program, and the MI command of each (a recorded path is made of them too)."""

from __future__ import annotations

from enum import Enum


class Step(str, Enum):
    """How :meth:`Debugger.resume` moves the program."""

    CONTINUE = "continue"
    NEXT = "next"
    STEP = "step"
    FINISH = "finish"

    def __str__(self) -> str:
        return self.value


STEPS = {Step.CONTINUE: "-exec-continue", Step.NEXT: "-exec-next", Step.STEP: "-exec-step",
         Step.FINISH: "-exec-finish"}
"""The MI command of each step."""
RUN = "-exec-run"
"""The MI command that runs the program from its start."""
