"""The console pane under what a debugger can send: a flood of MI lines while the MI log is
hidden, lines of megabytes. (Quitting the app during a flood: tests/reliability/test_quit.py.)

The MI log is hidden until ctrl+t, and a hidden RichLog defers every write until it has a
size: that queue, unbounded, is where a flood of non-MI lines grew the app by hundreds of MB.
"""

from __future__ import annotations

import tracemalloc

from textual.app import App, ComposeResult
from textual.widgets import RichLog

from cudatui.gdbbridge.session.events import RawLine
from cudatui.tui.panes.console import SHOWN, ConsolePane

MAX_LINES = 100


class ConsoleApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ConsolePane(max_lines=MAX_LINES)


async def test_the_hidden_mi_log_holds_no_more_than_its_lines() -> None:
    """5,000 raw lines while the MI log is hidden: the memory they hold stays that of
    MAX_LINES lines; shown, the log has the last MAX_LINES of them."""
    app = ConsoleApp()
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one(ConsolePane)
        line = "not MI at all, a flood of text. " * 32
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for i in range(5_000):
                pane.log_raw(RawLine("out", f"{i:06d} {line}"))
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert held < 20 * MAX_LINES * len(line), f"{held:,} bytes held"
        pane.action_toggle_log()
        await pilot.pause()
        log = app.query_one("#mi-log", RichLog)
        await pilot.pause()
        shown = [strip.text for strip in log.lines]
        assert len(shown) == MAX_LINES and shown[-1].startswith("004999 ") and shown[0].startswith("004900 ")


async def test_a_line_of_megabytes_is_shown_cut() -> None:
    app = ConsoleApp()
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one(ConsolePane)
        pane.write("y" * (8 << 20) + "\nafter\n", "console")
        pane.action_toggle_log()
        pane.log_raw(RawLine("out", '~"' + "z" * (8 << 20) + '"'))
        pane.action_toggle_log()
        await pilot.pause()
        console = [strip.text for strip in app.query_one("#console-log", RichLog).lines]
        assert "".join(console).startswith("y" * SHOWN + f"… ({(8 << 20) - SHOWN:,} more characters)")
        assert console[-1] == "after"
        pane.action_toggle_log()
        await pilot.pause()
        raw = "".join(strip.text for strip in app.query_one("#mi-log", RichLog).lines)
        assert raw == '~"' + "z" * (SHOWN - 2) + f"… ({(8 << 20) + 3 - SHOWN:,} more characters)"


async def test_a_line_of_megabytes_in_pieces_is_cut_once_and_counted_whole() -> None:
    """``output big`` prints its megabytes without a line break and ``echo \\n`` ends the line: the
    count said 29 more characters (the line was cut again once it ended), and the partial line
    is held cut, not whole."""
    app = ConsoleApp()
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one(ConsolePane)
        for _ in range(4):
            pane.write("w" * (2 << 20), "console")
        assert len(pane._partial["console"][0]) == SHOWN
        pane.write("end\nnext", "console")
        pane.write(" line\n", "console")
        await pilot.pause()
        console = [strip.text.rstrip() for strip in app.query_one("#console-log", RichLog).lines]
        assert "".join(console[:-1]) == "w" * SHOWN + f"… ({(8 << 20) + 3 - SHOWN:,} more characters)"
        assert console[-1] == "next line"
