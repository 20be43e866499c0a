"""The host (Python) side of a kernel stop: which line of the user's script is behind it.

After each stop of a Python program the Debugger reads the program's Python stack beside gdb,
while gdb answers the stop's batch (pystack, :mod:`cudatui.gdbbridge.host.reader`), and writes it into the recording as the answer
to the virtual command ``-cudatui-host-stack`` (:mod:`cudatui.gdbbridge.host.encoding`); a
replay asks the stand-in that command instead, and gets the stack recorded at the same stop.
The note of :func:`~cudatui.gdbbridge.host.view.sync_point` says when the line is where the host
waits for the GPU rather than the kernel's launch (no launch blocking).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections.abc import Mapping

from cudatui.gdbbridge.advice import JIT_ENV
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.host.encoding import COMMAND, decode, record
from cudatui.gdbbridge.host.fault_trace import parse as parse_fault_trace
from cudatui.gdbbridge.host.reader import read_core_stack, read_python_stack
from cudatui.gdbbridge.host.view import SYNC_CALLS
from cudatui.gdbbridge.models import StopEvent, StopState
from cudatui.gdbbridge.models.host import HostStack
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession

LAUNCH_BLOCKING = "CUDA_LAUNCH_BLOCKING"
TAIL = 1 << 20
"""Characters of a post-mortem's program output read for its Python stack."""


def post_mortem_stack(config: LaunchConfig) -> HostStack | None:
    """The Python stack behind a coredump: faulthandler's report in the program's output (triage),
    else (none there) the CPU core's (``--host-core``, read with the Python that runs cudatui unless the
    program names another), else None."""
    if config.program_output:
        stack = parse_fault_trace(read_output(config.program_output), dump_pid(config.core or ""), config.cwd)
        if stack is not None or not config.host_core:
            return stack
    if config.host_core:
        python = config.program_argv[0] if config.program_argv and is_python(config) else sys.executable
        return read_core_stack(config.host_core, python)
    return None


def read_output(path: str) -> str:
    """The end of a triage run's program output (at most :data:`TAIL` characters; '' if unreadable)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()[-TAIL:]
    except OSError:
        return ""


def dump_pid(path: str) -> int:
    """The pid in a dump's name (``gpu.<pid>.nvcudmp``, as triage names them), else 0."""
    match = re.search(r"\.(\d+)\.nvcudmp$", path)
    return int(match.group(1)) if match else 0


def is_python(config: LaunchConfig) -> bool:
    """Whether the debuggee is a Python program (a ``.py`` PROGRAM or a Python interpreter)."""
    if config.attach is None:
        argv = config.program_argv
    else:
        try:  # a kernel thread has no executable, a process not dumpable hides it, one that ended has gone
            argv = (os.readlink(f"/proc/{config.attach}/exe"),)
        except OSError:
            return False
    return bool(argv) and os.path.basename(argv[0]).startswith("python")


def is_native(config: LaunchConfig) -> bool:
    """Whether the debuggee is a compiled program run live (not Python, whose kernels and
    extension modules load long after the start, nor a replay or a coredump): before the run
    gdb knows the program's own code (and its CUDA kernels), so a breakpoint it leaves pending
    is most likely a mistyped location (or in a shared library, known once it loads)."""
    return bool(config.target) and not config.replayed and not config.core and not is_python(config)


def jit_env(config: LaunchConfig) -> dict[str, str]:
    """What :data:`JIT_ENV` adds to a live Python program's environment (the user's values win)."""
    if config.replayed or not is_python(config):
        return {}
    given = {**os.environ, **dict(config.env)}
    return {name: value for name, value in JIT_ENV.items() if name not in given}


def debuggee_env(config: LaunchConfig, launch_blocking: bool) -> Mapping[str, str]:
    """The environment the debuggee runs with (as far as the launch-blocking note needs it)."""
    env = {**os.environ, **dict(config.env)}
    if launch_blocking:
        env[LAUNCH_BLOCKING] = "1"
    return env


