"""Drive a running debugger app along a recorded path (:mod:`cudatui.kernels.lesson_paths`), key by key.

:class:`Driver` does each step as a user does it (keys, the inputs they open, the panes' own
messages) and waits, before the next one, until the UI is idle: no worker but the GPU
sampler, no Debugger call or stop refresh in flight, the program stopped or gone. Each step's
end is marked in the recording (``-cudatui-path-step``) and each new GPU sample the GPU pane
shows is written into it (``-cudatui-gpu-sample``), so a replay can follow the same path and
show the same GPU. ``scripts/record_demos.py`` records the lessons with it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from collections.abc import Callable

from textual.widgets import Input

from cudatui.gdbbridge import read_report
from cudatui.gdbbridge.nvml import recorded as gpu_record
from cudatui.gdbbridge.record.stop_state import record_step, summarize
from cudatui.kernels.lesson_paths import PathStep
from cudatui.tui.screens.goto_focus import GotoFocusScreen
from cudatui.tui.panes.sanitizer import findings_in_groups
from cudatui.tui.messages import Condition, DebugFinding, Delete, Enable, FrameSelected
from cudatui.tui.textual_compat import app_notifications

SIZE = (160, 48)
"""The terminal size recordings are made at (every pane visible, so every pane's queries are asked)."""
STEP_TIMEOUT = 75.0
"""Seconds one step may take (a continue to a CUDA exception, a restart of a torch script)."""
IDLE_TIMEOUT = 45.0
"""Seconds the UI may stay busy after a step (the warp watch walking lanes, SASS)."""


class Say(Protocol):
    """Where the driver says what each step did (one line each)."""

    def say(self, what: str) -> None: ...


@dataclass
class StepLog:
    """What one step did, for LESSON.steps.json."""

    number: int
    keys: str
    seconds: float = 0.0
    ok: bool = True
    note: str = ""
    state: str = ""
    generation: int = 0
    told: list[str] = field(default_factory=list)
    """The notifications the step raised (a refusal says why there)."""
    gpu: str = ""
    """Why the step recorded no GPU sample ('' when it did, or in a replay)."""


@dataclass
class Reports:
    """The lesson's sanitizer runs: tool -> the task that ends with the saved XML (or raises)."""

    tasks: dict[str, asyncio.Future[Path]] = field(default_factory=dict)


class Driver:
    """Drives a running DebuggerApp (under Pilot) along a path, one step at a time."""

    def __init__(self, app: Any, pilot: Any, timer: Say, deadline: float, reports: Reports) -> None:
        self.app, self.pilot, self.timer, self.deadline, self.reports = app, pilot, timer, deadline, reports
        self.log: list[StepLog] = []
        self.last_sample = 0.0

    # -- what the UI is doing --------------------------------------------------------------

    def phase(self) -> str:
        return self.app.debugger.status.phase.value

    def generation(self) -> int:
        return self.app.debugger.state.generation if self.app.debugger.state else 0

    def settled(self) -> bool:
        return self.phase() in ("stopped", "exited", "dead", "ready")

    def idle(self) -> bool:
        """No worker but the NVML sampler runs and the Debugger has nothing in flight."""
        workers = all(w.is_finished or w.group == "nvml" for w in self.app.workers)
        return workers and not self.app.debugger.busy and self.settled()

    async def wait(self, done: Callable[[], bool], timeout: float) -> bool:
        """Let the app run until ``done()``; False after ``timeout`` s (or past the lesson's deadline)."""
        end = min(time.monotonic() + timeout, self.deadline)
        while not done():
            if time.monotonic() > end:
                return False
            await self.pilot.pause(0.05)
        return True

    async def sample_gpu(self) -> None:
        """Write the GPU pane's latest sample into the recording (once per sample)."""
        pane = self.app.query_one("#gpu")
        snapshot = pane.sampler.latest
        if snapshot is None or snapshot.timestamp == self.last_sample:
            return
        self.last_sample = snapshot.timestamp
        gpu_record.record(self.app.debugger.record, snapshot)

    async def fresh_sample(self) -> str:
        """Live: wait (a few seconds at most) for a GPU sample taken after the step, and record
        it, so every stop of the recording has one; why there is none ('' when there is)."""
        if self.app.debugger.config.replayed:
            return ""
        pane = self.app.query_one("#gpu")
        before = pane.sampler.latest
        await self.wait(lambda: pane.sampler.latest is not before or pane.reason is not None, 3.0)
        await self.sample_gpu()
        if pane.sampler.latest is not before:
            return ""
        if pane.reason:
            return pane.reason
        running = pane.sampling_for
        return "no sample in 3 s" + (" (none yet)" if before is None else "") + (
            f"; the one in flight has run {running:.1f} s" if running is not None else "")

    async def sampling(self) -> None:
        """Every second, the GPU pane's new sample into the recording."""
        while True:
            await asyncio.sleep(1.0)
            await self.sample_gpu()

    # -- the path --------------------------------------------------------------------------

    async def run(self, steps: tuple[PathStep, ...], start_timeout: float) -> list[StepLog]:
        """Every step in order (each logged); after the debugger is gone the rest are logged as not done."""
        for number, step in enumerate(steps):
            entry = await self.step(number, step, start_timeout)
            if self.phase() == "dead":
                entry.ok = False
                entry.note = (entry.note + "; " if entry.note else "") + "FAILED: the debugger is gone"
                for later, rest in enumerate(steps[number + 1:], number + 1):
                    self.log.append(StepLog(later, rest.keys, ok=False, note="not done: the debugger is gone"))
                break
        return self.log

    async def step(self, number: int, step: PathStep, start_timeout: float = STEP_TIMEOUT) -> StepLog:
        """Do one step, wait until the UI is idle, mark the step's end in the recording, log it."""
        entry = StepLog(number, step.keys)
        self.log.append(entry)
        started = time.monotonic()
        if time.monotonic() > self.deadline:
            entry.ok, entry.note = False, "skipped: the lesson's time limit is near"
            self.timer.say(f"step {number} {step.keys}: {entry.note}")
            return entry
        before = self.generation()
        said = set(self.notifications())
        try:
            note = await self.do(step, before, start_timeout if step.kind == "start" else STEP_TIMEOUT)
        except Exception as exc:  # a step that fails is logged; the path goes on
            entry.ok, note = False, f"{type(exc).__name__}: {exc}"
        if not await self.wait(self.idle, IDLE_TIMEOUT):
            note = (note + "; " if note else "") + "the UI was still busy after the step"
        entry.gpu = await self.fresh_sample()
        entry.told = [n for n in self.notifications() if n not in said]
        state = self.app.debugger.state
        entry.seconds = round(time.monotonic() - started, 2)
        entry.note = note or ""
        entry.ok = entry.ok and not entry.note.startswith(("TIMED OUT", "FAILED", "REFUSED"))
        entry.generation = self.generation()
        entry.state = str(summarize(state)) if state is not None else f"no state ({self.phase()})"
        record_step(self.app.debugger.record, number, step.kind, step.arg, step.keys)
        status = self.app.debugger.status
        self.timer.say(f"step {number} {step.keys}: {entry.seconds:.1f}s {status.phase.value} {status.detail}"
                       f" · {entry.state}{' · ' + entry.note if entry.note else ''}"
                       + "".join(f" · told: {text}" for text in entry.told)
                       + (f" · GPU: {entry.gpu}" if entry.gpu else ""))
        return entry

    def notifications(self) -> list[str]:
        """What the UI told the user: its notices log (toasts and the notices line), else the
        notifications the app shows now."""
        notices = getattr(self.app, "notices", None)
        return [str(n.message) for n in (notices.entries if notices is not None else app_notifications(self.app))]

    async def moved(self, before: int, timeout: float) -> str:
        """Until a new state is published and the program is stopped or gone, or the UI is idle
        without one (the debugger refused the step: its notification says why); '' or why not."""
        ok = await self.wait(lambda: (self.generation() > before and self.settled()) or self.idle(), timeout)
        if not ok:
            return f"TIMED OUT after {timeout:g} s ({self.phase()} {self.app.debugger.status.detail})"
        return "" if self.generation() > before else "REFUSED: no new stop (the notification says why)"

    async def do(self, step: PathStep, before: int, timeout: float) -> str:
        app, pilot = self.app, self.pilot
        if step.kind == "start":
            ok = await self.wait(lambda: self.settled() and (self.generation() > 0 or self.phase() != "stopped"),
                                 timeout)
            return "" if ok else f"FAILED: no first stop within {timeout:g} s ({app.debugger.status.detail})"
        if step.kind == "key":
            await self.leave_inputs()
            await pilot.press(step.arg)
            return await self.moved(before, timeout)
        if step.kind == "focus":
            await self.leave_inputs()
            await pilot.press("g")
            if not await self.wait(lambda: isinstance(app.screen, GotoFocusScreen), 10.0):
                return "FAILED: g opened no focus dialog"
            await self.type_into(app.screen.query_one(Input), step.arg)
            return await self.moved(before, timeout)
        if step.kind == "console":
            await self.leave_inputs()
            await pilot.press("colon")
            await self.type_into(app.query_one("#console-input"), step.arg)
            await self.wait(lambda: not app.debugger.busy, timeout)
            return ""
        if step.kind == "frame":
            app.show_pane("stack").post_message(FrameSelected(int(step.arg)))
            await pilot.pause()
            return await self.moved(before, timeout)
        if step.kind == "pane":
            if step.arg == "disassembly":  # fetch at this stop, as for a user who opens SASS only here
                app.debugger.forget_sass()
            app.show_pane(step.arg)
            await pilot.pause(0.3)
            return ""
        if step.kind == "shared":
            await add_shared_array(app, pilot, step.arg)
            return ""
        if step.kind == "watch":
            warps = app.show_pane("warps")
            warps.action_edit_watch()
            await self.type_into(warps.query_one("#watch-input"), step.arg)
            ok = await self.wait(lambda: bool(warps.watch_values or warps.watch_error), timeout)
            return "" if ok else "the warp watch showed nothing"
        if step.kind in ("condition", "delete", "disable"):
            number, _, condition = step.arg.partition(" ")
            pane = app.show_pane("breakpoints")
            pane.post_message(Condition(int(number), condition) if step.kind == "condition" else
                              Delete(int(number)) if step.kind == "delete" else Enable(int(number), False))
            await pilot.pause()
            return ""
        if step.kind == "sanitize":
            return await self.sanitize(step.arg, timeout)
        return await self.debug(before, timeout)

    async def leave_inputs(self) -> None:
        """Escape from an input that has the focus (a key typed there would be text), as a user does."""
        for _ in range(3):
            if not isinstance(self.app.focused, Input):
                return
            await self.pilot.press("escape")
            await self.pilot.pause(0.05)

    async def type_into(self, widget: Any, text: str) -> None:
        """Put ``text`` into an input that has the focus and press enter, as a user types it."""
        await self.pilot.pause(0.1)
        widget.focus()
        widget.value = text
        await self.pilot.press("enter")

    async def sanitize(self, tool: str, timeout: float) -> str:
        """Live: show the tool's saved report (the run started with the lesson) in the Sanitize
        pane. Replay: show the report recorded with it, as the app's Sanitize does."""
        pane = self.app.show_pane("sanitizer")
        recording = self.app.debugger.config.recording
        task = self.reports.tasks.get(tool)
        if task is None and recording:
            shown = pane.show_recorded(recording, tool)
            await self.pilot.pause()
            return pane.status if shown else f"FAILED: no recorded {tool} report beside {recording}"
        if task is None:
            return f"FAILED: no {tool} run was started"
        try:
            xml = await asyncio.wait_for(asyncio.shield(task), max(1.0, min(timeout * 2, self.deadline - time.monotonic())))
        except asyncio.TimeoutError:
            return f"TIMED OUT: {tool} still runs"
        except Exception as exc:
            return f"FAILED: {tool}: {exc}"
        report = read_report(str(xml), "memcheck" if tool == "leak" else tool)
        pane.show_report(report)
        await self.pilot.pause()
        return findings_in_groups(report.finding_count, len(report.groups))

    async def debug(self, before: int, timeout: float) -> str:
        """``d`` on the first finding that has a source line: the program runs to its thread."""
        pane = self.app.query_one("#sanitizer")
        group = next((g for g in pane.groups if g.first.source_location is not None), None)
        if group is None:
            return "FAILED: no finding with a source line"
        pane.post_message(DebugFinding(group))
        await self.pilot.pause()
        return await self.moved(before, timeout)


async def drive_app(app: Any, steps: tuple[PathStep, ...], timer: Say, deadline: float, reports: Reports,
                    start_timeout: float) -> list[StepLog]:
    """Run ``app`` headless at 160x48 and drive it along ``steps``; quit with ctrl+q. Nobody
    watches it, so it does not animate: Textual 8.2.8 can begin a tab's underline animation after
    the app has stopped its animator, and a key press that ended the app then waits forever."""
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        driver = Driver(app, pilot, timer, deadline, reports)
        sampler = asyncio.get_running_loop().create_task(driver.sampling())
        try:
            await driver.run(steps, start_timeout)
        finally:
            sampler.cancel()
            await pilot.press("ctrl+q")
    return driver.log


async def add_shared_array(app: Any, pilot: Any, array: str) -> None:
    """Type ``array`` (``sdata[256]``) into the shared-memory pane's add field (its ``a`` key), as a user does."""
    pane = app.show_pane("shared")
    pane.action_add()
    await pilot.pause(0.2)
    pane.query_one("#shared-add", Input).value = array
    await pilot.press("enter")
    end = time.monotonic() + 10
    while pane.answer() is None and time.monotonic() < end:  # the Debugger reads the page, shows the stop again
        await pilot.pause(0.05)
