"""Closing a session reaps everything it started, whatever those processes did: a child of the
debuggee that called setsid() and ignores SIGTERM and SIGHUP, and the ``shell sleep`` of a gdb
that was killed.

Each case runs twice: with the session's cgroup (where one can be made here; else skipped)
and tracked through /proc only (``cgroup=False``, what happens where no cgroup can be made).
Real GNU gdb; the C debuggee is compiled here.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

import pytest

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.processes import alive
from tests.support.programs import needs_gdb
from tests.support.shell_child import gdb_killed_under_a_shell_sleep
from tests.support.wait import until

pytestmark = needs_gdb
WAIT = 60.0

ESCAPER = r'''
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

void ready(void) {}

int main(int argc, char **argv) {
    int up[2];
    if (pipe(up) != 0) return 1;
    pid_t child = fork();
    if (child == 0) { /* its own session, deaf to SIGTERM and SIGHUP */
        setsid();
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGINT, SIG_IGN);
        if (write(up[1], "x", 1) != 1) return 1;
        for (;;) pause();
    }
    char byte;
    if (read(up[0], &byte, 1) != 1) return 1;
    FILE *f = fopen(argv[1], "w");
    fprintf(f, "%d\n", (int)child);
    fclose(f);
    ready();
    return 0;
}
'''


@pytest.fixture(scope="module")
def escaper(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reaping")
    (out / "escaper.c").write_text(ESCAPER)
    subprocess.run(["gcc", "-g", "-O0", "-o", str(out / "escaper"), str(out / "escaper.c")], check=True)
    return out / "escaper"


def in_cgroup(pid: int) -> bool:
    """Whether ``pid`` is in a cgroup of a session (``.../cudatui-<pid>-<pid>``)."""
    return "/cudatui-" in Path(f"/proc/{pid}/cgroup").read_text()


def proc_fields(pid: int) -> tuple[int, int]:
    """(session id, ignored-signal mask) of ``pid``."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ignored = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("SigIgn:"))
    return int(stat[3]), int(ignored.split()[1], 16)


async def session_on(argv: list[str], cgroup: bool, program: list[str] = ()) -> tuple[GdbSession, list[ev.Event]]:
    session = GdbSession(argv, list(program), cgroup=cgroup)
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    await asyncio.wait_for(session.start(), WAIT)
    assert session.pid is not None
    if cgroup and not in_cgroup(session.pid):
        await session.close()
        pytest.skip("no cgroup v2 can be made here")
    assert cgroup == in_cgroup(session.pid)
    return session, seen


@pytest.mark.parametrize("debuggee", ["stopped", "exited"])
@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup", "proc"])
async def test_close_kills_a_setsid_child_of_the_debuggee_that_ignores_sigterm(
    escaper: Path, tmp_path: Path, cgroup: bool, debuggee: str
) -> None:
    """The debuggee forks a child that leaves its session (setsid) and ignores SIGTERM, SIGHUP
    and SIGINT; the debuggee is held at a breakpoint, or has exited (its child re-parented to
    init: only a cgroup still knows it). After close() the child is gone."""
    if debuggee == "exited" and not cgroup:
        pytest.skip("without a cgroup, an orphan that left the session is not found (docs/reliability.md)")
    pid_file = tmp_path / "child.pid"
    session, seen = await session_on(["gdb"], cgroup, [str(escaper), str(pid_file)])
    child = 0
    try:
        await session.command("-break-insert", "ready")
        await session.command("-exec-run")
        await until(lambda: any(isinstance(e, ev.Stopped) for e in seen))
        child, parent = int(pid_file.read_text()), session.inferior_pid
        sid, ignored = proc_fields(child)
        assert sid == child != session.pid and alive(child)
        assert all(ignored & (1 << (sig - 1)) for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT))
        if debuggee == "exited":
            await session.command("-exec-continue")
            await until(lambda: session.state == "exited")
            assert alive(child) and int(Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[1]) != parent
        await asyncio.wait_for(session.close(), WAIT)
        await until(lambda: not alive(child))
    finally:
        await session.close()
        if child and alive(child):
            os.kill(child, signal.SIGKILL)


@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup", "proc"])
async def test_close_kills_the_shell_child_of_a_killed_gdb(cgroup: bool) -> None:
    """gdb runs ``shell sleep 120`` and is SIGKILLed: the sleep lives on (in gdb's session,
    re-parented to init) until close() kills it."""
    session, seen = await session_on(["gdb"], cgroup)
    sleeper = 0
    try:
        shell, sleeper = await gdb_killed_under_a_shell_sleep(session, seen)
        await asyncio.gather(shell, return_exceptions=True)
        assert alive(sleeper)
        await asyncio.wait_for(session.close(), WAIT)
        await until(lambda: not alive(sleeper))
    finally:
        await session.close()
        if sleeper and alive(sleeper):
            os.kill(sleeper, signal.SIGKILL)


async def test_a_closed_session_leaves_no_cgroup_behind() -> None:
    session, _ = await session_on(["gdb"], cgroup=True)
    assert session.pid is not None
    lines = Path(f"/proc/{session.pid}/cgroup").read_text().splitlines()
    path = next(line[3:] for line in lines if line.startswith("0::"))
    mounts = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines() if " - cgroup2 " in line]
    assert [mount for mount in mounts if Path(mount + path).is_dir()]
    await session.close()
    assert not [mount for mount in mounts if Path(mount + path).exists()]
