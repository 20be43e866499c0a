"""Partial repaints leave nothing stale: panes repaint only the lines and table rows a stop
changed, so after each stop the screen as painted must equal the screen rendered from scratch
(every widget's render caches dropped), over replayed real cuda-gdb stops at 160x48. And the
screen updates render only the widgets and rows that overlap the changed regions
(``LaidOutCompositor.render_partial_update``): what they wrote to the terminal, applied as a
terminal does, must equal a full render of the screen after each stop, at both sizes."""

from __future__ import annotations

import html
import re

import pytest
from textual.pilot import Pilot

from cudatui.tui.apps.debugger_app import DebuggerApp
from tests.support.app import goto_focus, status, stopped_at, tree_rows
from tests.support.paths import ROOT, TOURS
from tests.support.screen import Painted, screen_rows
from tests.support.replay import TILE_BREAKS, replay_config, sequential
from tests.support.wait import wait_for


async def painted(app: DebuggerApp, pilot: Pilot) -> str:
    """The screen as the last updates left it, once the stop's fetches are shown."""
    await app.workers.wait_for_complete()
    app.clear_notifications()
    await pilot.pause()
    return app.export_screenshot()


async def from_scratch(app: DebuggerApp, pilot: Pilot) -> str:
    """The same screen with every widget rendered again without its caches."""
    for widget in app.screen.walk_children(with_self=True):
        widget.notify_style_update()
        widget.refresh()
    await pilot.pause()
    return app.export_screenshot()


def rows(svg: str) -> dict[int, str]:
    """The screen's text, row by row, from an exported screenshot."""
    found: dict[int, str] = {}
    for row, text in re.findall(r'<text[^>]*clip-path="url\(#terminal-\d+-line-(\d+)\)"[^>]*>([^<]*)</text>', svg):
        found[int(row)] = found.get(int(row), "") + html.unescape(text).replace("\xa0", " ").rstrip("\n")
    return found


def differences(painted: str, rendered: str) -> str:
    """The rows whose text differs (or that the styles alone differ), for the failure message."""
    a, b = rows(painted), rows(rendered)
    lines = [f"row {r}:\n  painted:  {a.get(r, '')!r}\n  rendered: {b.get(r, '')!r}"
             for r in sorted(set(a) | set(b)) if a.get(r) != b.get(r)]
    return "\n".join(lines) or "the same text: the styles differ"


async def test_each_stop_paints_what_a_full_render_shows(tmp_path) -> None:
    tour = sequential(TOURS / "tile.jsonl", tmp_path)
    app = DebuggerApp(replay_config(tour, *TILE_BREAKS, source_dirs=(str(ROOT / "kernels"),)))
    async with app.run_test(size=(160, 48)) as pilot:

        async def same(what: str) -> None:
            screen = await painted(app, pilot)
            again = await from_scratch(app, pilot)
            assert screen == again, f"stale lines on screen after {what}:\n{differences(screen, again)}"

        await stopped_at(pilot, app, 37)
        app.query_one("#source-view").focus()
        await same("the first stop")
        await goto_focus(pilot, app, "block (1,0,0) thread (7,0,0)")
        await stopped_at(pilot, app, 28)
        await same("a focus switch to another block")
        await goto_focus(pilot, app, "warp 2 lane 3")
        await wait_for(pilot, lambda: tree_rows(app)["tx"][1] == "7")
        await same("a focus switch to a lane")
        for key, line in (("n", 22), ("n", 30), ("s", 48)):
            await pilot.press(key)
            await stopped_at(pilot, app, line)
            await same(f"'{key}' to line {line}")
        await pilot.press("c")
        await wait_for(pilot, lambda: status(app)[0] == "exited")
        await same("the exit")


@pytest.mark.parametrize("size", [(160, 48), (80, 24)], ids=["160x48", "80x24"])
async def test_what_the_updates_wrote_to_the_terminal_is_the_screen(tmp_path, size: tuple[int, int]) -> None:
    """Each stop's updates (a source line, table rows, the status bar, a dialog gone: far apart
    on the screen) reach the terminal whole: the terminal shows what a full render shows."""
    tour = sequential(TOURS / "tile.jsonl", tmp_path)
    app = DebuggerApp(replay_config(tour, *TILE_BREAKS, source_dirs=(str(ROOT / "kernels"),)))
    async with app.run_test(size=size) as pilot:
        terminal = Painted(app)

        async def shown(what: str) -> None:
            await app.workers.wait_for_complete()
            app.clear_notifications()
            await pilot.pause()
            await wait_for(pilot, lambda: terminal.rows() == screen_rows(app), timeout=10,
                           why=lambda: f"the terminal to show the screen after {what}:\n" + "\n".join(
                               f"row {y}:\n  terminal: {a!r}\n  screen:   {b!r}"
                               for y, (a, b) in enumerate(zip(terminal.rows(), screen_rows(app))) if a != b))

        await stopped_at(pilot, app, 37)
        await shown("the first stop")
        await goto_focus(pilot, app, "block (1,0,0) thread (7,0,0)")
        await stopped_at(pilot, app, 28)
        await shown("a focus switch to another block")
        await goto_focus(pilot, app, "warp 2 lane 3")
        await wait_for(pilot, lambda: tree_rows(app)["tx"][1] == "7")
        await shown("a focus switch to a lane")
        for key, line in (("n", 22), ("n", 30), ("s", 48)):
            await pilot.press(key)
            await stopped_at(pilot, app, line)
            await shown(f"'{key}' to line {line}")
        await pilot.press("c")
        await wait_for(pilot, lambda: status(app)[0] == "exited")
        await shown("the exit")
