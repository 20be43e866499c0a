"""The ``cudatui`` command line.

``cudatui [OPTIONS] PROGRAM [ARGS...]`` debugs PROGRAM (a ``.py`` runs under this Python);
``cudatui COMMAND ...`` runs a sub-command. The first word that is not an option decides:
a sub-command name selects the sub-command, anything else is the PROGRAM; ``--`` before
the PROGRAM makes a program named like a sub-command reachable.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING
from collections.abc import Mapping, Sequence

from cudatui.gdbbridge import RecordingError, attach_problem, prepare, set_language
from cudatui.tui import exit_signals
from cudatui.tui import cli_errors as errors
from cudatui.tui.commands import demo, doctor, explain, follow, output, sanitize, stats, triage
from cudatui.tui.cli_errors import ArgumentParser
from cudatui.tui.apps.launch import attach_config, check_debugger, debug_config, run_app
from cudatui.tui.commands.program_checks import check_program, check_script

if TYPE_CHECKING:
    from cudatui.gdbbridge import LaunchConfig
    from cudatui.tui.apps.debugger_app import DebuggerApp

COMMAND_MODULES: tuple[ModuleType, ...] = (triage, sanitize, stats, doctor, explain, demo, follow)
"""Sub-command modules, each with ``add_parser(subparsers)`` and ``run(args) -> int``; a new
sub-command is one more module in this tuple."""

VALUE_OPTIONS = ("-b", "--break", "--debugger", "--record", "--core", "--host-core", "--share", "--pid", "--rank")


def version() -> str:
    try:
        return metadata.version("cudatui")
    except metadata.PackageNotFoundError:
        return "source tree (not installed)"


def commands_parser() -> tuple[ArgumentParser, Mapping[str, argparse.ArgumentParser]]:
    """The parser of ``cudatui COMMAND ...`` and each command's own parser, by name."""
    parser = ArgumentParser(prog="cudatui")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=ArgumentParser)
    replay = subparsers.add_parser(
        "replay", help="replay a recorded debugging session (no GPU needed)",
        description="Open a session recorded with --record (or a reference transcript) in the debugger UI; "
        "the recording answers the debugger's requests, so no GPU or cuda-gdb is needed.",
    )
    replay.add_argument("file", metavar="FILE", help="the recording (.jsonl or .jsonl.gz)")
    replay.add_argument("-b", "--break", dest="breakpoints", action="append", default=[], metavar="LOCATION",
                        help="breakpoint (repeatable; default: those the session was recorded with)")
    replay.add_argument("--speed", type=float, default=0.0,
                        help="replay the recorded delays divided by this factor (default 0: no delays)")
    replay.add_argument("--source-dir", action="append", default=[], metavar="DIR",
                        help="look for source files here first (repeatable); then next to FILE, in the "
                        "current directory and in the installed lessons")
    replay.set_defaults(func=run_replay)
    for module in COMMAND_MODULES:
        module.add_parser(subparsers)
    return parser, subparsers.choices


def debug_parser(commands: Sequence[str]) -> ArgumentParser:
    """The parser of ``cudatui [OPTIONS] PROGRAM [ARGS...]``."""
    parser = ArgumentParser(
        prog="cudatui",
        usage="cudatui [OPTIONS] PROGRAM [ARGS...]\n       cudatui [OPTIONS] --pid PID\n"
        "       cudatui [OPTIONS] --rank N -- LAUNCHER [ARGS...]\n       cudatui COMMAND [...]",
        description="A full-screen terminal debugger for CUDA kernels launched from Python, driving cuda-gdb.",
        epilog=f"commands: {', '.join(commands)} (cudatui COMMAND --help). "
        "Use `cudatui -- PROGRAM` for a program named like a command.",
    )
    parser.add_argument("program", metavar="PROGRAM", nargs="?", help="program to debug; a .py runs under this Python")
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments of the program")
    parser.add_argument("-b", "--break", dest="breakpoints", action="append", default=[], metavar="LOCATION",
                        help="breakpoint: function or file:line, optionally 'LOCATION if CONDITION' (repeatable)")
    parser.add_argument("--debugger", metavar="PATH",
                        help="debugger to drive (default cuda-gdb; plain gdb works for CPU-only programs; with --pid: "
                        "cuda-gdb for a CUDA program, else gdb)")
    parser.add_argument("--pid", type=int, metavar="PID",
                        help="attach to the running process PID (no PROGRAM); q detaches and it runs on")
    parser.add_argument("--rank", type=int, metavar="N",
                        help="PROGRAM is a launcher (cudatui --rank N -- torchrun ARGS script.py): every rank runs, "
                        "rank N under the debugger")
    parser.add_argument("--record", metavar="FILE", help="record the MI session to FILE (for `cudatui replay`); "
                        "a restart appends its session to the same file")
    parser.add_argument("--force", action="store_true", help="let --record replace an existing FILE")
    parser.add_argument("--share", metavar="GROUP", help="let GROUP read the --record FILE (mode 0640), so that "
                        "students in it can `cudatui follow FILE`; without it the recording is yours alone")
    parser.add_argument("--no-run", action="store_true", help="load the program but do not start it (r runs it)")
    parser.add_argument("--core", metavar="FILE",
                        help="post-mortem: open this GPU coredump (from `cudatui sanitize`, p) instead of running; "
                        "PROGRAM is optional and gives host symbols")
    parser.add_argument("--host-core", metavar="CORE", help="with --core: the CPU core of the same fault; the "
                        "Python stack in it is shown beside the GPU's (pystack)")
    parser.add_argument("--lang", choices=("en", "zh"), help="language of the guides, explanations and help "
                        "(zh: Simplified Chinese; default: from LC_ALL / LC_MESSAGES / LANG)")
    parser.add_argument("--version", action="version", version=f"cudatui {version()}")
    return parser


