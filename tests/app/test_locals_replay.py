"""The Locals tree over a replayed real cuda-gdb session (recorded/tours/tile.jsonl, no GPU):
a kernel's locals with their address spaces, and a variable the recording never opened said to
be not in this recording, in its line, without an error."""

from __future__ import annotations

from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.variables_tree import VariablesTree
from tests.support.app import no_internal_errors, stopped_at, tree_rows
from tests.support.paths import ROOT, TOURS
from tests.support.replay import TILE_BREAKS, replay_config, sequential
from tests.support.wait import wait_for


async def test_opening_what_the_recording_never_opened_is_said_in_its_line(tmp_path) -> None:
    tour = sequential(TOURS / "tile.jsonl", tmp_path)
    app = DebuggerApp(replay_config(tour, *TILE_BREAKS, source_dirs=(str(ROOT / "kernels"),)))
    async with app.run_test(size=(160, 48)) as pilot:
        await stopped_at(pilot, app, 37)
        local = tree_rows(app)
        assert list(local) == ["dx", "dy", "sum", "tile", "cy", "cx"]
        assert local["tile"][2:] == ["@generic float (* @register)[18]", "@register"]
        tree = app.query_one(VariablesTree)
        tree.focus()
        tile = next(n for n in tree.lines() if n.data.path == ("tile",))
        assert tile.allow_expand and not next(n for n in tree.lines() if n.data.path == ("cy",)).allow_expand
        tree.move_cursor(tile)
        await pilot.press("right")
        await wait_for(pilot, lambda: any(k.startswith("tile.") for k in tree_rows(app)), why="the note under tile")
        note = [v for k, v in tree_rows(app).items() if k.startswith("tile.")]
        assert len(note) == 1 and note[0][1].startswith("not in this recording")
        assert no_internal_errors(app) and app.debugger.status.phase == "stopped"
        await pilot.press("left", "left")
        assert not any(k.startswith("tile.") for k in tree_rows(app))
