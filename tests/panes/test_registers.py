"""Registers pane over the registers of the real reduce_racy stop (inspect.jsonl)."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import DataTable

from cudatui.gdbbridge.cuda.registers import parse_register_values, usable_register_names
from cudatui.gdbbridge.session.mi import parse_line
from cudatui.tui.panes.registers import RegistersPane, decimal
from tests.support.panes import PaneApp, first_stop
from tests.support.paths import FIXTURES
from tests.support.wait import wait_for

NATIVE = FIXTURES / "cuda_panes" / "native_oob_mi.txt"


def shown_names(pane: RegistersPane) -> list[str]:
    table = pane.query_one(DataTable)
    return [str(key.value) for key in table.rows]


async def test_groups_filters_and_no_dummy_names():
    pane = RegistersPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await pilot.pause()
        state = pane.state
        assert state is not None and len(state.registers) == 338
        names = [r.name for r in state.registers]
        assert "" not in names and not any(n.startswith("(") for n in names)
        assert {r.group for r in state.registers} == {"R", "P", "UR", "UP", "system"}
        # zeros hidden by default (system registers stay): the non-zero registers of the real stop
        assert shown_names(pane) == ["pc", "CC", "R0", "R1", "R2", "R3", "R4", "R5", "R8", "R9", "PT", "UPT"]
        await pilot.press("0")
        assert len(shown_names(pane)) == 338
        await pilot.press("v")
        assert pane.group == "system" and shown_names(pane) == ["pc", "CC"]
        assert pane.query_one(DataTable).get_cell("pc", "hex").plain == "0x7ffd037a2560"
        await pilot.press("v")
        assert pane.group == "R" and shown_names(pane)[:3] == ["R0", "R1", "R2"] and len(shown_names(pane)) == 256
        await pilot.press("v", "v", "v")
        assert pane.group == "UP" and shown_names(pane)[-1] == "UPT"
        await pilot.press("v")
        assert pane.group == "all"


async def test_decimal_is_signed_for_32_bit_registers():
    pane = RegistersPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        regs = {r.name: r for r in pane.state.registers}
        assert decimal(regs["R3"]) == "1000"  # n=1000 in the real kernel arguments
        assert decimal(regs["R2"]) == str(0xD9A00000 - (1 << 32))
        assert decimal(regs["pc"]) == str(0x7FFD037A2560)


async def test_changed_registers_are_highlighted_after_a_stop():
    pane = RegistersPane()
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        first = pane.state
        assert pane.changed == frozenset()
        names = usable_register_names(["pc", "errorpc"] + [f"R{i}" for i in range(255)])
        line = next(x for x in NATIVE.read_text().splitlines() if x.startswith("^done,register-values="))
        later = parse_register_values(parse_line(line).payload, names)
        app.show(replace(first, generation=first.generation + 1, registers=later))
        await pilot.pause()
        assert pane.changed == frozenset({"pc", "R0", "R1"})
        table = pane.query_one(DataTable)
        cell = table.get_cell("R0", "hex")
        assert cell.plain == "0x3" and "bold" in str(cell.style)
        assert table.get_cell("errorpc", "hex").plain == "0x7ffddb7a23e0"
        assert "3 changed" in str(pane.query_one("#registers-title").render())
        shown = pane.state
        app.show(replace(shown, generation=shown.generation + 1, breakpoints=()))  # a breakpoint changed: a bump
        await pilot.pause()
        assert pane.changed == frozenset({"pc", "R0", "R1"}) and "bold" in str(table.get_cell("R0", "hex").style)
        assert "3 changed" in str(pane.query_one("#registers-title").render())