def first_positional(argv: Sequence[str]) -> int | None:
    """Index of the first word that is not an option or an option's value (None after ``--``)."""
    skip = False
    for i, word in enumerate(argv):
        if skip:
            skip = False
        elif word == "--":
            return None
        elif word in VALUE_OPTIONS:
            skip = True
        elif not word.startswith("-") or word == "-":
            return i
    return None


def check_core(core: str | None, what: str = "coredump") -> str | None:
    if core is None:
        return None
    if Path(core).exists() and not Path(core).is_file():
        return f"{what} {core} is not a regular file"
    if not Path(core).is_file():
        return f"{what} {core} not found"
    if "\n" in core or "\r" in core:
        return f"a {what} path cannot contain a line break"
    return None if os.access(core, os.R_OK) else f"{what} {core} is not readable"


def check_record(record: str | None) -> str | None:
    if record is None:
        return None
    parent = Path(record).resolve().parent
    if not parent.is_dir():
        return f"cannot record to {record}: directory {parent} does not exist"
    return f"cannot record to {record}: it is a directory" if Path(record).is_dir() else None


def check_breakpoints(texts: Sequence[str]) -> str | None:
    """Why a ``-b`` cannot be a breakpoint (no location, or ``if`` with no condition), or None:
    gdb took ``target if`` for a location of that name, pending, and said nothing."""
    for text in texts:
        _, sep, condition = f"{text} ".partition(" if ")
        words = text.split()
        if not words:
            why = "no location"
        elif words[0] == "if":
            why = 'no location before "if"'
        elif sep and not condition.strip():
            why = 'no condition after "if"'
        else:
            continue
        return f"-b {text!r}: {why} (-b LOCATION, or -b 'LOCATION if CONDITION')"
    return None


def prepare_record(record: str | None, force: bool, share: str | None = None) -> str | None:
    """Create the --record file (after every other check passed); why it cannot be, or None."""
    if record is None:
        return "--share needs --record FILE (the recording the students follow)" if share else None
    try:
        prepare(record, force=force, group=share)
    except RecordingError as exc:
        return str(exc)
    return None


def _fail(message: str) -> int:
    return errors.fail(message)


def run_debugger(args: argparse.Namespace) -> int:
    """Check the command line, then open the debugger UI."""
    if args.pid is not None:
        return run_attach(args)
    if args.rank is not None and (args.rank < 0 or args.core or not args.program):
        return _fail("error: --rank N needs N >= 0 and the launcher as PROGRAM (cudatui --rank 1 -- torchrun ARGS script.py)")
    if args.program == "":
        return _fail("error: no PROGRAM given (the name is empty; see cudatui --help)")
    if args.program is None and args.core is None:
        return _fail("error: no PROGRAM given (see cudatui --help)")
    if args.host_core is not None and args.core is None:
        return _fail("error: --host-core CORE goes with --core GPU_DUMP (the CPU core of the same fault)")
    program = args.program
    debugger = "cuda-gdb" if args.debugger is None else args.debugger
    checks = (lambda: check_breakpoints(args.breakpoints),
              lambda: check_program(program) if program is not None else None,
              lambda: check_script(program) if program is not None else None, lambda: check_core(args.core),
              lambda: check_core(args.host_core, "core file"),
              lambda: check_debugger(debugger), lambda: check_record(args.record),
              lambda: prepare_record(args.record, args.force, args.share))
    for check in checks:  # in order, each only once those before it passed
        problem = check()
        if problem:
            return _fail(problem)
    config = debug_config(args.program, tuple(args.args), breakpoints=tuple(args.breakpoints), core=args.core,
                          debugger=debugger)
    return run_app(replace(config, record=args.record, share_group=args.share, run=not args.no_run, rank=args.rank,
                           host_core=str(Path(args.host_core).resolve()) if args.host_core else None))


