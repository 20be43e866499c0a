"""`cudatui doctor` on the command line: JSON, the plain table, one-line errors (this no-GPU machine)."""

from __future__ import annotations

import argparse
import io
import json
import sys

import pytest

from cudatui.tui.commands import doctor as doctor_command
from tests.support.nvml import needs_no_driver


def _cli(*argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    doctor_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["doctor", *argv])
    out, old = io.StringIO(), sys.stdout
    sys.stdout = out
    try:
        code = args.func(args)
    finally:
        sys.stdout = old
    return code, out.getvalue()


@needs_no_driver
def test_cli_json_is_valid_and_exit_code_non_zero() -> None:
    code, out = _cli("--json", "--no-build")
    payload = json.loads(out)
    assert code == 1
    assert payload["ready"] is False
    assert {"NVML / driver", "GPUs", "debugger backend"} <= set(payload["missing"])
    assert {"name", "status", "detail", "fix", "required"} == set(payload["checks"][0])


@needs_no_driver
def test_cli_plain_table_has_marks_and_no_traceback() -> None:
    code, out = _cli("--no-build")
    assert code == 1
    assert "✗ NVML / driver" in out and "Traceback" not in out
    assert "· kernels build -G" in out and "skipped (--no-build)" in out


def test_cli_rejects_a_bad_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli("--timeout", "0")[0] == 2
    assert capsys.readouterr().err.strip() == "cudatui doctor: --timeout must be positive"
