"""Every lesson in a real terminal (tmux), at 80x24 and 160x48, following its recorded path key by
key: after each step the source line, the Stack and Locals panes and the focus shown are those of
the stop the live session showed after that step (read from the recording: its
``-cudatui-stop-state`` and ``-cudatui-path-step`` records). In a lesson, each claim its guide
makes about that step (kernels/lesson_paths.py: the value, the marker, the line a pane shows) is
checked on the captured screen, or listed as awaiting a re-recording (tests/support/lesson_claims.py);
the counts are printed in the terminal summary. ``cudatui demo LESSON --replay`` for
the lessons; ``cudatui replay`` for the recording the path driver made with GNU gdb."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from cudatui.kernels.lesson_paths import lesson_path
from cudatui.kernels.lessons import LESSONS
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, read_recording
from tests.support.paths import C_SOURCES, RECORDED, ROOT
from tests.support.recorded_path import path_of, why_old
from tests.support.lesson_claims import Claims, close_app
from tests.support.tmux import TmuxServer
from tests.support.tmux_path import ScreenPath

pytestmark = [pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"), pytest.mark.long]
"""Each walk has its own tmux server (its socket in the test's tmp_path) and its own app and
replay: they run beside the other tests. A click the busy app loses is clicked again
(tests/support/tmux_path.py)."""

CASES = [RECORDINGS_DIR / f"{lesson.name}.jsonl.gz" for lesson in LESSONS] + [RECORDED / "gdb" / "panes_path.jsonl.gz"]


def command(path: Path) -> str:
    """The shell command that opens ``path`` as a user does (COLUMNS/LINES from the test run unset:
    Textual would take them over the terminal's size)."""
    run = f"unset COLUMNS LINES; cd {shlex.quote(str(ROOT))} && PYTHONPATH={shlex.quote(str(ROOT))} exec {shlex.quote(sys.executable)} -m cudatui"
    if path.parent == RECORDINGS_DIR:
        return f"{run} demo {path.name.removesuffix('.jsonl.gz')} --replay"
    breaks = " ".join(f"-b {shlex.quote(spec)}" for spec in read_recording(path).breakpoints)
    sources = shlex.quote(str(C_SOURCES / "app"))  # the recording names them where it was made, another checkout
    return f"{run} replay {shlex.quote(str(path))} --source-dir {sources} {breaks}"


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.parametrize("path", CASES, ids=[*(lesson.name for lesson in LESSONS), "panes_path"])
def test_recorded_path_key_by_key_shows_each_recorded_stop(path: Path, size: tuple[int, int], tmp_path: Path,
                                                           claim_counts: dict[str, str]) -> None:
    recorded = path_of(path)
    if not any(step.state for step in recorded):
        reason = why_old(path)
        if reason is not None:
            pytest.skip(reason)
        pytest.fail(f"{path.name} holds no recorded path with stop states (record it with scripts/record_demos.py)")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), "-e", "TERM=xterm-256color",
         command(path))
    screen = ScreenPath(tmux, wide=size == (160, 48))
    lesson = path.name.removesuffix(".jsonl.gz") if path.parent == RECORDINGS_DIR else None
    claims = Claims(lesson, lesson_path(lesson), recorded, path) if lesson else None
    try:
        for step in recorded:
            screen.do(step)
            screen.check(step)
            if claims is not None:
                claims.check(screen, step)
        if claims is not None:
            claim_counts[f"{lesson} {size[0]}x{size[1]}"] = claims.summary()
            print(claims.summary())
    finally:
        close_app(tmux)