def run_attach(args: argparse.Namespace) -> int:
    """``cudatui --pid PID``: the debugger UI attached to a running process."""
    if args.program is not None or args.core or args.rank is not None:
        return _fail("error: --pid attaches to a running process: give no PROGRAM, --core or --rank")
    if args.pid <= 0:
        return _fail(f"error: --pid {args.pid} is not a process id")
    config = attach_config(args.pid, args.debugger, tuple(args.breakpoints))
    checks = (lambda: check_breakpoints(args.breakpoints), lambda: attach_problem(args.pid), lambda: check_debugger(config.debugger[0]),
              lambda: check_record(args.record), lambda: prepare_record(args.record, args.force, args.share))
    for check in checks:  # in order: the --record file is made once the others passed
        problem = check()
        if problem:
            return _fail(problem)
    return run_app(replace(config, record=args.record, share_group=args.share))


def run_replay(args: argparse.Namespace) -> int:
    """``cudatui replay FILE``: the debugger UI against a recording, marked REPLAY (Textual is
    imported once the recording and the terminal are known good: a bad one is told without it)."""
    from cudatui.tui.plans.replay_plan import ReplayError, plan_replay

    if args.speed < 0:
        return _fail("--speed must not be negative")
    problem = check_breakpoints(args.breakpoints)
    if problem:
        return _fail(problem)
    try:
        plan = plan_replay(args.file, tuple(args.breakpoints), tuple(args.source_dir), args.speed)
    except ReplayError as exc:
        return _fail(str(exc))

    def replay_app(config: LaunchConfig) -> DebuggerApp:
        from cudatui.tui.apps.replay_app import ReplayApp

        return ReplayApp(config, "replay", plan.why, plan.recording)

    return run_app(plan.config, replay_app)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cudatui`` console script.

    Whatever the command: a reader of stdout that goes away (``| head -1``) ends it quietly with
    141, ctrl+c with one line and 130 (see :mod:`cudatui.tui.commands.output`)."""
    try:
        try:
            code = _main(argv)
            return 128 + exit_signals.received if exit_signals.received else code
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()  # here, not at exit, so that a closed pipe is seen here
    except BrokenPipeError as exc:
        if output.stdout_reader_gone():
            return output.reader_gone()
        return errors.fail(f"broken pipe: {exc.strerror or exc}", 1)
    except OSError as exc:  # one no check foresaw: a file name too long, stdout on a full disk
        return errors.os_error(exc)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # more ctrl+c typed in a row: this one ends it
        return errors.fail("interrupted", output.INTERRUPTED)


def take_language(words: list[str], names: Sequence[str]) -> tuple[list[str], str | None]:
    """``words`` without cudatui's ``--lang LANG`` (anywhere before the PROGRAM, or anywhere
    with a sub-command), and LANG (None when not given)."""
    index = first_positional(words)
    end = len(words) if index is None or words[index] in names else index
    chosen: str | None = None
    kept: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if i < end and word == "--lang":
            chosen = words[i + 1] if i + 1 < len(words) else ""
            i += 2
            continue
        if i < end and word.startswith("--lang="):
            chosen = word.split("=", 1)[1]
        else:
            kept.append(word)
        i += 1
    return kept, chosen


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    commands, names = commands_parser()
    words, chosen = take_language(words, names)
    if chosen is not None:
        try:
            set_language(chosen)
        except ValueError as exc:
            return _fail(f"error: --lang: {exc}")
    index = first_positional(words)
    if index is not None and words[index] in names:
        args, unknown = commands.parse_known_args([words[index], *words[:index], *words[index + 1 :]])
        if unknown:  # said by the command's parser (argparse leaves it to the top one: "cudatui: error")
            names[words[index]].error(f"unrecognized arguments: {' '.join(unknown)}")
        return int(args.func(args))
    return run_debugger(debug_parser(tuple(names)).parse_args(words))
