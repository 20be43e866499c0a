"""The Focus pane in the app: the block and thread ranges of the nodes it has open are read by
the Debugger with the stop while the pane is on the screen; hidden, its open nodes ask nothing."""

from __future__ import annotations

from textual.widgets import Tree

from cudatui.gdbbridge import RawLine
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.focus import FocusNavigator
from tests.support.app import stopped_at
from tests.support.paths import TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.wait import wait_for
from tests.support.sent import commands_sent
from tests.app.test_shown_parts_replay import race_app, stopped


def blocks_sent(app: DebuggerApp) -> list[str]:
    """The ``-cuda-info-blocks`` the app's Debugger sends from now on."""
    return commands_sent(app.debugger, "-cuda-info-blocks")


def labels(pane: FocusNavigator) -> list[str]:
    tree = pane.query_one(Tree)
    return [str(tree.get_node_at_line(i).label) for i in range(tree.last_line + 1)]


async def test_opening_a_kernel_shows_the_stop_again_with_its_blocks() -> None:
    """inspect.jsonl's first stop: the kernel opened, the Debugger asks ``-cuda-info-blocks`` once
    and shows the stop again with them; a block range opened shows the threads of the stop's
    batch (asked at the breakpoint hit), asking nothing more."""
    app = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    sent: list[str] = []
    app.debugger.subscribe(lambda e: sent.append(e.text.lstrip("0123456789")) if isinstance(e, RawLine)
                           and e.direction == "in" and "-cuda-info-" in e.text else None)
    async with app.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, app, 9)
        pane = app.query_one(FocusNavigator)
        app.show_pane("focus")
        await wait_for(pilot, lambda: pane.display and pane.state is not None and len(labels(pane)) == 2,
                       why="the Focus pane shown with the stop's kernel")
        first = pane.state
        assert first.blocks is None and "-cuda-info-blocks" not in sent
        threads = sent.count("-cuda-info-threads")
        tree = pane.query_one(Tree)
        tree.focus()
        tree.move_cursor_to_line(1)
        await pilot.press("space")
        await wait_for(pilot, lambda: labels(pane)[2:] == ["* blocks (0,0,0)-(3,0,0) ×4 running"],
                       why="the stop shown again with its blocks")
        assert pane.state.stop is first.stop and pane.state.generation > first.generation
        assert sent.count("-cuda-info-blocks") == 1
        await pilot.press("down", "space")  # a block range: the threads of the stop's batch
        await wait_for(pilot, lambda: labels(pane)[3:] == ["* (0,0,0)(0,0,0)-(3,0,0)(255,0,0) ×1024 bugs.cu:9"])
        assert sent.count("-cuda-info-threads") == threads


async def test_a_hidden_focus_panes_open_kernel_asks_nothing() -> None:
    """race.jsonl.gz (recorded through the UI on an H200, no Focus node opened: its blocks are
    not in the recording, which the pane says): hidden, the open kernel asks nothing at a step;
    shown again, its blocks are asked at that stop."""
    app = race_app()
    sent = blocks_sent(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: stopped(app))
        first = app.debugger.state
        pane = app.query_one(FocusNavigator)
        app.show_pane("focus")
        await wait_for(pilot, lambda: pane.display and pane.state is first and len(labels(pane)) == 2)
        tree = pane.query_one(Tree)
        tree.focus()
        tree.move_cursor_to_line(1)
        await pilot.press("space")
        await wait_for(pilot, lambda: labels(pane)[2:3] and labels(pane)[2].startswith("cannot list ranges: not in this"),
                       why=lambda: labels(pane))
        assert len(sent) == 1 and pane.state.stop is first.stop

        app.show_pane("locals")  # the Focus pane hidden, its kernel still open
        await wait_for(pilot, lambda: not pane.display)
        shown = app.debugger.state
        await pilot.press("n")
        await wait_for(pilot, lambda: stopped(app, shown.generation) and app.debugger.state.stop is not first.stop)
        stepped = app.debugger.state
        assert stepped.kernels and stepped.blocks is None and not sent[1:]
        await wait_for(pilot, lambda: pane.state is stepped)
        assert pane.query_one(Tree).get_node_at_line(1).is_expanded  # the kernel stays open

        app.show_pane("focus")  # shown again: its open kernel's blocks are asked at this stop
        await wait_for(pilot, lambda: app.debugger.state.blocks is not None, why="the stop shown again with its blocks")
        assert app.debugger.state.stop is stepped.stop and len(sent) == 2