def host_held(shown: StopState | None, stop: StopEvent, env: Mapping[str, str], pid: int | None) -> bool:
    """Whether the host stack ``shown`` at the last stop still holds at the new ``stop``, so that it
    need not be read again: both stops in the same kernel launch (device, grid) of the same
    process, the stack read whole, with one Python thread, and that thread waiting for the GPU
    (``CUDA_LAUNCH_BLOCKING=1``: inside the launch; or its line at a call that waits for the GPU,
    :data:`~cudatui.gdbbridge.host.view.SYNC_CALLS`). Such a thread cannot move before the kernel
    ends, and the kernel has not ended: it stopped again. On the H200 the read was the longest part
    of a step's refresh (47-65 ms against a 20 ms batch, kernels/recordings, bench.stop_queries)."""
    host = shown.host if shown is not None else None
    if shown is None or host is None or host.error or len(host.threads) != 1 or host.pid != pid:
        return False
    before, now = shown.focus, stop.focus
    if before is None or now is None or (before.device, before.grid) != (now.device, now.grid) or stop.exited:
        return False
    frame = host.user_frame
    return env.get(LAUNCH_BLOCKING) == "1" or (frame is not None and any(p.search(frame.code) for _, p in SYNC_CALLS))


LiveRead = asyncio.Future[tuple[HostStack, float]]
"""A live read under way: the stack, and the seconds pystack took."""


def timed_read(pid: int) -> tuple[HostStack, float]:
    """:func:`read_python_stack` and the seconds it took."""
    began = time.perf_counter()
    stack = read_python_stack(pid)
    return stack, time.perf_counter() - began


LOOP_THREADS = 8
"""The most Python threads a process may have had at its last read for the next to run on the
event loop. pystack takes 1.2-1.6 ms a thread (on the 2-core box: 2 ms for one, 81 ms for 50,
470 ms for 400), so a read on the loop holds the screen some milliseconds; a program with more
threads is read in a worker thread, where the screen stays live while the read waits for the GIL."""


def start_live_read(session: GdbSession, config: LaunchConfig, last: HostStack | None) -> LiveRead | None:
    """A live Python debuggee's stack, read while gdb answers the stop's MI batch; None where the
    stack is not read live (a replay, a coredump, a program that is not Python). ``last``: the
    stack read at the stop before (how many threads it had).

    The read runs on the event loop, in a task that starts once the caller's task yields (its first
    await), that is once the stop's batch is written: gdb answers it in its own process meanwhile.
    pystack reads the process's memory from outside (``process_vm_readv``: no attaching, no waiting
    on the process, which gdb holds stopped), 5.3 ms with torch loaded on the H200 (bench.host_stack,
    batch 37). In a worker thread the same read took 24-47 ms in the app (batches 32-44): pystack
    gives up the GIL and takes it back many times in one read, and each time waits for the event
    loop's Python work (parsing the answers, painting); ``python -m bench.host_stack`` prints that
    row (on the 2-core box: 3.5 ms alone, 590 ms beside a busy Python thread). Only a process that
    had more than :data:`LOOP_THREADS` Python threads is read in a worker thread: its read on the
    loop would hold the screen too long."""
    pid = session.own_debuggee  # never a pid the debugger merely names: pystack stops the process it reads
    if config.replayed or config.core or pid is None or not is_python(config):
        return None
    many = last is not None and last.pid == pid and len(last.threads) > LOOP_THREADS
    return asyncio.ensure_future(asyncio.to_thread(timed_read, pid) if many else _read_on_loop(pid))


async def _read_on_loop(pid: int) -> tuple[HostStack, float]:
    return timed_read(pid)


async def read_host_stack(session: GdbSession, config: LaunchConfig, live: LiveRead | None) -> HostStack | None:
    """The host stack at this stop: the ``live`` read (:func:`start_live_read`), recorded with a
    mark of the seconds pystack took (``host-stack read=0.0053``: beside the time
    the stop waited for it, ``python -m bench.stop_queries`` tells a slow read from a late one);
    or the recorded one of a replay, or a post-mortem's from its files (the program's output, a
    CPU core); None when there is none to show (not a Python program, a recording without it)."""
    if live is not None:
        read, took = await live
        record(session.record, read)
        session.record("mark", f"host-stack read={took:.6f}")
        return read
    if config.replayed:
        try:
            return decode(await session.command(COMMAND))
        except MIError:
            return None
    if config.core:
        stack = await asyncio.to_thread(post_mortem_stack, config)
        if stack is not None:
            record(session.record, stack)
        return stack
    return None
