"""Stop to screen: from ``*stopped`` arriving to every visible pane painted with the new state.

The real cudatui app (``cudatui.tui.app.DebuggerApp``, at 160x48 and at 80x24) runs a replayed
H200 recording whose recorded ``-exec-next`` steps (each with its recorded refresh batch and the
panes' on-demand queries) are repeated to make STEPS steps. Each step is a pressed ``n``. Three
instants are taken per step: the ``*stopped`` line read from gdb (the Debugger's raw MI line),
``show_state`` called by the app (the refresh batch is done: the MI part), and the last screen
update the compositor rendered before the app went idle (the UI part).

The recording is the lesson's recorded tour (tests/fixtures/recorded/tours/LESSON.jsonl) where
there is one, else its UI recording (kernels/recordings/LESSON.jsonl.gz): the UI recordings walk
their guide's path before their first ``-exec-next``, and the steps synthesized from there get no
new stop yet (see ``recording_path``). The bench counts the ``^error`` answers (a query the
recording lacks is answered ``^error``, which would flatter the figure) and names their commands.

Goal: UI part <= 50 ms median and <= 80 ms p95, at 160x48 and at 80x24.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from textual.widget import Widget

from cudatui.gdbbridge.debugger.events import DebuggerEvent
from cudatui.gdbbridge.session.events import RawLine
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.record.replay import kind_of
from cudatui.gdbbridge.record.transcript import Exchange, load
from cudatui.tui import app as app_module
from cudatui.tui.app import DebuggerApp
from cudatui.gdbbridge.debugger.config import LaunchConfig

from . import ROOT, TOURS, Result, fmt, median, p95, print_results, write_transcript

BENCH = "stop_to_screen"
STEPS = 200
SIZES = ((160, 48), (80, 24))
UI_GOAL_MS = 50.0
UI_P95_GOAL_MS = 80.0
LESSONS = ROOT / "kernels" / "recordings"
_ERROR = re.compile(r"^(\d+)\^error")
_RESULT = re.compile(r"^(\d+)\^")
SETTLE = 0.05
"""Seconds without a screen update after which a step counts as painted."""


def synthesize(tour: Path, steps: int, out: Path) -> Path:
    """The tour up to its first ``-exec-next``, then its recorded next-steps (each with the refresh
    batch that followed it) repeated to ``steps`` steps.

    The tours were recorded with the refresh batch pipelined, so a request's result record may be
    stored after a later request; each result is moved back to the request with its token, which
    the replay stand-in needs to answer requests one by one.
    """
    transcript = load(str(tour))
    exchanges = transcript.exchanges
    nexts = [x.index for x in exchanges if x.command.startswith("-exec-next")]
    if not nexts:
        raise ValueError(f"{tour.name}: no -exec-next recorded")
    outputs = _outputs_by_token(exchanges)
    blocks = []
    for i in nexts:
        end = next((j for j in range(i + 1, len(exchanges)) if kind_of(exchanges[j].key) != "query"), len(exchanges))
        blocks.append(exchanges[i:end])
    entries = [(e.dir, e.line) for e in transcript.prologue]
    chosen = list(exchanges[: nexts[0]]) + [x for k in range(steps) for x in blocks[k % len(blocks)]]
    for x in chosen:
        entries.append(("in", f"{x.token}{x.command}"))
        entries += outputs[x.index]
    return write_transcript(out, entries)


def _outputs_by_token(exchanges: "tuple[Exchange, ...]") -> list[list[tuple[str, str]]]:
    by_token = {x.token: x.index for x in exchanges if x.token}
    outputs: list[list[tuple[str, str]]] = [[] for _ in exchanges]
    for x in exchanges:
        for entry in x.output:
            m = _RESULT.match(entry.line)
            if m and m.group(1) in by_token:
                outputs[by_token[m.group(1)]] += [(entry.dir, entry.line), ("out", "(gdb) ")]
            elif entry.line.strip() != "(gdb)":
                outputs[x.index].append((entry.dir, entry.line))
    return outputs


class TimedApp(DebuggerApp):
    """The debugger app with timestamps at ``*stopped``, ``show_state`` and each screen update."""

    CSS_PATH = str(Path(app_module.__file__).with_name("cudatui.tcss"))

    def __init__(self, config: LaunchConfig) -> None:
        super().__init__(config)
        self.stopped_at: list[float] = []
        self.shown_at: dict[int, float] = {}
        self.painted_at = 0.0
        self.debugger.subscribe(self._on_event)

    def _on_event(self, event: DebuggerEvent) -> None:
        if isinstance(event, RawLine) and event.direction == "out" and event.text.startswith("*stopped"):
            self.stopped_at.append(time.perf_counter())

    def show_state(self, state: StopState) -> None:
        self.shown_at.setdefault(state.generation, time.perf_counter())
        super().show_state(state)

    def _display(self, screen, renderable) -> None:  # type: ignore[no-untyped-def]
        if renderable is not None and not self._batch_count:
            self.painted_at = time.perf_counter()
        super()._display(screen, renderable)


class LayoutTrace:
    """While active: the screen layout passes (count, ms) and which widgets asked for them."""

    def __init__(self) -> None:
        self.passes: list[float] = []
        self.requesters: Counter[str] = Counter()
        self.active = False
        self._refresh = Widget.refresh

    def __enter__(self) -> "LayoutTrace":
        trace, original = self, self._refresh

        def refresh(widget: Widget, *regions: Any, repaint: bool = True, layout: bool = False,
                    recompose: bool = False) -> Widget:
            if layout and trace.active:
                trace.requesters[f"{type(widget).__name__}#{widget.id}"] += 1
            return original(widget, *regions, repaint=repaint, layout=layout, recompose=recompose)

        Widget.refresh = refresh  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        Widget.refresh = self._refresh  # type: ignore[method-assign]

    def watch(self, screen: Any) -> None:
        """Time ``screen``'s layout passes."""
        original = screen._refresh_layout

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                if self.active:
                    self.passes.append((time.perf_counter() - started) * 1000)

        screen._refresh_layout = timed


