"""What gdb answered, at one stop, to a part that a pane on the screen shows on demand.

A pane that shows more than the stop's batch (the SASS around pc, ...) says so through the
Debugger (:mod:`cudatui.gdbbridge.debugger.on_demand`), which asks for it with the stop and
hands it over in the stop's one :class:`~cudatui.gdbbridge.models.StopState`, as an
:class:`Answer`: the value, or why there is none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Answer(Generic[T]):
    """One on-demand part of a stop: ``value``, or ``error`` (what gdb said) when it refused."""

    asked: str
    """What was asked (a window of addresses, an array's rows): the request the value answers."""
    value: T
    error: str = ""
    not_recorded: bool = False
    """The refusal is a replay's: the recording never asked for it here."""
