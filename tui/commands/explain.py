"""`cudatui explain [TEXT | -]`: what a CUDA error message means and what to do next."""

from __future__ import annotations

import argparse
import collections
import json
import os
import stat
import sys
from typing import IO, Any

from cudatui.gdbbridge import UNKNOWN_MESSAGE, diagnosis_to_dict, explain_all, format_diagnosis, format_unknown
from cudatui.tui.cli_errors import fail
from cudatui.tui.commands.output import print_text


def add_parser(subparsers: Any) -> None:
    """Add the `explain` sub-command."""
    parser = subparsers.add_parser(
        "explain",
        help="explain a CUDA error message or traceback",
        description="Read a CUDA error message, a whole Python traceback, compute-sanitizer or "
        "cuda-gdb output, and print what it means, why the traceback may point at the wrong "
        "line, and what to do next. Exit code 1 when no known CUDA error is found.",
    )
    parser.add_argument(
        "text",
        nargs="*",
        help="the error text; '-' or nothing reads it from standard input",
    )
    parser.add_argument("--json", action="store_true", help="print the diagnoses as JSON")
    parser.set_defaults(func=run)


MAX_INPUT = 1 << 20
"""Bytes of standard input explained: its last MiB (a log ends with its error and traceback;
explaining takes about two seconds a MiB here, so a whole day's log would take hours)."""


class DeviceInput(Exception):
    """Standard input is a device that is neither a terminal nor /dev/null (/dev/zero never ends)."""


def _read_input(words: list[str]) -> str:
    if words and words != ["-"]:
        return " ".join(words)
    if sys.stdin is None:
        return ""
    if sys.stdin.isatty():
        print("cudatui explain: paste the error text, then Ctrl-D", file=sys.stderr)
    buffer = getattr(sys.stdin, "buffer", None)
    return _read_tail(buffer) if buffer is not None else sys.stdin.read()[-MAX_INPUT:]


def _read_tail(stream: IO[bytes]) -> str:
    """The last :data:`MAX_INPUT` bytes of ``stream``, decoded (bad bytes become U+FFFD)."""
    info = os.fstat(stream.fileno())
    if stat.S_ISCHR(info.st_mode) and not stream.isatty() and info.st_rdev != os.stat(os.devnull).st_rdev:
        raise DeviceInput("standard input is a device, not text (pipe or redirect the error text into it)")
    tail: collections.deque[bytes] = collections.deque()
    size = 0
    while chunk := stream.read(1 << 16):
        tail.append(chunk)
        size += len(chunk)
        while size - len(tail[0]) >= MAX_INPUT:
            size -= len(tail.popleft())
    return b"".join(tail)[-MAX_INPUT:].decode("utf-8", errors="replace")


def run(args: argparse.Namespace) -> int:
    """Print the diagnosis of the given text; 0 if a known CUDA error was found, else 1."""
    try:
        text = _read_input(list(args.text))
    except DeviceInput as exc:
        return fail(str(exc), who="cudatui explain")
    except (OSError, UnicodeDecodeError) as exc:
        return fail(f"cannot read the input: {exc}", 1, who="cudatui explain")
    found = explain_all(text)
    if args.json:
        payload = {"known": bool(found), "diagnoses": [diagnosis_to_dict(d) for d in found]}
        if not found:
            payload["message"] = UNKNOWN_MESSAGE
        print(json.dumps(payload, indent=2))
    elif found:
        print_text(format_diagnosis(found[0], found[1:]))
    else:
        print_text(format_unknown())
    return 0 if found else 1
