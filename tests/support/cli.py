"""The command line in-process: ``main(argv)`` with its exit code and what it printed."""

from __future__ import annotations

import pytest

from cudatui.tui.cli import main


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``cudatui ARGV``: (exit code, stdout, stderr); a SystemExit is an exit code too."""
    try:
        rc = main(list(argv))
    except SystemExit as exc:
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err
