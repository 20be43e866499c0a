"""A table that grows is painted whole on the terminal, also when the screen's map was arranged
again before the layout pass that grows it (tui/textual_compat.py, ``LaidOutCompositor``).

At the first stop under load, the Stack pane's frame row stayed blank on the terminal (the
table's lines rendered with the frame, never sent): the table asked for a repaint at its old
height of one row (its header); an update of a widget not on the screen (the host frames'
table, hidden) left the compositor's map stale, and a region asked for then arranged the map
again, already with the table two rows high; the layout pass found nothing moved, and marked
only the row the table had asked for. The test replays that order and reads the terminal."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from cudatui.tui.panes.base import PaneTable
from cudatui.tui.textual_compat import SameSizeScreen
from tests.support.screen import Painted, screen_rows
from tests.support.wait import wait_for


class Frames(SameSizeScreen):
    DEFAULT_CSS = """
    #frames { height: auto; }
    #host { display: none; }
    """

    def compose(self) -> ComposeResult:
        for table_id in ("frames", "host"):
            table: PaneTable[str] = PaneTable(id=table_id)
            table.add_columns("#", "Function")
            yield table


class Stack(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Frames())


async def test_a_table_grown_after_the_map_was_arranged_again_is_painted_whole() -> None:
    app = Stack()
    async with app.run_test(size=(40, 6)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, Frames) and screen_rows(app)[0].startswith(" # "))
        painted = Painted(app)
        app.screen.refresh()
        await wait_for(pilot, lambda: painted.rows()[0].startswith(" # "), why="the first paint")
        frames, host = app.screen.query_one("#frames", DataTable), app.screen.query_one("#host", DataTable)
        with app.batch_update():  # the screen lays out and paints nothing meanwhile
            frames.add_row("0", "relu_buggy")
            await wait_for(pilot, lambda: frames.virtual_size.height == 2,
                           why="the table measured its row (and asked for a layout and a repaint, at one row)")
            app.screen._compositor.update_widgets({host})  # the hidden table's update: the map is stale
            assert frames.region.height == 2  # a region asked for: the map arranged again, the table grown
        await wait_for(pilot, lambda: screen_rows(app)[1].startswith(" 0 "), why="the row rendered")
        await wait_for(pilot, lambda: painted.rows()[1].startswith(" 0 "),
                       why=lambda: f"the grown row painted on the terminal, not {painted.rows()[:3]}")
