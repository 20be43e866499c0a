"""A pid the debugger or a recording reports is never signalled or read unless cudatui started
that process (docs/reliability.md, "What cudatui signals").

Real processes: a decoy in its own session (tests/support/decoys.py), GNU gdb behind a proxy
that reports the decoy as its debuggee, and the replay stand-in serving a real recording that
names the decoy. Each live case runs with the session's cgroup (as root) and through /proc only
(what an ordinary user gets, who may not make a cgroup).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.mi import Flag
from cudatui.gdbbridge.session.processes import SessionProcesses
from tests.support.decoys import Decoy, lying_gdb, naming
from tests.support.paths import RECORDED
from tests.support.processes import alive, descendants
from tests.support.programs import BREAK_LINE, STEPS, compile_c, needs_gdb
from tests.support.wait import until

WAIT = 60.0


async def at_the_breakpoint(debugger: list[str], tmp_path: Path, cgroup: bool) -> GdbSession:
    """A session of ``debugger`` on the steps program, stopped at its breakpoint."""
    program = compile_c(STEPS, tmp_path / "steps")
    session = GdbSession(debugger, [str(program)], cgroup=cgroup)
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    await asyncio.wait_for(session.start(), WAIT)
    try:
        await session.command("-break-insert", f"steps.c:{BREAK_LINE}")
        await session.command("-exec-run")
        await until(lambda: any(isinstance(e, ev.Stopped) for e in seen), WAIT, "the breakpoint")
    except BaseException:
        await session.close()
        raise
    return session


@needs_gdb
@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup", "proc"])
async def test_a_debugger_that_reports_a_decoy_as_its_debuggee_never_gets_it_signalled(
    decoy: Decoy, tmp_path: Path, cgroup: bool
) -> None:
    """The proxy's gdb runs a real program and says its pid is the decoy's: the session takes the
    report as the debuggee's pid (the state shows it) but never as its own process; interrupting
    and closing leave the decoy and its sibling running, and the real debuggee is reaped."""
    session = await at_the_breakpoint([str(lying_gdb(decoy.pid, tmp_path / "lying-gdb"))], tmp_path, cgroup)
    try:
        assert session.inferior_pid == decoy.pid
        assert session.own_debuggee is None
        assert session.pid is not None
        real = [pid for pid in descendants(session.pid) if Path(f"/proc/{pid}/comm").read_text().strip() == "steps"]
        assert len(real) == 1
        await session.command("-exec-continue")  # runs to its end, then a SIGINT has nothing of ours to stop
        await session.interrupt()
        await asyncio.wait_for(session.close(), WAIT)
        await until(lambda: not alive(real[0]), WAIT, "the real debuggee to be reaped")
        assert decoy.alive()
    finally:
        await session.close()


@needs_gdb
@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup", "proc"])
async def test_the_debuggee_gdb_started_is_the_sessions_own(tmp_path: Path, cgroup: bool) -> None:
    """The same check lets through the debuggee gdb really started: it is the one signalled and read."""
    session = await at_the_breakpoint(["gdb"], tmp_path, cgroup)
    try:
        assert session.inferior_pid is not None
        assert session.own_debuggee == session.inferior_pid
    finally:
        await asyncio.wait_for(session.close(), WAIT)


async def test_a_replay_whose_recording_names_a_decoy_signals_only_its_stand_in(decoy: Decoy, tmp_path: Path) -> None:
    """The replay stand-in serves a real GNU gdb recording whose debuggee is the decoy: stepping,
    interrupting and closing signal nothing but the stand-in."""
    recording = naming(RECORDED / "gdb" / "panes_path.jsonl.gz", decoy.pid, tmp_path / "named.jsonl")
    config = LaunchConfig.replay(recording)
    session = GdbSession(config.debugger, cwd=config.cwd, env=dict(config.env), hand_tty=True, stand_in=True)
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    await asyncio.wait_for(session.start(), WAIT)
    try:
        await session.command("-break-insert", Flag("-f"), "panes.c:18")  # the recorded commands
        await session.command("-exec-run")
        await until(lambda: session.inferior_pid == decoy.pid, WAIT, "the recorded debuggee")
        assert session.own_debuggee is None
        await session.interrupt()
        await asyncio.wait_for(session.close(), WAIT)
        assert decoy.alive()
    finally:
        await session.close()


def test_a_process_nobody_started_here_is_not_the_sessions(decoy: Decoy) -> None:
    """Without a cgroup: noting a pid the session did not start takes nothing, so neither the
    pid nor its session or group are among the members a close kills."""
    processes = SessionProcesses(use_cgroup=False)
    assert not processes.note(decoy.pid)
    assert not processes.owns(decoy.pid)
    assert decoy.pid not in processes.members() and decoy.sibling not in processes.members()
