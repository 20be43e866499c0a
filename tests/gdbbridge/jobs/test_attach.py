"""Attaching to a running process with real GNU gdb (GdbSession ``attach``), and the one-line
reasons it cannot be (gdbbridge/jobs/attach.py) read from the real /proc."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Step
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.events import DebuggerEvent, PhaseChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.jobs.attach import (
    attach_debugger, attach_problem, can_trace_anyone, process_info, refusal, yama_problem,
)
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.jobs import Beating, keeps_beating, traced_by_gdb, untrace
from tests.support.programs import needs_gdb

WAIT = 30.0


async def next_stop(queue: asyncio.Queue[ev.Event]) -> ev.Stopped:
    while True:
        event = await asyncio.wait_for(queue.get(), WAIT)
        if isinstance(event, ev.Stopped):
            return event


@needs_gdb
@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup", "proc"])
async def test_gdb_attaches_at_start_interrupts_continues_and_detaches_at_close(tmp_path: Path, cgroup: bool) -> None:
    beat = Beating(tmp_path)
    try:
        session = GdbSession(["gdb"], attach=beat.pid, cgroup=cgroup)  # closing kills none but gdb's own processes
        assert session.argv[:3] == ["gdb", "-iex", "set mi-async on"] and session.argv[-2:] == ["-p", str(beat.pid)]
        queue = session.queue()
        await session.start()
        try:
            first = await next_stop(queue)
            assert session.inferior_pid == beat.pid and session.async_mode  # async MI although gdb refused to set it
            frames = (await session.command("-stack-list-frames"))["stack"]
            assert any(f.get("func") == "main" for f in frames)
            assert not first.stop.exited
            await session.command("-exec-continue")
            await session.interrupt()
            stopped = await next_stop(queue)
            assert stopped.stop.signal == "SIGINT"
            await session.command("-exec-continue")
        finally:
            await session.close()
        keeps_beating(beat.file, beat.process)  # detached while running: it runs on
    finally:
        beat.stop()


@needs_gdb
async def test_an_interrupt_right_after_a_continue_stops_the_program(tmp_path: Path) -> None:
    """c then ctrl+c typed fast: the interrupt comes while the continue is still on its way (the
    program not running yet); it waits for it, and the program stops on SIGINT."""
    beat = Beating(tmp_path)
    debugger = Debugger(LaunchConfig(debugger=("gdb",), attach=beat.pid))
    stopped: asyncio.Queue[str | None] = asyncio.Queue()

    def on_event(event: DebuggerEvent) -> None:
        if isinstance(event, PhaseChanged) and event.status.phase is Phase.STOPPED and debugger.state is not None:
            stopped.put_nowait(debugger.state.stop.signal)

    debugger.subscribe(on_event)
    try:
        await asyncio.wait_for(debugger.start(), WAIT)
        await asyncio.wait_for(stopped.get(), WAIT)
        await asyncio.wait_for(asyncio.gather(debugger.resume(Step.CONTINUE), debugger.interrupt()), WAIT)
        assert await asyncio.wait_for(stopped.get(), WAIT) == "SIGINT"
    finally:
        await debugger.close()
        beat.stop()


@needs_gdb
def test_a_process_already_traced_is_refused_in_one_line(tmp_path: Path) -> None:
    beat = Beating(tmp_path)
    gdb = traced_by_gdb(beat.pid)
    try:
        said = attach_problem(beat.pid)
        assert said == f"process {beat.pid} is already traced by process {gdb.pid} (gdb): detach that debugger first"
    finally:
        untrace(gdb)
        beat.stop()


def test_no_such_process_and_cudatui_itself() -> None:
    pid = 2**22 + 1  # above the highest pid_max (2^22): never a process
    assert attach_problem(pid) == f"no process {pid}"
    assert refusal(pid, "ptrace: No such process.") == f"no process {pid}"
    assert attach_problem(os.getpid()) == f"process {os.getpid()} is cudatui itself"


def test_yama_scopes_in_the_file_s_own_format(tmp_path: Path) -> None:
    assert yama_problem("0\n", privileged=False) is None
    one = yama_problem("1\n", privileged=False)
    assert one is not None and one.startswith("Yama ptrace_scope is 1: a debugger may attach only to its own children")
    assert "`sudo sysctl kernel.yama.ptrace_scope=0`" in one
    two = yama_problem("2\n", privileged=False)
    assert two is not None and "CAP_SYS_PTRACE" in two and "sudo sysctl kernel.yama.ptrace_scope=0" in two
    assert yama_problem("1\n", privileged=True) is None and yama_problem("2\n", privileged=True) is None
    three = yama_problem("3\n", privileged=True)
    assert three is not None and "disabled until the next reboot" in three
    scope = tmp_path / "ptrace_scope"  # attach_problem reads the scope from the path it is given
    scope.write_text("3\n")
    parent = os.getppid()
    assert attach_problem(parent, yama=str(scope)) == three
    assert attach_problem(parent, yama=str(tmp_path / "absent")) is None  # no Yama: no restriction


def test_capabilities_and_process_facts_from_the_real_proc() -> None:
    status = Path("/proc/self/status").read_text()
    mask = int(next(line for line in status.splitlines() if line.startswith("CapEff:")).split()[1], 16)
    assert can_trace_anyone(status) == bool(mask & (1 << 19))
    info = process_info(os.getpid())
    assert info is not None and info.uid == os.getuid() and info.tracer == 0 and info.state in "RS"
    assert "pytest" in info.command or "python" in info.command
    assert attach_debugger(info, have_gdb=True) == ("cuda-gdb" if info.uses_cuda else "gdb")
    assert attach_debugger(info, have_gdb=False) == "cuda-gdb"


def test_a_refusal_nothing_in_proc_explains_names_the_container_capability() -> None:
    said = refusal(os.getppid(), "ptrace: Operation not permitted.\n")
    assert said.startswith(f"the kernel refused to let the debugger trace process {os.getppid()} "
                           "(ptrace: Operation not permitted)") and "--cap-add=SYS_PTRACE" in said


@pytest.mark.parametrize("said", ["", "Cannot access memory"])
def test_other_failures_say_what_gdb_said(said: str) -> None:
    line = refusal(os.getppid(), said)
    assert line.startswith(f"the debugger could not attach to process {os.getppid()}") and said in line
