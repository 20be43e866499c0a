"""The layout at 80x24 and 160x48 (replayed recordings and a GNU gdb C program with fifteen
locals), the re-layout on every resize, the zoom, the splits moved by key and by mouse, and the
splits kept in the config directory across runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Tabs

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.layout import COLUMN, SIDE_PANES, Workspace
from cudatui.tui.apps.layout_settings import Splits, layout_file
from cudatui.tui.panes.variables_tree import VariablesTree
from tests.support.app import gdb_config, messages, no_internal_errors, stopped_at, tree_rows
from tests.support.paths import C_SOURCES, ROOT, TOURS
from tests.support.programs import compile_c, marked_line, needs_gdb
from tests.support.replay import TILE_BREAKS, replay_config, sequential
from tests.support.wait import wait_for

LOCALS15 = C_SOURCES / "layout" / "locals15.c"
LOCALS15_BREAK = marked_line(LOCALS15, "/* BREAK */")


def tile_app(tmp_path: Path) -> DebuggerApp:
    tmp_path.mkdir(parents=True, exist_ok=True)
    tour = sequential(TOURS / "tile.jsonl", tmp_path)
    return DebuggerApp(replay_config(tour, *TILE_BREAKS, source_dirs=(str(ROOT / "kernels"),)))


def shown(app: DebuggerApp) -> set[str]:
    """The side panes on the screen (displayed with a non-empty region)."""
    return {spec.id for spec in SIDE_PANES if app.query_one(f"#{spec.id}").region.area > 0}


def region(app: DebuggerApp, selector: str) -> Region:
    return app.query_one(selector).region


def assert_wide(app: DebuggerApp) -> None:
    assert app.query_one(Workspace).has_class("-wide")
    assert shown(app) == {"locals", "focus", "warps", "stack"}
    source, locals_ = region(app, "#source"), region(app, "#locals")
    assert source.width > app.size.width / 2 and locals_.x >= source.right
    assert locals_.height > app.size.height / 3  # tall: more than a third of the screen
    focus, warps = region(app, "#focus"), region(app, "#warps")
    assert locals_.bottom <= focus.y < warps.y and focus.x == warps.x == locals_.x
    tabs = app.query_one("#side-tabs", Tabs)
    assert {t.id for t in tabs.query("Tab.-hidden")} == {f"tab-{pane}" for pane in COLUMN}
    assert region(app, "#side-tabs").y > source.bottom - 1  # the tabbed panes under the source


def assert_narrow(app: DebuggerApp, pane: str) -> None:
    assert not app.query_one(Workspace).has_class("-wide")
    assert shown(app) == {pane}
    source, tabs, shown_pane = region(app, "#source"), region(app, "#side-tabs"), region(app, f"#{pane}")
    assert source.width == tabs.width == shown_pane.width == app.size.width
    assert source.height >= 5 and shown_pane.height >= 5
    assert source.bottom <= tabs.y < tabs.bottom <= shown_pane.y
    assert not app.query_one("#side-tabs", Tabs).query("Tab.-hidden")


async def tile_stop(pilot: Pilot, app: DebuggerApp) -> None:
    await stopped_at(pilot, app, 37)
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_160x48_source_wide_locals_tall_cuda_views_next_rest_in_tabs(tmp_path: Path) -> None:
    app = tile_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await tile_stop(pilot, app)
        assert_wide(app)
        app.show_pane("console")
        await pilot.pause()
        assert shown(app) == {"locals", "focus", "warps", "console"}
        assert no_internal_errors(app)


async def test_80x24_source_and_one_pane_the_rest_in_tabs(tmp_path: Path) -> None:
    app = tile_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await tile_stop(pilot, app)
        assert_narrow(app, "locals")
        assert tree_rows(app)
        for pane in ("focus", "warps", "stack", "console"):
            app.show_pane(pane)
            await pilot.pause()
            assert_narrow(app, pane)
        await pilot.click("#tab-locals")
        await pilot.pause()
        assert_narrow(app, "locals")


async def test_every_resize_lays_the_screen_out_for_its_size(tmp_path: Path) -> None:
    app = tile_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await tile_stop(pilot, app)
        assert_wide(app)
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: region(app, "#main").width == 80)
        await pilot.pause()
        assert_narrow(app, "locals")
        app.show_pane("console")
        await pilot.resize_terminal(160, 48)
        await wait_for(pilot, lambda: region(app, "#main").width == 160)
        await pilot.pause()
        assert shown(app) == {"locals", "focus", "warps", "console"}
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: region(app, "#main").width == 80)
        await pilot.pause()
        assert_narrow(app, "console")  # the tab chosen stays chosen


@needs_gdb
@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
async def test_fifteen_locals_of_a_c_function(tmp_path: Path, size: tuple[int, int]) -> None:
    program = compile_c(LOCALS15, tmp_path / "locals15")
    app = DebuggerApp(gdb_config(program, f"locals15.c:{LOCALS15_BREAK}"))
    async with app.run_test(size=size) as pilot:
        await stopped_at(pilot, app, LOCALS15_BREAK)
        await wait_for(pilot, lambda: len(tree_rows(app)) == 15, why="the 15 locals")
        await pilot.pause()
        names = list(tree_rows(app))
        assert names[:3] == ["x", "y", "width"] and "diff" in names and "far" in names
        tree = app.query_one(VariablesTree)
        height = tree.scrollable_content_region.height
        lines = {".".join(n.data.path): n.line for n in tree.lines()}
        if size == (160, 48):  # every local on screen, no scrolling
            assert tree.scroll_offset.y == 0 and all(lines[name] < height for name in names), (height, lines)
        else:
            assert height >= 4  # usable: the lines scroll in the tab below the source
        assert no_internal_errors(app)


async def test_z_zooms_the_focused_pane_and_back_escape_leaves_the_zoom(tmp_path: Path) -> None:
    app = tile_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await tile_stop(pilot, app)
        locals_before = region(app, "#locals")
        app.query_one(VariablesTree).focus()
        await pilot.press("z")
        await pilot.pause()
        assert app.screen.maximized is app.query_one("#locals")
        zoomed = region(app, "#locals")
        assert zoomed.width == 160 and zoomed.height >= 48 - 3  # all but the status bar and the footer
        assert region(app, "#source").area == 0
        await pilot.press("z")
        await pilot.pause()
        assert app.screen.maximized is None and region(app, "#locals") == locals_before
        app.query_one("#source-view").focus()
        await pilot.press("z")
        await pilot.pause()
        assert app.screen.maximized is app.query_one("#source") and region(app, "#source").width == 160
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.maximized is None
        assert_wide(app)
        assert not layout_file().exists() or "zoom" not in layout_file().read_text()


async def test_keys_move_the_splits_and_the_sizes_are_saved(tmp_path: Path) -> None:
    app = tile_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await tile_stop(pilot, app)
        app.query_one("#source-view").focus()
        left, source = region(app, "#left").width, region(app, "#source").height
        await pilot.press("ctrl+right", "ctrl+right")
        await pilot.pause()
        assert region(app, "#left").width == left + 8
        await pilot.press("ctrl+left")
        await pilot.pause()
        assert region(app, "#left").width == left + 4
        await pilot.press("plus")
        await pilot.pause()
        assert region(app, "#source").height == source + 2
        app.query_one(VariablesTree).focus()
        locals_height = region(app, "#locals").height
        await pilot.press("minus")
        await pilot.pause()
        assert region(app, "#locals").height == locals_height - 2
        await pilot.press("ctrl+right")  # Locals wider: the source column narrower
        await pilot.pause()
        assert region(app, "#left").width == left
        saved = json.loads(layout_file().read_text())["splits"]
        assert saved == {**saved, "columns": app.query_one(Workspace).splits.columns}
        assert saved["source"] > Splits().source and saved["locals"] < Splits().locals


async def test_dragging_a_splitter_moves_its_split(tmp_path: Path) -> None:
    app = tile_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await tile_stop(pilot, app)
        assert region(app, "#left").width != 70
        await pilot.mouse_down("#split-columns")
        await pilot.hover("#main", offset=(70, 20))
        await pilot.mouse_up("#main", offset=(70, 20))
        await pilot.pause()
        assert region(app, "#left").width == 70 and region(app, "#split-columns").x == 70
        source_top = region(app, "#source").y
        await pilot.mouse_down("#split-source")
        await pilot.hover("#main", offset=(30, 12))
        await pilot.mouse_up("#main", offset=(30, 12))
        await pilot.pause()
        assert region(app, "#split-source").y == region(app, "#main").y + 12
        assert region(app, "#source").y == source_top
        assert json.loads(layout_file().read_text())["splits"]["columns"] == round(70 / 160, 4)


async def test_the_saved_layout_comes_back_in_the_next_run(tmp_path: Path) -> None:
    first = tile_app(tmp_path / "one")
    async with first.run_test(size=(160, 48)) as pilot:
        await tile_stop(pilot, first)
        first.query_one("#source-view").focus()
        await pilot.press("ctrl+left", "ctrl+left", "minus")
        await pilot.pause()
        sizes = region(first, "#left"), region(first, "#source"), region(first, "#locals")
    second = tile_app(tmp_path / "two")
    async with second.run_test(size=(160, 48)) as pilot:
        await tile_stop(pilot, second)
        assert (region(second, "#left"), region(second, "#source"), region(second, "#locals")) == sizes


@pytest.mark.parametrize("content", ["{not json", '{"splits": [1, 2]}', "\xff\xfe"])
async def test_a_corrupt_layout_file_is_ignored_with_a_warning(tmp_path: Path, content: str) -> None:
    layout_file().parent.mkdir(parents=True, exist_ok=True)
    layout_file().write_bytes(content.encode("latin-1"))
    app = tile_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: any("layout file" in m and "ignored" in m for m in messages(app, "warning")))
        await tile_stop(pilot, app)
        assert app.query_one(Workspace).splits == Splits()
        assert_wide(app)
        assert no_internal_errors(app)
