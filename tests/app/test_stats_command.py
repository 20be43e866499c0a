"""`cudatui stats`: one snapshot as JSON or text, replayed recordings, one-line errors."""

from __future__ import annotations

import argparse
import json

import pytest

from cudatui.gdbbridge.nvml.models import mark_debuggee, snapshot_from_dict, snapshot_to_dict
from cudatui.tui.commands import stats as stats_command
from tests.support.nvml import NO_DRIVER_REASON, SAMPLES, NoDriverSource, no_driver


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="cudatui")
    stats_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["stats", *argv])
    return args.func(args)


@no_driver
def test_cli_once_json_without_nvml_fails_in_one_line(capsys):
    """stdout holds a JSON error object (a script parses it), stderr the one line."""
    assert run_cli("--once", "--json") == 1
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": f"NVML unavailable: {NO_DRIVER_REASON}"}
    assert err == f"cudatui stats: NVML unavailable: {NO_DRIVER_REASON}\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--json"], "--json needs --once"),
        (["--interval", "0"], "--interval must be positive"),
        (["--pci-bus-id", "gpu0"], "not a PCI bus id: 'gpu0'"),
        (["--once", "--replay", "/nonexistent.jsonl"], "cannot read /nonexistent.jsonl"),
    ],
)
def test_cli_bad_input_is_one_line(capsys, argv, message):
    assert run_cli(*argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_cli_once_json_replays_a_recording(capsys, tmp_path):
    path = SAMPLES
    if not path.exists():
        path = tmp_path / "no_driver.jsonl"
        path.write_text(json.dumps(snapshot_to_dict(NoDriverSource().read())) + "\n")
    first = snapshot_from_dict(json.loads(path.read_text().splitlines()[0]))
    assert run_cli("--once", "--json", "--replay", str(path), "--pid", "4242") == 0
    printed = snapshot_from_dict(json.loads(capsys.readouterr().out))
    assert printed == mark_debuggee(first, 4242)
    assert run_cli("--once", "--replay", str(path)) == 0
    text = capsys.readouterr().out.splitlines()
    assert len(text) == 1 + len(first.gpus)
    assert text[1].startswith(f"GPU {first.gpus[0].index} {first.gpus[0].name}")
