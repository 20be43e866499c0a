"""Record every lesson THROUGH THE REAL UI on a GPU box, for ``cudatui demo LESSON --replay``.

Usage (on the GPU box, from the repository root)::

    PYTHONPATH=/tmp/site:$PWD python3 scripts/record_demos.py --out kernels/recordings.new [LESSON ...]
        [--jobs 4] [--debugger cuda-gdb] [--lesson-timeout 180]

Each lesson runs in its own process (``--jobs`` at a time): its kernels are built, its sanitizer
runs (:func:`cudatui.kernels.lesson_paths.sanitizer_tools`) start in the background with
``--xml --save``, and the demo app (:class:`cudatui.tui.apps.demo_app.DemoApp`, live, recording with
cudatui's own ``--record``) is driven headless with Textual's Pilot at 160x48 against the real
debugger along the lesson's recorded path (:mod:`cudatui.kernels.lesson_paths`), key by key,
waiting before each key until the UI is idle (no worker, no Debugger call in flight). While it
runs, each GPU sample the GPU pane shows is written into the session as the virtual
``-cudatui-gpu-sample`` exchange, each step's end as ``-cudatui-path-step`` (the Debugger itself
writes ``-cudatui-stop-state`` for every state it publishes). A ``sanitize`` step shows the saved
report in the Sanitize pane; ``debug`` is ``d`` on its first finding with a source line.

Written into OUT (nothing is edited afterwards; the transcript is gzipped with its header line
extended by lesson, recorded_on, debugger, made_with, recorded_at)::

    LESSON.jsonl.gz          the recording
    LESSON.TOOL.xml.gz       each sanitizer run's saved XML report
    LESSON.steps.json        the step log: each step's keys, seconds, the stop it shows, errors
    LESSON.log               what the lesson's process printed
    summary.txt              one line per lesson and the total

One lesson failing or passing its time limit (its whole process group is killed) does not
stop the others; the exit code is 1 when any failed.

``--debugger gdb --program PROG [--break LOC] --steps FILE.json --name NAME`` drives the plain
debugger app over a CPU program along the steps in FILE.json (a list of ``[kind, arg]``): the
same driving code, for testing it without a GPU.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cudatui.gdbbridge.session.recorder import FORMAT, VERSION  # noqa: E402
from cudatui.kernels.lesson_paths import PathStep, lesson_path, sanitizer_tools  # noqa: E402
from cudatui.tui.tooling.path_driver import Reports, StepLog, drive_app  # noqa: E402
from cudatui.kernels.lessons import KERNELS_DIR, LESSONS, get_lesson, sanitizer_options  # noqa: E402

MADE_WITH = "scripts/record_demos.py (cudatui demo UI driven by Pilot, 160x48)"


class Timer:
    """Prints one line per event with the time since the start."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.t0 = time.monotonic()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def say(self, what: str) -> None:
        print(f"{self.name:<11} {self.elapsed:7.2f}s  {what}", flush=True)


