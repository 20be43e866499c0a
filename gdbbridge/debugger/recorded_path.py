"""What a recording holds for a person replaying it: the breakpoints inserted before its run
and the path the user took after it (execution commands and focus switches)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from cudatui.gdbbridge.debugger.breakpoints import BreakpointSpec
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.steps import RUN, STEPS
from cudatui.gdbbridge.record.follow import newest_session
from cudatui.gdbbridge.record.transcript import Exchange, Transcript, TranscriptError, canonical

MOVES = {RUN: "run", **{operation: step.value for step, operation in STEPS.items()}}
"""The execution commands a recorded path is made of, by name."""


@dataclass(frozen=True)
class Move:
    """One move of a recorded path: an execution command (``step``: run, continue, next, step,
    finish) or a switch of the CUDA focus (``focus``: ``block (1,0,0) thread (7,0,0)``)."""

    step: str = ""
    focus: str = ""


def recorded_breakpoints(transcript: Transcript) -> tuple[BreakpointSpec, ...]:
    """The ``-break-insert`` locations (and conditions) sent before the first run."""
    found: dict[str, str | None] = {}
    for exchange in transcript.exchanges:
        if exchange.command.startswith(RUN):
            break
        words = canonical(exchange.command)
        if words[:1] != ("-break-insert",) or len(words) < 2:
            continue
        condition = words[words.index("-c") + 1] if "-c" in words[:-1] else None
        location = words[-1]
        found[location] = condition or found.get(location)
    return tuple(BreakpointSpec(location, condition) for location, condition in found.items())


def recorded_moves(transcript: Transcript) -> tuple[Move, ...]:
    """The user's moves after the first run that gdb did not refuse.

    Lane switches (``lane N``) are the warp watch walking a warp, not a user's move.
    """
    moves: list[Move] = []
    started = False
    for exchange in transcript.exchanges:
        words = canonical(exchange.command)
        if not words or _failed(exchange):
            continue
        if words[0] == RUN and not started:
            started = True
        elif started and words[0] in MOVES:
            moves.append(Move(step=MOVES[words[0]]))
        elif started and words[0] == "-cuda-focus-switch" and len(words) > 1 and not re.fullmatch(r"lane \d+", words[1]):
            moves.append(Move(focus=words[1]))
    return tuple(moves)


def recorded_start(transcript: Transcript) -> tuple[str, str]:
    """How the recorded session started its target: ``("run", "")``; ``("core", PATH)`` for a GPU
    coredump opened with ``target cudacore PATH``; else ``("", COMMAND)``, COMMAND being the first
    command that set a target moving ('' when the recording has none)."""
    for exchange in transcript.exchanges:
        words = canonical(exchange.command)
        if not words:
            continue
        if words[0] == RUN:
            return "run", ""
        console = words[2].split(None, 2) if words[0] == "-interpreter-exec" and len(words) > 2 else []
        if console[:2] == ["target", "cudacore"] and len(console) == 3:
            return "core", console[2]
        if words[0].startswith(("-exec-", "-target-")) or console[:1] in (["target"], ["run"], ["attach"]):
            return "", exchange.command
    return "", ""


def as_followed(cfg: LaunchConfig) -> LaunchConfig:
    """A follower's config set to start as the instructor's session started (its stand-in has
    read the session by now): a recorded GPU coredump (``cudatui triage``, ``--core``) is opened;
    else the program runs, as before."""
    if not cfg.follow or cfg.recording is None or cfg.core or cfg.attach is not None:
        return cfg
    try:
        transcript = newest_session(cfg.recording)
    except TranscriptError:
        return cfg
    how, what = recorded_start(transcript)
    return replace(cfg, core=what) if how == "core" else cfg


def _failed(exchange: Exchange) -> bool:
    """Whether the debugger answered the recorded command with ``^error``."""
    return any(e.dir == "out" and e.line.startswith(f"{exchange.token}^error") for e in exchange.output)
