"""`cudatui follow FILE`: watch a session while another cudatui records it (read-only)."""

from __future__ import annotations

import argparse
import os
import stat
from typing import Any

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.commands.errors import fail
from cudatui.tui.launch import run_app


def add_parser(subparsers: Any) -> None:
    """Add the `follow` sub-command."""
    parser = subparsers.add_parser(
        "follow", help="follow a session while it is recorded (students watch the instructor)",
        description="Show the session another cudatui records (`cudatui --record FILE --share GROUP ...`) while "
        "it runs: every pane, each new stop within a second, the instructor's focus (F: look around on your "
        "own). Read-only: nothing you press reaches the session, and FILE is only read.",
    )
    parser.add_argument("file", metavar="FILE", help="the recording the instructor is writing")
    parser.add_argument("--source-dir", action="append", default=[], metavar="DIR",
                        help="look for source files here too (repeatable)")
    parser.set_defaults(func=run)


def problem(path: str) -> str | None:
    """Why ``path`` cannot be followed, or None (an empty file is fine: the session has not begun)."""
    try:
        info = os.stat(path)
    except OSError as exc:
        return f"cannot follow {path}: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return f"cannot follow {path}: not a regular file (a recording is one; is it a directory, a device or a FIFO?)"
    if not os.access(path, os.R_OK):
        return (f"cannot follow {path}: not readable by you (the instructor shares it with "
                "`--share GROUP`; you must be in that group)")
    return None


def run(args: argparse.Namespace) -> int:
    why = problem(args.file)
    if why:
        return fail(why)
    recording_dir = os.path.dirname(os.path.abspath(args.file))
    return run_app(LaunchConfig.following(args.file, source_dirs=tuple(
        dict.fromkeys((*args.source_dir, recording_dir, os.getcwd())))))
