"""The GPU set: time to the first kernel breakpoint and per-step latency, cudatui vs bare cuda-gdb.

* First breakpoint: gdbbridge (GdbSession: ``-break-insert -f``, ``-exec-run``, ``*stopped``, then
  the first StopState) vs bare ``cuda-gdb -batch -ex 'break X' -ex run --args PROGRAM`` with the
  same breakpoint (timed until it prints that the breakpoint was hit). Goal: <= 1.05x.
* Per step: ``-exec-next`` until ``*stopped`` through GdbSession vs a raw MI pipe to the same
  debugger, same program, same breakpoint, same number of steps.
* Key to screen: the real app (DebuggerApp under Pilot, 160x48) from ``n`` pressed (or a focus
  switch asked, the next thread of the block) until the new stop's one state is painted and the
  app is idle, vs the same command's round trip over the raw MI pipe. Goal: <= 1.2x.

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
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints
from cudatui.gdbbridge.session.gdb import MI_FLAGS, GdbSession
from cudatui.gdbbridge.debugger.state import StateBuilder

from . import Result, fmt, median, print_results, stop_queries

BENCH = "gpu"
HIT = re.compile(r"hit Breakpoint \d+|^Breakpoint \d+, ")
STEP_TIMEOUT = 120.0
SWITCH_TIMEOUT = 20.0
"""A focus switch that shows no new state by then is said and left out (the n rows stand)."""


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


def raw_steps(target: Target, steps: int, switches: bool = True) -> RawTimes:
    """Round trips over a raw MI pipe, each the same MI commands the app sends for that key, all
    independent ones in one write: ``n`` is ``-exec-next`` until ``*stopped``, then the stop's
    batch (:func:`stop_batch`) until its last answer; a focus switch (``steps`` of them, when
    ``switches`` and the program stopped in a kernel) is ``-cuda-focus-switch`` and the batch of a
    focus change (no ``-break-list``, no thread table) written at once, until the last answer.
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
        batch = stop_batch(in_kernel)
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
        switch_batch = [*STOP_BATCH, *CUDA_TABLES]
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


async def app_steps(target: Target, steps: int, record: Path | None = None,
                    ) -> tuple[list[float], list[float], list[float]]:
    """Key to screen in the real app: ``n`` pressed ``steps`` times, then ``steps`` focus switches
    (the Debugger's switch_focus, as the Focus pane's Enter calls it), each until the new state is
    the app's and the app is idle (painted); also, for each ``n``, the seconds until the Debugger
    published the new stop's state (told by its ``StateChanged``, not when ``pilot.press``, which
    waits for the app to settle, came back)."""
    from cudatui.gdbbridge.debugger.config import LaunchConfig
    from cudatui.gdbbridge.debugger.events import StateChanged
    from cudatui.gdbbridge.debugger.status import Phase
    from cudatui.tui.apps.debugger_app import DebuggerApp

    app = DebuggerApp(LaunchConfig(debugger=(target.debugger,), target=target.program, cwd=target.cwd,
                                   breakpoints=(target.location,), record=str(record) if record else None))
    nexts: list[float] = []
    states: list[float] = []
    switches: list[float] = []
    published: list[tuple[float, object]] = []  # (when, the stop) of every state the Debugger published
    app.debugger.subscribe(lambda e: published.append((time.perf_counter(), e.state.stop))
                           if isinstance(e, StateChanged) else None)
    async with app.run_test(size=(160, 48)) as pilot:

        async def until(done: Callable[[], bool], limit: float = STEP_TIMEOUT) -> float:
            """Wait for ``done``, then for the app to be idle; the time ``done`` came true."""
            deadline = time.perf_counter() + limit
            while not done():
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"the app never reached the state asked for ({app.debugger.status.detail})")
                await asyncio.sleep(0.001)
            reached = time.perf_counter()
            await pilot.pause()
            return reached

        def shown_after(generation: int) -> Callable[[], bool]:
            return lambda: (app.debugger.state is not None and app.debugger.state.generation > generation
                            and app.debugger.status.phase is Phase.STOPPED)

        await until(shown_after(0))
        for _ in range(steps):
            assert app.debugger.state is not None
            before, stop, t0 = app.debugger.state.generation, app.debugger.state.stop, time.perf_counter()
            await pilot.press("n")
            await until(shown_after(before))
            if app.debugger.state.stop.exited:
                break
            nexts.append(time.perf_counter() - t0)
            states.append(next(when for when, shown in published if when > t0 and shown is not stop) - t0)
        for thread in range(1, steps + 1):
            assert app.debugger.state is not None
            if app.debugger.state.focus is None:
                break
            before, t0 = app.debugger.state.generation, time.perf_counter()
            request = f"thread ({thread},0,0)"  # in the focused block
            app.spawn(partial(app.debugger.switch_focus, request), "focus")
            try:
                await until(shown_after(before), SWITCH_TIMEOUT)
            except RuntimeError:  # the n rows stand; say what the switch did
                said = [n.message for n in app.notices.entries][-3:] if hasattr(app, "notices") else []
                print(f"bench.gpu: focus switch to {request} showed no new state: {said}", file=sys.stderr)
                break
            switches.append(time.perf_counter() - t0)
        await app.action_quit()
    return nexts, states, switches


