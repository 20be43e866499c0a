"""The Warps pane's part of a stop: the warp watch, one expression's value in every active lane
of the focused warp.

cuda-gdb evaluates in the focused thread only, so the walk switches the focus lane by lane and back
(:func:`~cudatui.gdbbridge.cuda.warp_watch.evaluate_in_lanes`: 2 commands a lane). The expression
is the UI's (the Debugger's ``watch_lanes``) or the culprit search's (its expression becomes the
watch, as the Warps pane's ``C`` or a post-mortem's stop finds it); it is walked while the Warps
pane is on the screen. At a Warp Assert the lanes are not listed (cuda-gdb 13.0 aborts): the
answer says so instead.
"""

from __future__ import annotations

from cudatui.gdbbridge.cuda.warp_watch import WarpWatchError, evaluate_in_lanes
from cudatui.gdbbridge.debugger.state import WARP_TABLES_UNASKED, warp_tables_unsafe
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.answers import Answer
from cudatui.gdbbridge.models.culprit import Culprit, LaneValues
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.gdb import GdbSession

class LaneWatch:
    """The warp-watch part (see the module docstring)."""

    field = "lane_watch"

    def __init__(self) -> None:
        self.expression = ""
        """The expression watched ("" none)."""
        self.shown = True
        """Whether the Warps pane is on the screen (until the UI says: a Debugger without a screen)."""

    def wanted(self, state: StopState) -> bool:
        watched = state.lane_watch
        return (self.shown and bool(self.expression) and state.in_kernel
                and (watched is None or watched.asked != self.expression))

    def of_culprit(self, culprit: Culprit) -> Answer[LaneValues] | None:
        """The culprit's expression as the warp watch, with the values its walk read (None when it
        read none): the expression is watched from now on."""
        values = culprit.values_of(culprit.expression) if culprit.expression else {}
        if not culprit.expression or not values:
            return None
        self.expression = culprit.expression
        return Answer(culprit.expression, tuple(sorted(values.items())))

    async def gather(self, session: GdbSession, state: StopState) -> Answer[LaneValues]:
        expression = self.expression
        if warp_tables_unsafe(state.stop):
            return Answer(expression, (), WARP_TABLES_UNASKED)
        try:
            values = await evaluate_in_lanes(session, expression)
        except DebuggerGone:
            raise
        except MIError as exc:
            return Answer(expression, (), exc.message, exc.not_recorded)
        except WarpWatchError as exc:
            return Answer(expression, (), str(exc))
        return Answer(expression, tuple((v.lane, v.text) for v in values))
