"""Warps pane over real warps/lanes tables: inspect.jsonl, divergent.jsonl and oob.jsonl."""

from __future__ import annotations

import json
from dataclasses import replace

from textual.widgets import DataTable

from cudatui.gdbbridge import RawLine
from cudatui.tui.panes.warps import WarpsPane, lane_kinds
from tests.support.panes import PaneApp, Replay, first_stop
from tests.support.wait import wait_for


def strip_text(pane: WarpsPane, warp: int) -> str:
    return pane.query_one("#warps-table", DataTable).get_cell(str(warp), "lanes").plain


async def test_inspect_warps_lines_and_lane_selection_posts_focus():
    pane = WarpsPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: "bugs.cu:9" in str(pane.query_one("#warps-lines").render()))
        assert [w.number for w in pane.warps] == list(range(8))
        assert all(strip_text(pane, w) == "█" * 32 for w in range(8))
        assert "warps 0,1,2,3,4,5,6,7" in str(pane.query_one("#warps-lines").render())
        assert "SM 128 · 8 warps" in str(pane.query_one("#warps-title").render())
        await pilot.press("down", "down", "right", "right", "right", "enter")
        assert app.requests == ["warp 2 lane 3"]
        await pilot.press("left", "left", "left", "left", "enter")
        assert app.requests[-1] == "warp 2 lane 31"


async def test_divergent_recording_has_no_divergent_lanes_and_two_pcs():
    pane = WarpsPane()

    async def two_steps(app: PaneApp, replay: Replay) -> None:
        await replay.resume()
        await replay.resume("-exec-next")
        app.show(await replay.state(await replay.resume("-exec-next")))

    app = PaneApp(pane, "divergent.jsonl", two_steps)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        state = pane.state
        # cuda-gdb reported every lane active and none divergent at line 33 (with -G the warp reconverges)
        assert [(w.number, w.divergent_mask) for w in state.warps] == [(1, 0), (2, 0)]
        assert lane_kinds(state.warps[0], state.lanes) == ["active"] * 32
        assert strip_text(pane, 1) == strip_text(pane, 2) == "█" * 32
        lines = str(pane.query_one("#warps-lines").render())
        assert "bugs.cu:33" in lines and "warps 1" in lines
        assert "pc 0x7ffd037a24a0" in lines and "warps 2" in lines


async def test_oob_lanes_with_exception_are_marked():
    pane = WarpsPane()

    async def oob(app: PaneApp, replay: Replay) -> None:
        state = await replay.state(await replay.resume())
        app.show(await replay.with_console_lanes(state))

    app = PaneApp(pane, "oob.jsonl", oob)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert [w.number for w in pane.warps] == [0]
        assert strip_text(pane, 0) == "✖" * 32
        assert "(from its lanes)" in str(pane.query_one("#warps-title").render())


async def test_warp_watch_failure_is_one_line_and_focus_restore_is_attempted(tmp_path):
    record = tmp_path / "watch.jsonl"
    pane = WarpsPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop, record=str(record))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.press("w")
        await pilot.press(*"threadIdx.x * 2", "enter")
        await wait_for(pilot, lambda: bool(pane.watch_error))
        assert pane.watch_error == "could not focus lane 0 again: not in this recording: -cuda-focus-switch \"lane 0\""
        assert "\n" not in str(pane.query_one("#watch-title").render())
    sent = [json.loads(x)["line"] for x in record.read_text().splitlines() if json.loads(x).get("dir") == "in"]
    walk = sent[sent.index(next(x for x in sent if x.endswith("-cuda-info-lanes"))):]
    switches = [x.split(" ", 1)[1] for x in walk if "-cuda-focus-switch" in x]
    # every active lane of the real table is tried in turn, then the original lane 0 is focused again
    assert switches == [f'"lane {n}"' for n in range(32)] + ['"lane 0"']


