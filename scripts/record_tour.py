"""Drive a real cuda-gdb through gdbbridge on a bundled lesson, recording the MI transcript.

Usage (on a GPU box): ``python scripts/record_tour.py LESSON OUT.jsonl [--debugger cuda-gdb]``

The tour: insert the lesson's suggested breakpoints (CUDA conditions deferred until the kernel
loads), run to the first stop, refresh, switch focus to another block/thread and lane, read
shared memory and registers, disassemble around pc, step three times, then continue until the
program exits (or hits a CUDA exception, which is refreshed too). Prints one line per step with
its wall time, so the round trips can be reported.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cudatui.gdbbridge.cuda.disassembly import disassemble
from cudatui.gdbbridge.cuda.evaluation import read_shared
from cudatui.gdbbridge.cuda.focus import switch_focus
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints
from cudatui.gdbbridge.session.events import Stopped
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.debugger.state import StateBuilder
from cudatui.kernels.lessons import get_lesson


def say(t0: float, what: str) -> None:
    print(f"{time.monotonic() - t0:8.3f}s  {what}", flush=True)


async def wait_stop(queue: asyncio.Queue) -> Stopped:
    while True:
        event = await queue.get()
        if isinstance(event, Stopped):
            return event


async def resume(session: GdbSession, queue: asyncio.Queue, bps: Breakpoints, op: str) -> Stopped:
    await session.command(op)
    stopped = await wait_stop(queue)
    while not stopped.stop.exited and await bps.should_skip(stopped.stop):
        await session.command("-exec-continue")
        stopped = await wait_stop(queue)
    return stopped


def describe(state: StopState) -> str:
    f = state.frame
    where = f"{f.func} {f.file}:{f.line}" if f else "-"
    focus = state.focus.software if state.focus else "host"
    exc = f" {state.stop.exception.signal_name} {state.stop.exception.name}" if state.stop.exception else ""
    return (f"gen {state.generation} {state.stop.reason}{exc} at {where} [{focus}] "
            f"locals={len(state.variables)} regs={len(state.registers)} warps={len(state.warps)} "
            f"lanes={len(state.lanes)} errors={[str(e) for e in state.errors]}")


async def tour(lesson_name: str, out: str, debugger: str) -> int:
    lesson = get_lesson(lesson_name)
    t0 = time.monotonic()
    session = GdbSession([debugger], [sys.executable, str(lesson.demo_path)], record=out, cwd=str(lesson.source.parent))
    queue = session.queue()
    await session.start()
    say(t0, f"started {debugger} async={session.async_mode}")
    bps = Breakpoints(session)
    builder = StateBuilder(session)
    for location, condition in lesson.breakpoint_specs():
        bp = await bps.insert(location, condition)
        say(t0, f"break {location} if {condition}: #{bp.number} pending={bp.pending} deferred={bp.number in bps.deferred}")
    stopped = await resume(session, queue, bps, "-exec-run")
    for step in range(40):
        state = await builder.refresh(stopped.stop)
        say(t0, describe(state))
        if stopped.stop.exited:
            break
        if state.in_kernel and step == 0:
            await kernel_tour(session, queue, bps, builder, state, t0)
        if stopped.stop.exception and not stopped.stop.exception.recoverable:
            await session.console("info cuda lanes")
            stopped = await resume(session, queue, bps, "-exec-continue")
            continue
        stopped = await resume(session, queue, bps, "-exec-continue")
    await session.close()
    say(t0, f"closed; exit code {session.exit_code}")
    return 0


async def kernel_tour(session, queue, bps, builder, state, t0) -> None:
    for request in ("block (1,0,0) thread (7,0,0)", "warp 2 lane 3"):
        try:
            result = await switch_focus(session, request)
            say(t0, f"focus {request} -> {result.focus.software} {result.focus.hardware}")
            state = await builder.refresh(state.stop, focus=result.focus)
            say(t0, describe(state))
        except MIError as exc:
            say(t0, f"focus {request} failed: {exc}")
    for var in state.variables:
        if "@shared" in var.type:
            name = var.name
            try:
                values = await read_shared(session, name, 0, 32)
                say(t0, f"shared {name}[0..32] = {values[:8]}...")
            except MIError as exc:
                say(t0, f"shared {name}: {exc}")
    try:
        insns = await disassemble(session, "$pc", "$pc+128")
        say(t0, f"disassembly: {len(insns)} instructions, first {insns[0].text if insns else '-'}")
    except MIError as exc:
        say(t0, f"disassemble failed: {exc}")
    for op in ("-exec-next", "-exec-next", "-exec-step"):
        started = time.monotonic()
        stopped = await resume(session, queue, bps, op)
        say(t0, f"{op} took {time.monotonic() - started:.3f}s")
        state = await builder.refresh(stopped.stop)
        say(t0, describe(state))
        if stopped.stop.exited or stopped.stop.exception:
            break
    await session.command("-break-delete")
    say(t0, "deleted all breakpoints; continuing to the end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lesson")
    parser.add_argument("out")
    parser.add_argument("--debugger", default="cuda-gdb")
    args = parser.parse_args()
    return asyncio.run(tour(args.lesson, args.out, args.debugger))


if __name__ == "__main__":
    sys.exit(main())
