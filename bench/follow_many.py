"""Many followers of one recorded session: latency and CPU per follower.

An instructor's Debugger runs a C program on GNU gdb with ``--record`` (tests/fixtures/c/app/
steps.c, breakpoint at its BREAK line, then ``next`` STEPS times); N followers
(``LaunchConfig.following``: the follow stand-in process and a Debugger each, no UI) follow the
file. For each instructor stop it prints how long until every follower's Debugger published the
same line (median and worst over followers), the median and 95th percentile of all those lags, and the CPU seconds the follow stand-ins used per
follower per wall second. The followers' UIs (Textual) are not included: each costs what a
replay's UI costs.

    python bench/follow_many.py [N] [STEPS]      # default 30 followers, 6 steps
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cudatui.gdbbridge.debugger.config import LaunchConfig  # noqa: E402
from cudatui.gdbbridge.debugger.debugger import Debugger, Step  # noqa: E402
from cudatui.gdbbridge.debugger.events import StateChanged  # noqa: E402
from cudatui.gdbbridge.session.recorder import prepare  # noqa: E402

STEPS_C = ROOT / "tests" / "fixtures" / "c" / "app" / "steps.c"
GOAL_S = 1.0
"""Each new stop on every follower within one second."""
GIVE_UP_S = 30.0
"""Seconds after which followers that have not shown a stop are reported (and the run stops)."""
MEDIAN_GOAL_S = 0.2
P95_GOAL_S = 0.5
"""Issue 34: the lags of all followers at all steps, median and 95th percentile."""


def line_of(debugger: Debugger) -> int | None:
    state = debugger.state
    return state.frame.line if state is not None and state.frame is not None else None


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stand_ins() -> list[int]:
    """The follow stand-in processes running now."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and b"gdbbridge.record.follow" in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


async def main(count: int, steps: int) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="follow-bench-"))
    program = tmp / "steps"
    subprocess.run(["gcc", "-g", "-O0", "-o", str(program), str(STEPS_C)], check=True)
    brk = next(i for i, text in enumerate(STEPS_C.read_text().splitlines(), 1) if "/* BREAK */" in text)
    record = tmp / "class.jsonl"
    prepare(record)
    instructor = Debugger(LaunchConfig(debugger=("gdb",), target=(str(program),), breakpoints=(f"steps.c:{brk}",),
                                       cwd=str(tmp), record=str(record)))
    followers = [Debugger(LaunchConfig.following(record)) for _ in range(count)]
    seen: list[dict[int, float]] = [{} for _ in followers]
    for i, follower in enumerate(followers):
        follower.subscribe(lambda event, i=i: isinstance(event, StateChanged) and event.state.frame is not None
                           and seen[i].setdefault(event.state.generation, time.monotonic()))
    try:
        await instructor.start()
        await asyncio.gather(*(f.start() for f in followers))
        while not all(line_of(f) == line_of(instructor) for f in followers):
            await asyncio.sleep(0.01)
        pids = stand_ins()
        cpu0, wall0 = sum(cpu_seconds(p) for p in pids), time.monotonic()
        print(f"{count} followers, {len(pids)} stand-ins; instructor steps {steps} times")
        worst_all: list[float] = []
        every: list[float] = []
        for step in range(steps):
            before = line_of(instructor)
            await instructor.resume(Step.NEXT)
            while line_of(instructor) == before or instructor.state is None:
                await asyncio.sleep(0.005)
            stopped = time.monotonic()
            target = line_of(instructor)
            while not all(line_of(f) == target for f in followers) and time.monotonic() - stopped < GIVE_UP_S:
                await asyncio.sleep(0.005)
            behind = [i for i, f in enumerate(followers) if line_of(f) != target]
            if behind:
                print(f"step {step + 1}: line {target}: {len(behind)} followers not there after {GIVE_UP_S:.0f} s "
                      f"(at lines {sorted({line_of(followers[i]) for i in behind}, key=str)}): stopping")
                break
            lags = [max(t for t in s.values()) - stopped for s in seen]
            worst_all.append(max(lags))
            every += lags
            print(f"step {step + 1}: line {target}: follower lag median {statistics.median(lags) * 1000:6.0f} ms, "
                  f"worst {max(lags) * 1000:6.0f} ms")
        wall = time.monotonic() - wall0
        cpu = sum(cpu_seconds(p) for p in pids if Path(f"/proc/{p}").exists()) - cpu0
        if not every:
            return 1
        p95 = statistics.quantiles(every, n=20)[-1] if len(every) > 1 else every[0]
        print(f"all {len(every)} lags (followers x steps): median {statistics.median(every) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms (goal median {MEDIAN_GOAL_S * 1000:.0f} ms, p95 {P95_GOAL_S * 1000:.0f} ms: "
              f"{'MET' if statistics.median(every) <= MEDIAN_GOAL_S and p95 <= P95_GOAL_S else 'MISSED'})")
        print(f"worst lag over all steps: {max(worst_all) * 1000:.0f} ms (goal {GOAL_S * 1000:.0f} ms: "
              f"ratio {max(worst_all) / GOAL_S:.2f})")
        print(f"stand-in CPU: {cpu / wall / count * 100:.1f}% of one core per follower ({cpu:.2f} s over {wall:.1f} s)")
    finally:
        await asyncio.gather(instructor.close(), *(f.close() for f in followers))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 30,
                              int(sys.argv[2]) if len(sys.argv) > 2 else 6)))
