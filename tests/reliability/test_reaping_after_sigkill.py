"""Issue 36: a SIGKILL of cudatui still ends every process its debugger session started.

A script (cudatui's gdbbridge, as the app uses it) runs GNU gdb on the escaper of
test_reaping.py: the debuggee forks a child that leaves its session (setsid) and ignores SIGTERM,
SIGHUP and SIGINT. The script is then SIGKILLed: nothing of it runs its close. gdb ends on its
streams' EOF and takes the debuggee, but the setsid child lived on. With the session's cgroup, a
guardian process (started beside the session, outside its cgroup) sees cudatui's end and kills
the cgroup.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.reliability.test_reaping import escaper, in_cgroup  # noqa: F401 (the fixture)
from tests.support.paths import ROOT
from tests.support.processes import alive
from tests.support.programs import needs_gdb
from tests.support.wait import wait_until

pytestmark = needs_gdb
WAIT = 60.0

SCRIPT = textwrap.dedent("""
    import asyncio, sys
    from cudatui.gdbbridge.session import events as ev
    from cudatui.gdbbridge.session.gdb import GdbSession
    from tests.support.wait import until

    async def main(escaper, pid_file):
        session = GdbSession(["gdb"], [escaper, pid_file], cgroup=True)
        seen = []
        session.subscribe(seen.append)
        await session.start()
        await session.command("-break-insert", "ready")
        await session.command("-exec-run")
        await until(lambda: any(isinstance(e, ev.Stopped) for e in seen), 60, why="the stop at ready")
        print(session.pid, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

    asyncio.run(main(sys.argv[1], sys.argv[2]))
""")


def test_a_sigkill_of_cudatui_still_ends_the_setsid_child_of_its_debuggee(escaper: Path, tmp_path: Path) -> None:  # noqa: F811
    pid_file = tmp_path / "child.pid"
    script = subprocess.Popen([sys.executable, "-c", SCRIPT, str(escaper), str(pid_file)], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    child = 0
    try:
        assert script.stdout is not None
        gdb = int(script.stdout.readline())
        if not in_cgroup(gdb):
            pytest.skip("no cgroup v2 can be made here (without one, a SIGKILLed cudatui leaves an orphan that left "
                        "the session: docs/reliability.md)")
        child = int(pid_file.read_text())
        assert alive(child)
        script.kill()
        script.wait()
        wait_until(lambda: not alive(child), timeout=WAIT, why="the setsid child to end after cudatui's SIGKILL")
    finally:
        script.kill()
        script.wait()
        if child and alive(child):
            os.kill(child, signal.SIGKILL)