async def _settled(app: TimedApp, pilot, since: float) -> float:  # type: ignore[no-untyped-def]
    """Wait until no screen update happened for SETTLE seconds; the last update time after ``since``."""
    while True:
        await pilot.pause()
        mark = app.painted_at
        await asyncio.sleep(SETTLE)
        if app.painted_at == mark and not app.screen._dirty_widgets:
            return max(mark, since)


async def _run(transcript: Path, record: Path, steps: int, trace: LayoutTrace,
               size: tuple[int, int]) -> tuple[list[float], list[float], Counter[str]]:
    config = LaunchConfig.replay(transcript, record=str(record), source_dirs=(str(ROOT / "kernels"),))
    app = TimedApp(config)
    mi: list[float] = []
    ui: list[float] = []
    async with app.run_test(size=size) as pilot:
        deadline = time.perf_counter() + 60
        while app.last_state is None:
            if time.perf_counter() > deadline:
                raise RuntimeError("the replayed session never reached its first stop")
            await pilot.pause(0.05)
        await _settled(app, pilot, 0.0)
        trace.watch(app.screen)
        trace.active = True
        for _ in range(steps):
            generation = app.last_state.generation if app.last_state else 0
            stops = len(app.stopped_at)
            await pilot.press("n")
            deadline = time.perf_counter() + 20
            while len(app.stopped_at) == stops or not any(g > generation for g in app.shown_at):
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"step {len(mi) + 1}: no new state within 20 s")
                await asyncio.sleep(0.001)
            stopped = app.stopped_at[stops]
            shown = min(t for g, t in app.shown_at.items() if g > generation)
            painted = await _settled(app, pilot, shown)
            mi.append((shown - stopped) * 1000)
            ui.append((painted - shown) * 1000)
    return mi, ui, _errors(record)


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


