"""Files and sockets: a recording survives the app being killed, cudatui writes only where it
was asked (the --record path, the sanitizer's private temporary directory, XDG cache/config),
its temporary files are private and removed, and it never opens a listening socket.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
import tempfile
from pathlib import Path

import pytest

from cudatui.gdbbridge.record.transcript import load
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.panes.sanitizer import SanitizerPane
from cudatui.tui.panes.source import SourcePane
from tests.support.app import phase
from tests.support.paths import FIXTURES
from tests.support.processes import descendants, kill_all, wait_gone
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.terminal import TerminalApp
from tests.support.wait import wait_for, wait_until

pytestmark = needs_gdb


@pytest.fixture
def steps(tmp_path: Path) -> Path:
    """steps.c built into a directory of this test's own (the test lists what appears next to it)."""
    return compile_c(STEPS, tmp_path / "prog" / "steps")


async def test_a_recording_cut_by_kill_9_replays_up_to_the_cut(steps: Path, tmp_path: Path) -> None:
    record = tmp_path / "cut.jsonl"
    app = TerminalApp(["--debugger", "gdb", "--record", str(record), "-b", f"steps.c:{BREAK_LINE}", str(steps)],
                      cwd=steps.parent)
    children: dict[int, str] = {}
    try:
        wait_until(lambda: record.exists() and "breakpoint-hit" in record.read_text()
                   and "-stack-list-variables result=" in record.read_text().split("breakpoint-hit", 1)[1])
        app.wait_shown("breakpoint 1")  # the stop is shown: every answer it needed is recorded
        assert stat.S_IMODE(record.stat().st_mode) == 0o600
        children = descendants(app.proc.pid)
        app.proc.send_signal(signal.SIGKILL)
        app.wait(timeout=10)
        # gdb reads end-of-file on its stdin, exits and ends the debuggee with it
        assert not wait_gone(children, timeout=10)
    finally:
        kill_all(children)
        app.close()
    lines = record.read_text().splitlines(keepends=True)
    record.write_text("".join(lines) + lines[-1][: len(lines[-1]) // 2])  # and a line cut mid-write
    assert load(str(record)).truncated

    replay = DebuggerApp(LaunchConfig.replay(record,
                                             breakpoints=(f"steps.c:{BREAK_LINE}",), source_dirs=(str(STEPS.parent),)))
    async with replay.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(replay) == "stopped" and replay.debugger.state is not None)
        assert replay.query_one(SourcePane).view.current == BREAK_LINE
        assert {v.name: v.value for v in replay.debugger.state.variables}["total"] == "0"
        await pilot.press("c")
        await wait_for(pilot, lambda: any("not in this recording" in n.message for n in replay.notices.entries))
        await pilot.press("q")


def sockets_of(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def listening(inodes: set[str]) -> list[str]:
    """Lines of /proc/net/* for those sockets that listen (TCP LISTEN, any UDP, unix ACCEPTCON)."""
    found = []
    for name in ("tcp", "tcp6", "udp", "udp6"):
        path = Path("/proc/net") / name
        for line in path.read_text().splitlines()[1:] if path.exists() else []:
            fields = line.split()
            if fields[9] in inodes and (name.startswith("udp") or fields[3] == "0A"):
                found.append(f"{name}: {line}")
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[6] in inodes and int(fields[3], 16) & 0x10000:
            found.append(f"unix: {line}")
    return found


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


async def test_files_only_where_asked_private_temporaries_no_listening_socket(
    steps: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, work, tmp, out = (tmp_path / name for name in ("home", "work", "tmp", "out"))
    for folder in (home, work, tmp, out):
        folder.mkdir()
    for var, sub in (("HOME", ""), ("XDG_CACHE_HOME", ".cache"), ("XDG_CONFIG_HOME", ".config"),
                     ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state")):
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.chdir(work)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "compute-sanitizer"
    fake.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / "sanitizer" / "fake_compute_sanitizer.py"}" "$@"\n')
    fake.chmod(0o755)
    log = tmp_path / "fake.json"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_SANITIZER_REPLAY", str(FIXTURES / "sanitizer" / "memcheck.txt"))
    monkeypatch.setenv("FAKE_SANITIZER_XML", str(FIXTURES / "sanitizer" / "memcheck.xml"))
    monkeypatch.setenv("FAKE_SANITIZER_LOG", str(log))
    program_files = files_under(steps.parent)
    record = out / "session.jsonl"

    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(steps),), breakpoints=(f"steps.c:{BREAK_LINE}",),
                                   record=str(record), cwd=str(work), source_dirs=(str(STEPS.parent),)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        assert stat.S_IMODE(record.stat().st_mode) == 0o600
        assert not listening(sockets_of(os.getpid()))
        gdb = app.debugger.session.pid
        assert not listening(sockets_of(gdb))
        app.action_sanitize()
        pane = app.query_one(SanitizerPane)
        await wait_for(pilot, lambda: log.exists() and not pane.running and pane.groups)
        await pilot.press("q")

    fake_saw = json.loads(log.read_text())
    assert fake_saw["save_mode"] == 0o600 and fake_saw["save_dir_mode"] == 0o700
    assert not list(tmp.iterdir()), "temporary files left behind"
    assert files_under(work) == set() and files_under(out) == {"session.jsonl"}
    assert files_under(steps.parent) == program_files
    for path in files_under(home):
        assert path.startswith((".cache/", ".config/")), path
