"""The GPU set: time to the first kernel breakpoint and per-step latency, cudatui vs bare cuda-gdb.

* First breakpoint: gdbbridge (GdbSession: ``-break-insert -f``, ``-exec-run``, ``*stopped``, then
  the first StopState) vs bare ``cuda-gdb -batch -ex 'break X' -ex run --args PROGRAM`` with the
  same breakpoint (timed until it prints that the breakpoint was hit). Goal: <= 1.05x.
* Per step: ``-exec-next`` until ``*stopped`` through GdbSession vs a raw MI pipe to the same
  debugger, same program, same breakpoint, same number of steps.
* Key to screen: the real app (DebuggerApp under Pilot, 160x48) from ``n`` taken by the app (or a
  focus switch asked, the next thread of the block) to the last screen update of the new stop
  (:mod:`bench.key_to_screen`), vs the same MI commands' round trip over the raw MI pipe. Goal:
  <= 1.2x. The old measure (from ``pilot.press`` to the app idle after ``pilot.pause()``) is a row
  without goal.

Contenders alternate over ``--rounds``. Run on a GPU box with a bundled lesson::

    python -m bench.gpu --lesson divergence --rounds 3

or anywhere on a C program with GNU gdb (``--debugger gdb --program ./a.out --break f.c:12``).
Results are printed and, when $OUT is set, written to $OUT/bench_gpu.txt.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints
from cudatui.gdbbridge.session.gdb import MI_FLAGS, GdbSession
from cudatui.gdbbridge.debugger.state import StateBuilder

from . import Result, fmt, median, print_results, stop_queries
from .key_to_screen import STEP_TIMEOUT, KeyTimes, app_steps

BENCH = "gpu"
HIT = re.compile(r"hit Breakpoint \d+|^Breakpoint \d+, ")


@dataclass(frozen=True)
class Target:
    """What to debug: ``debugger``, ``program`` argv, ``cwd`` and the breakpoint location."""

    debugger: str
    program: tuple[str, ...]
    cwd: str
    location: str


def bare_first_hit(target: Target) -> float:
    """Seconds until ``DEBUGGER -batch -ex 'break X' -ex run`` prints that the breakpoint was hit."""
    argv = [target.debugger, "-batch", "-nx", "-ex", "set breakpoint pending on", "-ex", f"break {target.location}",
            "-ex", "run", "--args", *target.program]
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=target.cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True, errors="replace")
    assert proc.stdout is not None
    hit = None
    said: collections.deque[str] = collections.deque(maxlen=25)
    for line in proc.stdout:
        said.append(line.rstrip())
        if hit is None and HIT.search(line):
            hit = time.perf_counter() - started
    proc.wait()
    if hit is None:
        raise RuntimeError(f"bare {target.debugger} never reported hitting {target.location} (exit {proc.returncode}); "
                           "it said last:\n  " + "\n  ".join(said))
    return hit


async def session_first_hit(target: Target, steps: int) -> tuple[float, float, list[float]]:
    """Seconds to ``*stopped`` and to the first StopState through gdbbridge; then ``steps`` step times."""
    started = time.perf_counter()
    session = GdbSession([target.debugger], target.program, cwd=target.cwd)
    stops = session.queue()
    try:
        await session.start()
        await Breakpoints(session).insert(target.location, None)
        await session.command("-exec-run")
        stop = await _next_stop(stops)
        hit = time.perf_counter() - started
        await StateBuilder(session).refresh(stop.stop)
        shown = time.perf_counter() - started
        step_times = []
        for _ in range(steps):
            t0 = time.perf_counter()
            await session.command("-exec-next")
            if (await _next_stop(stops)).stop.exited:
                break
            step_times.append(time.perf_counter() - t0)
    finally:
        await session.close()
    return hit, shown, step_times


async def _next_stop(stops: asyncio.Queue[ev.Event]) -> ev.Stopped:
    while True:
        event = await asyncio.wait_for(stops.get(), STEP_TIMEOUT)
        if isinstance(event, ev.Stopped):
            return event


STOP_BATCH = ("-stack-list-frames", "-stack-list-variables --simple-values",
              "-data-list-register-values --skip-unavailable x")
"""What the Debugger asks at every stop (gdbbridge/debugger/state.py), in its order."""
CUDA_TABLES = tuple(f"-cuda-info-{what}" for what in ("devices", "sms", "kernels", "warps", "lanes"))
"""...and in a kernel; at a new stop also ``-break-list`` before them and ``-cuda-info-threads`` after."""


def stop_batch(in_kernel: bool) -> list[str]:
    """The MI commands the Debugger sends to build a new stop's state."""
    return [*STOP_BATCH, "-break-list", *(CUDA_TABLES + ("-cuda-info-threads",) if in_kernel else ())]


