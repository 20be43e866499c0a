"""Stop to screen: from a new stop arriving to every visible pane painted with the new state.

The real cudatui app (``cudatui.tui.apps.debugger_app.DebuggerApp``, at 160x48 and at 80x24) replays each
lesson's H200 recording (kernels/recordings/LESSON.jsonl.gz, made through the app with every
pane shown, so it holds every query the panes send at each stop) and is driven along the
lesson's recorded path by the recorder's own driver (``cudatui.tui.tooling.path_driver``): continue,
next, focus switches, frame selection, ``d`` on a sanitizer finding. Three instants are taken per
step that shows a new state: the ``*stopped`` line read from gdb (the Debugger's raw MI line; a
focus or frame switch has none), ``show_state`` called by the app (the refresh batch is done: the
MI part), and the last screen update the compositor rendered before the app went idle (the UI
part); the garbage collector's runs inside each UI part are timed too (``gc.callbacks``: a full
collection took 90-300 ms here). The bench counts the ``^error`` answers (a query the recording lacks is answered
``^error``, which would flatter the figure) and names their commands.

Goal: UI part <= 50 ms median and <= 80 ms p95, at 160x48 and at 80x24; <= 1.2 layout passes per
step (each lays out every widget on the screen), with the widgets each pass was for.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import gc
import io
import json
import pstats
import re
import tempfile
import time
from collections import Counter
from pathlib import Path


from cudatui.gdbbridge import load
from cudatui.gdbbridge.debugger.events import DebuggerEvent
from cudatui.gdbbridge.record.stop_state import recorded_path
from cudatui.gdbbridge.session.events import RawLine
from cudatui.gdbbridge.models import StopState
from cudatui.kernels.lesson_paths import PathStep
from cudatui.kernels.lessons import LESSONS as LESSON_LIST
from cudatui.tui.apps import debugger_app as app_module
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, read_recording, replay_config
from cudatui.tui.tooling.path_driver import Driver, Reports
from cudatui.gdbbridge.debugger.config import LaunchConfig

from . import Result, fmt, median, p95, print_results
from .layout_trace import LayoutTrace

BENCH = "stop_to_screen"
PASSES = 3
SIZES = ((160, 48), (80, 24))
UI_GOAL_MS = 50.0
UI_P95_GOAL_MS = 80.0
PASSES_GOAL = 1.2
"""Layout passes per step."""
LESSONS = tuple(lesson.name for lesson in LESSON_LIST)
_ERROR = re.compile(r"^(\d+)\^error")
SETTLE = 0.05
"""Seconds without a screen update after which a step counts as painted."""
STEP_TIMEOUT = 60.0
SLOWEST = 8
"""Steps ``--steps`` names as the slowest, per size."""
PROFILE_TOP = 40
"""Functions ``--profile`` prints."""


class TimedApp(DebuggerApp):
    """The debugger app with timestamps at ``*stopped``, ``show_state`` and each screen update."""

    CSS_PATH = str(Path(app_module.__file__).with_name("cudatui.tcss"))

    def __init__(self, config: LaunchConfig) -> None:
        super().__init__(config)
        self.stopped_at: list[float] = []
        self.shown_at: dict[int, float] = {}
        self.painted_at = 0.0
        self.shown_cpu: dict[int, float] = {}
        self.painted_cpu = 0.0
        """``time.thread_time`` at ``show_state`` and at the last screen update: the CPU the app's
        thread spent, which the other processes of a loaded machine do not change as much."""
        self.profiler: cProfile.Profile | None = None
        """Enabled at the first ``show_state`` of a step (``--profile``), disabled once it is painted."""
        self.debugger.subscribe(self._on_event)

    def _on_event(self, event: DebuggerEvent) -> None:
        if isinstance(event, RawLine) and event.direction == "out" and event.text.startswith("*stopped"):
            self.stopped_at.append(time.perf_counter())

    def show_state(self, state: StopState) -> None:
        self.shown_at.setdefault(state.generation, time.perf_counter())
        self.shown_cpu.setdefault(state.generation, time.thread_time())
        if self.profiler is not None:
            self.profiler.enable()  # a no-op when enabled
        super().show_state(state)

    def _display(self, screen, renderable) -> None:  # type: ignore[no-untyped-def]
        if renderable is not None and not self._batch_count:
            self.painted_at, self.painted_cpu = time.perf_counter(), time.thread_time()
        super()._display(screen, renderable)


class Collections:
    """The garbage collector's runs (``gc.callbacks``): when each began and ended, perf_counter seconds."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []
        self._began = 0.0

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._ran)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._ran)

    def _ran(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.spans.append((self._began, time.perf_counter()))

    def within(self, start: float, end: float) -> float:
        """ms the collector ran between ``start`` and ``end``."""
        return sum(max(0.0, min(b, end) - max(a, start)) for a, b in self.spans) * 1000


def _idle(app: TimedApp, driver: Driver) -> bool:
    """No worker but the GPU sampler, nothing in flight, nothing left to lay out or paint."""
    screen = app.screen
    return (driver.idle() and not screen._dirty_widgets and not screen._layout_required
            and not screen._repaint_required)


async def _painted(app: TimedApp, driver: Driver, pilot) -> float:  # type: ignore[no-untyped-def]
    """The time of the last screen update, once the app is idle and stays so across the
    processing of its pending messages."""
    while True:
        await asyncio.sleep(0.001)
        if not _idle(app, driver):
            continue
        mark = app.painted_at
        await pilot.pause()
        if _idle(app, driver) and app.painted_at == mark:
            return mark


class _Log:
    """The driver's log (kept, printed when a walk fails)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, what: str) -> None:
        self.lines.append(what)


@dataclasses.dataclass(frozen=True)
class StepPasses:
    """The layout passes one measured step cost: what each was for."""

    lesson: str
    number: int
    keys: str
    passes: tuple[tuple[str, ...], ...]
    ui: float
    """The step's UI part, ms."""
    gc: float = 0.0
    """ms of it the garbage collector ran."""

    def line(self) -> str:
        causes = "; ".join(", ".join(cause) for cause in self.passes)
        return (f"{self.lesson} step {self.number} ({self.keys}): {fmt(self.ui)} ms (gc {fmt(self.gc)} ms), "
                f"{len(self.passes)} passes: {causes}")


@dataclasses.dataclass
class Walk:
    """What the replayed lesson walks measured, per step that showed a new state."""

    mi: list[float] = dataclasses.field(default_factory=list)
    """ms from ``*stopped`` to ``show_state`` (steps that resumed the program)."""
    by_kind: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    """ms from ``show_state`` to the last screen update before idle (every step with a new
    state), by what the step did (``key c``, ``focus``, ``frame``, ``debug``, ``console``)."""

    cpu: list[float] = dataclasses.field(default_factory=list)
    """CPU ms of the app's thread over the same span as the UI part (the bench's own polling in it)."""
    steps: list[StepPasses] = dataclasses.field(default_factory=list)
    """The layout passes of each measured step."""
    collections: Collections = dataclasses.field(default_factory=Collections)

    @property
    def ui(self) -> list[float]:
        return [part for parts in self.by_kind.values() for part in parts]


async def _walk(recording: Path, record: Path, trace: LayoutTrace, size: tuple[int, int], walk: Walk,
                profiler: cProfile.Profile | None = None) -> None:
    """Replay ``recording`` at ``size`` along its recorded path; time each step that shows a new
    state, into ``walk`` (``profiler``: over the UI part of each step)."""
    steps = tuple(PathStep(step.kind, step.arg, "") for step in recorded_path(load(str(recording))))
    config = dataclasses.replace(replay_config(read_recording(recording)), record=str(record))
    app = TimedApp(config)
    app.animation_level = "none"
    log = _Log()
    async with app.run_test(size=size) as pilot:
        driver = Driver(app, pilot, log, time.monotonic() + 600, Reports())
        trace.watch(app.screen)
        for number, step in enumerate(steps):
            await driver.leave_inputs()  # a user's Escape before the step, not a part of it
            await _painted(app, driver, pilot)
            before, stops = driver.generation(), len(app.stopped_at)
            passes, requesters, causes = len(trace.passes), trace.requesters.copy(), trace.causes.copy()
            trace.active = True
            app.profiler = profiler if step.kind != "start" else None
            note = await driver.do(step, before, STEP_TIMEOUT)
            if note.startswith(("FAILED", "TIMED OUT")):
                raise RuntimeError(f"{recording.name} step {number} ({step.keys}) at {size}: {note}\n"
                                   + "\n".join(log.lines))
            painted = await _painted(app, driver, pilot)
            if profiler is not None:
                profiler.disable()
            trace.active = False
            if step.kind == "start" or driver.generation() == before:  # not measured
                trace.forget(passes, requesters, causes)
                continue
            resumed = app.stopped_at[stops:]
            generation, shown = min(((g, t) for g, t in app.shown_at.items()
                                     if g > before and (not resumed or t >= resumed[-1])), key=lambda gt: gt[1])
            ui = max(painted - shown, 0.0) * 1000  # 0: the new state changed nothing on the screen
            walk.cpu.append(max(app.painted_cpu - app.shown_cpu[generation], 0.0) * 1000 if painted >= shown else 0.0)
            walk.steps.append(StepPasses(recording.name.split(".")[0], number, step.keys,
                                         tuple(trace.pass_causes[passes:]), ui,
                                         walk.collections.within(shown, painted)))
            walk.by_kind.setdefault(f"key {step.arg}" if step.kind == "key" else step.kind, []).append(ui)
            if resumed:
                walk.mi.append((shown - resumed[-1]) * 1000)
        await pilot.press("ctrl+q")


def _errors(record: Path) -> Counter[str]:
    """The commands answered ``^error`` in the session's record (a query the recording lacks
    among them), by their first word, with ``(not recorded)`` where the recording had no answer."""
    asked: dict[str, str] = {}
    errors: Counter[str] = Counter()
    with record.open(encoding="utf-8") as handle:
        for text in handle:
            entry = json.loads(text)
            line = str(entry.get("line", ""))
            if entry.get("dir") == "in":
                m = re.match(r"^(\d+)(\S*)", line)
                if m:
                    asked[m.group(1)] = m.group(2)
            elif entry.get("dir") == "out" and (m := _ERROR.match(line)):
                missing = " (not recorded)" if "not in this recording" in line else ""
                errors[asked.get(m.group(1), "?") + missing] += 1
    return errors


def measure(quick: bool = False, lessons: tuple[str, ...] = LESSONS, sizes: tuple[tuple[int, int], ...] = SIZES,
            passes: int = PASSES, steps: bool = False, profile: str | None = None) -> list[Result]:
    """Walk each of ``lessons`` (``quick``: race, once) ``passes`` times at each of ``sizes``;
    ``steps``: also print each step that cost more than one layout pass, with what each was for,
    and the slowest steps; ``profile``: cProfile the UI parts, the statistics saved to
    ``profile`` (``.WxH`` added per size) and their top functions printed."""
    if quick:
        lessons, passes = ("race",), 1
    results: list[Result] = []
    for size in sizes:
        total, errors = Walk(), Counter[str]()
        profiler = cProfile.Profile() if profile else None
        with LayoutTrace() as trace, total.collections:
            for _ in range(passes):
                for name in lessons:
                    with tempfile.TemporaryDirectory(prefix="cudatui-bench-") as tmp:
                        record = Path(tmp) / "record.jsonl"
                        asyncio.run(_walk(RECORDINGS_DIR / f"{name}.jsonl.gz", record, trace, size, total, profiler))
                        errors += _errors(record)
        where = f"{len(lessons)} lesson recording{'s' if len(lessons) > 1 else ''} x {passes}"
        results += _results(total, errors, trace, f"{size[0]}x{size[1]}", where)
        if steps:
            for step in total.steps:
                if len(step.passes) > 1:
                    print(f"{size[0]}x{size[1]} {step.line()}", flush=True)
            for step in sorted(total.steps, key=lambda s: -s.ui)[:SLOWEST]:
                print(f"{size[0]}x{size[1]} slowest: {step.line()}", flush=True)
        if profiler is not None and profile:
            _print_profile(profiler, f"{profile}.{size[0]}x{size[1]}")
    return results


def _print_profile(profiler: cProfile.Profile, path: str) -> None:
    """Save ``profiler``'s statistics to ``path`` and print the top functions by cumulative time."""
    profiler.dump_stats(path)
    out = io.StringIO()
    pstats.Stats(path, stream=out).sort_stats("cumulative").print_stats(PROFILE_TOP)
    print(f"profile of the UI parts saved to {path}; top {PROFILE_TOP} by cumulative time:")
    print(out.getvalue().split("ncalls", 1)[-1].rstrip(), flush=True)


def _results(walk: Walk, errors: Counter[str], trace: LayoutTrace, size: str, where: str) -> list[Result]:
    ui, mi = walk.ui, walk.mi
    steps = len(ui)
    layouts = trace.summary(steps)
    kinds = ", ".join(f"{kind} x{len(parts)} {fmt(median(parts))} ms"
                      for kind, parts in sorted(walk.by_kind.items(), key=lambda kv: -len(kv[1])))
    what = f"{steps} steps (by kind, with their median: {kinds}) of {where} replayed, {size}"
    failed = ", ".join(f"{name} x{count}" for name, count in errors.most_common(6)) or "none"
    fix = (f"{layouts}; per step: show_state to every pane, one screen update over the changed regions and "
           "a second one after the on-demand fetches of the visible panes")
    by_lesson: dict[str, list[int]] = {}
    for step in walk.steps:
        by_lesson.setdefault(step.lesson, []).append(len(step.passes))
    lessons = ", ".join(f"{lesson} {fmt(sum(counts) / len(counts))} ({len(counts)} steps)"
                        for lesson, counts in by_lesson.items())
    worst = max((sum(counts) / len(counts) for counts in by_lesson.values()), default=0.0)
    return [
        Result(BENCH, f"layout passes per step, worst lesson {size}", worst, " passes",
               f"by lesson: {lessons}", ("<=", PASSES_GOAL),
               "python -m bench.stop_to_screen --steps names each step over one pass and what each pass was for"),
        Result(BENCH, f"MI part median {size}", median(mi), " ms",
               f"p95 {fmt(p95(mi))} ms over the {len(mi)} steps that resumed the program; "
               f"{sum(errors.values())} ^error answers in {steps} steps: {failed}"),
        Result(BENCH, f"UI part median {size}", median(ui), " ms",
               f"{fmt(median(ui) / UI_GOAL_MS)}x the goal; {what}; {layouts}", ("<=", UI_GOAL_MS), fix),
        Result(BENCH, f"UI part p95 {size}", p95(ui), " ms", f"{fmt(p95(ui) / UI_P95_GOAL_MS)}x the goal",
               ("<=", UI_P95_GOAL_MS), fix),
        Result(BENCH, f"UI part CPU median {size}", median(walk.cpu), " ms",
               f"p95 {fmt(p95(walk.cpu))} ms; the app thread's CPU time (time.thread_time) over the UI part, "
               "less moved by other processes than the wall-clock figures"),
        Result(BENCH, f"garbage collection in the UI part {size}", sum(s.gc for s in walk.steps), " ms",
               f"over the {steps} steps ({sum(1 for s in walk.steps if s.gc)} steps had one; the most in one step: "
               f"{fmt(max((s.gc for s in walk.steps), default=0.0))} ms); the app pauses the collector from a key "
               "or a new state until its screen is quiet (tui/apps/collector.py)"),
        Result(BENCH, f"layout passes per step {size}", len(trace.passes) / max(1, steps), " passes",
               f"{fmt(len(trace.passes) / max(1, steps) / PASSES_GOAL)}x the goal; {layouts}", ("<=", PASSES_GOAL),
               "each pass lays out every widget on the screen; a stop should be one"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stop_to_screen", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the race lesson once (a smoke run)")
    parser.add_argument("--lesson", action="append", dest="lessons", metavar="LESSON",
                        help=f"a lesson to walk (repeatable; default: all of {', '.join(LESSONS)})")
    parser.add_argument("--passes", type=int, default=PASSES, help=f"walks of each lesson per size (default {PASSES})")
    parser.add_argument("--steps", action="store_true",
                        help="print each step that cost more than one layout pass, and what each pass was for")
    parser.add_argument("--profile", metavar="PATH",
                        help="cProfile the UI parts; statistics saved to PATH.WxH, top functions printed")
    parser.add_argument("--size", choices=[f"{w}x{h}" for w, h in SIZES], help="one size only (default: both)")
    args = parser.parse_args(argv)
    for name in args.lessons or ():
        if not (RECORDINGS_DIR / f"{name}.jsonl.gz").is_file():
            parser.error(f"no lesson recording {name!r} in {RECORDINGS_DIR} (lessons: {', '.join(LESSONS)})")
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    sizes = tuple(s for s in SIZES if args.size in (None, f"{s[0]}x{s[1]}"))
    print_results(measure(args.quick, tuple(args.lessons or LESSONS), sizes, args.passes, args.steps, args.profile))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
