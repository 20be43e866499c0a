"""When a followed recording's session has begun: once it holds the instructor's first command,
not when it holds only the header and gdb's start-up output (a follower that looked then, beside
three test runs at load 10-14, took the session for one that does not read, and its stand-in
exited: "the recording holds no commands"; test_follow failed so in 2 of 6 runs)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from cudatui.gdbbridge import session_begun
from tests.support.paths import RECORDED

REAL = RECORDED / "gdb" / "panes_path.jsonl.gz"
"""A session recorded on real GNU gdb: its header, gdb's start-up output, then its commands."""


def test_a_session_begins_with_its_first_command_not_with_gdbs_output(tmp_path: Path) -> None:
    lines = gzip.decompress(REAL.read_bytes()).decode().splitlines()
    first_in = next(i for i, line in enumerate(lines) if json.loads(line)["dir"] == "in")
    assert any(json.loads(line)["dir"] == "out" for line in lines[:first_in])  # gdb spoke before the first command
    path = tmp_path / "class.jsonl"
    path.write_text("")
    assert not session_begun(str(path))
    for count in range(1, first_in + 1):  # the header, then gdb's start-up output, line by line
        path.write_text("".join(line + "\n" for line in lines[:count]))
        assert not session_begun(str(path)), lines[count - 1]
    path.write_text("".join(line + "\n" for line in lines[: first_in + 1])[:-1])  # the command, its line not ended
    assert not session_begun(str(path))
    path.write_text("".join(line + "\n" for line in lines[: first_in + 1]))
    assert session_begun(str(path))
