"""The program output pane under a flood: batched writes, a bounded buffer, a usable UI (Pilot).

The pane alone in a small app, fed the way the pty reader feeds it (4 KB chunks, the event
loop free between chunks).
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.binding import Binding

from cudatui.tui.panes.base import InfoLine
from cudatui.tui.panes.output import OutputPane

FLOOD_LINES = 200_000


class OutputApp(App[None]):
    """An output pane and a key that records whether the flood was still arriving."""

    BINDINGS = [Binding("x", "mark", "mark")]

    def __init__(self) -> None:
        super().__init__()
        self.feeding: asyncio.Task[None] | None = None
        self.marks: list[bool] = []

    def compose(self) -> ComposeResult:
        yield OutputPane()

    def action_mark(self) -> None:
        self.marks.append(self.feeding is not None and not self.feeding.done())


async def feed(pane: OutputPane, text: str, size: int = 4096) -> None:
    for start in range(0, len(text), size):
        pane.write(text[start:start + size])
        await asyncio.sleep(0)


def flood_line(n: int) -> str:
    return f"flood {n:09d} abcdefghijklmnopqrstuvwxyz0123456789"


async def test_flood_is_bounded_and_keys_are_handled_meanwhile() -> None:
    app = OutputApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(OutputPane)
        text = "".join(flood_line(n) + "\n" for n in range(FLOOD_LINES))
        app.feeding = asyncio.create_task(feed(pane, text))
        await asyncio.sleep(0.2)
        await pilot.press("x")
        assert app.marks == [True], "the key was not handled while the flood was arriving"
        await app.feeding
        await pilot.pause(0.5)

        log = pane.query_one("#output-log")
        lines = [line for line in log.lines if line]
        assert log.max_lines is not None and len(log.lines) <= log.max_lines
        assert lines[-1] == flood_line(FLOOD_LINES - 1)
        first = int(lines[0].split()[1])
        assert lines == [flood_line(n) for n in range(first, FLOOD_LINES)], "the kept lines are not the last ones"
        assert 0 < pane.dropped <= first
        assert pane.received == len(text)
        assert f"{pane.dropped:,} lines dropped" in str(pane.query_one("#output-title", InfoLine).shown)
        visible = [log.render_line(y).text.rstrip() for y in range(log.size.height)]
        assert flood_line(FLOOD_LINES - 1) in visible, visible


async def test_chunks_are_joined_and_sanitised_across_boundaries() -> None:
    app = OutputApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(OutputPane)
        for chunk in ["\x1b[3", "1mred\x1b[0m bell\x07\n", "Enter a value: "]:
            pane.write(chunk)
        await pilot.pause(0.2)
        assert pane.query_one("#output-log").lines[-1] == "Enter a value: "
        pane.write("42\nd")
        pane.write("one\n")
        assert pane.text == "red bell^G\nEnter a value: 42\ndone\n"
        assert pane.dropped == 0 and str(pane.query_one("#output-title", InfoLine).shown) == "program output"
