"""`cudatui doctor`: check that this machine is ready for live CUDA debugging."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from cudatui.gdbbridge import DoctorConfig, checks_to_json, exit_code, format_lines, run_checks
from cudatui.tui.cli_errors import fail
from cudatui.tui.commands.output import print_text, stdout_is_terminal

STYLES = {"ok": "bold green", "fail": "bold red", "warn": "bold yellow", "info": "dim"}


def add_parser(subparsers: Any) -> None:
    """Add the `doctor` sub-command."""
    parser = subparsers.add_parser(
        "doctor",
        help="check cuda-gdb, the driver, GPUs, ptrace, PyTorch and nvcc",
        description="Check everything live CUDA debugging needs and print one line per check "
        "with a fix for each problem. Exit code 0 only when cuda-gdb, the debugger backend "
        "library, ptrace and a GPU (through NVML) are all there.",
    )
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    parser.add_argument(
        "--no-build", action="store_true", help="skip the -G build of a bundled kernel"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=20.0,
        help="seconds each tool may take to answer (default 20)",
    )
    parser.set_defaults(func=run)


def _print_coloured(lines: list[tuple[str, str]]) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for status, text in lines:
        line = Text(text)
        if status:
            line.stylize(STYLES[status], 0, 1)
        console.print(line)


def run(args: argparse.Namespace) -> int:
    """Run the checks and print them; 0 when live debugging can work, else 1."""
    if args.timeout <= 0:
        return fail("--timeout must be positive", who="cudatui doctor")
    config = replace(DoctorConfig(), timeout=args.timeout, build_kernels=not args.no_build)
    checks = run_checks(config)
    if args.json:
        print(checks_to_json(checks))
    elif stdout_is_terminal():
        _print_coloured(format_lines(checks))
    else:
        print_text("\n".join(text for _, text in format_lines(checks)))
    return exit_code(checks)
