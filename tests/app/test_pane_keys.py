"""A key for every pane (1-9, O, G, M): it shows the pane, even one in a tab, and focuses it, at
80x24, 120x36 and 160x48; the palette has "Show <pane>" and help lists the keys, as typed."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.widgets import Static

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.noticing import focused_pane
from cudatui.tui.apps.pane_keys import PaneKeysApp
from cudatui.tui.screens.help import HelpScreen
from tests.support.app import phase
from tests.support.paths import TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.screen import screen_rows
from tests.support.wait import wait_for

SIZES = [(80, 24), (120, 36), (160, 48)]
KEYS = {b.key: b.action.split("'")[1] for b in PaneKeysApp.BINDINGS}


def oob() -> DebuggerApp:
    return DebuggerApp(replay_config(TRANSCRIPTS / "oob.jsonl", source_dirs=(str(TRANSCRIPTS),)))


def help_rows(app: DebuggerApp) -> list[str]:
    console = Console(width=100, record=True, file=io.StringIO())
    for static in app.screen.query(Static):
        console.print(static.content)
    return [" ".join(line.split()) for line in console.export_text().splitlines()]


@pytest.mark.parametrize("size", SIZES)
async def test_each_pane_key_shows_and_focuses_its_pane(size) -> None:
    app = oob()
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        for key, pane_id in [*KEYS.items(), ("1", "source")]:
            pane = app.query_one(f"#{pane_id}")
            await pilot.press(key)
            await wait_for(pilot, lambda: focused_pane(app.focused) is pane, why=f"{key} to focus {pane_id}")
            await pilot.pause()
            region = pane.region
            assert pane.display and region.height >= 2 and region.width >= 20, (key, pane_id, region)
            rows = screen_rows(app)
            assert any(row[region.x:region.right].strip() for row in rows[region.y:region.bottom]), (key, pane_id)
        await app.action_quit()


async def test_a_pane_key_ends_the_zoom_of_another_pane() -> None:
    app = oob()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("2", "z")
        await wait_for(pilot, lambda: app.screen.maximized is app.query_one("#locals"))
        await pilot.press("8")
        await wait_for(pilot, lambda: app.screen.maximized is None and focused_pane(app.focused) is app.query_one("#disassembly"))
        await app.action_quit()


async def test_the_palette_shows_each_pane_and_help_lists_the_keys_as_typed() -> None:
    app = oob()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        commands = {(c.title, c.help) for c in app.get_system_commands(app.screen)}
        assert {("Show Warps", "key: 4"), ("Show Sanitize", "key: M"), ("Show GPU", "key: G")} <= commands
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = help_rows(app)
        for row in ("1 Show Source", "4 Show Warps", "O Show Output", "! Notices log", "] Page +", "[ Page -",
                    "+ / = / ctrl+↓ Pane taller", "? Help", "ctrl+t MI log", "→ / ⏎ / space Open a struct, array or pointer"):
            assert row in rows, row
        joined = "\n".join(rows)
        for raw in ("right_square_bracket", "equals_sign", "question_mark", "exclamation_mark", "Open the full-screen guide"):
            assert raw not in joined
        assert [r for r in rows if r.startswith("q ")] == ["q Quit"]
        assert "Variables tree" not in rows  # its keys are the Locals pane's rows
        await pilot.press("2")
        assert isinstance(app.screen, HelpScreen)  # a dialog keeps the pane keys out
        await app.action_quit()


async def help_on_screen(app: DebuggerApp, pilot) -> list[str]:
    """Every row the help box shows, read on the screen page by page (pagedown until the last
    page), each row's words joined by one space."""
    box = app.screen.query_one(VerticalScroll)
    seen: list[str] = []
    while True:
        await pilot.pause()
        region = box.scrollable_content_region  # inside the border, without the scrollbar
        for row in screen_rows(app)[region.y:region.bottom]:
            inside = " ".join(row[region.x:region.right].split())
            if inside and inside not in seen:
                seen.append(inside)
        if box.scroll_y >= box.max_scroll_y:
            return seen
        before = box.scroll_y
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: before < box.scroll_y == box.scroll_target_y,  # its scroll ended: no rows skipped
                       why="the next page of the help")


@pytest.mark.parametrize("size", SIZES)
async def test_on_the_screen_help_lists_each_pane_key_as_typed_and_the_palette_shows_it(size) -> None:
    app = oob()
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = await help_on_screen(app, pilot)
        for row in ("1 Show Source", "4 Show Warps", "9 Show Shared", "O Show Output", "G Show GPU", "M Show Sanitize",
                    "! Notices log", "] Page +", "[ Page -", "+ / = / ctrl+↓ Pane taller", "? Help", "ctrl+t MI log"):
            assert row in rows, (row, rows)
        assert any(r.startswith("→ / ⏎ / space Open a struct") for r in rows), rows
        joined = "\n".join(rows)
        for raw in ("right_square_bracket", "left_square_bracket", "equals_sign", "question_mark", "exclamation_mark",
                    "Open the full-screen guide"):
            assert raw not in joined
        assert [r for r in rows if r.startswith("q ")] == ["q Quit"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        for typed, title, key in (("show warps", "Show Warps", "key: 4"), ("show sanit", "Show Sanitize", "key: M")):
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
            await pilot.press(*typed)
            await wait_for(pilot, lambda: any(r.strip() == title for r in screen_rows(app))
                           and any(r.strip() == key for r in screen_rows(app)), why=f"{title} in the palette")
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette))
        await app.action_quit()


async def test_a_lessons_help_lists_q_once_as_what_it_does_there() -> None:
    """In a lesson q goes back to the picker: help says that, and no "q Quit" beside it."""
    from cudatui.tui.apps.demo_app import DemoApp
    from cudatui.tui.plans.demo_plan import plan_demo

    app = DemoApp(plan_demo("tile", "replay"))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = help_rows(app)
        assert [r for r in rows if r.startswith("q ")] == ["q Back to the lesson picker (ctrl+q quits)"]
        assert "⏎ Open the full-screen guide" in rows and "1 Show Source" in rows
        await app.action_quit()
