"""Issue 36: the MI/replay fuzz: hostile recordings through the recording reader, the replay
stand-in and the MI parser (bench/fuzz_replay.py; bench/fuzz_mi.py is the parser alone).

By default 40,000 lines (a few seconds); ``CUDATUI_FUZZ_LINES=1000000`` runs the million lines of
the issue. A recording may be refused only with a one-line TranscriptError; nothing else may
be raised, and nothing may hang. The two shapes the fuzzer found are kept as tests of their own:
a time of 400 digits (``OverflowError`` out of ``float()``, a traceback from ``cudatui replay``)
and a stop line whose payload is no record (``AttributeError`` in the stand-in's ``places``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import json
from pathlib import Path

import pytest

from bench.fuzz_replay import run, served
from bench.fuzzing import hangs_raised
from cudatui.gdbbridge.record.transcript import TranscriptError, load
from tests.support.paths import ROOT

LINES = int(os.environ.get("CUDATUI_FUZZ_LINES", "40000"))


def test_hostile_recordings_are_served_or_refused_in_one_line(tmp_path: Path) -> None:
    with hangs_raised():
        outcomes, failures, _ = run(LINES, 7, tmp_path)
    assert not failures, failures[:10]
    assert outcomes["served"] and outcomes["refused"], outcomes  # both paths were taken


HEADER = {"t": 0, "dir": "meta", "format": "cudatui-transcript", "version": 1, "argv": ["gdb"]}


def recording(path: Path, *lines: str) -> str:
    path.write_text("\n".join([json.dumps(HEADER), *lines]) + "\n")
    return str(path)


@pytest.mark.parametrize("time", ["1" + "0" * 400, "NaN", "Infinity", "-1e999"], ids=["400-digits", "NaN", "Infinity", "minus-1e999"])
def test_a_time_that_is_no_finite_number_is_a_bad_line(tmp_path: Path, time: str) -> None:
    path = recording(tmp_path / "r.jsonl", f'{{"t": {time}, "dir": "in", "line": "1-exec-run"}}',
                     '{"t": 1, "dir": "out", "line": "1^running"}')
    with pytest.raises(TranscriptError, match=r"r.jsonl:2: not a cudatui transcript line"):
        load(path)
    done = subprocess.run([sys.executable, "-m", "cudatui", "replay", path], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


def test_a_stop_line_that_is_no_record_is_served_as_it_was(tmp_path: Path) -> None:
    path = recording(tmp_path / "r.jsonl", '{"t": 0.1, "dir": "in", "line": "1-exec-run"}',
                     '{"t": 0.2, "dir": "out", "line": "1^running"}',
                     '{"t": 0.3, "dir": "out", "line": "*stopped,reason=\\"x\\",frame={"}')
    assert served(path)[-2:] == ["1^running", '*stopped,reason="x",frame={']  # after the stand-in's prompt
