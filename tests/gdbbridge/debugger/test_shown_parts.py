"""A stop asks gdb only for what the panes on the screen show (Debugger.show_parts).

Tier 1: a real GNU gdb on steps.c (the registers). Tier 2: kernels/recordings/race.jsonl.gz, the
race lesson recorded through the UI on an H200 with every pane shown (the registers and the
kernels' thread table, which a step inside the kernel leaves out while the Warps pane is hidden).
A part left out is asked as soon as a pane that shows it comes on the screen, and the same stop
is shown again with it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger, Step
from cudatui.gdbbridge.debugger.events import DebuggerEvent, StateChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.models import StopState
from tests.support.debugger_watch import Watcher, replayed
from tests.support.paths import ROOT
from tests.support.programs import BREAK_LINE, STEPS, needs_gdb
from tests.support.wait import until

RACE = ROOT / "kernels" / "recordings" / "race.jsonl.gz"
REGISTERS = "-data-list-register-values"
THREADS = "-cuda-info-threads"
BLOCKS = "-cuda-info-blocks"


def asked(watcher: Watcher, operation: str) -> int:
    """How many times the Debugger sent ``operation``."""
    return sum(1 for line in watcher.sent if line.split(" ", 1)[0] == operation)


class Published:
    """Every state the Debugger published (a stop, and the same stop shown again)."""

    def __init__(self, debugger: Debugger) -> None:
        self.states: list[StopState] = []
        debugger.subscribe(self)

    def __call__(self, event: DebuggerEvent) -> None:
        if isinstance(event, StateChanged):
            self.states.append(event.state)


@needs_gdb
async def test_hidden_registers_are_not_asked_and_are_asked_once_shown(steps: Path) -> None:
    debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(steps),), cwd=str(steps.parent),
                                     breakpoints=(f"{STEPS.name}:{BREAK_LINE}",)))
    watcher, published = Watcher(debugger), Published(debugger)
    debugger.show_parts(registers=False, threads=False)
    try:
        await asyncio.wait_for(debugger.start(), 20)
        first = await watcher.next_stop()
        assert first.frame is not None and first.frame.line == BREAK_LINE
        assert asked(watcher, REGISTERS) == 0 and first.registers == () and first.unasked == {"registers"}
        assert first.variables  # the rest of the stop is there

        await asyncio.wait_for(debugger.resume(Step.STEP), 20)
        inside = await watcher.next_stop()
        assert inside.frame is not None and inside.frame.func == "square"
        await asyncio.wait_for(debugger.select_frame(1), 20)
        await until(lambda: debugger.state is not None and debugger.state.selected_frame == 1)
        assert asked(watcher, REGISTERS) == 0 and debugger.state.unasked == {"registers"}

        debugger.show_parts(registers=True, threads=False)
        again = await until(lambda: debugger.state if debugger.state is not None and debugger.state.registers else None)
        assert asked(watcher, REGISTERS) == 1
        assert again.stop is inside.stop and again.selected_frame == 1 and again.unasked == frozenset()
        assert again.generation > published.states[-2].generation and not again.errors
        assert any(r.name in ("rip", "pc") for r in again.registers)

        await asyncio.wait_for(debugger.select_frame(0), 20)  # shown now: a frame change asks for them
        assert debugger.state.selected_frame == 0 and debugger.state.registers and asked(watcher, REGISTERS) == 2
        await asyncio.wait_for(debugger.resume(Step.FINISH), 20)
        back = await until(lambda: debugger.state if debugger.state is not None and debugger.state.stop is not inside.stop
                           and debugger.phase is Phase.STOPPED else None)
        assert back.frame is not None and back.frame.func == "main"
        assert back.registers and back.unasked == frozenset() and asked(watcher, REGISTERS) == 3
    finally:
        await debugger.close()


async def test_a_step_in_a_kernel_leaves_out_what_no_pane_shows() -> None:
    """Replayed (cuda-gdb 13.0 on an H200): the breakpoint hit asks for the thread table (the
    threads sitting at the breakpoint), a step does not while the Warps pane is hidden; shown
    again, the step's stop gets its registers and thread table from the recording's answers."""
    debugger, watcher = replayed(RACE)
    debugger.show_parts(registers=False, threads=False)
    try:
        await asyncio.wait_for(debugger.start(), 20)
        first = await watcher.next_stop()
        assert first.stop.reason == "breakpoint-hit" and first.focus is not None
        assert asked(watcher, THREADS) == 1 and first.threads and first.breakpoint_threads
        assert asked(watcher, REGISTERS) == 0 and first.unasked == {"registers"}

        await asyncio.wait_for(debugger.resume(Step.NEXT), 20)
        stepped = await watcher.next_stop()
        assert stepped.stop.reason == "end-stepping-range" and stepped.warps and stepped.lanes
        assert asked(watcher, THREADS) == 1 and stepped.threads == () and asked(watcher, REGISTERS) == 0
        assert stepped.unasked == {"registers", "threads"} and not stepped.errors

        debugger.show_parts(registers=False, threads=True)
        lined = await until(lambda: debugger.state if debugger.state is not None and debugger.state.threads else None)
        assert lined.stop is stepped.stop and lined.unasked == {"registers"} and asked(watcher, THREADS) == 2
        debugger.show_parts(registers=True, threads=True)
        full = await until(lambda: debugger.state if debugger.state is not None and debugger.state.registers else None)
        assert full.stop is stepped.stop and full.unasked == frozenset() and full.threads == lined.threads
        assert not full.errors and asked(watcher, REGISTERS) == 1
        assert not [n for n in watcher.notices if "not in this recording" in n.message]
    finally:
        await debugger.close()


@needs_gdb
async def test_a_recorded_session_asks_every_part(steps: Path, tmp_path: Path) -> None:
    """Its replays and followers may show any pane: the recording holds every part of each stop,
    unless the session says otherwise (bench.gpu, which records what the product does)."""
    for every_part, registers_asked in ((True, 1), (False, 0)):
        debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(steps),), cwd=str(steps.parent),
                                         breakpoints=(f"{STEPS.name}:{BREAK_LINE}",),
                                         record=str(tmp_path / f"{every_part}.jsonl"), record_every_part=every_part))
        watcher = Watcher(debugger)
        debugger.show_parts(registers=False, threads=False)
        try:
            await asyncio.wait_for(debugger.start(), 20)
            first = await watcher.next_stop()
            assert asked(watcher, REGISTERS) == registers_asked
            assert bool(first.registers) is every_part and first.unasked == (frozenset() if every_part else {"registers"})
        finally:
            await debugger.close()
        recorded = (tmp_path / f"{every_part}.jsonl").read_text()
        assert (REGISTERS in recorded) is every_part


@needs_gdb
async def test_a_step_keeps_the_breakpoint_table_and_a_hit_asks_for_it(steps: Path) -> None:
    """A step's stop asks for no ``-break-list``: gdb stops at a breakpoint it meets (a hit, which
    asks), and says a changed hit count in a notification that the table follows."""
    debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(steps),), cwd=str(steps.parent),
                                     breakpoints=(f"{STEPS.name}:{BREAK_LINE}", f"{STEPS.name}:6")))
    watcher = Watcher(debugger)
    try:
        await asyncio.wait_for(debugger.start(), 20)
        first = await watcher.next_stop()
        assert first.stop.reason == "breakpoint-hit" and asked(watcher, "-break-list") == 1
        assert [(b.line, b.hits) for b in first.breakpoints] == [(BREAK_LINE, 1), (6, 0)]

        await asyncio.wait_for(debugger.resume(Step.NEXT), 20)  # over square(3), which holds line 6's breakpoint
        inside = await until(lambda: debugger.state if debugger.state is not None and debugger.state.stop is not first.stop
                             and debugger.phase is Phase.STOPPED else None)
        assert inside.stop.reason == "breakpoint-hit" and inside.frame is not None and inside.frame.line == 6
        assert asked(watcher, "-break-list") == 2 and [b.hits for b in inside.breakpoints] == [1, 1]

        for step, reason in ((Step.FINISH, "function-finished"), (Step.NEXT, "end-stepping-range")):
            before = debugger.state
            await asyncio.wait_for(debugger.resume(step), 20)
            after = await until(lambda: debugger.state if debugger.state is not None and debugger.state.stop is not before.stop
                                and debugger.phase is Phase.STOPPED else None)
            assert after.stop.reason == reason and asked(watcher, "-break-list") == 2
            assert [(b.line, b.hits) for b in after.breakpoints] == [(BREAK_LINE, 1), (6, 1)]
    finally:
        await debugger.close()


async def test_a_focus_switch_is_sent_with_its_batch_and_a_refused_one_changes_nothing() -> None:
    """Replayed (cuda-gdb 13.0 on an H200): the switch is the first line of the batch of the focus
    it moves to (one write, one round trip); a switch gdb refuses leaves the stop shown as it was,
    and says why."""
    debugger, watcher = replayed(RACE)
    try:
        await asyncio.wait_for(debugger.start(), 20)
        await watcher.next_stop()
        await asyncio.wait_for(debugger.resume(Step.NEXT), 20)
        stepped = await watcher.next_stop()
        mark = len(watcher.sent)
        await asyncio.wait_for(debugger.switch_focus("block (3,0,0) thread (200,0,0)"), 20)
        moved = debugger.state
        assert moved is not None and moved.stop is stepped.stop and moved.focus is not None
        assert (moved.focus.block, moved.focus.thread) == ((3, 0, 0), (200, 0, 0)) and not moved.errors
        sent = [line.split(" ", 1)[0] for line in watcher.sent[mark:]]
        assert sent[0] == "-cuda-focus-switch" and "-stack-list-frames" in sent and "-cuda-info-lanes" in sent
        assert any(w.block == (3, 0, 0) for w in moved.warps)

        await asyncio.wait_for(debugger.switch_focus("block (9,0,0) thread (1,0,0)"), 20)  # not in the recording
        assert debugger.state is moved
        assert any(n.message.startswith("focus: ") and n.severity == "error" for n in watcher.notices)
    finally:
        await debugger.close()


async def test_the_block_ranges_are_asked_while_shown() -> None:
    """The Focus pane opens a kernel (``show_parts(blocks=True)``): the stop is shown again with
    its block ranges (one ``-cuda-info-blocks``; race.jsonl.gz never asked it: the answer says
    so), a step asks them with its stop; closed, a step asks none."""
    debugger, watcher = replayed(RACE)
    published = Published(debugger)
    debugger.show_parts(registers=False, threads=False)
    try:
        await asyncio.wait_for(debugger.start(), 20)
        first = await watcher.next_stop()
        assert first.blocks is None and asked(watcher, BLOCKS) == 0

        debugger.show_parts(registers=False, threads=False, blocks=True)
        shown = await until(lambda: debugger.state if debugger.state is not None and debugger.state.blocks else None)
        assert shown.stop is first.stop and shown.generation > first.generation and published.states[-1] is shown
        assert asked(watcher, BLOCKS) == 1 and shown.blocks.value == () and shown.blocks.not_recorded

        await asyncio.wait_for(debugger.resume(Step.NEXT), 20)
        stepped = await watcher.next_stop()
        assert stepped.blocks is not None and asked(watcher, BLOCKS) == 2

        debugger.show_parts(registers=False, threads=False)
        await asyncio.wait_for(debugger.resume(Step.NEXT), 20)
        closed = await watcher.next_stop()
        assert closed.stop is not stepped.stop and closed.kernels and closed.blocks is None and asked(watcher, BLOCKS) == 2
    finally:
        await debugger.close()