def recording_path(tour: str) -> Path:
    """The recorded tour when there is one, else the lesson's UI recording. (The lessons recorded
    again on 2026-12-01 walk their guide's path before their first ``-exec-next``; replayed from
    there, the synthesized steps get no new stop yet: the tours are used until that is fixed.)"""
    recorded = TOURS / f"{tour}.jsonl"
    return recorded if recorded.is_file() else LESSONS / f"{tour}.jsonl.gz"


def measure(quick: bool = False, tour: str = "race", sizes: tuple[tuple[int, int], ...] = SIZES,
            steps: int = STEPS) -> list[Result]:
    """Replay ``tour`` for ``steps`` steps (``quick``: 5) through the app at each of ``sizes``."""
    steps = 5 if quick else steps
    recording = recording_path(tour)
    results: list[Result] = []
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="cudatui-bench-") as tmp:
            transcript = synthesize(recording, steps, Path(tmp) / "steps.jsonl")
            with LayoutTrace() as trace:
                mi, ui, errors = asyncio.run(_run(transcript, Path(tmp) / "record.jsonl", steps, trace, size))
        results += _results(mi, ui, errors, trace, f"{size[0]}x{size[1]}", f"{recording.relative_to(ROOT)}")
    return results


def _results(mi: list[float], ui: list[float], errors: Counter[str], trace: LayoutTrace, size: str,
             recording: str) -> list[Result]:
    total = [a + b for a, b in zip(mi, ui)]
    share = sum(ui) / sum(total) if sum(total) else float("nan")
    layouts = f"{len(trace.passes) / max(1, len(ui)):.1f} layout passes per step, median {fmt(median(trace.passes))} ms each"
    asked = ", ".join(f"{name} x{count / max(1, len(ui)):.0f}" for name, count in trace.requesters.most_common(8))
    where = f"{len(total)} steps of {recording} replayed, {size}"
    failed = ", ".join(f"{name} x{count}" for name, count in errors.most_common(6)) or "none"
    fix = (f"{layouts} (requested by: {asked or 'nobody'}); per step: show_state to every pane, one screen update "
           "over the changed regions and a second one after the on-demand fetches of the visible panes")
    return [
        Result(BENCH, f"stop to screen median {size}", median(total), " ms", f"p95 {fmt(p95(total))} ms; {where}"),
        Result(BENCH, f"MI part median {size}", median(mi), " ms",
               f"p95 {fmt(p95(mi))} ms; {sum(errors.values())} ^error answers in {len(total)} steps: {failed}"),
        Result(BENCH, f"UI part median {size}", median(ui), " ms",
               f"{fmt(median(ui) / UI_GOAL_MS)}x the goal; {layouts}", ("<=", UI_GOAL_MS), fix),
        Result(BENCH, f"UI part p95 {size}", p95(ui), " ms", f"{fmt(p95(ui) / UI_P95_GOAL_MS)}x the goal",
               ("<=", UI_P95_GOAL_MS), fix),
        Result(BENCH, f"UI share of stop to screen {size}", share, "x", f"MI share {fmt(1 - share)}"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stop_to_screen", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 steps (a smoke run)")
    parser.add_argument("--tour", default="race",
                        help="a lesson (its UI recording in kernels/recordings) or a tour in tests/fixtures/recorded/tours")
    parser.add_argument("--steps", type=int, default=STEPS, help=f"steps per size (default {STEPS})")
    parser.add_argument("--size", choices=[f"{w}x{h}" for w, h in SIZES], help="one size only (default: both)")
    args = parser.parse_args(argv)
    if not recording_path(args.tour).is_file():
        parser.error(f"no recorded tour {args.tour!r} in {LESSONS} or {TOURS}")
    sizes = tuple(s for s in SIZES if args.size in (None, f"{s[0]}x{s[1]}"))
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    print_results(measure(args.quick, args.tour, sizes, args.steps))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