async def test_left_right_edit_the_watch_expression_while_it_is_typed():
    pane = WarpsPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.press("right")
        assert pane.lane_cursor == 1
        await pilot.press("w", *"ab", "left", "x")
        assert pane.query_one("#watch-input").value == "axb" and pane.lane_cursor == 1


async def test_each_stop_puts_cursor_and_view_on_the_focused_warp():
    pane = WarpsPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 12)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        table = pane.query_one("#warps-table", DataTable)
        table.move_cursor(row=7)
        await wait_for(pilot, lambda: table.cursor_row == 7 and table.scroll_y > 0, why="row 7 scrolled into view")
        # the same stop shown again (a new generation): warp 0 holds the focus on the real H200 stop
        app.show(replace(pane.state, generation=pane.state.generation + 1))
        await wait_for(pilot, lambda: table.cursor_row == 0 and table.scroll_y == 0,
                       why=lambda: f"cursor and view back on warp 0 (row {table.cursor_row}, scroll {table.scroll_y})")


async def test_culprit_key_at_a_warp_wide_fault_answers_in_one_line():
    """oob.jsonl (all 32 lanes faulted) lacks the lane walk: C still answers with one line (what
    the walk could not do: the culprit of the state the Debugger shows again), and the line is
    offered at the fault before."""
    pane = WarpsPane()

    async def oob(app: PaneApp, replay: Replay) -> None:
        state = await replay.state(await replay.resume())
        app.show(await replay.with_console_lanes(state))

    app = PaneApp(pane, "oob.jsonl", oob)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        line = pane.query_one("#culprit-line")
        assert str(line.render()) == "C: find the culprit lane"
        pane.focus()
        await pilot.press("C")
        await wait_for(pilot, lambda: str(line.render()).startswith("culprit: ") and "evaluating" not in str(line.render()),
                       why="the culprit's answer")
        assert "\n" not in str(line.render())
        found = pane.state.culprit  # the Debugger's answer is the state it shows again
        assert found is not None and found.lane is None and str(line.render()) == f"culprit: {found.reason}"


async def test_a_bump_reuses_the_stops_thread_table():
    """A breakpoint change shows the same stop again (a bump): the Warps lines come from the
    thread table read at the stop, not from another ``-cuda-info-threads``."""
    pane = WarpsPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: "bugs.cu:9" in str(pane.query_one("#warps-lines").render()))
        sent: list[str] = []
        app.replay.debugger.subscribe(
            lambda event: sent.append(event.text) if isinstance(event, RawLine) and event.direction == "in" else None)
        state = pane.state
        app.show(replace(state, generation=state.generation + 1, breakpoints=()))
        await wait_for(pilot, lambda: pane.state.generation == state.generation + 1, why="the bump shown")
        await pilot.pause()
        await app.workers.wait_for_complete()  # what the bump started (an -cuda-info-threads would be sent by now)
        await pilot.pause()
        assert "bugs.cu:9" in str(pane.query_one("#warps-lines").render())
        assert not [line for line in sent if "-cuda-info-threads" in line], sent


async def test_a_bump_while_the_thread_table_is_read_asks_for_it_once():
    """A bump shown the moment the stop's ``-cuda-info-threads`` is asked, before its answer:
    that read answers the bump too; it is neither asked again nor cancelled."""
    pane = WarpsPane()
    sent: list[str] = []

    async def bump_when_asked(app: PaneApp, replay: Replay) -> None:
        def on_event(event: object) -> None:
            if isinstance(event, RawLine) and event.direction == "in" and "-cuda-info-threads" in event.text:
                sent.append(event.text)
                if len(sent) == 1 and pane.state is not None:
                    app.show(replace(pane.state, generation=pane.state.generation + 1, breakpoints=()))

        replay.debugger.subscribe(on_event)
        await first_stop(app, replay)

    app = PaneApp(pane, "inspect.jsonl", bump_when_asked)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: "bugs.cu:9" in str(pane.query_one("#warps-lines").render()), why="the lines")
        assert len(sent) == 1, sent
