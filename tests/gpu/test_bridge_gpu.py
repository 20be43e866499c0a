"""gdbbridge against the real cuda-gdb on a tiny kernel (tests/fixtures/c/bridge/bridge_kernel.cu).

Builds the kernel with ``nvcc -g -G``, breaks inside it, reads the refresh batch, switches
focus, reads shared memory and registers, steps, applies a threadIdx condition deferred to the
kernel launch stop and runs to the end. Round-trip times are printed (run with ``-s``); the session transcript is
written to $CUDATUI_RECORD_DIR/bridge_kernel.jsonl (if set) so it can be committed as a replay
fixture. On a failure the last 60 raw MI lines (both directions) are printed, and a
``-break-insert`` answer without a breakpoint number fails with gdb's raw answer in the message.

Run: ``CUDATUI_RECORD_DIR=/tmp/rec python -m pytest -m gpu tests/gpu/test_bridge_gpu.py -v -s``
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from cudatui.gdbbridge.cuda.disassembly import disassemble
from cudatui.gdbbridge.cuda.evaluation import evaluate, read_shared
from cudatui.gdbbridge.cuda.focus import switch_focus
from cudatui.gdbbridge.cuda.registers import usable_register_names
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints
from cudatui.gdbbridge.session.mi import Flag
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.debugger.state import StateBuilder
from tests.support.programs import marked_line
from tests.support.wait import until

pytestmark = pytest.mark.gpu

SOURCE = Path(__file__).resolve().parents[1] / "fixtures" / "c" / "bridge" / "bridge_kernel.cu"
WAIT = 120.0


def line_of(marker: str) -> int:
    return marked_line(SOURCE, marker)


class Clock:
    """Times awaited requests and prints one ``rtt`` line each."""

    def __init__(self) -> None:
        self.times: list[tuple[str, float]] = []

    async def __call__(self, what: str, awaitable):
        started = time.monotonic()
        result = await asyncio.wait_for(awaitable, WAIT)
        elapsed = time.monotonic() - started
        self.times.append((what, elapsed))
        print(f"rtt {what:40} {elapsed * 1000:9.1f} ms", flush=True)
        return result


async def stop_after(session: GdbSession, q, operation: str):
    await session.command(operation)
    while True:
        event = await asyncio.wait_for(q.get(), WAIT)
        if isinstance(event, ev.Stopped):
            return event.stop


@pytest.fixture(scope="module")
def kernel_exe(tmp_path_factory) -> Path:
    for tool in ("nvcc", "cuda-gdb"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH")
    exe = tmp_path_factory.mktemp("bridge-gpu") / "bridge_kernel"
    subprocess.run(["nvcc", "-g", "-G", "-o", str(exe), str(SOURCE)], check=True, timeout=300)
    return exe


async def test_kernel_session_on_real_cuda_gdb(kernel_exe, tmp_path):
    record_dir = Path(os.environ.get("CUDATUI_RECORD_DIR") or tmp_path)
    record_dir.mkdir(parents=True, exist_ok=True)
    transcript = record_dir / "bridge_kernel.jsonl"
    session = GdbSession(["cuda-gdb"], [str(kernel_exe)], cwd=str(kernel_exe.parent), record=transcript)
    q = session.queue()
    output: list[str] = []
    session.subscribe(lambda e: output.append(e.text) if isinstance(e, ev.ProgramOutput) else None)
    raw: collections.deque[ev.RawLine] = collections.deque(maxlen=60)
    session.subscribe_raw(raw.append)
    clock = Clock()
    try:
        await clock("start", session.start())
        assert session.async_mode
        bps = Breakpoints(session)
        after_sync = await clock("break-insert AFTER_SYNC", bps.insert(f"bridge_kernel.cu:{line_of('AFTER_SYNC')}"))
        store = await clock("break-insert STORE if threadIdx", bps.insert(
            f"bridge_kernel.cu:{line_of('STORE_LINE')}", "threadIdx.x == 7 && blockIdx.x == 1"))
        print(f"breakpoints: {after_sync}\n             {store}\n deferred: {bps.deferred}", flush=True)
        assert 0 < after_sync.number != store.number > 0

        stop = await clock("exec-run to kernel breakpoint", stop_after(session, q, "-exec-run"))
        launch_stops = 0
        while await bps.should_skip(stop):
            launch_stops += 1
            stop = await clock("exec-continue (deferred condition applied)", stop_after(session, q, "-exec-continue"))
        print(f"stops resumed while applying the deferred condition: {launch_stops}; armed={bps.launch_armed}")
        assert not bps.deferred and not bps.launch_armed
        assert stop.breakpoint == after_sync.number and stop.focus is not None
        assert stop.frame.func == "fill" and stop.frame.line == line_of("AFTER_SYNC")

        builder = StateBuilder(session)
        state = await clock("refresh batch", builder.refresh(stop))
        assert not [e for e in state.errors if not e.startswith(("locals", "breakpoints"))], state.errors
        assert state.devices and state.devices[0].sm_type.startswith("sm_")
        assert [(k.name, k.grid_dim, k.block_dim) for k in state.kernels] == [("fill", (4, 1, 1), (64, 1, 1))]
        regs = {r.name: r for r in state.registers}
        assert "R0" in regs and regs["pc"].int_value == stop.frame.addr
        assert len(state.warps) >= 2 and len(state.lanes) == 32

        moved = await clock("focus switch block 2 thread 33", switch_focus(session, "block (2,0,0) thread (33,0,0)"))
        assert moved.focus.block == (2, 0, 0) and moved.focus.thread == (33, 0, 0)
        tid = await clock("evaluate tid", evaluate(session, "tid"))
        assert tid == "33"
        shared = await clock("read shared sdata[0..64)", read_shared(session, "sdata", 0, 64))
        assert [float(v) for v in shared] == [2.0 * i for i in range(64)]
        names = (await clock("register names", session.command("-data-list-register-names")))["register-names"]
        numbers = [n for n, name in usable_register_names(names).items() if name in ("R0", "R1", "pc")]
        values = await clock("register values by number", session.command(
            "-data-list-register-values", Flag("x"), *numbers))
        assert len(values["register-values"]) == len(numbers) == 3
        insns = await clock("disassemble $pc..$pc+48", disassemble(session))
        assert insns and insns[0].text

        stepped = await clock("exec-next in kernel", stop_after(session, q, "-exec-next"))
        assert stepped.reason == "end-stepping-range" and stepped.frame.line > stop.frame.line
        assert stepped.focus.block == (2, 0, 0) and stepped.focus.thread == (33, 0, 0)

        await bps.delete(after_sync.number)
        hit = await clock("exec-continue to STORE", stop_after(session, q, "-exec-continue"))
        assert not await bps.should_skip(hit)
        assert hit.breakpoint == store.number
        assert hit.focus.thread == (7, 0, 0) and hit.focus.block == (1, 0, 0)

        await bps.delete(store.number)
        end = await clock("exec-continue to exit", stop_after(session, q, "-exec-continue"))
        assert end.reason == "exited-normally"
        await until(lambda: "fill -> 0" in "".join(output), why="the program's last line")
    except BaseException:
        print("last MI lines before the failure:\n" + "\n".join(f"{r.direction:>3} {r.text[:400]}" for r in raw))
        raise
    finally:
        await session.close()
    entries = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert entries[0]["dir"] == "meta" and any(e["dir"] == "program" for e in entries)
    print(f"transcript: {transcript} ({len(entries)} entries)")
