"""Issue 36: ``--pid`` of a process gdb cannot attach to answers one line at once; an attach
that never ends is bounded and said.

A kernel thread (``--pid 2``) has no program and no memory of its own; a process that made
itself non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``) cannot be traced without CAP_SYS_PTRACE.
Both spun "attaching" (an internal error reading ``/proc/PID/exe``, the spinner left running).
Real processes: a kernel thread found in /proc, a Python child that drops its dumpable flag,
cudatui without CAP_SYS_PTRACE (``setpriv``) for the latter, real GNU gdb. A zombie is refused the
same way. A parent held in vfork() (tests/fixtures/c/jobs/vfork_parent.c) lets gdb attach but
never stops: the wait is bounded, and said.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import cudatui.gdbbridge.session.gdb
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.launch import attach_config
from tests.support.app import no_internal_errors
from tests.support.cli import WAIT, one_line, run_main
from tests.support.jobs import JOBS
from tests.support.paths import ROOT
from tests.support.processes import alive, proc_stat, stat_fields
from tests.support.programs import compile_c, needs_gdb
from tests.support.wait import wait_for, wait_until

pytestmark = needs_gdb

PF_KTHREAD = 0x00200000
"""The kernel's flag of a kernel thread, in the ninth field of /proc/PID/stat."""
NOT_DUMPABLE = ("import ctypes, sys; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); print('ready', flush=True); "
                "sys.stdin.read()")
"""A process that calls prctl(PR_SET_DUMPABLE, 0), says so and waits for its stdin to close."""
VFORK_PARENT = JOBS / "vfork_parent.c"


def state(pid: int) -> str | None:
    """The process's state letter (R, S, D, Z...) from /proc, None once it is gone."""
    found = proc_stat(pid)
    return found[0] if found else None


def kernel_thread() -> int:
    """The pid of a kernel thread (the test's own look at /proc, not cudatui's)."""
    for entry in sorted(os.listdir("/proc"), key=lambda name: (len(name), name)):
        if entry.isdigit():
            fields = stat_fields(int(entry))
            if fields is not None and int(fields[6]) & PF_KTHREAD:
                return int(entry)
    pytest.skip("no kernel thread in /proc (a pid namespace?)")


def test_a_kernel_thread_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pid = kernel_thread()
    err = one_line(*run_main(capsys, "--pid", str(pid), "--debugger", "gdb"))
    name = Path(f"/proc/{pid}/comm").read_text().strip()
    assert err == (f"cudatui: process {pid} is a kernel thread ({name}): it runs no program a debugger can attach "
                   "to\n")


async def test_a_kernel_thread_given_to_the_app_is_a_startup_failure() -> None:
    """Past the command line's checks (the app given the config): gdb is refused and the app ends
    with the reason, no internal error, no spinner left."""
    pid = kernel_thread()
    app = DebuggerApp(attach_config(pid, "gdb"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.failure is not None or not no_internal_errors(app),
                       why="the app's startup failure")
    assert no_internal_errors(app)
    assert app.failure is not None and app.failure.startswith(f"process {pid} is a kernel thread")


def test_a_process_that_is_not_dumpable_is_refused_in_one_line() -> None:
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not installed")
    child = subprocess.Popen([sys.executable, "-c", NOT_DUMPABLE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        without_ptrace = [setpriv, "--inh-caps=-sys_ptrace", "--bounding-set=-sys_ptrace"]
        done = subprocess.run([*without_ptrace, sys.executable, "-m", "cudatui", "--pid", str(child.pid),
                               "--debugger", "gdb"], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=WAIT)
        err = one_line(done)
        assert err == (f"cudatui: process {child.pid} is not dumpable (it called prctl(PR_SET_DUMPABLE, 0), or changed "
                       "its user): only a debugger with CAP_SYS_PTRACE may attach to it. Run cudatui as root (sudo), "
                       "or start the program under cudatui\n")
    finally:
        child.kill()
        child.wait()


def test_a_zombie_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A child that has exited and that its parent (this test) has not waited for yet."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        wait_until(lambda: state(child.pid) == "Z", why="the child to be a zombie")
        err = one_line(*run_main(capsys, "--pid", str(child.pid), "--debugger", "gdb"))
        assert err == f"cudatui: process {child.pid} has exited (a zombie waiting for its parent)\n"
    finally:
        child.wait()


async def test_an_attach_that_never_ends_is_bounded_and_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A parent held in vfork() (state D): gdb's ptrace attach succeeds, the stop it waits for
    never comes, and gdb would wait for ever (it ignores SIGTERM then). The start-up bound
    (``STARTUP_TIMEOUT``, 20 s; 3 s here) ends it with what happened, not "is it a gdb?"; gdb is
    killed and the process is traced by no one. The SIGSTOP of the attach, pending while the
    process cannot stop, is discarded: once its child ends, the parent exits 0 (it stopped
    instead, for good, before)."""
    monkeypatch.setattr(cudatui.gdbbridge.session.gdb, "STARTUP_TIMEOUT", 3.0)
    parent = subprocess.Popen([str(compile_c(VFORK_PARENT, tmp_path / "vfork_parent"))])
    try:
        wait_until(lambda: state(parent.pid) == "D", why="the parent to wait in vfork()")
        app = DebuggerApp(attach_config(parent.pid, "gdb"))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: app.failure is not None or not no_internal_errors(app),
                           timeout=120, why="the attach's time-out")
            gdb = app.debugger.debugger_pid
        assert no_internal_errors(app)
        assert app.failure == (f"the debugger did not finish attaching to process {parent.pid} within 3 s: it is in "
                               "uninterruptible sleep (state D: a parent waiting in vfork() for its child to exec or "
                               "exit, or a process stuck in the kernel) and cannot stop until it wakes; attach once it "
                               "has, or to its child")
        assert gdb is not None and not alive(gdb)
        assert "TracerPid:\t0\n" in Path(f"/proc/{parent.pid}/status").read_text()
        for child in Path(f"/proc/{parent.pid}/task/{parent.pid}/children").read_text().split():
            os.kill(int(child), signal.SIGKILL)
        assert parent.wait(timeout=WAIT) == 0
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
