"""Disassembly pane over the real `-data-disassemble -s $pc -e $pc+48 -- 1` of reduce_racy (inspect.jsonl)."""

from __future__ import annotations

from textual.widgets import DataTable

from cudatui.gdbbridge import Phase, RawLine
from cudatui.tui.panes.disassembly import DisassemblyPane
from tests.support.panes import PaneApp, Replay, first_stop
from tests.support.paths import FIXTURES
from tests.support.wait import wait_for


def rows(pane: DisassemblyPane) -> list[tuple[str, str, str]]:
    table = pane.query_one(DataTable)
    return [tuple(cell.plain for cell in table.get_row_at(i)) for i in range(table.row_count)]  # type: ignore[misc]


async def test_pc_marked_and_source_line_interleaved():
    pane = DisassemblyPane(after=48)
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: pane.query_one(DataTable).row_count > 0)
        shown = rows(pane)
        assert shown[0] == ("", "bugs.cu:9", "")  # the source file is not on this machine
        assert shown[1] == ("=>", "0x7ffd037a2560 <+352>", "S2R R8,SR_TID.X")
        assert [r[0] for r in shown[2:]] == [""] * 12
        assert shown[-1] == ("", "0x7ffd037a2620 <+544>", "MOV R17,R8")
        assert "SASS pc 0x7ffd037a2560 · reduce_racy" in str(pane.query_one("#disasm-title").render())
        assert pane.fetches == 1


async def test_fetched_only_when_visible_and_cached_by_range():
    pane = DisassemblyPane(after=48)
    pane.display = False

    async def script(app: PaneApp, replay: Replay) -> None:
        first = await replay.state(await replay.resume())
        app.show(first)
        app.hidden_fetches = pane.fetches  # type: ignore[attr-defined]
        app.pane.display = True

    app = PaneApp(pane, "inspect.jsonl", script)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: pane.query_one(DataTable).row_count > 0)
        assert app.hidden_fetches == 0  # type: ignore[attr-defined]
        assert pane.fetches == 1
        # block (3,0,0) thread (200,0,0) sits at the same pc: served from the cache
        app.show(await app.replay.switch_focus("block (3,0,0) thread (200,0,0)"))
        await pilot.pause()
        assert pane.fetches == 1 and pane.status == ""
        assert rows(pane)[1][0] == "=>"


async def test_host_stop_has_no_disassembly():
    pane = DisassemblyPane()

    async def exited(app: PaneApp, replay: Replay) -> None:
        await replay.resume()
        app.show(await replay.state(await replay.resume("-exec-continue")))

    app = PaneApp(pane, "assert.jsonl", exited)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert pane.fetches == 0
        assert pane.status == "Disassembly: no kernel pc at this stop"


async def test_errorpc_of_a_real_illegal_address_stop_is_reported():
    from dataclasses import replace

    from cudatui.gdbbridge.cuda.disassembly import parse_disassembly
    from cudatui.gdbbridge.cuda.registers import parse_register_values, usable_register_names
    from cudatui.gdbbridge.session.mi import parse_line

    mi = (FIXTURES / "cuda_panes" / "native_oob_mi.txt").read_text().splitlines()
    regs_line = next(x for x in mi if x.startswith("^done,register-values="))
    asm_line = next(x for x in mi if x.startswith("^done,asm_insns="))
    names = usable_register_names(["pc", "errorpc", "R0", "R1"])
    registers = parse_register_values(parse_line(regs_line).payload, names)
    insns = parse_disassembly(parse_line(asm_line).payload)
    pane = DisassemblyPane()
    pane.ranges[(insns[0].address, insns[-1].address + 16)] = insns

    async def script(app: PaneApp, replay: Replay) -> None:
        state = await replay.state(await replay.resume())
        frame = replace(state.stop.frame, addr=registers[0].int_value)
        app.show(replace(state, registers=registers, frames=(), stop=replace(state.stop, frame=frame)))

    app = PaneApp(pane, "oob.jsonl", script)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert pane.fetches == 0  # served from the range already fetched
        title = str(pane.query_one("#disasm-title").render())
        assert "pc 0x7ffddb7a2400 · errorpc 0x7ffddb7a23e0 (not in view)" in title
        assert [r[0] for r in rows(pane)] == ["=>", "", ""] and rows(pane)[0][2] == "ERRBAR"


async def test_a_state_shown_after_the_program_moved_on_sends_nothing():
    """A breakpoint change after a resume re-shows the last stop's state: the pane must not
    query cuda-gdb then (the port refuses unless stopped); it fetches at the next stop."""
    pane = DisassemblyPane(after=48)
    sent: list[str] = []

    async def moved_on(app: PaneApp, replay: Replay) -> None:
        first = await replay.state(await replay.resume())
        replay.debugger.subscribe(lambda e: sent.append(e.text) if isinstance(e, RawLine) and e.direction == "in"
                                  else None)
        end = await replay.resume("-exec-continue")
        assert end.exited and replay.debugger.phase is Phase.EXITED
        app.show(first)

    app = PaneApp(pane, "inspect.jsonl", moved_on)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready and pane.status.startswith("cannot disassemble"))
        assert pane.status == "cannot disassemble at 0x7ffd037a2560: the program has exited"
        assert any("-exec-continue" in text for text in sent)
        assert not any("-data-disassemble" in text for text in sent)
