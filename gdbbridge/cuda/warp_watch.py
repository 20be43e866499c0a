"""Warp watch: one expression evaluated in every lane of the focused warp.

cuda-gdb evaluates an expression in the focused thread only, so the watch walks the warp:
``-cuda-info-lanes`` gives the lanes and the current one, then for each active lane
``-cuda-focus-switch "lane L"`` and ``-data-evaluate-expression``. The original lane is switched
back at the end, also when an evaluation (or the walk itself) fails. Switching lanes resets the
selected frame to the innermost one, as any focus switch does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cudatui.gdbbridge.cuda.evaluation import evaluation
from cudatui.gdbbridge.cuda.focus import switch_focus
from cudatui.gdbbridge.cuda.tables import info, parse_lanes
from cudatui.gdbbridge.models.culprit import LaneValue
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession


class WarpWatchError(Exception):
    """The watch could not run, or the focus could not be restored (message is one line)."""


async def evaluate_in_lanes(session: GdbSession, expression: str) -> tuple[LaneValue, ...]:
    """Evaluate ``expression`` in each active lane of the focused warp, then restore the focus.

    Inactive lanes are skipped (cuda-gdb refuses to focus them). Raises :class:`WarpWatchError`
    when there is no focused warp or when the original lane cannot be focused again.
    """
    if not expression.strip():
        raise WarpWatchError("nothing to watch: the expression is empty")
    try:
        lanes = parse_lanes(await info(session, "lanes"))
    except MIError as exc:
        raise WarpWatchError(f"cannot list the lanes of the focused warp: {exc.message}") from None
    original = next((lane for lane in lanes if lane.current), None)
    if original is None:
        raise WarpWatchError("no CUDA thread is focused (stop inside a kernel first)")
    values: list[LaneValue] = []
    failure: BaseException | None = None
    try:
        for lane in lanes:
            if lane.state != "active":
                continue
            values.append(await _evaluate_in_lane(session, lane.number, expression))
    except BaseException as exc:  # also cancellation: the focus must still be restored
        failure = exc
        raise
    finally:
        await _restore(session, original.number, failure)
    return tuple(values)


async def _evaluate_in_lane(session: GdbSession, lane: int, expression: str) -> LaneValue:
    try:
        await switch_focus(session, f"lane {lane}")
    except DebuggerGone:
        raise
    except MIError as exc:
        return LaneValue(lane, None, f"cannot focus lane {lane}: {exc.message}")
    result = await evaluation(session, expression)
    return LaneValue(lane, result.value, result.error)


async def _restore(session: GdbSession, lane: int, failure: BaseException | None) -> None:
    if isinstance(failure, DebuggerGone):
        return
    try:
        await switch_focus(session, f"lane {lane}")
    except MIError as exc:
        if failure is None:
            raise WarpWatchError(f"could not focus lane {lane} again: {exc.message}") from None
