"""`cudatui follow FILE`: watch a session while another cudatui records it (read-only)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from cudatui.gdbbridge import LaunchConfig, follow_problem
from cudatui.tui.cli_errors import fail
from cudatui.tui.apps.launch import run_app


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
    parser.add_argument("--serve", metavar="[HOST:]PORT",
                        help="serve followers to browsers instead (textual-serve): each browser that opens the printed "
                        "URL (with its random token) gets its own read-only follower; HOST is 127.0.0.1 unless given")
    parser.add_argument("--max-viewers", type=int, default=60, metavar="N",
                        help="with --serve: at most N browsers at once (default 60)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    why = follow_problem(args.file)
    if why:
        return fail(why)
    recording_dir = os.path.dirname(os.path.abspath(args.file))
    if args.serve is not None:
        return serve(args, tuple(args.source_dir))
    return run_app(LaunchConfig.following(args.file, source_dirs=tuple(
        dict.fromkeys((*args.source_dir, recording_dir, os.getcwd())))))


def serve(args: argparse.Namespace, source_dirs: tuple[str, ...]) -> int:
    """``--serve``: the browsers' followers (tui/commands/serve.py), once the address and the package are right."""
    try:
        from cudatui.tui.commands.serve import parse_address, serve as serve_followers
    except ImportError:
        return fail("--serve needs textual-serve (pip install 'cudatui[serve]')")
    try:
        parse_address(args.serve)
    except ValueError:
        return fail(f"--serve {args.serve}: expected [HOST:]PORT (8000, 0.0.0.0:8000)")
    if args.max_viewers < 1:
        return fail("--max-viewers must be at least 1")
    return serve_followers(args.file, args.serve, max_viewers=args.max_viewers, source_dirs=source_dirs)
