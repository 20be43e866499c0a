"""`cudatui explain` on the command line: words or stdin in, a diagnosis or JSON out, exit 1 and
advice for text it does not know."""

from __future__ import annotations

import argparse
import io
import json
import sys

from cudatui.gdbbridge.explain.diagnose import UNKNOWN_MESSAGE
from cudatui.tui.commands import explain as explain_command
from tests.support import paths

FIXTURES = paths.FIXTURES / "explain"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _run(words: list[str], stdin: str = "", *extra: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    explain_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["explain", *extra, *words])
    out = io.StringIO()
    old_out, old_in = sys.stdout, sys.stdin
    sys.stdout, sys.stdin = out, io.StringIO(stdin)
    try:
        code = args.func(args)
    finally:
        sys.stdout, sys.stdin = old_out, old_in
    return code, out.getvalue()


def test_cli_known_error_from_arguments() -> None:
    code, out = _run(["CUDA", "error:", "an", "illegal", "memory", "access", "was", "encountered"])
    assert code == 0
    assert out.startswith("Illegal memory access in a kernel\n")
    assert "cudatui sanitize --tool memcheck script.py" in out
    assert "Lesson: oob" in out


def test_cli_reads_stdin_and_prints_json() -> None:
    code, out = _run(["-"], read("gdb_oob.txt"), "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["known"] is True
    assert payload["diagnoses"][0]["key"] == "cuda_exception_14"
    assert payload["diagnoses"][0]["actions"][0] == {
        "kind": "sanitizer", "label": "Run memcheck", "argument": "memcheck"
    }


def test_cli_unknown_text_exits_1_with_one_line_and_advice() -> None:
    code, out = _run([], "everything is fine\n")
    assert code == 1
    assert out.splitlines()[0] == UNKNOWN_MESSAGE
    assert "CUDA_LAUNCH_BLOCKING=1" in out
