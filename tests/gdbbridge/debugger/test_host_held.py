"""A step inside the kernel the host waits for keeps the host stack of the stop before it.

Replayed: kernels/recordings/race.jsonl.gz, the race lesson recorded through the UI on an H200
(cuda-gdb 13.0). Its host stack is line 33 of race.py, ``got, want = out.item(), x.sum().item()``:
the host waits in ``.item()`` for the kernel that stopped, so a ``next`` inside that kernel (the
same grid) cannot have moved it, and the Debugger does not read it again (the read was the longest
part of such a step's refresh on the H200). A stop in another process or launch, a thread not
waiting for the GPU, a stack that failed to read: read again.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from cudatui.gdbbridge.debugger.debugger import Step
from cudatui.gdbbridge.debugger.host import host_held
from cudatui.gdbbridge.models.host import HostFrame, HostStack, HostThread

from tests.support.debugger_watch import replayed
from tests.support.paths import ROOT

RECORDING = ROOT / "kernels" / "recordings" / "race.jsonl.gz"


async def test_a_step_in_the_kernel_the_host_waits_for_keeps_its_stack() -> None:
    debugger, watcher = replayed(RECORDING)
    try:
        await asyncio.wait_for(debugger.start(), 20)
        first = await watcher.next_stop()
        assert first.host is not None and first.host.user_frame is not None
        assert ".item()" in first.host.user_frame.code and first.host_note and "waiting for the GPU" in first.host_note
        assert watcher.sent.count("-cudatui-host-stack") == 1

        await asyncio.wait_for(debugger.resume(Step.NEXT), 20)
        stepped = await watcher.next_stop()
        assert stepped.stop is not first.stop and stepped.stop.reason == "end-stepping-range"
        assert stepped.focus is not None and first.focus is not None and stepped.focus.grid == first.focus.grid
        assert stepped.host is first.host and stepped.host_note == first.host_note
        assert watcher.sent.count("-cudatui-host-stack") == 1  # not asked again
    finally:
        await debugger.close()


def test_the_host_is_read_again_where_it_may_have_moved() -> None:
    """The rule itself, on the race stop's state: each condition it needs, taken away in turn."""
    async def first_state():
        debugger, watcher = replayed(RECORDING)
        try:
            await asyncio.wait_for(debugger.start(), 20)
            return await watcher.next_stop()
        finally:
            await debugger.close()

    shown = asyncio.run(first_state())
    assert shown.host is not None and shown.focus is not None
    stop, pid = shown.stop, shown.host.pid
    assert host_held(shown, stop, {}, pid)
    assert not host_held(shown, stop, {}, pid + 1)  # another process (a restart)
    other_grid = replace(stop, focus=replace(shown.focus, grid=(shown.focus.grid or 0) + 1))
    assert not host_held(shown, other_grid, {}, pid)  # another launch
    launching = HostFrame(shown.host.user_frame.file, 31, "main", "reduce_racy(x, out)", True)  # does not wait
    moved = replace(shown, host=HostStack(pid, (HostThread(pid, "python3", (launching,)),)))
    assert not host_held(moved, stop, {}, pid)
    assert host_held(moved, stop, {"CUDA_LAUNCH_BLOCKING": "1"}, pid)  # the launch itself waits
    assert not host_held(replace(shown, host=HostStack(pid, error="cannot read")), stop, {}, pid)
    two = HostStack(pid, shown.host.threads * 2)
    assert not host_held(replace(shown, host=two), stop, {}, pid)  # another Python thread may run
