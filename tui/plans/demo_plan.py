"""What ``cudatui demo LESSON`` opens: live or replay, why, and the debugger launch.

:func:`plan_demo` decides: the lesson runs live when cuda-gdb and a GPU are usable
(:func:`probe_live`, the quick doctor checks), otherwise it replays the recording packaged in
``kernels/recordings/LESSON.jsonl.gz`` (:func:`read_recording` says what it holds, for the guide
and the REPLAY marker). The command line (``tui/commands/demo.py``) only parses and calls it.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from cudatui.gdbbridge import (
    BreakpointSpec, DoctorConfig, LaunchConfig, Transcript, TranscriptError, check_cuda_gdb, clean, find_tool, load,
    probe_nvml, recorded_breakpoints, recorded_moves, recorded_path, tr,
)
from cudatui.kernels.lessons import KERNELS_DIR, Lesson, LessonError, get_lesson

RECORDINGS_DIR = KERNELS_DIR / "recordings"
"""Where the packaged recordings live (``<lesson>.jsonl.gz``)."""

FIXED_STOP = "blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0"
"""Where ``--fixed`` stops at the fix in a kernel: once, in the first thread of the first block."""
VARIANTS = ("--fixed", "--torch")
"""The demo scripts' own options ``cudatui demo`` passes on (live only): the fixed kernel, or
PyTorch's own indexing (the lessons whose ``extra_args`` name it)."""

BACK = "back to the lessons"
"""What a lesson's app returns when ``q`` asks for the lesson picker."""

STEP_KEYS = {"next": "n", "step": "s", "finish": "f", "continue": "c", "run": "r"}
"""The key that makes each move of a recorded path (a focus switch is ``g`` and the request)."""
_GPU_LINE = re.compile(r"GPU: (.+?) \(torch")


class DemoError(Exception):
    """Why a demo cannot start (one line)."""


@dataclass(frozen=True)
class RecordingInfo:
    """What a recording holds, for the guide and the REPLAY marker."""

    path: Path
    recorded_on: str
    """The GPU it was recorded on, e.g. ``NVIDIA H200``."""
    debugger: str
    """The debugger and its version, e.g. ``cuda-gdb 13.0``."""
    made_with: str
    """How it was made (``scripts/record_demos.py``, ``scripts/record_tour.py`` ...)."""
    recorded_at: str
    """The day it was recorded (``2026-11-29``), or '' when the header does not say."""
    breakpoints: tuple[str, ...]
    """The breakpoints inserted before the run, as ``LOCATION [if CONDITION]``."""
    steps: tuple[str, ...]
    """The recorded path after the first stop, as keys (``n``, ``c``, ``g block (1,0,0) ...``)."""
    path_steps: tuple[str, ...] = ()
    """Every step of the recorded path as the recording marks it (``: print i``, ``Stack: frame
    1``, ``n`` ...), where it marks them (recordings made along a lesson path)."""

    @property
    def label(self) -> str:
        """``recorded on NVIDIA H200, cuda-gdb 13.0, 2026-11-29``."""
        return tr("recorded on {gpu}, {debugger}, {at}").format(gpu=self.recorded_on, debugger=self.debugger,
                                                              at=self.recorded_at or tr("date not recorded"))

    @property
    def path_text(self) -> str:
        """The recorded path on one line: ``n → : print i → Stack: frame 1 → c`` (every marked
        step; else the moves: ``g block (1,0,0) thread (7,0,0) → n → c``)."""
        steps = self.path_steps or self.steps
        return " → ".join(steps) if steps else "run to the end"


def packaged_recording(lesson: Lesson) -> Path | None:
    """The recording installed with cudatui for ``lesson``, or None."""
    path = RECORDINGS_DIR / f"{lesson.name}.jsonl.gz"
    return path if path.is_file() else None


def read_meta(path: Path) -> dict[str, Any]:
    """The transcript's header line (``dir: meta``), or {} when it has none."""
    with open(path, "rb") as probe:
        gz = probe.read(2) == b"\x1f\x8b"
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if gz else open(path, encoding="utf-8")) as handle:
            first = json.loads(handle.readline() or "{}")
    except (OSError, EOFError, ValueError):
        return {}
    return first if isinstance(first, dict) and first.get("dir") == "meta" else {}


def _recorded_gpu(transcript: Transcript) -> str | None:
    entries = [*transcript.prologue, *(e for x in transcript.exchanges for e in x.output)]
    for entry in entries:
        match = _GPU_LINE.search(entry.line) if entry.dir == "program" else None
        if match:
            return match.group(1)
    return None


def _recorded_debugger(meta: dict[str, Any]) -> str:
    argv = meta.get("argv")
    first = argv[0] if isinstance(argv, list) and argv and isinstance(argv[0], str) else ""
    return os.path.basename(first) or "the debugger"


def read_recording(path: Path, transcript: Transcript | None = None) -> RecordingInfo:
    """Read a recording's header, breakpoints and path (from ``transcript`` when it was loaded
    already); TranscriptError when unusable."""
    transcript = transcript or load(str(path))
    meta = read_meta(path)
    try:
        path_steps = tuple(clean(step.keys) for step in recorded_path(transcript) if step.kind != "start")
    except TranscriptError as exc:
        raise TranscriptError(f"{path}: {exc}") from None
    return RecordingInfo(
        path=path,
        recorded_on=clean(str(meta.get("recorded_on") or _recorded_gpu(transcript) or "an unnamed GPU")),
        debugger=clean(str(meta.get("debugger") or _recorded_debugger(meta))),
        made_with=clean(str(meta.get("made_with") or "cudatui --record")),
        recorded_at=clean(str(meta.get("recorded_at") or "")),
        breakpoints=tuple(str(spec) for spec in recorded_breakpoints(transcript)),
        steps=tuple(STEP_KEYS[m.step] if m.step else f"g {m.focus}" for m in recorded_moves(transcript)),
        path_steps=path_steps,
    )


