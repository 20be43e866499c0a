"""`cudatui triage PROGRAM [ARGS]`: run at full speed; on a GPU fault, the faulting thread post-mortem.

The program runs without a debugger (:mod:`cudatui.gdbbridge.jobs.triage`: the driver's GPU
coredump armed for it alone, into a private directory), its output streaming as usual. When a
kernel faults, the debugger UI opens the dump at the faulting warp, with the program's last
output and its Python stack (the line where the host waited for the GPU). Without a fault,
one line says how it ended and cudatui exits with the program's status. The dumps are removed
when the screen closes, unless ``--keep DIR``. ``--max-dump-size`` (default 4 GiB): the free space
the dumps' directory must have before the run, and the cap on the CPU core (``--cpu-core``); a
dump cut short or missing is said in one line (:mod:`cudatui.gdbbridge.jobs.dump_limits`).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from cudatui.gdbbridge import (
    DEFAULT_MAX_DUMP, TriageError, core_place, fmt_size, one_line, parse_size, private_directory, remove_run,
    replaced_file, run_armed, space_problem,
)
from cudatui.tui.cli_errors import fail
from cudatui.tui.needs_terminal import missing_terminal
from cudatui.tui.apps.launch import check_debugger, debug_config, run_app
from cudatui.tui.commands.program_checks import check_program, check_script


def add_parser(subparsers: Any) -> None:
    """Add the `triage` sub-command."""
    parser = subparsers.add_parser(
        "triage", help="run a program at full speed; on a GPU fault, open the faulting thread post-mortem",
        description="Run PROGRAM without a debugger (as fast as it runs alone; under cuda-gdb every kernel launch "
        "costs several times more), with the CUDA driver's GPU coredump armed for it. If a kernel faults, the "
        "debugger opens the dump at the faulting thread, with the program's last output and its Python line. "
        "Use it for long jobs; use `cudatui PROGRAM` to step through a kernel.",
    )
    parser.add_argument("--keep", metavar="DIR", help="keep the dumps and the output in DIR (made, mode 0700); "
                        "by default they are removed when the screen closes")
    parser.add_argument("--lightweight", action="store_true", help="a lightweight dump (no GPU memory: "
                        "13 MB became 0.6 MB for a CuPy kernel; cuda-gdb 13.0 cannot open a PyTorch kernel's)")
    parser.add_argument("--max-dump-size", metavar="SIZE", help="room the dumps may take (default 4G; 512M, 1.5G, "
                        "or bytes): the run is refused when their directory has less free space, and caps the CPU core")
    parser.add_argument("--cpu-core", action="store_true", help="write the CPU core too (capped at --max-dump-size, "
                        "moved into the dumps' directory), read with pystack where the output holds no Python stack")
    parser.add_argument("--rank", type=int, metavar="N", help="PROGRAM is a distributed job's launcher "
                        "(cudatui triage --rank 1 -- torchrun ARGS script.py): every rank runs, rank N's fault is dumped")
    parser.add_argument("--debugger", default="cuda-gdb", metavar="PATH", help="debugger that opens the dump "
                        "(default cuda-gdb)")
    parser.add_argument("program", metavar="PROGRAM", help="the program; a .py runs under this Python")
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments of the program")
    parser.set_defaults(func=run)


def _say(message: str) -> None:
    print(f"cudatui triage: {one_line(message)}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    if args.rank is not None and args.rank < 0:
        return fail("--rank N needs N >= 0 (cudatui triage --rank 1 -- torchrun ARGS script.py)")
    if args.cpu_core and args.rank is not None:
        return fail("--cpu-core is for one program, not with --rank")
    try:
        limit = DEFAULT_MAX_DUMP if args.max_dump_size is None else parse_size(args.max_dump_size)
    except ValueError as exc:
        return fail(f"--max-dump-size: {exc}")
    for check in (lambda: check_program(args.program), lambda: check_script(args.program),
                  lambda: check_debugger(args.debugger)):  # the debugger too: found missing after an hour is late
        problem = check()
        if problem:
            return fail(problem)
    config = debug_config(args.program, tuple(args.args), debugger=args.debugger)
    try:
        directory = private_directory(args.keep)
    except TriageError as exc:
        return fail(str(exc))
    problem = space_problem(directory, limit) or (replaced_file(core_place(os.getcwd())) if args.cpu_core else None)
    if problem:  # before the run: a full disk after an hour's run is too late, a user's file replaced is lost
        if args.keep is None:
            remove_run(directory)
        return fail(problem)
    kind = "lightweight" if args.lightweight else "full"
    whose = f"rank {args.rank}'s GPU fault" if args.rank is not None else "a GPU fault"
    cpu = f", the CPU core too (at most {fmt_size(limit)})" if args.cpu_core else ""
    _say(f"running {args.program} at full speed; {whose} is dumped ({kind}){cpu} into {directory}")
    try:
        result = run_armed(config.program_argv, directory, cwd=os.getcwd(), lightweight=args.lightweight,
                           rank=args.rank, core_limit=limit if args.cpu_core else 0)
    except TriageError as exc:
        _cleanup(directory, args.keep)
        return fail(str(exc))
    _say(result.summary(args.program if args.rank is None else f"rank {args.rank} of {args.program}"))
    for note in result.notes:
        _say(note)
    if result.dump is None:
        _cleanup(directory, args.keep)
        return result.exit_status
    host_core = str(result.cpu_core) if result.cpu_core else None
    if missing_terminal():  # a batch job: the dump stays for a terminal later
        with_core = f" --host-core {host_core}" if host_core else ""
        _say(f"no terminal for the post-mortem screen; the dump stays: cudatui --core {result.dump}{with_core} "
             f"{args.program} (the program's output: {result.output})")
        return result.exit_status
    code = run_app(replace(debug_config(args.program, tuple(args.args), core=str(result.dump), debugger=args.debugger),
                           program_output=str(result.output), host_core=host_core))
    _cleanup(directory, args.keep)
    return code


def _cleanup(directory: Path, keep: str | None) -> None:
    """Remove the run's directory, unless the user asked to keep it (then say where it is)."""
    if keep is None:
        remove_run(directory)
    else:
        _say(f"the dumps and the output are kept in {directory}")
