"""The stop a live session published, written into its recording, so a replay can be checked.

Each time the Debugger of a live session publishes a freshly built StopState (a stop, a focus
switch, a frame selection, a console command while stopped), it writes a summary of it into
the recording as the answer to the virtual command ``-cudatui-stop-state``::

    999999999-cudatui-stop-state
    999999999^done,reason="breakpoint-hit",func="relu_buggy",file="uninit.cu",line="17",frame="0",
        block="(0,0,0)",thread="(0,0,0)",exception="",exit="",locals="x,y,n,i"

(one line). A recording made along a lesson's path (``scripts/record_demos.py``) also marks the
end of each step of the path, once the UI was idle, with ``-cudatui-path-step``
(``^done,number="3",kind="key",arg="c",keys="c"``). The front end never asks either command: they are there for
the tests that replay a recording along its path and compare, after each step, the state the
front end built with the one the live session built (:func:`recorded_path`). The token is the
host stack's ``RECORD_TOKEN``, a number the session's own counter never reaches.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any
from collections.abc import Callable, Mapping

from cudatui.gdbbridge.host.encoding import RECORD_TOKEN
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.record.transcript import Exchange, Transcript, TranscriptError
from cudatui.gdbbridge.session.mi import build, parse_line, quote

COMMAND = "-cudatui-stop-state"
STEP_COMMAND = "-cudatui-path-step"


@dataclass(frozen=True)
class StopSummary:
    """What a stop shows: where (function, file, line, frame), whose (focus) and why."""

    reason: str
    func: str
    file: str
    """Base name of the source file ('' without line information)."""
    line: str
    frame: str
    """The selected frame's level."""
    block: str
    thread: str
    """The CUDA focus, ``(1,0,0)`` ('' outside a kernel)."""
    exception: str
    """The CUDA exception's signal (``CUDA_EXCEPTION_14``) or ''."""
    exit: str
    """The exit code of a program that exited, else ''."""
    locals: str = ""
    """The names of the selected frame's locals and arguments, comma-separated."""

    def __str__(self) -> str:
        where = f"{self.func} {self.file}:{self.line} frame {self.frame}"
        focus = f" block {self.block} thread {self.thread}" if self.block or self.thread else ""
        why = f" {self.exception}" if self.exception else f" exit {self.exit}" if self.exit else ""
        return f"{self.reason}: {where}{focus}{why}"


def _dim3(value: Any) -> str:
    return "" if value is None else "(" + ",".join(str(v) for v in value) + ")"


def summarize(state: StopState) -> StopSummary:
    """The summary of ``state`` (as the front end built it)."""
    stop, frame, focus = state.stop, state.frame, state.focus
    exit_code = "" if not stop.exited else str(stop.exit_code) if stop.exit_code is not None else "?"
    return StopSummary(
        reason=stop.reason,
        func=(frame.func if frame else "") if not stop.exited else "",
        file=os.path.basename(frame.file or "") if frame and not stop.exited else "",
        line=str(frame.line) if frame and frame.line and not stop.exited else "",
        frame=str(state.selected_frame),
        block=_dim3(focus.block) if focus and not stop.exited else "",
        thread=_dim3(focus.thread) if focus and not stop.exited else "",
        exception=stop.exception.signal_name if stop.exception else "",
        exit=exit_code,
        locals=",".join(v.name for v in state.variables),
    )


def encode(summary: StopSummary) -> str:
    """The result payload: ``reason="…",func="…",…``."""
    return ",".join(f"{f.name}={quote(getattr(summary, f.name))}" for f in fields(StopSummary))


def record(write: Callable[[str, str], None], state: StopState) -> None:
    """Write the virtual exchange for ``state``; ``write`` takes (direction, line)."""
    write("in", build(RECORD_TOKEN, COMMAND))
    write("out", f"{RECORD_TOKEN}^done,{encode(summarize(state))}")


def decode(payload: Mapping[str, Any]) -> StopSummary:
    """The summary of a result payload (a missing field reads as '')."""
    return StopSummary(**{f.name: str(payload.get(f.name, "")) for f in fields(StopSummary)})


def _fields(exchange: Exchange, names: tuple[str, ...]) -> dict[str, str]:
    """The result's fields ``names`` (a missing one reads as ''); TranscriptError when the result
    is not a list of fields or one of them is no string (a hand-edited or damaged recording)."""
    payload = parse_line(f"{exchange.token}{exchange.result}").payload or {}
    what = f"the {exchange.key[0]} record of exchange {exchange.index}"
    if not isinstance(payload, dict):
        raise TranscriptError(f"{what} is malformed: its answer is not a list of name=value fields")
    bad = [name for name in names if not isinstance(payload.get(name, ""), str)]
    if bad:
        raise TranscriptError(f"{what} is malformed: {', '.join(bad)} is not a string")
    return {name: payload.get(name, "") for name in names}


_SUMMARY_FIELDS = tuple(f.name for f in fields(StopSummary))


def summary_of(exchange: Exchange) -> StopSummary | None:
    """The summary a ``-cudatui-stop-state`` exchange holds, or None for any other exchange;
    TranscriptError when its answer is malformed."""
    if exchange.key[:1] != (COMMAND,) or not exchange.result.startswith("^done"):
        return None
    return StopSummary(**_fields(exchange, _SUMMARY_FIELDS))


@dataclass(frozen=True)
class RecordedStep:
    """One step of the path a recording was made along, and the stop state it left."""

    number: int
    kind: str
    arg: str
    """The step as :class:`cudatui.kernels.lesson_paths.PathStep` names it (kind and argument)."""
    keys: str
    """The keys that made it, as the guide prints them."""
    state: StopSummary | None
    """The last stop state the live session published before the step ended (None: none yet)."""
    index: int
    """The index of the step's mark among the recording's exchanges."""


def record_step(write: Callable[[str, str], None], number: int, kind: str, arg: str, keys: str) -> None:
    """Mark the end of step ``number`` of the recorded path (``kind`` and ``arg``, made with ``keys``)."""
    write("in", build(RECORD_TOKEN, STEP_COMMAND))
    write("out", f"{RECORD_TOKEN}^done,number={quote(str(number))},kind={quote(kind)},arg={quote(arg)},"
                 f"keys={quote(keys)}")


def recorded_path(transcript: Transcript) -> tuple[RecordedStep, ...]:
    """The steps marked in the recording, each with the stop state that was shown after it;
    TranscriptError when a mark or a stop state is malformed."""
    steps: list[RecordedStep] = []
    state: StopSummary | None = None
    for exchange in transcript.exchanges:
        summary = summary_of(exchange)
        if summary is not None:
            state = summary
        elif exchange.key[:1] == (STEP_COMMAND,) and exchange.result.startswith("^done"):
            step = _fields(exchange, ("number", "kind", "arg", "keys"))
            number = step["number"]
            steps.append(RecordedStep(int(number) if number.isascii() and number.isdigit() else len(steps),
                                      step["kind"], step["arg"], step["keys"], state, exchange.index))
    return tuple(steps)
