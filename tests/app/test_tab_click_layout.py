"""Clicks on the workspace's tabs that the busy app takes together with what comes next.

A tab clicked while the workspace is laid out again (a stop's banner going away resizes it)
stays chosen: the workspace takes the tab the tab row shows, not the one it had selected before
the click's message reached it (tui/apps/layout.py). Before, the layout selected the old tab
again and the two tab messages then selected each other's tab in turn, for ever (the assert walk
at 160x48: the Stack tab clicked, Sanitize shown).

A table clicked right after its tab keeps the focus (tui/textual_compat.py,
``TabsFocusedOnPress``): Textual's tab row focused itself again once the tab's click message
reached it, after the table's press had focused the table, and ``d`` went to the tab row (the
oob and uninit walks at 80x24: ``Sanitize: d`` never stopped)."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.message import Message
from textual.widgets import DataTable, Tabs

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.layout import Workspace
from tests.app.test_layout import shown, tile_app, tile_stop
from tests.support.screen import screen_text
from tests.support.wait import wait_for


async def test_a_tab_clicked_as_the_workspace_is_resized_stays_chosen(tmp_path: Path) -> None:
    activated: list[str] = []

    def hook(message: Message) -> None:
        if isinstance(message, Tabs.TabActivated) and message.tab.id:
            activated.append(message.tab.id)

    app = tile_app(tmp_path)
    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        await tile_stop(pilot, app)
        app.show_pane("sanitizer")
        await pilot.pause()
        assert shown(app) == {"locals", "focus", "warps", "sanitizer"}
        tabs, workspace = app.query_one("#side-tabs", Tabs), app.query_one(Workspace)
        tabs.active = "tab-stack"  # what a click on the Stack tab does; its TabActivated is on its way
        workspace.post_message(events.Resize(workspace.size, workspace.virtual_size))  # laid out before it comes
        await wait_for(pilot, lambda: shown(app) == {"locals", "focus", "warps", "stack"},
                       why=lambda: f"the Stack pane shown, not {shown(app)} (tabs: {activated[-6:]})")
        settled = len(activated)
        for _ in range(3):
            await pilot.pause()
        assert len(activated) == settled, f"the tabs keep changing: {activated[settled:][:8]}"
        assert tabs.active == "tab-stack"
        text = screen_text(app)
        assert "╭─ Stack " in text and "╭─ Sanitize " not in text, text


def driver_click(app: DebuggerApp, x: int, y: int) -> None:
    """A press and release at (x, y) as the terminal driver posts them (App.on_event makes the click)."""
    for kind in (events.MouseDown, events.MouseUp):
        app.post_message(kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))


async def test_a_table_clicked_right_after_its_tab_keeps_the_focus(tmp_path: Path) -> None:
    app = tile_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await tile_stop(pilot, app)
        app.show_pane("sanitizer")
        app.show_pane("stack")
        await pilot.pause()
        tab = app.query_one("#tab-sanitizer").region
        driver_click(app, tab.x + 1, tab.y)
        await wait_for(pilot, lambda: shown(app) == {"sanitizer"})
        table = app.query_one("#sanitizer-table", DataTable)
        driver_click(app, tab.x + 1, tab.y)  # the tab again (a click a busy app seemed to lose), then the table
        driver_click(app, table.region.x + 4, table.region.y)  # its header: in the same turn
        await wait_for(pilot, lambda: app.focused is table, why=lambda: f"the findings table focused, not {app.focused}")
        for _ in range(3):
            await pilot.pause()
        assert app.focused is table, f"the focus went to {app.focused}"
        assert "Debug finding" in screen_text(app).splitlines()[-1], "the footer shows the table's keys"