def measure(target: Target, rounds: int = 3, steps: int = 3, record: Path | None = None) -> list[Result]:
    """The rows; ``record``: the app's sessions recorded there (ROUND.jsonl each), for
    ``python -m bench.stop_queries`` to say where the time after each stop went."""
    bare, hits, shown, steps_session = [], [], [], []
    raw = RawTimes([], [], [], [], {})
    app_nexts: list[float] = []
    app_states: list[float] = []
    app_switches: list[float] = []
    for round_ in range(rounds):
        bare.append(bare_first_hit(target))
        hit, state, step_times = asyncio.run(session_first_hit(target, steps))
        hits.append(hit)
        shown.append(state)
        steps_session += step_times
        got = raw_steps(target, steps)
        for name in ("next_alone", "next_batch", "switch_alone", "switch_batch"):
            getattr(raw, name).extend(getattr(got, name))
        raw.commands = got.commands
        try:
            nexts, states, switches = asyncio.run(
                app_steps(target, steps, record / f"app{round_ + 1}.jsonl" if record else None))
        except RuntimeError as exc:  # said in the rows' absence, the other rows still printed
            print(f"bench.gpu: key to screen: {exc}", file=sys.stderr)
            continue
        app_nexts += nexts
        app_states += states
        app_switches += switches
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
    for name, app_times, same, alone, what in (
            ("n", app_nexts, raw.next_batch, raw.next_alone, "-exec-next"),
            ("focus switch", app_switches, raw.switch_batch, raw.switch_alone, "-cuda-focus-switch")):
        if app_times and same:
            ma, mr = median(app_times) * 1000, median(same) * 1000
            results.append(Result(BENCH, f"key to screen ({name}): the app / raw MI round trip", ma / mr, "x",
                                  f"app {fmt(ma)} ms (painted, idle) vs raw {fmt(mr)} ms median over "
                                  f"{len(app_times)} and {len(same)}: the same {raw.commands.get(name, 0)} MI "
                                  f"commands as the app's, independent ones in one write", ("<=", 1.2),
                                  "python -m bench.stop_queries on the app's recording (--record) says where the "
                                  "time after the stop went (each query, the host stack, the publication); "
                                  "bench.stop_to_screen splits the UI part"))
        if app_times and alone:
            ma, mr = median(app_times) * 1000, median(alone) * 1000
            results.append(Result(BENCH, f"key to screen ({name}): the app / raw {what} alone", ma / mr, "x",
                                  f"app {fmt(ma)} ms vs raw {fmt(mr)} ms (the command alone, without the "
                                  "queries a stop's screen needs: the issue 29 rows before batch 39)"))
    if app_nexts and app_states and raw.next_batch:
        ms, mr = median(app_states) * 1000, median(raw.next_batch) * 1000
        results.append(Result(BENCH, "key to state (n): the Debugger's new state / raw MI round trip", ms / mr, "x",
                              f"state {fmt(ms)} ms, then painted at {fmt(median(app_nexts) * 1000)} ms; raw "
                              f"{fmt(mr)} ms: the rest of the key-to-screen row is the app's paint"))
    return results


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