async def run_sanitizer(tool: str, program: list[str], cwd: Path, xml: Path, log: Path, timer: Timer) -> Path:
    """Run ``tool`` on ``program`` with ``--xml --save xml``; the XML path once it was written."""
    command = ["compute-sanitizer", *sanitizer_options(tool), "--print-limit", "20", "--xml", "--save", str(xml),
               *program]
    timer.say(f"{tool}: started")
    with open(log, "wb") as out:
        proc = await asyncio.create_subprocess_exec(*command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out,
                                                    stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = await proc.wait()
        except asyncio.CancelledError:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    timer.say(f"{tool}: exit {code}, {xml.stat().st_size if xml.exists() else 0} bytes of XML")
    if not xml.exists() or not xml.stat().st_size:
        raise RuntimeError(f"{tool} wrote no XML report (exit {code}; see {log.name})")
    return xml


def package(raw: Path, dest: Path, header: dict[str, Any]) -> int:
    """Gzip the transcript ``raw`` to ``dest``, its first header line extended with ``header``
    (every other line as written); the bytes written."""
    lines = raw.read_text(encoding="utf-8", errors="surrogateescape").splitlines(keepends=True)
    first = json.loads(lines[0]) if lines else {}
    if first.get("dir") == "meta":
        lines[0] = json.dumps({**first, **header}, ensure_ascii=False) + "\n"
    else:
        lines.insert(0, json.dumps({"t": 0.0, "dir": "meta", "format": FORMAT, "version": VERSION, **header}) + "\n")
    with gzip.open(dest, "wt", encoding="utf-8", errors="surrogateescape", compresslevel=9) as out:
        out.writelines(lines)
    return dest.stat().st_size


def gpu_header(debugger: str) -> dict[str, str]:
    """recorded_on and debugger for the header (the GPU's name, the debugger's version)."""
    from cudatui.tui.plans.demo_plan import probe_live

    try:
        if os.path.basename(debugger) != "cuda-gdb":
            version = subprocess.run([debugger, "--version"], capture_output=True, text=True, check=False,
                                     timeout=30).stdout
            return {"recorded_on": "a CPU", "debugger": (version.splitlines() or [debugger])[0]}
        probe = probe_live()
        return {"recorded_on": probe.gpu or "an unknown GPU", "debugger": f"cuda-gdb {probe.version}".strip()}
    except (OSError, subprocess.SubprocessError) as exc:
        return {"recorded_on": "an unknown GPU", "debugger": f"{debugger} ({exc})"}


def finish(name: str, out: Path, raw: Path, log: list[StepLog], timer: Timer, header: dict[str, Any]) -> int:
    """Package the recording and write the step log; 0 when every step went as planned."""
    failed = [s for s in log if not s.ok]
    (out / f"{name}.steps.json").write_text(json.dumps(
        {"lesson": name, "seconds": round(timer.elapsed, 1), "steps": [asdict(s) for s in log]}, indent=1) + "\n")
    if not raw.exists() or not raw.stat().st_size:
        timer.say("FAILED: nothing was recorded")
        return 1
    size = package(raw, out / f"{name}.jsonl.gz", {**header, "recorded_at": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                                           time.gmtime())})
    raw.unlink()
    timer.say(f"wrote {out / f'{name}.jsonl.gz'} ({size // 1024} KiB); {len(log) - len(failed)}/{len(log)} steps ok"
              + "".join(f"; step {s.number} {s.keys}: {s.note}" for s in failed))
    return 1 if failed else 0


def record_lesson(name: str, out: Path, debugger: str, limit: float, start_timeout: float) -> int:
    """Record one lesson (in its own process); 0 when the recording was written and every step went."""
    from cudatui.kernels.build import build_lesson
    from cudatui.tui.apps.demo_app import DemoApp
    from cudatui.tui.plans.demo_plan import DemoPlan, live_config

    timer = Timer(name)
    deadline = time.monotonic() + limit
    lesson = get_lesson(name)
    raw = out / f".{name}.jsonl"
    raw.unlink(missing_ok=True)
    header = {"lesson": name, **gpu_header(debugger), "made_with": MADE_WITH}
    scratch = Path(tempfile.mkdtemp(prefix=f"record-{name}-"))
    log: list[StepLog] = []
    saved: list[Path] = []
    """The reports of the sanitizer runs that ended (a run cancelled at the end leaves none)."""

    async def main() -> None:
        nonlocal log
        library = await asyncio.to_thread(build_lesson, name)
        timer.say(f"built {library}")
        reports = Reports()
        program = [sys.executable, str(lesson.demo_path)]
        for tool in sanitizer_tools(name):
            reports.tasks[tool] = asyncio.get_running_loop().create_task(run_sanitizer(
                tool, program, KERNELS_DIR, scratch / f"{name}.{tool}.xml", out / f"{name}.{tool}.log", timer))
        plan = DemoPlan(lesson, "live", f"recording with {debugger}", live_config(lesson, debugger, str(raw)),
                        build=True)
        try:
            log = await drive_app(DemoApp(plan), lesson_path(name), timer, deadline, reports, start_timeout)
        finally:
            for task in reports.tasks.values():
                task.cancel()
            for result in await asyncio.gather(*reports.tasks.values(), return_exceptions=True):
                if isinstance(result, Path):
                    saved.append(result)
                elif not isinstance(result, asyncio.CancelledError):
                    timer.say(f"a sanitizer run failed: {result}")

    try:
        asyncio.run(main())
    except Exception as exc:  # the lesson failed; what was recorded is still packaged
        timer.say(f"FAILED: {type(exc).__name__}: {exc}")
        log.append(StepLog(len(log), "(lesson)", ok=False, note=f"FAILED: {type(exc).__name__}: {exc}"))
    for xml in saved:
        with open(xml, "rb") as src, gzip.open(out / f"{xml.name}.gz", "wb", compresslevel=9) as dst:
            shutil.copyfileobj(src, dst)
        timer.say(f"wrote {out / (xml.name + '.gz')}")
    shutil.rmtree(scratch, ignore_errors=True)
    return finish(name, out, raw, log, timer, header)


