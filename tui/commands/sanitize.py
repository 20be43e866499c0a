"""`cudatui sanitize`: run compute-sanitizer on a program, or read a saved report.

Full screen on a terminal; when stdout is not a terminal (``| head``, a file) it prints the
grouped findings as plain text instead, and ``--json`` prints them as JSON. Both exit 1 when
there are findings, 0 when there are none, 2 on errors (one line on stderr), 141 (128 + SIGPIPE)
without a word when the reader of the output goes away (``| head``).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from typing import Any

from cudatui.gdbbridge import (
    RACECHECK_REPORTS, TOOLS, ReportError, SanitizerError, SanitizerReport, SanitizerRequest, read_report, run_sanitizer,
)
from cudatui.tui.cli_errors import ArgumentParser, fail
from cudatui.tui.needs_terminal import missing_terminal
from cudatui.tui.commands.output import print_text, reader_gone, stdout_is_terminal


def add_parser(subparsers: Any) -> None:
    """Add the `sanitize` sub-command."""
    parser = subparsers.add_parser(
        "sanitize",
        help="run compute-sanitizer and browse grouped findings",
        description="Run compute-sanitizer (memcheck, racecheck, initcheck, synccheck) on a "
        "program (a .py runs under this Python) or read a saved XML/text report, and show the "
        "findings grouped by kind and source line.",
    )
    _add_arguments(parser)
    parser.set_defaults(func=run)


def _add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--tool", choices=TOOLS, default="memcheck", help="sanitizer tool (default memcheck)")
    parser.add_argument("--leak-check", action="store_true",
                        help="memcheck: report leaked allocations; compute-sanitizer's own form "
                        "`--leak-check full` (or `none`) works too")
    parser.add_argument("--racecheck-report", choices=RACECHECK_REPORTS, default="hazard",
                        help="racecheck: hazard (default: both accesses of each hazard, with their threads, "
                        "which d stops on), analysis (the tool's default: the two lines only) or all")
    parser.add_argument("--read", metavar="REPORT", help="show a saved report (--xml --save file or text log)")
    parser.add_argument("--json", action="store_true", help="print grouped findings as JSON and exit")
    parser.add_argument("program", nargs="?", help="program or Python script to check")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments of the program")
    return parser


def _error(message: str) -> int:
    return fail(message, who="cudatui sanitize")


def _leak_check(args: argparse.Namespace) -> bool:
    """Whether to check for leaks, taking compute-sanitizer's ``--leak-check full|none`` form.

    ``--leak-check`` is a flag, so in ``--leak-check full --json script.py a`` the word ``full``
    parses as the program and the rest as its arguments: parse the rest again as our own words.
    """
    if not args.leak_check or args.program not in ("full", "none"):
        return args.leak_check
    value, words = args.program, list(args.args)
    args.program, args.args = None, []
    _add_arguments(ArgumentParser(prog="cudatui sanitize")).parse_args(words, namespace=args)
    return value == "full"


def _print_json(data: dict[str, Any]) -> bool:
    """Write ``data`` to stdout; False (and stdout silenced) when the reader has gone away."""
    try:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        reader_gone()  # Python flushes stdout again at exit: /dev/null from now on
        return False
    return True


def report_text(report: SanitizerReport) -> str:
    """The plain-text form of a report: its summary line, then each group's details."""
    from cudatui.tui.panes.sanitizer import details_text, summary_text

    return "\n\n".join([summary_text(report), *(details_text(group) for group in report.groups)])


def report_to_dict(report: SanitizerReport) -> dict[str, Any]:
    """JSON-ready form of a report: summary plus one entry per group."""
    groups = []
    for group in report.groups:
        first = dataclasses.asdict(group.first)
        first.pop("raw")
        where = group.first.source_location
        script = group.first.script_frame
        groups.append({
            "count": group.count,
            "location": f"{where[0]}:{where[1]}" if where else None,
            "function": group.first.function,
            "script_line": f"{script.file}:{script.line}" if script else None,
            "blocks": str(group.blocks) if group.blocks else None,
            "threads": str(group.threads) if group.threads else None,
            "first": first,
        })
    return {"tool": report.tool, "source": report.source, "truncated": report.truncated,
            "findings": report.finding_count, "summary": dataclasses.asdict(report.summary),
            "groups": groups}


def run(args: argparse.Namespace) -> int:
    """Run `cudatui sanitize`; see the module docstring for exit codes."""
    leak_check = _leak_check(args)
    if bool(args.read) == bool(args.program):
        return _error("give either PROGRAM [ARGS...] or --read REPORT")
    report = None
    request = None
    printed = args.json or not stdout_is_terminal()
    try:
        if args.read:
            report = read_report(args.read)
        else:
            request = SanitizerRequest(program=args.program, args=tuple(args.args), tool=args.tool,
                                       leak_check=leak_check, racecheck_report=args.racecheck_report)
            if printed:
                report = asyncio.run(run_sanitizer(request)).report
    except (ReportError, SanitizerError, ValueError) as exc:
        return _error(str(exc))
    if printed:
        assert report is not None
        if args.json:
            if not _print_json(report_to_dict(report)):
                return 141
        else:
            print_text(report_text(report))
        return 1 if report.groups else 0
    if why := missing_terminal():
        return _error(why)
    from cudatui.tui.apps.launch import check_debugger, run_app
    from cudatui.tui.apps.sanitize_app import SanitizeApp

    app = SanitizeApp(report=report, request=request)
    code = app.run() or 0
    if app.handoff is None:
        return code
    problem = check_debugger(app.handoff.debugger[0])
    return _error(problem) if problem else run_app(app.handoff)