@dataclass(frozen=True)
class LiveProbe:
    """Whether this machine can run a lesson live: ``problem`` is None when it can."""

    problem: str | None
    debugger: str = "cuda-gdb"
    """Path of cuda-gdb."""
    version: str = ""
    gpu: str = ""


def probe_live(config: DoctorConfig | None = None) -> LiveProbe:
    """cuda-gdb runs and NVML sees a GPU (the doctor's own checks, the quick ones only)."""
    config = config or DoctorConfig()
    path, _ = find_tool("cuda-gdb", config)
    if path is None:
        return LiveProbe("no cuda-gdb on PATH")
    check = check_cuda_gdb(config)
    if check.status == "fail":
        return LiveProbe(f"cuda-gdb does not run ({check.detail})")
    version = check.detail.split()[0] if check.detail else ""
    nvml = probe_nvml(config)
    if nvml.error:
        return LiveProbe(f"no usable GPU ({nvml.error})", path, version)
    if not nvml.gpus:
        return LiveProbe("no GPU visible to NVML", path, version)
    return LiveProbe(None, path, version, nvml.gpus[0].name)


@dataclass(frozen=True)
class DemoPlan:
    """What ``cudatui demo LESSON`` opens: the mode, why, and the debugger launch."""

    lesson: Lesson
    mode: str
    """``live`` or ``replay``."""
    why: str
    """Shown after the mode: ``recorded on NVIDIA H200, cuda-gdb 13.0: no cuda-gdb on PATH``."""
    config: LaunchConfig
    recording: RecordingInfo | None = None
    build: bool = False
    """Build the lesson's kernels before starting the debugger (live)."""
    variant: tuple[str, ...] = ()
    """The demo script's options (``--fixed``, ``--torch``; live only)."""

    @property
    def banner(self) -> str:
        """``REPLAY — recorded on ...: why``."""
        return f"{self.mode.upper()} — {self.why}"


def variant_breakpoints(lesson: Lesson, variant: tuple[str, ...]) -> tuple[str, ...]:
    """The breakpoints of a run: the lesson's; with ``--fixed`` one at the fix (in a kernel: in its
    first thread only); with ``--torch`` none (the bundled kernel does not run)."""
    if "--torch" in variant:
        return ()
    if "--fixed" in variant:
        where = lesson.resolve("fix").location
        return (str(BreakpointSpec(where, FIXED_STOP if lesson.fixed in lesson.kernels else None)),)
    return tuple(str(BreakpointSpec(loc, cond)) for loc, cond in lesson.breakpoint_specs())


def live_config(lesson: Lesson, debugger: str = "cuda-gdb", record: str | None = None,
                variant: tuple[str, ...] = ()) -> LaunchConfig:
    """The lesson's demo script (with ``variant``'s options) under ``debugger`` and its breakpoints."""
    return LaunchConfig(debugger=(debugger,), target=(str(lesson.demo_path), *variant),
                        breakpoints=variant_breakpoints(lesson, variant), record=record,
                        cwd=str(KERNELS_DIR), source_dirs=(str(KERNELS_DIR),))


def replay_config(info: RecordingInfo, speed: float = 0.0) -> LaunchConfig:
    """The replay stand-in serving ``info``'s recording, with its recorded breakpoints."""
    return LaunchConfig.replay(
        info.path, speed=speed, breakpoints=info.breakpoints,
        source_dirs=tuple(dict.fromkeys((str(KERNELS_DIR), str(info.path.resolve().parent), os.getcwd()))),
    )


def plan_demo(name: str, mode: str | None = None, *, recording: Path | None = None, record: str | None = None,
              speed: float = 0.0, probe: Callable[[], LiveProbe] = probe_live,
              variant: tuple[str, ...] = ()) -> DemoPlan:
    """Decide live or replay for lesson ``name`` and build the launch; DemoError when impossible."""
    try:
        lesson = get_lesson(name)
    except LessonError as exc:
        raise DemoError(str(exc)) from None
    for option in variant:
        if option != "--fixed" and option not in lesson.extra_args:
            raise DemoError(f"lesson {name} has no {option} variant (only --fixed"
                            f"{''.join(', ' + a for a in lesson.extra_args)})")
    if recording is not None:
        mode, reason = "replay", f"--recording {recording}"
    elif mode == "replay":
        reason = tr("--replay given")
    else:
        found = probe()
        if found.problem is None:
            what = " ".join(f"cuda-gdb {found.version} on {found.gpu} {' '.join(variant)}".split())
            return DemoPlan(lesson, "live", what, live_config(lesson, found.debugger, record, variant), build=True,
                            variant=variant)
        if mode == "live":
            raise DemoError(f"cannot run lesson {name} live: {found.problem} (try --replay)")
        mode, reason = "replay", found.problem
    if variant:
        raise DemoError(f"{' '.join(variant)} runs live only: the recording holds the buggy run of the bundled kernel "
                        f"(this machine: {reason}; without {' '.join(variant)} it replays)")
    if record is not None:
        raise DemoError("--record needs a live lesson (a replay records nothing new)")
    path = recording or packaged_recording(lesson)
    if path is None:
        raise DemoError(f"no recording of lesson {name} in this install, and it cannot run live: {reason}")
    try:
        info = read_recording(path)
    except TranscriptError as exc:
        raise DemoError(str(exc)) from None
    return DemoPlan(lesson, "replay", f"{info.label}: {reason}", replay_config(info, speed), info)
