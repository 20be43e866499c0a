"""Shared memory pane: the real `sdata[0]@32` read of reduce_racy (inspect.jsonl), types and formats."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from cudatui.gdbbridge import RawLine, SharedPage, SharedWindow, StopState, page_of
from cudatui.gdbbridge.cuda.shared_decls import SharedDecl
from cudatui.tui.panes.shared_array import SharedArray, bank, from_declaration, from_variable_type, parse_added, shown
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from tests.support.panes import PaneApp, Replay, first_stop
from tests.support.paths import TRANSCRIPTS
from tests.support.wait import until, wait_for


def title(pane: SharedMemoryPane) -> str:
    return str(pane.query_one("#shared-title").render())


async def test_added_extern_array_is_read_from_the_recording():
    pane = SharedMemoryPane(page_size=32)
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert "no __shared__ arrays in scope" in title(pane)
        await pilot.press("a", *"sdata[64]", "enter")
        await wait_for(pilot, lambda: bool(pane.values()))
        # `sdata[0]@32` answered {0 <repeats 32 times>} on the real H200
        assert pane.values() == ("0",) * 32
        table = pane.query_one(DataTable)
        assert table.row_count == 32
        assert table.get_cell("31", "hex").plain == "0x00000000"
        # `&sdata[0]` was not recorded: the bank is shown as unknown, not invented
        assert table.get_cell("5", "bank").plain == "?"
        assert title(pane).startswith("sdata[64] address ? · page 1/2 · value · 0 changed")
        await pilot.press("a", *"sdata 64", "enter")
        assert "type a shared array as NAME[N]" in title(pane)


def test_types_of_shared_locals():
    # "@shared int [64]" is the type cuda-gdb 13.0 reported for `__shared__ int s[64]` (reference mi4.txt)
    assert from_variable_type("s", "@shared int [64]") == SharedArray("s", "int", (64,))
    assert from_variable_type("tile", "@shared float [18][18]") == SharedArray("tile", "float", (18, 18))
    assert from_variable_type("tid", "@register int") is None
    assert from_variable_type("v", "@shared float") is None


def test_added_arrays_and_bad_input():
    assert parse_added("tile[18][18]") == SharedArray("tile", "?", (18, 18))
    with pytest.raises(ValueError, match="one or two non-zero dimensions"):
        parse_added("x[2][2][2]")
    with pytest.raises(ValueError, match="NAME\\[N\\]"):
        parse_added("sdata")


def test_formats_and_banks():
    assert shown("1", "hex", "int") == "0x00000001"
    assert shown("1", "hex", "float") == "0x3f800000"  # gdb prints 1.0f as "1"
    assert shown("1.5", "hex") == "0x3fc00000" and shown("1.5", "int", "float") == str(0x3FC00000)
    assert shown("-1", "int", "int") == "-1" and shown("-1", "hex", "int") == "0xffffffff"
    assert shown("<optimized out>", "hex") == "<optimized out>"
    # &s was 0x400 on sm_90 (reference mi2.txt): float s[i] sits in bank i mod 32
    assert [bank(0x400, i, 4) for i in (0, 1, 31, 32, 33)] == ["0", "1", "31", "0", "1"]
    assert bank(0x400, 3, 8) == "6" and bank(None, 3, 4) == "?"


async def test_extern_array_of_the_kernel_source_is_shown_without_adding_it():
    # reduce_racy declares `extern __shared__ float sdata[];` (bugs.cu, the recorded kernel's source):
    # not a local on cuda-gdb 13.0, found in the source and paged as blockDim.x = 256 elements
    pane = SharedMemoryPane(page_size=32, search_dirs=lambda: (str(TRANSCRIPTS),))
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(120, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: bool(pane.values()))
        await wait_for(pilot, lambda: "reading" not in title(pane))  # the title follows the values
        assert [(a.name, a.element, a.dims) for a in pane.arrays()] == [("sdata", "float", (256,))]
        assert pane.values() == ("0",) * 32
        assert title(pane) == ("float sdata[256] address ? · page 1/8 · value · 0 changed · "
                               "extern: 256 shown (blockDim.x)")


def test_declared_arrays_become_pages():
    decl = SharedDecl("sdata", "float", (None,), extern=True)
    assert from_declaration(decl, 128) == SharedArray("sdata", "float", (128,), "extern: 128 shown (blockDim.x)")
    assert from_declaration(decl, None).dims == (256,)
    assert "a guess" in from_declaration(decl, None).note
    assert from_declaration(SharedDecl("tile", "float", (18, 18)), 256) == SharedArray("tile", "float", (18, 18))
    assert from_declaration(SharedDecl("b", "int", (2, None)), 256) is None


async def test_a_bump_while_a_page_is_read_asks_for_it_once():
    """The Debugger shows the stop again (a source folder added: a bump) the moment the added
    array's page is asked for, before its answer: the read's state is then no longer the one shown,
    and the bump lacks the page; the pane says so again and the Debugger serves the page from what
    it read at that place: asked once."""
    pane = SharedMemoryPane(page_size=32)
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        sent: list[str] = []
        bumped: list[int] = []

        def on_event(event: object) -> None:
            if isinstance(event, RawLine) and event.direction == "in":
                sent.append(event.text)
                if "sdata[0]@32" in event.text and len(sent) == 1:
                    assert app.replay.debugger.add_source_dir(str(TRANSCRIPTS)) is None
                    bumped.append(app.replay.debugger.state.generation)

        app.replay.debugger.subscribe(on_event)
        await pilot.press("a", *"sdata[64]", "enter")
        await wait_for(pilot, lambda: bool(pane.values()), why="the page")
        assert pane.values() == ("0",) * 32
        assert bumped and pane.state.generation > bumped[0]  # shown after the bump
        assert len([line for line in sent if "sdata[0]@32" in line]) == 1, sent


def shared_reads(replay: Replay) -> list[str]:
    """The expressions about ``sdata`` the Debugger asks gdb from now on."""
    sent: list[str] = []
    replay.debugger.subscribe(lambda e: sent.append(e.text.split(" ", 1)[1].strip('"'))
                              if isinstance(e, RawLine) and e.direction == "in" and "sdata" in e.text else None)
    return sent


async def test_the_debugger_reads_the_pages_shown_with_the_stop_and_nothing_for_a_hidden_pane():
    """No Shared pane on the screen: a stop asks for no shared memory. Shown with a page, the
    Debugger reads it (then the array's address) and shows the same stop again with it; a page
    turned back to at the same place asks nothing; a focus switch while hidden asks nothing, and
    shown again the page is read at the new place (the address, known for this stop, is not asked
    again) with the values read before it; the next stop reads it with the stop, in one state."""
    replay = Replay("inspect.jsonl")
    await replay.start()
    try:
        sent = shared_reads(replay)
        debugger = replay.debugger
        page1, page2 = SharedWindow("sdata", 0, 32), SharedWindow("sdata", 32, 32)
        debugger.show_shared((page1,), on_screen=False)
        first = await replay.state(await replay.resume())
        assert first.shared == () and not sent

        def shown(window: SharedWindow) -> StopState | None:
            state = debugger.state
            return state if state is not None and page_of(state.shared, window) is not None else None

        debugger.show_shared((page1,))
        again = await until(lambda: shown(page1), why="the stop shown again with the page")
        assert again.stop is first.stop and again.generation > first.generation
        answer = page_of(again.shared, page1)
        assert answer is not None and not answer.error and answer.asked == "sdata[0]@32"
        assert answer.value == SharedPage(page1, ("0",) * 32, (), None)  # &sdata[0] was not recorded
        assert sent == ["sdata[0]@32", "&sdata[0]", "&sdata"]

        debugger.show_shared((page2,))
        turned = page_of((await until(lambda: shown(page2), why="the second page")).shared, page2)
        assert turned is not None and turned.not_recorded and sent[3:] == ["sdata[32]@32"]
        debugger.show_shared((page1,))
        back = await until(lambda: shown(page1), why="the first page again")
        assert page_of(back.shared, page1) == answer and sent[4:] == []  # read at this place before

        debugger.show_shared((page1,), on_screen=False)
        switched = await replay.switch_focus("block (3,0,0) thread (200,0,0)")
        assert switched.shared == () and sent[4:] == []
        debugger.show_shared((page1,))
        there = page_of((await until(lambda: shown(page1), why="the page at the new focus")).shared, page1)
        assert there is not None and there.not_recorded and there.value.before == ("0",) * 32
        assert sent[4:] == ["sdata[0]@32"]

        stop = await replay.resume("-exec-next")
        state = await replay.state(stop)
        assert page_of(state.shared, page1) is not None  # read with the stop: one state
        assert sent[5:] == ["sdata[0]@32", "&sdata[0]", "&sdata"]
    finally:
        await replay.close()


async def test_a_recorded_session_reads_the_pages_of_a_hidden_pane(tmp_path):
    """Its replays and followers may show any pane: the pages the Shared pane shows are read with
    each stop while it is hidden too (as the registers are: ``LaunchConfig.record_every_part``)."""
    replay = Replay("inspect.jsonl", record=str(tmp_path / "again.jsonl"))
    await replay.start()
    try:
        sent = shared_reads(replay)
        page = SharedWindow("sdata", 0, 32)
        replay.debugger.show_shared((page,), on_screen=False)
        first = await replay.state(await replay.resume())
        answer = page_of(first.shared, page)
        assert answer is not None and answer.value.values == ("0",) * 32
        assert sent == ["sdata[0]@32", "&sdata[0]", "&sdata"]
    finally:
        await replay.close()
    assert "sdata[0]@32" in (tmp_path / "again.jsonl").read_text()
