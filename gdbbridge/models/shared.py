"""The pages of shared arrays the Shared pane shows, as a stop's snapshot holds them.

The pane says which page of which array it shows (a :class:`SharedWindow`); the Debugger reads
it with the stop while the pane is on the screen
(:mod:`cudatui.gdbbridge.debugger.parts.shared`) and hands it over in
``StopState.shared``: one :class:`~cudatui.gdbbridge.models.answers.Answer` per window, whose
value is a :class:`SharedPage`.
"""

from __future__ import annotations

from dataclasses import dataclass

from cudatui.gdbbridge.models.answers import Answer


@dataclass(frozen=True)
class SharedWindow:
    """``count`` elements (rows, of a 2-D array) of shared array ``name`` from ``start``."""

    name: str
    start: int
    count: int
    grid: bool = False
    """A 2-D array: its address is that of ``name[0][0]``."""


@dataclass(frozen=True)
class SharedPage:
    """What was read of one window at a stop."""

    window: SharedWindow
    values: tuple[str, ...] = ()
    """The elements read, a 2-D array's rows one after the other; fewer than asked where gdb cut
    its answer and refused the rest."""
    before: tuple[str, ...] = ()
    """The window's values where it was read before (an earlier stop, focus or frame): what changed
    since is highlighted."""
    address: int | None = None
    """The address of the array's first element (None: gdb did not say)."""


def page_of(answers: tuple[Answer[SharedPage], ...], window: SharedWindow) -> Answer[SharedPage] | None:
    """The answer for ``window`` among a stop's ``answers`` (None: not read at this stop)."""
    return next((answer for answer in answers if answer.value.window == window), None)
