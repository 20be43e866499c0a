"""Every reliability test leaves no process behind (issue 36, "no process is left after any test").

Each test runs with its own mark in the environment (``CUDATUI_TEST_MARK``), which every process
it starts inherits (cudatui, gdb, the debuggee, a setsid child that left the session, a tmux
server and what runs in its panes), unless started with an environment of its own making. After
the test, any process still holding the mark (zombies hold no environment) is waited for, then
killed and the test fails, naming it. Processes a module's fixture started before its first test
carry no mark, and are that fixture's to end.
"""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.wait import within

MARK = "CUDATUI_TEST_MARK"
LINGER = 30.0
"""Seconds a process the test started may take to end after it (a close's graces, a reaper)."""


def marked(mark: bytes) -> dict[int, str]:
    """The live processes whose environment holds ``MARK=mark``: pid -> command."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if mark in (entry / "environ").read_bytes().split(b"\0"):
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
    return found


@pytest.fixture(autouse=True)
def no_process_left(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    yield
    mark = f"{MARK}={value}".encode()
    if within(lambda: not marked(mark), LINGER) is None:
        left = marked(mark)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        pytest.fail(f"processes the test started are still running {LINGER:g} s after it: {left}")
