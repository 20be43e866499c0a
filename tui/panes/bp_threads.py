"""The threads sitting at the breakpoint of a kernel stop, and the key that moves the CUDA focus
to the next of them (``T``).

cuda-gdb reports one hit when threads of several resident blocks reach a breakpoint together
(measured on an H200: a condition true in three blocks, one stop, the other two never seen).
At such a stop the Debugger reads the threads at the breakpoint's line with the stop (the ranges
of ``-cuda-info-threads`` there: cuda-gdb 13.0 refuses ``info cuda threads breakpoint N``;
``StopState.breakpoint_threads``) and this line says how many sit there; ``T`` switches the focus to the first thread of the next range, round the
list. A range is coalesced by cuda-gdb (threads at the same pc, over several blocks): ``T`` goes
to each block of it in turn, at its first thread there (:func:`targets`). For a breakpoint with a
condition that is where the focus goes: the condition is not evaluated per thread here.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult

from cudatui.gdbbridge import StopState, ThreadRange, fmt_dim3
from cudatui.tui.messages import FocusRequested

from .base import InfoLine, StatePane


def range_text(r: ThreadRange) -> str:
    """``block (1,0,0) thread (3,0,0)`` (one thread) or ``blocks (1,0,0)-(2,0,0) threads (0,0,0)-(255,0,0) (512)``."""
    if r.count == 1 or (r.first_block, r.first_thread) == (r.last_block, r.last_thread):
        return f"block {fmt_dim3(r.first_block)} thread {fmt_dim3(r.first_thread)}"
    return (f"block {fmt_dim3(r.first_block)} thread {fmt_dim3(r.first_thread)} … block {fmt_dim3(r.last_block)} "
            f"thread {fmt_dim3(r.last_thread)} ({r.count} threads)")


Dim3 = tuple[int, int, int]

MAX_TARGETS = 1024
"""Blocks listed at most (a kernel of more blocks at the breakpoint: its first ones)."""


@dataclass(frozen=True)
class Target:
    """Where ``T`` moves the focus: a block at the breakpoint, at its first thread there."""

    kernel: int
    block: Dim3
    thread: Dim3

    def request(self, focused_kernel: int | None) -> str:
        """The focus switch (naming the kernel when it is not the focused one)."""
        where = f"block {fmt_dim3(self.block)} thread {fmt_dim3(self.thread)}"
        return where if focused_kernel is None or self.kernel == focused_kernel else f"kernel {self.kernel} {where}"


def targets(ranges: tuple[ThreadRange, ...]) -> tuple[Target, ...]:
    """Each block of each range once, in order: the range's first thread in its first block,
    thread (0,0,0) in the others. Blocks are counted along x when only x varies in a range; a
    range over y or z gives its first block only."""
    found: dict[tuple[int, Dim3], Target] = {}
    for r in ranges:
        first, last = r.first_block, r.last_block
        if first is None or r.first_thread is None:
            continue
        found.setdefault((r.kernel, first), Target(r.kernel, first, r.first_thread))
        if last is not None and last[1:] == first[1:]:
            for x in range(first[0] + 1, min(last[0], first[0] + MAX_TARGETS) + 1):
                block = (x, first[1], first[2])
                found.setdefault((r.kernel, block), Target(r.kernel, block, (0, 0, 0)))
        if len(found) >= MAX_TARGETS:
            break
    return tuple(found.values())[:MAX_TARGETS]


class BreakpointThreads(StatePane):
    """One line under the CUDA focus: the threads at the breakpoint of this stop (hidden elsewhere).

    | Key | Action |
    | :- | :- |
    | T (app) | Move the focus to the next block sitting at the breakpoint (its first thread there) |
    """

    DEFAULT_CSS = """
    BreakpointThreads { height: 1; padding: 0 1; display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ranges: tuple[ThreadRange, ...] = ()
        """The thread ranges at the breakpoint of the stop shown."""
        self.targets: tuple[Target, ...] = ()
        """The blocks ``T`` goes to, in order."""
        self.index = 0
        """The target the focus was moved to last (the focused block's at first)."""
        self.number: int | None = None
        """The breakpoint."""

    def compose(self) -> ComposeResult:
        yield InfoLine("", id="bp-threads-line")

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        stop = state.stop
        if previous is not None and stop is previous.stop:
            self._show()  # a focus switch at the same stop: the same threads
            return
        self.ranges, self.targets, self.index, self.number = (), (), 0, None
        if stop.reason == "breakpoint-hit" and stop.breakpoint is not None and state.breakpoint_threads:
            self.number = stop.breakpoint
            self.ranges, self.targets = state.breakpoint_threads, targets(state.breakpoint_threads)
            focus = state.focus
            here = (focus.kernel, focus.block) if focus is not None else None
            self.index = next((i for i, t in enumerate(self.targets) if (t.kernel, t.block) == here), 0)
        self._show()

    def _show(self) -> None:
        line = self.query_one("#bp-threads-line", InfoLine)
        if self.number is None:
            self.display = False
            return
        self.display = True
        threads = sum(r.count for r in self.ranges)
        bp = next((b for b in self.state.breakpoints if b.number == self.number), None) if self.state else None
        condition = f" if {bp.condition}" if bp is not None and bp.condition else ""
        blocks = len(self.targets)
        text = Text(f"at breakpoint {self.number}{condition}: {threads} thread{'s' * (threads != 1)} in "
                    f"{blocks} block{'s' * (blocks != 1)}", style="bold")
        if blocks > 1:
            text.append(f" · T: next block ({self.index + 1}/{blocks})", style="")
        line.show(text)
        self.tooltip = "\n".join(range_text(r) for r in self.ranges)

    def next(self) -> bool:
        """Move the focus to the next block at the breakpoint; False when there is none to go to."""
        if len(self.targets) < 2:
            return False
        self.index = (self.index + 1) % len(self.targets)
        focus = self.state.focus if self.state else None
        self.post_message(FocusRequested(self.targets[self.index].request(focus.kernel if focus else None)))
        self._show()
        return True
