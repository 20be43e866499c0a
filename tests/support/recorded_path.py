"""Recordings and the path each was made along: which recordings are packaged, which of them were
recorded before stop states were written, and the replay of a recording along its path."""

from __future__ import annotations

import time
from pathlib import Path

from cudatui.gdbbridge import load
from cudatui.gdbbridge.record.stop_state import RecordedStep, recorded_path, summarize
from cudatui.kernels.lesson_paths import PathStep, lesson_path
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, read_meta, read_recording, replay_config
from cudatui.tui.tooling.path_driver import SIZE, Driver, Reports

from .paths import RECORDED

OLD = "recorded before stop states were written"
"""Why a recording has no stop states to compare with."""

BEFORE_STOP_STATES = "scripts/record_demos.py (cudatui demo UI, 160x48)"
"""The ``made_with`` of the lesson recordings made before stop states were written (the lead
replaces them with new ones made by scripts/record_demos.py; a new one without stop states fails)."""

OLD_FIXTURES = {
    "bridge_kernel_launch.jsonl", "panes_tile.jsonl", "ui_race_160x48.jsonl",
    "finding_assert.jsonl.gz", "finding_native_core.jsonl.gz", "finding_native_exception.jsonl.gz",
    "finding_native_handoff.jsonl.gz", "finding_oob.jsonl.gz", "finding_uninit.jsonl.gz",
    "attach.jsonl", "ext_oob.jsonl", "torch_index.jsonl", "torch_index_blocking.jsonl", "triton_fault.jsonl",
    "ui_torch_index.jsonl", "ui_triton_fault.jsonl", "ui_divergence_v1.jsonl.gz",
    "assert.jsonl", "divergence.jsonl", "oob.jsonl", "race.jsonl", "tile.jsonl", "uninit.jsonl",
}
"""tests/fixtures/recorded recordings made before stop states were written, by name."""


def packaged_recordings() -> list[Path]:
    """Every recording shipped with cudatui or its tests."""
    lessons = sorted(RECORDINGS_DIR.glob("*.jsonl.gz"))
    fixtures = sorted(p for p in RECORDED.rglob("*") if p.name.endswith((".jsonl", ".jsonl.gz")))
    return lessons + fixtures


def why_old(path: Path) -> str | None:
    """Why ``path`` cannot be compared (recorded before stop states), or None when it must be."""
    if path.parent == RECORDINGS_DIR:
        return OLD if read_meta(path).get("made_with") == BEFORE_STOP_STATES else None
    return OLD if path.name in OLD_FIXTURES else None


BY_ITS_TEST = ("recorded through the UI by its own GPU script or test, not along a lesson path: its own replay test "
               "checks it (tests/app/test_own_programs_replay.py, test_jobs_replay.py, test_vars_replay.py, "
               "test_bp_threads_replay.py)")


def why_no_path(path: Path) -> str | None:
    """Why a fixture that holds live stop states but no recorded path is not replayed along one
    (a lesson recording always has its path), or None."""
    if path.parent == RECORDINGS_DIR:
        return None
    keys = {x.key[:1] for x in load(str(path)).exchanges}
    return BY_ITS_TEST if ("-cudatui-stop-state",) in keys and ("-cudatui-path-step",) not in keys else None


def path_of(path: Path) -> tuple[RecordedStep, ...]:
    """The recorded path of the recording at ``path`` (session 1)."""
    return recorded_path(load(str(path)))


def awaits_rerecording(lesson: str) -> bool:
    """Whether lesson's packaged recording was made along an older path than its lesson's (the
    lesson changed since: its claims, breakpoints and path await a re-recording on a GPU box)."""
    recorded = path_of(RECORDINGS_DIR / f"{lesson}.jsonl.gz")
    return [(s.kind, s.arg) for s in recorded] != [(s.kind, s.arg) for s in lesson_path(lesson)]


def steps_of(recorded: tuple[RecordedStep, ...]) -> tuple[PathStep, ...]:
    return tuple(PathStep(step.kind, step.arg, "") for step in recorded)


def replay_app_config(path: Path):
    """The launch of a replay of ``path``, as ``cudatui demo``/``cudatui replay`` makes it."""
    return replay_config(read_recording(path))


class Quiet:
    """A driver's log that keeps its lines (shown when a test fails)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, what: str) -> None:
        self.lines.append(what)


async def walk_path(app: DebuggerApp, pilot, path: Path, upto: int | None = None) -> None:
    """Drive ``app`` (a replay of ``path`` under Pilot) along the recording's path, up to step
    ``upto`` (every step when None); after each step the stop reason is the recorded one."""
    recorded = path_of(path)
    driver = Driver(app, pilot, Quiet(), time.monotonic() + 300, Reports())
    for step, doing in list(zip(recorded, steps_of(recorded)))[: None if upto is None else upto + 1]:
        await driver.step(step.number, doing)
        assert step.state is not None and app.debugger.state is not None, f"step {step.number}: no stop"
        assert app.debugger.state.stop.reason == step.state.reason, f"step {step.number} ({step.keys})"


async def replay_along(path: Path) -> list[str]:
    """Replay ``path`` in the debugger app at 160x48 along its recorded path; after each step,
    compare the state the front end built with the one the live session built. Returns one
    line per step that differs (with the driver's log), empty when every step matched."""
    recorded = path_of(path)
    app = DebuggerApp(replay_app_config(path))
    log = Quiet()
    wrong: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        driver = Driver(app, pilot, log, time.monotonic() + 600, Reports())
        for step, doing in zip(recorded, steps_of(recorded)):
            await driver.step(step.number, doing)
            built = summarize(app.debugger.state) if app.debugger.state is not None else None
            if built != step.state:
                wrong.append(f"step {step.number} ({step.keys}): the replay built {built}, the live session "
                             f"{step.state}")
        await pilot.press("ctrl+q")
    return wrong + (log.lines if wrong else [])
