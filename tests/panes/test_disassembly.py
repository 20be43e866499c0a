"""Disassembly pane over the real `-data-disassemble -s $pc -e $pc+48 -- 1` of reduce_racy
(inspect.jsonl): the Debugger reads it with the stop while the pane is on the screen
(``show_parts(sass=48)``, the range the recording asked for) and the pane shows the stop's SASS."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import DataTable

from cudatui.gdbbridge import Answer, Phase
from cudatui.tui.panes.disassembly import DisassemblyPane
from tests.support.panes import PaneApp, Replay, first_stop
from tests.support.paths import FIXTURES
from tests.support.wait import until, wait_for
from tests.support.sent import commands_sent

AFTER = 48
"""The bytes after pc the recording's SASS pane showed."""


def rows(pane: DisassemblyPane) -> list[tuple[str, str, str]]:
    table = pane.query_one(DataTable)
    return [tuple(cell.plain for cell in table.get_row_at(i)) for i in range(table.row_count)]  # type: ignore[misc]


def disassembles(replay: Replay) -> list[str]:
    """The ``-data-disassemble`` commands the Debugger sends from now on."""
    return commands_sent(replay.debugger, "-data-disassemble")


async def sass_shown(app: PaneApp, replay: Replay) -> None:
    """The SASS pane on the screen from the start, then the first stop."""
    app.sent = disassembles(replay)  # type: ignore[attr-defined]
    replay.debugger.show_parts(registers=True, threads=True, sass=AFTER)
    await first_stop(app, replay)


async def test_pc_marked_and_source_line_interleaved():
    pane = DisassemblyPane()
    app = PaneApp(pane, "inspect.jsonl", sass_shown)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: pane.query_one(DataTable).row_count > 0)
        shown = rows(pane)
        assert shown[0] == ("", "bugs.cu:9", "")  # the source file is not on this machine
        assert shown[1] == ("=>", "0x7ffd037a2560 <+352>", "S2R R8,SR_TID.X")
        assert [r[0] for r in shown[2:]] == [""] * 12
        assert shown[-1] == ("", "0x7ffd037a2620 <+544>", "MOV R17,R8")
        assert "SASS pc 0x7ffd037a2560 · reduce_racy" in str(pane.query_one("#disasm-title").render())
        assert len(app.sent) == 1  # type: ignore[attr-defined]


async def test_read_once_shown_and_kept_by_range():
    """Not on the screen: the stop asks for no SASS and the pane says it is to come; shown, the
    Debugger reads it and shows the stop again with it; a focus at the same pc asks nothing."""
    pane = DisassemblyPane()

    async def script(app: PaneApp, replay: Replay) -> None:
        app.sent = sent = disassembles(replay)  # type: ignore[attr-defined]
        replay.debugger.show_parts(registers=True, threads=True)
        first = await replay.state(await replay.resume())
        assert first.sass is None and not sent
        app.show(first)
        replay.debugger.show_parts(registers=True, threads=True, sass=AFTER)
        app.show(await until(lambda: replay.debugger.state if replay.debugger.state.sass else None,
                             why="the stop shown again with its SASS"))

    app = PaneApp(pane, "inspect.jsonl", script)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        assert app.states[0].sass is None
        await wait_for(pilot, lambda: pane.query_one(DataTable).row_count > 0)
        assert len(app.sent) == 1  # type: ignore[attr-defined]
        # block (3,0,0) thread (200,0,0) sits at the same pc: served from what was read
        app.show(await app.replay.switch_focus("block (3,0,0) thread (200,0,0)"))
        await pilot.pause()
        assert len(app.sent) == 1 and pane.status == ""  # type: ignore[attr-defined]
        assert rows(pane)[1][0] == "=>"


async def test_a_stop_shown_before_its_sass_says_it_is_to_come():
    pane = DisassemblyPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert app.states[0].sass is None
        assert pane.status == "disassembling around 0x7ffd037a2560… (cuda-gdb takes ~0.7 s)"


async def test_host_stop_has_no_disassembly():
    pane = DisassemblyPane()

    async def exited(app: PaneApp, replay: Replay) -> None:
        app.sent = disassembles(replay)  # type: ignore[attr-defined]
        replay.debugger.show_parts(registers=True, threads=True, sass=AFTER)
        await replay.resume()
        app.show(await replay.state(await replay.resume("-exec-continue")))

    app = PaneApp(pane, "assert.jsonl", exited)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        assert app.states[-1].sass is None
        assert pane.status == "Disassembly: no kernel pc at this stop"


async def test_errorpc_of_a_real_illegal_address_stop_is_reported():

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

    async def script(app: PaneApp, replay: Replay) -> None:
        state = await replay.state(await replay.resume())
        frame = replace(state.stop.frame, addr=registers[0].int_value)
        app.show(replace(state, registers=registers, frames=(), stop=replace(state.stop, frame=frame),
                         sass=Answer("$pc..$pc+48", insns)))

    app = PaneApp(pane, "oob.jsonl", script)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        title = str(pane.query_one("#disasm-title").render())
        assert "pc 0x7ffddb7a2400 · errorpc 0x7ffddb7a23e0 (not in view)" in title
        assert [r[0] for r in rows(pane)] == ["=>", "", ""] and rows(pane)[0][2] == "ERRBAR"


async def test_sass_shown_once_the_program_moved_on_is_not_asked():
    """The SASS pane comes on the screen once the program has exited: the Debugger asks cuda-gdb
    nothing (it refuses unless stopped) and the pane says there is no kernel pc."""
    pane = DisassemblyPane()

    async def moved_on(app: PaneApp, replay: Replay) -> None:
        app.sent = sent = disassembles(replay)  # type: ignore[attr-defined]
        replay.debugger.show_parts(registers=True, threads=True)
        await replay.resume()
        end = await replay.resume("-exec-continue")
        assert end.exited and replay.debugger.phase is Phase.EXITED
        replay.debugger.show_parts(registers=True, threads=True, sass=AFTER)
        app.show(await replay.state(end))
        assert not sent

    app = PaneApp(pane, "inspect.jsonl", moved_on)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        assert pane.status == "Disassembly: no kernel pc at this stop"
        assert not app.sent  # type: ignore[attr-defined]
