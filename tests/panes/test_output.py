"""The program output pane under a flood: batched writes, a bounded buffer, a usable UI (Pilot).

The pane alone in a small app, fed the way the pty reader feeds it (4 KB chunks, the event
loop free between chunks, after a first burst). Nothing waits on time: the flood lasts until the
key is handled.
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.binding import Binding

from cudatui.tui.panes.base import InfoLine
from cudatui.tui.panes.output import OutputPane
from tests.support.wait import wait_for

FLOOD_LINES = 200_000
"""At least this many lines (20 times the pane's 10,000) are fed."""
MAX_FLOOD = 20 * FLOOD_LINES
"""The flood ends here if the key was not handled meanwhile (the test then fails)."""
BURST = 12_000
"""Lines fed with no loop turn between their chunks (more than the pane's 10,000)."""


class OutputApp(App[None]):
    """An output pane and a key that records whether the flood was still arriving."""

    BINDINGS = [Binding("x", "mark", "mark")]

    def __init__(self) -> None:
        super().__init__()
        self.feeding: asyncio.Task[int] | None = None
        self.marks: list[bool] = []

    def compose(self) -> ComposeResult:
        yield OutputPane()

    def action_mark(self) -> None:
        self.marks.append(self.feeding is not None and not self.feeding.done())


def flood_line(n: int) -> str:
    return f"flood {n:09d} abcdefghijklmnopqrstuvwxyz0123456789"


async def flood(app: OutputApp, pane: OutputPane, size: int = 4096) -> int:
    """Feed numbered lines in ``size``-character chunks until at least FLOOD_LINES went in and
    the key was handled (at most MAX_FLOOD lines); returns how many lines went in. The chunks of
    the first BURST lines come back to back (more than the pane holds arrive before it can write
    any: some must be dropped), then the event loop is free between chunks."""
    count = 0
    while count < FLOOD_LINES or not app.marks:
        assert count < MAX_FLOOD, f"the key was not handled while {count:,} lines arrived"
        chunk = []
        while sum(map(len, chunk)) < size:
            chunk.append(flood_line(count) + "\n")
            count += 1
        pane.write("".join(chunk))
        if count > BURST:
            await asyncio.sleep(0)
    return count


async def test_flood_is_bounded_and_keys_are_handled_meanwhile() -> None:
    """No timing: the flood goes on until the key is handled, so the key must be handled while
    it arrives (the mark says the flood was still arriving); the pane holds at most its
    max_lines of it, the last ones, and counts what it dropped (the burst at least)."""
    app = OutputApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(OutputPane)
        app.feeding = asyncio.create_task(flood(app, pane))
        await pilot.press("x")
        count = await app.feeding
        assert app.marks == [True], "the key was not handled while the flood was arriving"
        received = sum(len(flood_line(n)) + 1 for n in range(count))

        log = pane.query_one("#output-log")
        lines = [line for line in pane.text.split("\n") if line]  # the text is written out first
        await pilot.pause()
        assert log.max_lines is not None and len(log.lines) <= log.max_lines
        assert lines[-1] == flood_line(count - 1)
        first = int(lines[0].split()[1])
        assert lines == [flood_line(n) for n in range(first, count)], "the kept lines are not the last ones"
        assert 0 < pane.dropped <= first
        assert pane.received == received
        assert f"{pane.dropped:,} lines dropped" in str(pane.query_one("#output-title", InfoLine).shown)
        visible = [log.render_line(y).text.rstrip() for y in range(log.size.height)]
        assert flood_line(count - 1) in visible, visible


async def test_chunks_are_joined_across_boundaries() -> None:
    """The text arrives clean (the Debugger filters the program's output as a stream: an escape
    cut between two chunks is tests/test_reliability_clean.py::test_an_escape_cut_in_two_by_a_stop_is_removed_whole)."""
    app = OutputApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(OutputPane)
        for chunk in ["red", " bell^G\n", "Enter a value: "]:
            pane.write(chunk)
        log = pane.query_one("#output-log")
        await wait_for(pilot, lambda: log.lines[-1:] == ["Enter a value: "], why="the flush")
        assert log.lines[-1] == "Enter a value: "
        pane.write("42\nd")
        pane.write("one\n")
        assert pane.text == "red bell^G\nEnter a value: 42\ndone\n"
        assert pane.dropped == 0 and str(pane.query_one("#output-title", InfoLine).shown) == "program output"


async def test_a_long_line_wraps_at_the_pane_width_and_is_shown_whole() -> None:
    app = OutputApp()
    async with app.run_test(size=(40, 12)) as pilot:
        pane = app.query_one(OutputPane)
        long = "".join(f"{i:03d}," for i in range(40))  # 160 characters
        pane.write(f"short\n{long}\nend\n")
        pane.flush()
        await pilot.pause()
        log = pane.query_one("#output-log")
        width = log.wrap_width
        rows = [log.render_line(y).text[:width] for y in range(log.size.height)]
        pieces = -(-len(long) // width)
        assert log.virtual_size.height == 2 + pieces and log.virtual_size.width == width
        assert rows[0].rstrip() == "short"
        assert "".join(rows[1:1 + pieces]).rstrip() == long
        assert rows[1 + pieces].rstrip() == "end"
        await pilot.resize_terminal(60, 12)
        await pilot.pause()
        assert log.wrap_width > width and log.virtual_size.height == 2 + -(-len(long) // log.wrap_width)
