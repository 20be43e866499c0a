"""The command line: in-process (``main(argv)`` with its exit code and what it printed) or as a
user runs it (``python -m cudatui``), and the one line a refused command prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cudatui.tui.cli import main

from .paths import ROOT

WAIT = 120.0
"""Generous bound on one command (doctor probes tools; the machine may be loaded)."""


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``cudatui ARGV``: (exit code, stdout, stderr); a SystemExit is an exit code too."""
    try:
        rc = main(list(argv))
    except SystemExit as exc:
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


def cudatui(*args: str, cwd: Path = ROOT, term: str | None = None, stdout: Any = subprocess.PIPE, text: bool = True,
            **kwargs: Any) -> subprocess.CompletedProcess:
    """``python -m cudatui ARGS`` in ``cwd`` as a subprocess: stdin from /dev/null, stdout (unless
    told where) and stderr read (as text unless ``text`` is false), TERM set to ``term`` if given."""
    env = {**os.environ, "TERM": term} if term is not None else None
    return subprocess.run([sys.executable, "-m", "cudatui", *args], cwd=cwd, stdin=subprocess.DEVNULL, stdout=stdout,
                          stderr=subprocess.PIPE, text=text, timeout=WAIT, env=env, **kwargs)


def one_line(done: subprocess.CompletedProcess | int, out: str = "", err: str = "") -> str:
    """The one line a refused command prints (exit code 2, nothing on stdout, no traceback): of a
    finished process, or of ``rc, out, err`` (:func:`run_main`'s answer)."""
    if isinstance(done, subprocess.CompletedProcess):
        done, out, err = done.returncode, done.stdout, done.stderr
    assert done == 2 and out == "", (done, out[:300], err[-2000:])
    assert err.startswith("cudatui") and err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err[-2000:]
    return err
