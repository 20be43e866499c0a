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


@dataclass(frozen=True)
class LaunchConfig:
    """What to debug and how. A replay is built with :meth:`replay` (``recording`` set)."""

    debugger: tuple[str, ...]
    target: tuple[str, ...] = ()
    """The user's PROGRAM and ARGS (empty for a replayed recording)."""
    breakpoints: tuple[str, ...] = ()
    """Inserted before the run, each ``LOCATION [if CONDITION]`` (see BreakpointSpec)."""
    record: str | None = None
    run: bool = True
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    """Environment variables added for the debugger (and so the program)."""
    source_dirs: tuple[str, ...] = ()
    """Where to look for a source file whose recorded path does not exist here."""

    core: str | None = None
    """A GPU coredump to open (post-mortem) instead of running the program."""
    recording: str | None = None
    """The recording the replay stand-in serves as the debugger (its file paths are the
    recording machine's)."""
    attach: int | None = None
    """The pid of a running process to attach to (``target`` is then empty): closing detaches."""
    rank: int | None = None
    """One rank of a distributed job: ``target`` is the launcher (``torchrun ARGS script.py``),
    which runs every rank; the rank whose ``RANK`` is this runs under the debugger
    (:mod:`cudatui.gdbbridge.jobs.ranks`)."""

    @classmethod
    def replay(cls, recording: str | os.PathLike[str], *, speed: float = 0.0, cwd: str | None = None,
               **fields: Any) -> "LaunchConfig":
        """The replay stand-in serving ``recording`` (recorded delays divided by ``speed``; 0: none)
        with this cudatui importable, from ``cwd`` (default: the current directory); ``fields``
        are the other settings (breakpoints, source_dirs, record, run, core)."""
        path = str(Path(recording).resolve())
        root = str(Path(cudatui.__file__).resolve().parent.parent)
        pythonpath = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
        return cls(debugger=(sys.executable, "-m", REPLAY_MODULE, path, "--speed", str(speed)),
                   cwd=cwd or os.getcwd(), env=(("PYTHONPATH", pythonpath),), recording=path, **fields)

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
        if self.replayed:
            return "replay"
        return os.path.basename(self.debugger[0]) if self.debugger else "debugger"
