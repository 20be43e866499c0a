"""Every packaged recording, replayed along its recorded path: after each step the StopState the
front end builds equals the one the live session built when it was recorded (the lesson
recordings on tests/app/test_one_paint.py's 160x48 walks).

The live session's states are in the recording (``-cudatui-stop-state``, written by the
Debugger at every state it published) and so is the path (``-cudatui-path-step`` marks, written
by the path driver after each step); both are read from the recording alone. The replay is the
debugger app at 160x48 (the size recordings are made at) driven by the same driver
(:mod:`cudatui.tui.tooling.path_driver`). A lesson recording (kernels/recordings) without stop states
fails, unless it is one of the recordings made before they were written (its header says how it
was made); older test fixtures are skipped by name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cudatui.gdbbridge import load, read_report
from cudatui.gdbbridge.nvml.recorded import COMMAND as GPU_SAMPLE
from cudatui.kernels.lesson_paths import sanitizer_tools
from cudatui.kernels.lessons import LESSONS
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR
from tests.support.paths import ROOT
from tests.support.recorded_path import (awaits_rerecording, packaged_recordings, path_of, replay_along, why_no_path,
                                         why_old)

RECORDINGS = packaged_recordings()
WALKED_HERE = [p for p in RECORDINGS if p.parent != RECORDINGS_DIR]
"""The lesson recordings' states are compared on tests/app/test_one_paint.py's 160x48 walks (the
same driver along the same path), not on a walk of their own here."""


def test_every_packaged_recording_is_checked() -> None:
    names = {p.name for p in RECORDINGS}
    assert {"oob.jsonl.gz", "race.jsonl.gz", "tile.jsonl.gz", "leak.jsonl.gz"} <= names
    assert any(p.parent.name == "findings" for p in WALKED_HERE)
    lessons = {p.name.removesuffix(".jsonl.gz") for p in RECORDINGS if p.parent == RECORDINGS_DIR}
    assert lessons == {lesson.name for lesson in LESSONS}  # test_one_paint walks every lesson at 160x48


@pytest.mark.long  # a walk each: handed out first, not left for the end of the run
@pytest.mark.parametrize("path", WALKED_HERE, ids=lambda p: str(p.relative_to(ROOT)))
async def test_replayed_path_builds_the_recorded_stop_states(path: Path) -> None:
    recorded = path_of(path)
    if not any(step.state for step in recorded):
        reason = why_old(path) or why_no_path(path)
        if reason is not None:
            pytest.skip(reason)
        pytest.fail(f"{path.name} holds no recorded path with stop states (record it with scripts/record_demos.py)")
    wrong = await replay_along(path)
    assert not wrong, f"{path.name}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("path", [p for p in RECORDINGS if p.parent.name == "recordings"], ids=lambda p: p.name)
def test_a_lesson_recording_follows_its_path_with_gpu_samples_and_its_reports(path: Path) -> None:
    if why_old(path) is not None:
        pytest.skip(why_old(path))
    name = path.name.removesuffix(".jsonl.gz")
    if awaits_rerecording(name):
        # listed, not passed: the lesson's path changed since (its claims await the re-recording too)
        pytest.xfail(f"{path.name} was recorded along an older path than kernels/lesson_paths.py's: awaiting a "
                     "re-recording (bash scripts/gpu_box.sh record-lessons)")
    for tool in sanitizer_tools(name):
        report = path.parent / f"{name}.{tool}.xml.gz"
        assert report.is_file(), f"{report.name} is not packaged beside {path.name}"
        assert read_report(str(report), "memcheck" if tool == "leak" else tool).finding_count > 0
    exchanges = load(str(path)).exchanges
    assert any(x.key[:1] == (GPU_SAMPLE,) for x in exchanges), f"{path.name} holds no GPU samples"