@dataclass
class RawTimes:
    """Round trips over the raw pipe: ``-exec-next`` alone, ``-exec-next`` and the stop's batch
    (the same MI commands the app sends for ``n``), a focus switch and its batch."""

    next_alone: list[float]
    next_batch: list[float]
    switch_alone: list[float]
    switch_batch: list[float]
    commands: dict[str, int]


def raw_steps(target: Target, steps: int, switches: bool = True, app_next: tuple[str, ...] = (),
              app_switch: tuple[str, ...] = ()) -> RawTimes:
    """Round trips over a raw MI pipe, each the same MI commands the app sends for that key, all
    independent ones in one write: ``n`` is ``-exec-next`` until ``*stopped``, then the stop's
    batch until its last answer; a focus switch (``steps`` of them, when ``switches`` and the
    program stopped in a kernel) is ``-cuda-focus-switch`` and the batch of a focus change written
    at once, until the last answer. The batches are what the app sent for its first such key until
    its screen showed it (``app_next``, ``app_switch``: :class:`bench.key_to_screen.KeyTimes`'s
    commands), else what the Debugger asks with every pane shown (:func:`stop_batch`).
    ``-exec-next`` and the focus switch alone are timed too (to ``*stopped``, to the switch's answer)."""
    proc = subprocess.Popen([target.debugger, *MI_FLAGS, "--args", *target.program], cwd=target.cwd,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    stdout = proc.stdout  # buffered: a 10 KB answer line is read in a few reads, not one byte a read

    def write(text: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(text.encode())
        proc.stdin.flush()

    token = iter(range(1000, 10**9))

    def until_stopped() -> bytes:
        while line := stdout.readline():
            if line.startswith(b"*stopped"):
                return line
        raise RuntimeError("the debugger closed its output")

    def round_trip(commands: list[str]) -> tuple[float, bool]:
        """Write ``commands`` at once; seconds until the first and the last is answered, and
        whether every one was done."""
        tokens = [next(token) for _ in commands]
        write("".join(f"{t}{c}\n" for t, c in zip(tokens, commands)))
        left, first, ok = {str(t).encode() for t in tokens}, None, True
        while left and (line := stdout.readline()):
            head = line.split(b"^", 1)[0]
            if b"^" in line and head in left:
                left.discard(head)
                ok = ok and line.startswith(head + b"^done")
                first = first if first is not None else time.perf_counter()
        if left:
            raise RuntimeError("the debugger closed its output")
        return first or time.perf_counter(), ok

    times = RawTimes([], [], [], [], {})
    try:
        write(f'-break-insert -f "{target.location}"\n-exec-run\n')
        in_kernel = b"CudaFocus" in until_stopped()
        batch = [c for c in app_next if not c.startswith("-exec-next")] or stop_batch(in_kernel)
        times.commands = {"n": 1 + len(batch)}
        for _ in range(steps):
            t0 = time.perf_counter()
            write("-exec-next\n")
            stopped = until_stopped()
            if b'reason="exited' in stopped:
                break
            times.next_alone.append(time.perf_counter() - t0)
            round_trip(batch)
            times.next_batch.append(time.perf_counter() - t0)
        switch_batch = [c for c in app_switch if not c.startswith("-cuda-focus-switch")] or [*STOP_BATCH, *CUDA_TABLES]
        times.commands["focus switch"] = 1 + len(switch_batch)
        for thread in range(1, steps + 1) if switches and in_kernel else ():
            t0 = time.perf_counter()
            answered, ok = round_trip([f'-cuda-focus-switch "thread ({thread},0,0)"', *switch_batch])
            if ok:
                times.switch_alone.append(answered - t0)
                times.switch_batch.append(time.perf_counter() - t0)
        return times
    finally:
        write("-gdb-exit\n")
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def measure(target: Target, rounds: int = 3, steps: int = 3, record: Path | None = None) -> list[Result]:
    """The rows; ``record``: the app's sessions recorded there (ROUND.jsonl each), for
    ``python -m bench.stop_queries`` to say where the time after each stop went."""
    bare, hits, shown, steps_session = [], [], [], []
    raw = RawTimes([], [], [], [], {})
    nexts, switches = KeyTimes(), KeyTimes()
    for round_ in range(rounds):
        bare.append(bare_first_hit(target))
        hit, state, step_times = asyncio.run(session_first_hit(target, steps))
        hits.append(hit)
        shown.append(state)
        steps_session += step_times
        try:
            got_n, got_switch = asyncio.run(app_steps(target.debugger, target.program, target.cwd, target.location, steps,
                                                      record / f"app{round_ + 1}.jsonl" if record else None))
            nexts.extend(got_n)
            switches.extend(got_switch)
        except RuntimeError as exc:  # said in the rows' absence, the other rows still printed
            print(f"bench.gpu: key to screen: {exc}", file=sys.stderr)
        got = raw_steps(target, steps, app_next=nexts.commands, app_switch=switches.commands)
        for name in ("next_alone", "next_batch", "switch_alone", "switch_batch"):
            getattr(raw, name).extend(getattr(got, name))
        raw.commands = got.commands
    b, h, s = median(bare), median(hits), median(shown)
    where = f"{Path(target.debugger).name}, break {target.location}, {rounds} rounds"
    results = [
        Result(BENCH, "first breakpoint: gdbbridge *stopped / bare -batch", h / b, "x",
               f"gdbbridge {fmt(h)} s vs bare {fmt(b)} s; {where}", ("<=", 1.05),
               "gdbbridge starts the debugger with a pty for the program and mi-async; compare the MI "
               "transcript's marks to the bare run to see which command costs the difference"),
        Result(BENCH, "first breakpoint: first StopState shown / bare -batch", s / b, "x",
               f"StopState at {fmt(s)} s (refresh batch {fmt((s - h) * 1000)} ms)"),
    ]
    if steps_session and raw.next_alone:
        ms, mr = median(steps_session) * 1000, median(raw.next_alone) * 1000
        results.append(Result(BENCH, "step (-exec-next): GdbSession / raw MI pipe", ms / mr, "x",
                              f"GdbSession {fmt(ms)} ms vs raw {fmt(mr)} ms median over {len(steps_session)} "
                              f"and {len(raw.next_alone)} steps"))
    for name, times, same, alone, what in (
            ("n", nexts, raw.next_batch, raw.next_alone, "-exec-next"),
            ("focus switch", switches, raw.switch_batch, raw.switch_alone, "-cuda-focus-switch")):
        results += key_rows(name, times, same, alone, what, raw.commands.get(name, 0))
    return results


def key_rows(name: str, times: KeyTimes, same: list[float], alone: list[float], what: str, commands: int,
             ) -> list[Result]:
    """The rows of one key: to the screen against the raw round trip of the same commands (the
    goal), against the command alone, the old measure (to the app idle), and to the state."""
    rows: list[Result] = []
    if not times.screen:
        return rows
    ma, queued = median(times.screen) * 1000, median(times.queued) * 1000 if times.queued else 0.0
    start = "key taken" if times.queued else "switch_focus called"
    sent = ", ".join(c.split(" ", 1)[0] for c in times.commands)
    if same:
        mr = median(same) * 1000
        rows.append(Result(BENCH, f"key to screen ({name}): the app / raw MI round trip", ma / mr, "x",
                           f"app {fmt(ma)} ms ({start} -> last screen update of the stop) vs raw {fmt(mr)} ms median "
                           f"over {len(times.screen)} and {len(same)}: the same {commands} MI commands as the app's "
                           f"({sent}), independent ones in one write", ("<=", 1.2),
                           "python -m bench.stop_queries on the app's recording (--record) says where the time after "
                           "the stop went (each query, the host stack, the publication); bench.stop_to_screen splits "
                           "the UI part"))
    if alone:
        mr = median(alone) * 1000
        rows.append(Result(BENCH, f"key to screen ({name}): the app / raw {what} alone", ma / mr, "x",
                           f"app {fmt(ma)} ms vs raw {fmt(mr)} ms (the command alone, without the queries a stop's "
                           "screen needs: the issue 29 rows before batch 39)"))
    if times.idle and same:
        mi, mr = median(times.idle) * 1000, median(same) * 1000
        rows.append(Result(BENCH, f"key to idle ({name}, the batch 39 measure): the app / raw MI round trip", mi / mr,
                           "x", f"app {fmt(mi)} ms (pilot.press sent -> app idle after pilot.pause(), which waits for "
                           f"every Pilot wait) vs raw {fmt(mr)} ms; the key waited {fmt(queued)} ms in the app's queue"))
    if times.state and same:
        ms, mr = median(times.state) * 1000, median(same) * 1000
        rows.append(Result(BENCH, f"key to state ({name}): the Debugger's new state / raw MI round trip", ms / mr, "x",
                           f"state {fmt(ms)} ms, then the screen at {fmt(ma)} ms; raw {fmt(mr)} ms: the rest of the "
                           "key-to-screen row is the app's paint"))
    if times.written:
        mw = median(times.written) * 1000
        rows.append(Result(BENCH, f"{start} to the command written ({name})", mw, " ms",
                           f"median over {len(times.written)}: the app's and the Debugger's part before gdb has the "
                           f"command (of the {fmt(ma)} ms to the screen)"))
    return rows


def lesson_target(name: str, debugger: str) -> Target:
    """A bundled lesson's demo under ``debugger``, broken at its first unconditional breakpoint."""
    from cudatui.kernels.lessons import get_lesson

    lesson = get_lesson(name)
    location = next((loc for loc, cond in lesson.breakpoint_specs() if not cond), None)
    if location is None:
        raise ValueError(f"lesson {name} suggests no unconditional breakpoint")
    return Target(debugger, (sys.executable, str(lesson.demo_path)), str(lesson.source.parent), location)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gpu", description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="divergence", help="bundled lesson to debug (default: divergence)")
    parser.add_argument("--debugger", default="cuda-gdb")
    parser.add_argument("--program", help="debug this executable instead of a lesson (needs --break)")
    parser.add_argument("--break", dest="location", help="breakpoint location for --program")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--record", type=Path, help="record the app's sessions into this folder (appN.jsonl) and "
                        "print where the time after each stop went (bench.stop_queries); default: $OUT/app_sessions "
                        "when $OUT is set")
    args = parser.parse_args(argv)
    out = os.environ.get("OUT")
    record = args.record or (Path(out, "app_sessions") if out else None)
    debugger = shutil.which(args.debugger)
    if debugger is None:
        print(f"bench.gpu: debugger {args.debugger!r} not found on PATH", file=sys.stderr)
        return 2
    try:
        if args.program:
            if not args.location:
                parser.error("--program needs --break LOCATION")
            program = os.path.abspath(args.program)
            target = Target(debugger, (program,), os.path.dirname(program), args.location)
        else:
            target = lesson_target(args.lesson, debugger)
        if record is not None:
            record.mkdir(parents=True, exist_ok=True)
        results = measure(target, max(1, args.rounds), max(0, args.steps), record)
    except (RuntimeError, ValueError, OSError, asyncio.TimeoutError) as exc:
        print(f"bench.gpu: {exc or type(exc).__name__}", file=sys.stderr)
        return 1
    print_results(results)
    for recording in sorted(record.glob("app*.jsonl")) if record is not None else ():
        stop_queries.main([str(recording)])
    if out:
        Path(out, "bench_gpu.txt").write_text("\n".join(r.line() for r in results) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
