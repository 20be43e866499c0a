"""Record every lesson THROUGH THE REAL UI on a GPU box, for ``cudatui demo LESSON --replay``.

Usage (on the GPU box, from the repository root)::

    python scripts/record_demos.py [LESSON ...] [--jobs 4] [--debugger cuda-gdb] [--out kernels/recordings]
    python scripts/record_demos.py --from-tours tests/fixtures/recorded/tours [LESSON ...]

Each lesson runs in its own process: the demo app (:class:`cudatui.tui.demo_app.DemoApp`, live, with
``--record``) is driven headless with Textual's Pilot at 160x48 against the real cuda-gdb. The
scripted path: build the kernels, run to the first stop, switch the focus to the block/thread the
lesson's guide names (else block (1,0,0) thread (7,0,0)), show the warps, registers, shared and
focus panes so their lazy queries run, add the lesson's shared array in the shared-memory pane
(race, tile), add the warp watch ``threadIdx.x * 2``, press ``n`` three
times, ``c`` up to three times, delete the breakpoints and ``c`` until the program exits, then
``q``. The transcript is written gzipped as ``OUT/<lesson>.jsonl.gz`` with a header naming the
GPU, the cuda-gdb version and this script. One lesson failing does not stop the others; the
exit code is 1 when any failed.

``--attach-stops FILE...`` rewrites recordings made before the stops were attached (see
:func:`attach_stops`). ``--from-tours DIR`` packages gdbbridge-level tours (scripts/record_tour.py) instead: the
temporary recordings used until the UI recordings exist.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cudatui.gdbbridge.record.recorder import FORMAT, VERSION  # noqa: E402
from cudatui.kernels.lessons import LESSONS, Lesson, get_lesson  # noqa: E402
from cudatui.tui.demo_plan import RECORDINGS_DIR, DemoPlan, live_config, probe_live  # noqa: E402

SIZE = (160, 48)
WATCH = "threadIdx.x * 2"
DEFAULT_FOCUS = "block (1,0,0) thread (7,0,0)"
LAZY_PANES = ("warps", "registers", "shared", "focus")
SHARED_ARRAYS = {"race": "sdata[256]", "tile": "tile[18][18]"}
"""Shared arrays added in the shared-memory pane (the lesson guides name them)."""
_EXEC = re.compile(r"^\d*-exec-")
_RESULT = re.compile(r"^\d+\^")
_FOCUS_STEP = re.compile(r"switch to ((?:block|warp) .*?(?:thread|lane) (?:\([\d, ]+\)|\d+))")


def guide_focus(lesson: Lesson) -> str:
    """The focus the lesson's guide tells the user to switch to (the recording follows it)."""
    for step in lesson.next_steps:
        match = _FOCUS_STEP.search(step)
        if match:
            return match.group(1)
    return DEFAULT_FOCUS


