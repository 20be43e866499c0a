"""What to debug and how: :class:`LaunchConfig`, built by the command line, the demo and tests."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cudatui

REPLAY_MODULE = "cudatui.gdbbridge.record.replay"
"""The stand-in debugger that serves a recording (``python -m REPLAY_MODULE FILE``)."""
FOLLOW_MODULE = "cudatui.gdbbridge.record.follow"
"""The stand-in debugger that follows a recording while it is written."""


@dataclass(frozen=True)
class LaunchConfig:
    """What to debug and how. A replay is built with :meth:`replay` (``recording`` set)."""

    debugger: tuple[str, ...]
    target: tuple[str, ...] = ()
    """The user's PROGRAM and ARGS (empty for a replayed recording)."""
    breakpoints: tuple[str, ...] = ()
    """Inserted before the run, each ``LOCATION [if CONDITION]`` (see BreakpointSpec)."""
    record: str | None = None
    share_group: str | None = None
    """The group that may read the recording (mode 0640), for students following it; None: private."""
    run: bool = True
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    """Environment variables added for the debugger (and so the program)."""
    source_dirs: tuple[str, ...] = ()
    """Where to look for a source file whose recorded path does not exist here."""

    core: str | None = None
    """A GPU coredump to open (post-mortem) instead of running the program."""
    host_core: str | None = None
    """With ``core``: the CPU core of the same fault, whose Python stack is shown (pystack)."""
    program_output: str | None = None
    """With ``core`` (``cudatui triage``): a file holding the end of the program's output (its
    last message, and the Python stack that faulthandler printed when the driver aborted it)."""
    recording: str | None = None
    """The recording the replay stand-in serves as the debugger (its file paths are the
    recording machine's)."""
    follow: bool = False
    """Follow ``recording`` while another cudatui records it: read-only, moved by its stops."""
    attach: int | None = None
    """The pid of a running process to attach to (``target`` is then empty): closing detaches."""
    rank: int | None = None
    """One rank of a distributed job: ``target`` is the launcher (``torchrun ARGS script.py``),
    which runs every rank; the rank whose ``RANK`` is this runs under the debugger
    (:mod:`cudatui.gdbbridge.jobs.ranks`)."""
    record_every_part: bool = True
    """With ``record``: each stop asks for every part, shown or not (the registers, the thread
    table: :mod:`cudatui.gdbbridge.debugger.shown`), for the replays and followers of the
    recording, which may show any pane. False: only what the screen shows, as an unrecorded
    session (bench.gpu records what the product does)."""

    @classmethod
    def replay(cls, recording: str | os.PathLike[str], *, speed: float = 0.0, cwd: str | None = None,
               **fields: Any) -> LaunchConfig:
        """The replay stand-in serving ``recording`` (recorded delays divided by ``speed``; 0: none)
        with this cudatui importable, from ``cwd`` (default: the current directory); ``fields``
        are the other settings (breakpoints, source_dirs, record, run, core)."""
        path = str(Path(recording).resolve())
        return cls(debugger=(sys.executable, "-m", REPLAY_MODULE, path, "--speed", str(speed)),
                   cwd=cwd or os.getcwd(), env=_stand_in_env(), recording=path, **fields)

    @classmethod
    def following(cls, recording: str | os.PathLike[str], **fields: Any) -> LaunchConfig:
        """The follow stand-in on ``recording``, which another cudatui is writing (read-only)."""
        path = str(Path(recording).resolve())
        return cls(debugger=(sys.executable, "-m", FOLLOW_MODULE, path), cwd=os.getcwd(), env=_stand_in_env(),
                   recording=path, follow=True, **fields)

    @property
    def replayed(self) -> bool:
        """True for a recording replayed: its file paths are the recording machine's."""
        return self.recording is not None

    @property
    def program_argv(self) -> tuple[str, ...]:
        """What the debugger runs: a ``.py`` PROGRAM runs under this Python."""
        if self.target and self.target[0].endswith(".py"):
            return (sys.executable, *self.target)
        return self.target

    @property
    def debugger_name(self) -> str:
        """How messages name the debugger: ``cuda-gdb``, ``gdb``, ``replay``."""
        if self.follow:
            return "follow"
        if self.replayed:
            return "replay"
        return os.path.basename(self.debugger[0]) if self.debugger else "debugger"


def _stand_in_env() -> tuple[tuple[str, str], ...]:
    """PYTHONPATH for a stand-in debugger: this cudatui importable."""
    root = str(Path(cudatui.__file__).resolve().parent.parent)
    return (("PYTHONPATH", os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)),)
