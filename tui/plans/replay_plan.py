"""What ``cudatui replay FILE`` opens: the recording's launch, its header for the REPLAY marker.

:func:`plan_replay` reads the recording once: how its session started (a run, or a GPU coredump
opened with ``target cudacore``: the replay opens the same recorded core, no file needed), the
breakpoints it inserted first (used unless ``-b`` is given), and where its sources are looked for
by base name: ``--source-dir`` first, then next to the recording, the current directory and the
installed lessons. A session attached to a running process (``-p PID``) replays attached. A
recording that cannot start is a :class:`ReplayError` (one line).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cudatui.gdbbridge import LaunchConfig, TranscriptError, attached_pid, clean, load, recorded_start
from cudatui.kernels.lessons import KERNELS_DIR
from cudatui.tui.plans.demo_plan import RecordingInfo, read_recording


class ReplayError(Exception):
    """Why a recording cannot be replayed (one line)."""


@dataclass(frozen=True)
class ReplayPlan:
    """The replay of one recording: its launch and what its header says."""

    config: LaunchConfig
    recording: RecordingInfo
    why: str
    """Shown after REPLAY: ``recorded on NVIDIA H200, cuda-gdb 13.0, 2026-11-29 · FILE``."""


def source_dirs(path: Path, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Where a replay looks for a source file by its base name, in order."""
    return tuple(dict.fromkeys((*extra, str(path.resolve().parent), os.getcwd(), str(KERNELS_DIR))))


def plan_replay(file: str, breakpoints: tuple[str, ...] = (), extra_dirs: tuple[str, ...] = (),
                speed: float = 0.0) -> ReplayPlan:
    """The replay of the recording ``file``; ReplayError when it cannot start."""
    path = Path(file)
    try:
        transcript = load(file)
        info = read_recording(path, transcript)
    except TranscriptError as exc:
        raise ReplayError(str(exc)) from None
    how, what = recorded_start(transcript)
    pid = attached_pid(transcript.meta.get("argv"))
    if not how and pid is None:
        said = f"starts its target with {what[:200]!r}" if what else "never runs a program nor opens a coredump"
        raise ReplayError(f"{file}: this recording {said}, so a replay cannot start it (cudatui replay replays a "
                          "session that ran its program or opened a GPU coredump)")
    config = LaunchConfig.replay(path, speed=speed, breakpoints=breakpoints or info.breakpoints,
                                 source_dirs=source_dirs(path, extra_dirs), core=what if how == "core" else None,
                                 attach=pid)
    why = f"{info.label} · {clean(path.name)}" + (f" · coredump {os.path.basename(what)}" if how == "core" else "")
    why += f" · attached to process {pid}" if pid is not None and how != "core" else ""
    return ReplayPlan(config, info, why)