def attach_stops(entries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Put each step's async output (``*stopped``, ``~``, ``=``, program text) right after the step.

    The replay stand-in gives a command the output that follows it up to the next command; when
    the UI sent other commands while the target ran (the warp watch walking lanes), the step's
    ``*stopped`` was written after those and a replay of the step would never stop. Result
    records stay in place (the stand-in routes them by token). Returns the entries and how many
    steps were fixed.
    """
    fixed: list[dict[str, Any]] = []
    anchor, running, interleaved, count = 0, False, False, 0
    for entry in entries:
        line, kind = entry.get("line", ""), entry.get("dir")
        if kind == "in":
            if _EXEC.match(line):
                running, interleaved = True, False
                fixed.append(entry)
                anchor = len(fixed)
                continue
            interleaved = interleaved or running
        asynchronous = (kind == "out" and not _RESULT.match(line)) or kind == "program"
        if running and interleaved and asynchronous:
            fixed.insert(anchor, entry)
            anchor += 1
        else:
            fixed.append(entry)
            if running and not interleaved and kind != "in":
                anchor = len(fixed)
        if kind == "out" and line.startswith("*stopped") and running:
            count += interleaved
            running = False
    return fixed, count


def write_recording(source: Path, dest: Path, header: dict[str, Any]) -> int:
    """Gzip the transcript ``source`` to ``dest`` (steps' stops attached, see :func:`attach_stops`),
    its meta line extended with ``header``; returns the bytes written."""
    opener = gzip.open if source.read_bytes()[:2] == b"\x1f\x8b" else open
    with opener(source, "rt", encoding="utf-8") as handle:
        entries = [json.loads(line) for line in handle if line.strip()]
    has_meta = bool(entries) and entries[0].get("dir") == "meta"
    first = entries[0] if has_meta else {"t": 0.0, "dir": "meta", "format": FORMAT, "version": VERSION, "argv": []}
    body, fixed = attach_stops(entries[1:] if has_meta else entries)
    meta = {**first, **header}
    if fixed:
        meta["stops_attached"] = meta.get("stops_attached", 0) + fixed
    dest.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(dest, "wt", encoding="utf-8", compresslevel=9) as out:
        for entry in (meta, *body):
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return dest.stat().st_size


class Timer:
    """Prints one line per phase with the time since the start."""

    def __init__(self, lesson: str) -> None:
        self.lesson = lesson
        self.t0 = time.monotonic()

    def say(self, what: str) -> None:
        print(f"{self.lesson:<11} {time.monotonic() - self.t0:7.2f}s  {what}", flush=True)


async def wait_until(pilot: Any, done: Callable[[], bool], timeout: float) -> bool:
    """Poll ``done`` every 0.1 s; False on timeout."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        await pilot.pause(0.1)
    return True


async def drive(lesson: Lesson, raw: Path, debugger: str, timer: Timer, start_timeout: float) -> str:
    """Run the scripted path through the UI; returns how the program ended."""
    from cudatui.tui.demo_app import DemoApp
    from cudatui.tui.panes.warps import WarpsPane

    plan = DemoPlan(lesson, "live", f"recording with {debugger}", live_config(lesson, debugger, str(raw)), build=True)
    app = DemoApp(plan)
    async with app.run_test(size=SIZE) as pilot:

        def phase() -> str:
            return app.debugger.status.phase

        def generation() -> int:
            return app.last_state.generation if app.last_state else 0

        def report(what: str, suffix: str = "") -> None:
            status = app.debugger.status
            timer.say(f"{what}: {status.phase} {status.detail} {status.focus} {status.kernel} {suffix}".rstrip())

        async def settle(before: int, what: str, timeout: float = 60.0) -> None:
            ok = await wait_until(pilot, lambda: generation() > before and phase() in ("stopped", "exited", "dead"), timeout)
            report(what, "" if ok else "(TIMED OUT)")

        async def idle() -> None:
            """Until every worker is done (the warp watch walks lanes after each stop; a step
            sent meanwhile would interleave with it), the NVML sampler excepted."""
            await wait_until(pilot, lambda: all(w.is_finished or w.group == "nvml" for w in app.workers), 30.0)

        async def press(key: str) -> None:
            await idle()
            before = generation()
            await pilot.press(key)
            await settle(before, key)

        if not await wait_until(pilot, lambda: phase() in ("stopped", "exited", "dead"), start_timeout):
            raise RuntimeError(f"no stop within {start_timeout:g} s ({app.debugger.status.detail})")
        report("first stop")
        if app.last_state is not None and app.last_state.in_kernel:
            await app.debugger.switch_focus(guide_focus(lesson))
            report(f"focus {guide_focus(lesson)}")
            for pane in LAZY_PANES:
                app.show_pane(pane)
                await pilot.pause(0.5)
            if lesson.name in SHARED_ARRAYS:
                await add_shared_array(app, pilot, SHARED_ARRAYS[lesson.name])
                await idle()
                report(f"shared array {SHARED_ARRAYS[lesson.name]}")
            warps = app.query_one(WarpsPane)
            warps.watch_expression = WATCH
            await wait_until(pilot, lambda: bool(warps.watch_values or warps.watch_error), 30.0)
            timer.say(f"warp watch {WATCH}: {len(warps.watch_values)} lanes {warps.watch_error}".rstrip())
            for _ in range(3):
                if phase() == "stopped":
                    await press("n")
        for _ in range(3):
            if phase() == "stopped":
                await press("c")
        if phase() == "stopped" and app.last_state is not None:
            await idle()
            for bp in app.last_state.breakpoints:
                await app.debugger.delete_breakpoint(bp.number)
            timer.say("deleted the breakpoints")
        for _ in range(5):
            if phase() == "stopped":
                await press("c")
        ended = f"{phase()} {app.debugger.status.detail}"
        await pilot.press("q")
    return ended


async def add_shared_array(app: Any, pilot: Any, array: str) -> None:
    """Type ``array`` into the shared-memory pane's add field (its ``a`` key), as a user does."""
    from textual.widgets import Input

    from cudatui.tui.panes.shared_memory import SharedMemoryPane

    pane = app.show_pane("shared")
    assert isinstance(pane, SharedMemoryPane)
    pane.action_add()
    await pilot.pause(0.2)
    pane.query_one("#shared-add", Input).value = array
    await pilot.press("enter")
    await pilot.pause(0.5)


def record_one(name: str, out: Path, debugger: str, start_timeout: float) -> int:
    """Record one lesson (runs in its own process); 0 when the recording was written."""
    lesson = get_lesson(name)
    timer = Timer(name)
    raw = out / f".{name}.jsonl"
    try:
        ended = asyncio.run(drive(lesson, raw, debugger, timer, start_timeout))
    except Exception as exc:  # one lesson's failure is reported, the others go on
        timer.say(f"FAILED: {type(exc).__name__}: {exc}")
        return 1
    probe = probe_live()
    header = {
        "lesson": name,
        "recorded_on": probe.gpu or "an unknown GPU",
        "debugger": f"cuda-gdb {probe.version}".strip(),
        "made_with": "scripts/record_demos.py (cudatui demo UI, 160x48)",
        "recorded_at": time.strftime("%Y-%m-%d"),
    }
    size = write_recording(raw, out / f"{name}.jsonl.gz", header)
    raw.unlink()
    timer.say(f"ended {ended}; wrote {out / f'{name}.jsonl.gz'} ({size // 1024} KiB)")
    return 0


def record_all(names: list[str], out: Path, debugger: str, jobs: int, start_timeout: float) -> int:
    """Record each lesson in a child process, ``jobs`` at a time; print a summary."""
    t0 = time.monotonic()

    def child(name: str) -> tuple[str, int, float]:
        started = time.monotonic()
        command = [sys.executable, __file__, "--one", name, "--out", str(out), "--debugger", debugger,
                   "--start-timeout", str(start_timeout)]
        try:
            code = subprocess.run(command, timeout=start_timeout + 240, check=False).returncode
        except subprocess.TimeoutExpired:
            print(f"{name:<11} FAILED: took longer than {start_timeout + 240:g} s", flush=True)
            code = 1
        return name, code, time.monotonic() - started

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(child, names))
    print(f"\n{'lesson':<11} {'result':<8} seconds")
    for name, code, seconds in results:
        print(f"{name:<11} {'ok' if code == 0 else 'FAILED':<8} {seconds:7.1f}")
    print(f"total {time.monotonic() - t0:.1f} s, {jobs} at a time")
    return 1 if any(code for _, code, _ in results) else 0


def from_tours(names: list[str], tours: Path, out: Path) -> int:
    """Package gdbbridge tours (scripts/record_tour.py) as temporary demo recordings."""
    missing = 0
    for name in names:
        source = tours / f"{name}.jsonl"
        if not source.is_file():
            print(f"{name:<11} no tour at {source}: skipped")
            missing += 1
            continue
        gpu = re.search(r"GPU: (.+?) \(torch", source.read_text(encoding="utf-8"))
        header = {
            "lesson": name,
            "recorded_on": gpu.group(1) if gpu else "an unknown GPU",
            "debugger": "cuda-gdb 13.0",
            "made_with": "scripts/record_tour.py (gdbbridge tour, not the UI)",
        }
        size = write_recording(source, out / f"{name}.jsonl.gz", header)
        print(f"{name:<11} {source} -> {out / f'{name}.jsonl.gz'} ({size // 1024} KiB)")
    return 1 if missing == len(names) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lessons to record (default: all)")
    parser.add_argument("--out", type=Path, default=RECORDINGS_DIR, help="where to write <lesson>.jsonl.gz")
    parser.add_argument("--debugger", default="cuda-gdb")
    parser.add_argument("--jobs", type=int, default=4, help="lessons recorded at the same time (default 4)")
    parser.add_argument("--start-timeout", type=float, default=120.0, help="seconds to wait for the first stop")
    parser.add_argument("--from-tours", type=Path, metavar="DIR", help="package record_tour.py tours instead")
    parser.add_argument("--attach-stops", type=Path, nargs="+", metavar="FILE",
                        help="rewrite recordings with each step's stop attached to the step, then exit")
    parser.add_argument("--one", metavar="LESSON", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.attach_stops:
        for path in args.attach_stops:
            print(f"{path}: {write_recording(path, path, {}) // 1024} KiB")
        return 0
    if args.one:
        return record_one(args.one, args.out, args.debugger, args.start_timeout)
    names = args.lessons or [lesson.name for lesson in LESSONS]
    for name in names:
        get_lesson(name)
    if args.from_tours:
        return from_tours(names, args.from_tours, args.out)
    return record_all(names, args.out, args.debugger, max(1, args.jobs), args.start_timeout)


if __name__ == "__main__":
    sys.exit(main())
