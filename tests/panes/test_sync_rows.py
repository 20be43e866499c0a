"""sync_rows: tables are diff-updated by row key (cursor kept, unchanged cells not rewritten)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from cudatui.tui.panes.base import PaneTable, sync_rows

COLUMNS = ("reg", "hex")


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        table: DataTable[Text] = DataTable(cursor_type="row")
        table.add_column("Reg", key="reg")
        table.add_column("Hex", key="hex")
        yield table


def keys(table: DataTable) -> list[str]:
    return [str(row.key.value) for row in table.ordered_rows]


def regs(*pairs: tuple[str, str]) -> dict[str, tuple[Text, Text]]:
    return {name: (Text(name), Text(value)) for name, value in pairs}


async def test_rows_are_diffed_by_key_and_the_cursor_follows_its_row():
    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(DataTable)
        sync_rows(table, COLUMNS, regs(("pc", "0x10"), ("R0", "0x1"), ("R2", "0x3")))
        await pilot.pause()
        table.move_cursor(row=2)
        updates = table._update_count
        sync_rows(table, COLUMNS, regs(("pc", "0x10"), ("R0", "0x1"), ("R2", "0x3")))
        assert table._update_count == updates, "unchanged cells were rewritten"
        sync_rows(table, COLUMNS, regs(("pc", "0x20"), ("R0", "0x1"), ("R2", "0x3")))
        assert table.get_cell("pc", "hex").plain == "0x20" and table.cursor_row == 2
        # R1 appears between R0 and R2 (a register no longer zero): order follows the new rows
        sync_rows(table, COLUMNS, regs(("pc", "0x20"), ("R0", "0x1"), ("R1", "0x7"), ("R2", "0x3")))
        assert keys(table) == ["pc", "R0", "R1", "R2"]
        assert table.cursor_row == 3, "the cursor left its row (R2)"
        sync_rows(table, COLUMNS, regs(("pc", "0x20"), ("R2", "0x3")))
        assert keys(table) == ["pc", "R2"] and table.cursor_row == 1


async def test_a_kept_row_whose_value_grows_widens_its_column():
    """The Stack's first row once showed ``leak_square`` for ``leak_square_plus_buggy`` (its cell
    rewritten in place, the column left at the old width, the rows added after it narrower)."""
    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(DataTable)
        sync_rows(table, COLUMNS, regs(("pc", "0x10")))
        await pilot.pause()
        sync_rows(table, COLUMNS, regs(("pc", "0x7ffff7e96000"), ("R0", "0x1")))
        await pilot.pause()
        assert table.columns["hex"].content_width >= len("0x7ffff7e96000")
        assert "0x7ffff7e96000" in "".join(s.text for s in table.render_line(1))


async def test_columns_are_rebuilt_only_when_their_keys_change():
    app = TableApp()
    async with app.run_test():
        table = app.query_one(DataTable)
        sync_rows(table, ("row", "0", "1"), {"0": (Text("0"), Text("1.5"), Text("2"))})
        assert [str(k.value) for k in table.columns] == ["row", "0", "1"]
        assert table.get_cell("0", "1").plain == "2"
        sync_rows(table, (), {})
        assert not table.columns and not table.rows


class PaneTableApp(App[None]):
    def compose(self) -> ComposeResult:
        table: PaneTable[str] = PaneTable(cursor_type="row")
        table.add_column("#", key="number")
        table.add_column("Condition", key="condition")
        yield table


async def test_a_wider_value_widens_its_column_and_is_shown_whole():
    app = PaneTableApp()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(PaneTable)
        sync_rows(table, ("number", "condition"), {"1": ("1", "")})
        await pilot.pause()
        sync_rows(table, ("number", "condition"), {"1": ("1", "depth == 3 && blockIdx.x < 3")})
        await pilot.pause()
        assert table.columns["condition"].content_width >= len("depth == 3 && blockIdx.x < 3")  # type: ignore[index]
        shown = "".join(strip.text for strip in table.render_lines(table.region.reset_offset))
        assert "depth == 3 && blockIdx.x < 3" in shown
        updates = table._update_count
        sync_rows(table, ("number", "condition"), {"1": ("1", "depth == 4")})  # narrower: its row only
        assert table._update_count == updates + 1


class FixedPaneTableApp(PaneTableApp):
    """The table at a fixed size (as the Warps table sits in its pane): a new row resizes nothing."""

    CSS = "PaneTable { height: 6; width: 70; }"


async def test_a_row_painted_before_the_table_measured_it_is_painted_again_at_the_new_widths():
    """Under load a new row was painted before DataTable measured it at idle: the Warps row read
    ``(2379`` and ``0x`` (cut at the labels' widths) in a CI run. DataTable keys a row's render
    on its update count, which measuring does not change, so the row stayed cut."""
    app = FixedPaneTableApp()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(PaneTable)
        sync_rows(table, ("number", "condition"), {"1": ("1", "depth == 3 && blockIdx.x < 3")})
        early = "".join(s.text for s in table.render_line(1))  # a paint before the table's idle
        assert "depth == 3 && blockIdx.x < 3" not in early
        await pilot.pause()
        assert table.columns["condition"].content_width >= len("depth == 3 && blockIdx.x < 3")  # type: ignore[index]
        assert "depth == 3 && blockIdx.x < 3" in "".join(s.text for s in table.render_line(1))


class CountingTable(PaneTable[str]):
    """A PaneTable that counts its row repaints (:meth:`refresh_row`)."""

    repaints = 0

    def refresh_row(self, row_index: int) -> CountingTable:
        self.repaints += 1
        super().refresh_row(row_index)
        return self


class ManyRowsApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CountingTable()


async def test_a_sync_that_changes_every_cell_of_many_rows_repaints_each_row_once_and_shows_them():
    """A shared array of 256 elements changed at a stop: each changed cell repainted its row, and
    DataTable found the row's place over all the rows after each cell (60-80% of such a step's UI
    part); the changed rows are repainted once each, at the end of the sync, and the whole table
    once where more rows changed than it shows. The screen shows every new value."""
    app = ManyRowsApp()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(CountingTable)
        columns = ("index", "value", "hex")
        sync_rows(table, columns, {f"r{i}": (f"[{i}]", f"{i}", f"0x{i:04x}") for i in range(300)})
        await pilot.pause()
        table.repaints = 0
        sync_rows(table, columns, {f"r{i}": (f"[{i}]", f"{i}", f"0x{i:04x}" if i % 50 else "0xffff") for i in range(300)})
        assert table.repaints == 5  # one per changed row (the widest of a column measures it)
        table.repaints = 0
        sync_rows(table, columns, {f"r{i}": (f"[{i}]", f"{i + 7}", f"0x{i + 7:04x}") for i in range(300)})
        assert table.repaints == 0  # more rows than it shows: the table repainted once (refresh)
        await pilot.pause()
        screen = app.export_screenshot()
        for i in range(5):  # the rows on the screen show their new values
            assert f"0x{i + 7:04x}" in screen and f"0x{i:04x}" not in screen  # no new value is under 0x0007
        assert all(f"0x{i + 7:04x}" in "".join(s.text for s in table.render_line(i + 1)) for i in range(15))
