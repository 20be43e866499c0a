"""The guide's claims about the screen (:class:`cudatui.kernels.lesson_paths.Claim`), checked
in a real terminal while a walk follows a lesson's recording.

The walk follows the path the recording was made along; each recorded step is matched with the
lesson's path step of the same kind and argument, in order. A claim is checked on the captured
screen once its step is done, unless the recording cannot show it yet: its step is not in the
recording, or comes after a step that moves the program (a key, a focus switch, a breakpoint
turned off...) that the recording lacks (it was made along an older path; the recorded reports do
not depend on it), or the recording up to the step's end does not match
the claim's ``needs``. Those claims are listed as awaiting a re-recording, with the reason, and
counted.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from cudatui.gdbbridge.record.stop_state import RecordedStep
from cudatui.kernels.lesson_paths import PANE_TITLES, UNCHECKED, Claim, PathStep
from cudatui.kernels.lessons import get_lesson

from .tmux import TmuxServer
from .tmux_path import ScreenPath
from .wait import wait_until, within

CLAIM_WAIT = 30.0
STEP_MARK = re.compile(r'999999999\^done,number="(\d+)",kind=')


def recording_upto(path: Path) -> dict[int, str]:
    """The recording's MI lines up to the end of each recorded step (``-cudatui-path-step`` marks
    each step's end; the marks of the steps before are in it), by step number."""
    upto: dict[int, str] = {}
    lines: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8") as f:
        for raw in f:
            line = str(json.loads(raw).get("line", ""))
            mark = STEP_MARK.match(line)
            if mark:
                upto[int(mark.group(1))] = "\n".join(lines)
            lines.append(line)
    return upto


MOVES = ("start", "key", "focus", "frame", "console", "debug", "delete", "disable", "condition")
"""Step kinds that change the stop or what the program does next: once the recording lacks one,
what the later steps show is not what the lesson's path would show (the recorded reports excepted)."""


def matched(recorded: tuple[RecordedStep, ...], lesson: tuple[PathStep, ...]) -> tuple[dict[int, int], dict[int, str]]:
    """Recorded step number -> the lesson step it is (in order); and, by lesson step, why it
    cannot be checked on this recording (it lacks the step, or a step before that moves the program)."""
    found: dict[int, int] = {}
    why: dict[int, str] = {}
    at, moved = 0, ""
    for index, step in enumerate(lesson):
        rest = next((i for i in range(at, len(recorded)) if (recorded[i].kind, recorded[i].arg) == (step.kind, step.arg)),
                    None)
        if rest is None:
            why[index] = "the recording lacks this step (recorded along an older path)"
            if step.kind in MOVES and not moved:
                moved = f"the recording lacks step {index} ({step.keys}), which comes before (recorded along an older path)"
            continue
        found[recorded[rest].number] = index
        at = rest + 1
        if moved and step.kind != "sanitize":
            why[index] = moved
    return found, why


def guide_words(lesson: str, claim: Claim, step: PathStep) -> str:
    """The guide's words ``claim`` checks."""
    if not claim.guide:
        return step.shows
    kind, number = claim.guide.split()
    items = get_lesson(lesson).look_at if kind == "look" else get_lesson(lesson).next_steps
    return items[int(number)]


@dataclass
class Claims:
    """Checks a lesson's claims along one walk and counts them."""

    lesson: str
    steps: tuple[PathStep, ...]
    recorded: tuple[RecordedStep, ...]
    recording: Path
    checked: list[str] = field(default_factory=list)
    awaiting: list[str] = field(default_factory=list)
    last: dict[tuple[str, str], float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index, self.why = matched(self.recorded, self.steps)
        self.upto = recording_upto(self.recording)
        in_recording = set(self.index.values())
        for number, step in enumerate(self.steps):
            if number not in in_recording:
                self.awaiting += [self.line(c, step, self.why[number]) for c in step.screen]

    def line(self, claim: Claim, step: PathStep, why: str = "") -> str:
        words = guide_words(self.lesson, claim, step)
        return f"{step.keys} [{claim.guide or 'shows'}] {words!r}: {claim.where} ~ /{claim.pattern}/" + (
            f" -- awaiting a re-recording: {why}" if why else "")

    def check(self, screen: ScreenPath, recorded: RecordedStep) -> None:
        """Check the claims of the lesson step ``recorded`` is (none when it is no lesson step)."""
        index = self.index.get(recorded.number)
        if index is None:
            return
        step = self.steps[index]
        for claim in step.screen:
            if index in self.why:
                self.awaiting.append(self.line(claim, step, self.why[index]))
                continue
            if claim.needs and not re.search(claim.needs, self.upto.get(recorded.number, "")):
                self.awaiting.append(self.line(claim, step, claim.why or "the recording does not hold it"))
                continue
            why = (f"{self.lesson} step {recorded.number} ({step.keys}): the guide says "
                   f"{guide_words(self.lesson, claim, step)!r}; {claim.where} to match /{claim.pattern}/"
                   f"{' growing' if claim.grows else ''}")
            screen_shows(screen, claim, self.last, why)
            self.checked.append(self.line(claim, step))

    def summary(self) -> str:
        unchecked = [f"  not a screen claim: {item}: {why}" for (lesson, item), why in UNCHECKED.items()
                     if lesson == self.lesson]
        return "\n".join([f"{self.lesson}: {len(self.checked)} claims checked on the screen, "
                          f"{len(self.awaiting)} awaiting a re-recording", *(f"  awaiting: {a}" for a in self.awaiting),
                          *unchecked])


def area(screen: ScreenPath, where: str) -> str:
    """The text of ``where``: a pane (shown first), the status bar, or the whole screen."""
    if where == "screen":
        return screen.tmux.screen()
    if where == "status":
        lines = screen.lines()
        return lines[-2] if len(lines) > 1 else ""
    title = PANE_TITLES[where]
    screen.covered(title)  # a notification over the pane is clicked away, as a user does
    return "\n".join(screen.pane(title))


def screen_shows(screen: ScreenPath, claim: Claim, last: dict[tuple[str, str], float], why: str) -> str:
    """Wait until ``claim`` holds on the screen (fails saying ``why``, with the screen); the text
    that matched."""
    if claim.where in PANE_TITLES:
        screen.show(claim.where)
    key = (claim.where, claim.pattern)
    found: list[str] = []

    def holds() -> bool:
        match = re.search(claim.pattern, area(screen, claim.where), re.M)
        if match is None:
            return False
        if claim.grows:
            value = float(match.group(1))
            if key in last and value <= last[key]:
                return False
            last[key] = value
        found.append(match.group(0))
        return True

    wait_until(holds, CLAIM_WAIT, lambda: f"{why}:\n{screen.tmux.screen()}", every=0.3)
    return found[-1]


def close_app(tmux: TmuxServer) -> None:
    """End the app in the tmux window and the server: ctrl+q, then (an app that did not quit,
    after a failed step) its process by id, then the server. Killing the server alone leaves the
    app running without a terminal."""
    try:
        pid = int(tmux("list-panes", "-t", "t", "-F", "#{pane_pid}").split()[0])
        tmux("send-keys", "-t", "t", "C-q")
    except (subprocess.SubprocessError, ValueError, IndexError):
        pid = None
    if pid is not None and within(lambda: not alive(pid), 10.0, every=0.2) is None:
        os.kill(pid, signal.SIGKILL)
    subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