def record_program(args: argparse.Namespace) -> int:
    """``--program``: drive the plain debugger app over a CPU program (tests the driving without a GPU)."""
    from cudatui.gdbbridge import LaunchConfig
    from cudatui.tui.apps.debugger_app import DebuggerApp

    steps = tuple(PathStep(kind, arg, "") for kind, arg in json.loads(Path(args.steps).read_text()))
    timer = Timer(args.name)
    raw = args.out / f".{args.name}.jsonl"
    program = Path(args.program).resolve()
    config = LaunchConfig(debugger=(args.debugger,), target=(str(program),), breakpoints=tuple(args.breaks),
                          record=str(raw), cwd=str(program.parent), source_dirs=(str(program.parent),))
    log: list[StepLog] = []
    try:
        log = asyncio.run(drive_app(DebuggerApp(config), steps, timer, time.monotonic() + args.lesson_timeout,
                                    Reports(), args.start_timeout))
    except Exception as exc:
        timer.say(f"FAILED: {type(exc).__name__}: {exc}")
        log.append(StepLog(len(log), "(program)", ok=False, note=f"FAILED: {type(exc).__name__}: {exc}"))
    header = {"lesson": args.name, **gpu_header(args.debugger), "made_with": MADE_WITH.replace("demo UI", "debugger UI") + " --program"}
    return finish(args.name, args.out, raw, log, timer, header)


def record_all(names: list[str], out: Path, debugger: str, jobs: int, limit: float, start_timeout: float) -> int:
    """Record each lesson in a child process (its own process group), ``jobs`` at a time."""
    t0 = time.monotonic()

    def child(name: str) -> tuple[str, str, float]:
        started = time.monotonic()
        command = [sys.executable, __file__, "--one", name, "--out", str(out), "--debugger", debugger,
                   "--lesson-timeout", str(limit), "--start-timeout", str(start_timeout)]
        with open(out / f"{name}.log", "wb") as log:
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
            assert proc.stdout is not None
            reader = ThreadPoolExecutor(max_workers=1).submit(_copy, proc.stdout, log)
            try:
                code = proc.wait(timeout=limit + 30)
                result = "ok" if code == 0 else "steps failed" if (out / f"{name}.jsonl.gz").exists() else "FAILED"
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                result = f"FAILED: killed after {limit + 30:g} s"
                print(f"{name:<11} {result}", flush=True)
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # whatever the lesson left behind (cuda-gdb, a sanitizer)
            except ProcessLookupError:
                pass
            try:
                reader.result(timeout=30)
            except TimeoutError:  # something the lesson started still holds its output: not waited for
                print(f"{name:<11} (its output stayed open after it ended)", flush=True)
        return name, result, time.monotonic() - started

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(child, names))
    lines = [f"{'lesson':<11} {'result':<14} seconds"]
    lines += [f"{name:<11} {result:<14} {seconds:7.1f}" for name, result, seconds in results]
    lines.append(f"total {time.monotonic() - t0:.1f} s, {jobs} at a time, into {out}")
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n" + "\n".join(lines), flush=True)
    return 0 if all(result == "ok" for _, result, _ in results) else 1


def _copy(stream: Any, log: Any) -> None:
    """The child's output to the console and to its log, line by line."""
    for line in iter(stream.readline, b""):
        log.write(line)
        log.flush()
        sys.stdout.buffer.write(line)
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lessons to record (default: all)")
    parser.add_argument("--out", type=Path, required=True, help="where to write (a new folder, e.g. kernels/recordings.new)")
    parser.add_argument("--debugger", default="cuda-gdb")
    parser.add_argument("--jobs", type=int, default=4, help="lessons recorded at the same time (default 4)")
    parser.add_argument("--lesson-timeout", type=float, default=180.0, help="seconds one lesson may take (default 180)")
    parser.add_argument("--start-timeout", type=float, default=90.0, help="seconds to wait for the first stop")
    parser.add_argument("--program", help="drive the debugger app over this CPU program instead (tests)")
    parser.add_argument("--break", dest="breaks", action="append", default=[], help="with --program: a breakpoint")
    parser.add_argument("--steps", help="with --program: a JSON list of [kind, arg] steps")
    parser.add_argument("--name", default="program", help="with --program: the output's base name")
    parser.add_argument("--one", metavar="LESSON", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.program:
        if not args.steps:
            parser.error("--program needs --steps")
        return record_program(args)
    if args.one:
        return record_lesson(args.one, args.out, args.debugger, args.lesson_timeout, args.start_timeout)
    names = args.lessons or [lesson.name for lesson in LESSONS]
    for name in names:
        get_lesson(name)
    return record_all(names, args.out, args.debugger, max(1, args.jobs), args.lesson_timeout, args.start_timeout)


if __name__ == "__main__":
    sys.exit(main())
