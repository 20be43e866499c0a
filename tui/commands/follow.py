"""`cudatui follow FILE`: watch a session while another cudatui records it (read-only)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from cudatui.gdbbridge import LaunchConfig, follow_problem
from cudatui.tui.launch import run_app


def add_parser(subparsers: Any) -> None:
    """Add the `follow` sub-command."""
    parser = subparsers.add_parser(
        "follow", help="follow a session while it is recorded (students watch the instructor)",
        description="Show the session another cudatui records (`cudatui --record FILE --share GROUP ...`) while "
        "it runs: every pane, each new stop within a second, the instructor's focus (F: look around on your "
        "own). Read-only: nothing you press reaches the session, and FILE is only read. Started before the "
        "instructor, it waits for FILE (a waiting screen) and follows once their session begins.",
    )
    parser.add_argument("file", metavar="FILE", help="the recording the instructor is writing (or will write)")
    parser.add_argument("--source-dir", action="append", default=[], metavar="DIR",
                        help="look for source files here too (repeatable)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    why = follow_problem(args.file)
    if why:
        print(f"cudatui: {why}", file=sys.stderr)
        return 2
    recording_dir = os.path.dirname(os.path.abspath(args.file))
    return run_app(LaunchConfig.following(args.file, source_dirs=tuple(
        dict.fromkeys((*args.source_dir, recording_dir, os.getcwd())))))
