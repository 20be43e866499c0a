"""Focus navigator over the real reduce_racy tables (inspect.jsonl): lazy ranges, selection, go to."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import Tree

from cudatui.tui.panes.focus import FocusNavigator
from tests.support.panes import PaneApp, Replay, first_stop
from tests.support.wait import wait_for
from tests.support.sent import commands_sent


def blocks_sent(replay: Replay) -> list[str]:
    """The ``-cuda-info-blocks`` the Debugger sends from now on."""
    return commands_sent(replay.debugger, "-cuda-info-blocks")


def labels(pane: FocusNavigator) -> list[str]:
    tree = pane.query_one(Tree)
    return [str(tree.get_node_at_line(i).label) for i in range(tree.last_line + 1)]


async def test_expand_ranges_lazily_and_select_posts_focus_requests():
    pane = FocusNavigator()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert labels(pane) == [
            "* device 0 NVIDIA H200 sm_90 · 132 SMs",
            "* kernel 0 reduce_racy  grid (4,1,1) block (256,1,1) · 1,024 thr",
        ]
        assert "block (0,0,0) thread (0,0,0)" in str(pane.query_one("#focus-title").render())
        pane.query_one(Tree).focus()
        assert pane.query_one(Tree).cursor_line == 1  # the current kernel
        await pilot.press("space")
        await wait_for(pilot, lambda: len(labels(pane)) == 3 and "loading" not in labels(pane)[2])
        assert labels(pane)[2] == "* blocks (0,0,0)-(3,0,0) ×4 running"
        await pilot.press("down", "space")
        await wait_for(pilot, lambda: len(labels(pane)) == 4 and "loading" not in labels(pane)[3])
        assert labels(pane)[3] == "* (0,0,0)(0,0,0)-(3,0,0)(255,0,0) ×1024 bugs.cu:9"
        await pilot.press("down", "enter")
        await pilot.press("up", "enter", "up", "enter", "up", "enter")
        assert app.requests == ["block (0,0,0) thread (0,0,0)", "block (0,0,0)", "kernel 0", "device 0"]


async def test_goto_normalises_input_and_rejects_garbage_in_one_line():
    pane = FocusNavigator()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.press("g", *"block 3 thread (200)", "enter")
        assert app.requests == ["block (3,0,0) thread (200,0,0)"]
        await pilot.press("g", *"blok 3", "enter")
        assert app.requests == ["block (3,0,0) thread (200,0,0)"]
        assert pane.notice.startswith("cannot read focus 'blok 3'") and "\n" not in pane.notice


async def test_requested_switch_is_quiet_but_a_stop_elsewhere_is_announced():
    pane = FocusNavigator()

    async def script(app: PaneApp, replay: Replay) -> None:
        first = await replay.state(await replay.resume())
        app.show(first)
        app.show(await replay.switch_focus("block (3,0,0) thread (200,0,0)"))
        app.notice_after_switch = pane.notice  # type: ignore[attr-defined]
        stepped = await replay.state(await replay.resume("-exec-next"))
        app.show(stepped)
        app.notice_after_step = pane.notice  # type: ignore[attr-defined]
        # the real step's stop, shown right after the first stop (as when the switch happened elsewhere)
        app.show(replace(first, generation=stepped.generation + 1))
        app.show(replace(stepped, generation=stepped.generation + 2))

    app = PaneApp(pane, "inspect.jsonl", script)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert app.notice_after_switch == app.notice_after_step == ""  # type: ignore[attr-defined]
        assert pane.notice == (
            "focus moved to block (3,0,0) thread (200,0,0) by cuda-gdb (end-stepping-range), from block (0,0,0) thread (0,0,0)"
        )


async def test_a_step_updates_the_tree_in_place():
    """race.jsonl holds no ``-cuda-info-blocks``: the open kernel says why it lists nothing, at
    each stop, asked once per stop."""
    pane = FocusNavigator()

    async def script(app: PaneApp, replay: Replay) -> None:
        app.sent = blocks_sent(replay)  # type: ignore[attr-defined]
        app.show(await replay.state(await replay.resume()))

    app = PaneApp(pane, "../recorded/tours/race.jsonl", script)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        tree = pane.query_one(Tree)
        kernel = tree.get_node_at_line(1)
        tree.focus()
        await pilot.press("space")
        await wait_for(pilot, lambda: len(labels(pane)) == 3 and "loading" not in labels(pane)[2])
        assert labels(pane)[2].startswith("cannot list ranges: not in this recording")
        assert len(app.sent) == 1 and app.ranges == [(True, False)]  # type: ignore[attr-defined]
        first = pane.state
        stepped = await app.replay.state(await app.replay.resume("-exec-next"))
        await wait_for(pilot, lambda: pane.state is stepped)
        # the same nodes stay (expanded, cursor kept); only their labels could change
        assert stepped.stop is not first.stop and stepped.blocks is not None and len(app.sent) == 2  # type: ignore[attr-defined]
        assert tree.get_node_at_line(1) is kernel and kernel.is_expanded
        assert labels(pane)[:2] == [
            "* device 0 NVIDIA H200 sm_90 · 132 SMs",
            "* kernel 0 reduce_racy  grid (4,1,1) block (256,1,1) · 1,024 thr",
        ]
        assert len(labels(pane)) == 3 and labels(pane)[2].startswith("cannot list ranges: not in this recording")


async def test_a_refused_thread_table_is_said_under_the_open_block_range():
    pane = FocusNavigator()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        pane.query_one(Tree).focus()
        await pilot.press("space")
        await wait_for(pilot, lambda: labels(pane)[2:] == ["* blocks (0,0,0)-(3,0,0) ×4 running"])
        await pilot.press("down", "space")
        await wait_for(pilot, lambda: len(labels(pane)) == 4)
        assert app.ranges == [(True, False), (True, True)]
        state = pane.state
        assert state is not None
        # the same stop shown again with the thread table refused (what its batch keeps from gdb's answer)
        app.show(replace(state, generation=state.generation + 1, threads=(), threads_error="Focus not set on any active CUDA kernel."))
        await pilot.pause()
        assert labels(pane)[3] == "cannot list ranges: Focus not set on any active CUDA kernel."
