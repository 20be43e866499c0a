"""Parsing of real cuda-gdb 13.0 answers (H200 recordings in tests/fixtures/transcripts) into models."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from cudatui.gdbbridge.cuda import tables
from cudatui.gdbbridge.cuda.disassembly import parse_disassembly
from cudatui.gdbbridge.cuda.evaluation import parse_array_value, shared_slice_expression
from cudatui.gdbbridge.cuda.focus import FocusSyntaxError, normalize_focus
from cudatui.gdbbridge.cuda.registers import parse_register_values, register_group, usable_register_names
from cudatui.gdbbridge.cuda.tables import (
    TABLES,
    focused_in,
    kernel_name,
    parse_blocks,
    parse_devices,
    parse_kernels,
    parse_lanes,
    parse_lanes_console,
    parse_sms,
    parse_threads,
    parse_warps,
)
from cudatui.gdbbridge.session.mi import parse_line
from cudatui.gdbbridge.convert import to_exit_code
from cudatui.gdbbridge.models.cuda import CUDA_EXCEPTIONS, CudaFocus
from cudatui.gdbbridge.models import Frame, StopEvent, Variable
from tests.support.paths import FIXTURES, TRANSCRIPTS


@cache
def exchanges(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(command without token, output lines until the next command) for every recorded command."""
    out: list[tuple[str, list[str]]] = []
    for text in (TRANSCRIPTS / name).read_text().splitlines():
        entry = json.loads(text)
        if entry["dir"] == "in":
            out.append((entry["line"].lstrip("0123456789"), []))
        elif entry["dir"] == "out" and out:
            out[-1][1].append(entry["line"])
    return tuple((command, tuple(lines)) for command, lines in out)


def result(name: str, command: str, nth: int = 0) -> tuple[str, Any]:
    """The result class and payload the ``nth`` recorded ``command`` got."""
    matches = [lines for c, lines in exchanges(name) if c == command]
    for line in matches[nth]:
        record = parse_line(line)
        if record.kind == "result":
            return record.message, record.payload
    raise AssertionError(f"no result for {command}")


def stops(name: str) -> list[StopEvent]:
    return [
        StopEvent.from_mi(r.payload)
        for _, lines in exchanges(name)
        for r in map(parse_line, lines)
        if r.kind == "exec" and r.message == "stopped"
    ]


def console_text(name: str, command: str) -> str:
    lines = next(lines for c, lines in exchanges(name) if c == command)
    return "".join(r.payload for r in map(parse_line, lines) if r.kind == "console")


# -- every -cuda-info table of inspect.jsonl -----------------------------------------------------


def test_devices():
    (device,) = parse_devices(result("inspect.jsonl", "-cuda-info-devices")[1])
    assert device.name == "NVIDIA H200" and device.description == "GH100GL-A"
    assert (device.sm_type, device.num_sms, device.pci_bus) == ("sm_90", 132, "00:06.0")
    assert (device.warps_per_sm, device.lanes_per_warp, device.max_regs) == (64, 32, 255)
    assert device.number == 0 and device.current


def test_sms():
    sms = parse_sms(result("inspect.jsonl", "-cuda-info-sms")[1])
    assert [s.number for s in sms] == [124, 126, 128, 130]
    assert all(s.active_warps_mask == 0xFF for s in sms)
    assert [s.number for s in sms if s.current] == [128]


def test_warps():
    warps = parse_warps(result("inspect.jsonl", "-cuda-info-warps")[1])
    assert [w.number for w in warps] == list(range(8))
    assert all(w.active_mask == 0xFFFFFFFF and w.divergent_mask == 0 for w in warps)
    assert [w.first_thread for w in warps] == [(32 * i, 0, 0) for i in range(8)]
    assert {w.pc for w in warps} == {0x7FFD037A2560} and {w.block for w in warps} == {(0, 0, 0)}
    assert [w.current for w in warps] == [True] + [False] * 7
    assert warps[0].lane_active(31) and not warps[0].lane_divergent(0) and warps[0].kernel == 0


def test_lanes():
    lanes = parse_lanes(result("inspect.jsonl", "-cuda-info-lanes")[1])
    assert [x.number for x in lanes] == list(range(32))
    assert [x.thread for x in lanes] == [(i, 0, 0) for i in range(32)]
    assert {x.state for x in lanes} == {"active"} and {x.exception for x in lanes} == {None}
    assert {x.pc for x in lanes} == {0x7FFD037A2560}
    assert [x.number for x in lanes if x.current] == [0]


def test_kernels():
    (kernel,) = parse_kernels(result("inspect.jsonl", "-cuda-info-kernels")[1])
    assert (kernel.grid_dim, kernel.block_dim) == ((4, 1, 1), (256, 1, 1))
    assert (kernel.number, kernel.device, kernel.grid, kernel.status) == (0, 0, 2, "Active")
    assert kernel.name == "reduce_racy" and kernel.invocation.startswith("reduce_racy(,args=[{name=")
    assert kernel.total_threads == 1024 and kernel.current


def test_blocks_coalesced():
    (blocks,) = parse_blocks(result("inspect.jsonl", "-cuda-info-blocks")[1])
    assert (blocks.first, blocks.last, blocks.count, blocks.state) == ((0, 0, 0), (3, 0, 0), 4, "running")
    assert blocks.kernel == 0 and blocks.current


def test_threads_coalesced():
    (threads,) = parse_threads(result("inspect.jsonl", "-cuda-info-threads")[1])
    assert (threads.first_block, threads.first_thread) == ((0, 0, 0), (0, 0, 0))
    assert (threads.last_block, threads.last_thread, threads.count) == ((3, 0, 0), (255, 0, 0), 1024)
    assert (threads.pc, threads.file, threads.line) == (0x7FFD037A2560, "/home/user/lesson/bugs.cu", 9)


def test_a_kept_thread_table_marks_the_range_of_the_new_focus():
    """A focus switch keeps the stop's thread table (no thread moved): its current range is the
    one the new focus lies in, in cuda-gdb's order (blocks, then threads, x fastest)."""
    (read,) = parse_threads(result("inspect.jsonl", "-cuda-info-threads")[1])
    first = replace(read, last_block=(1, 0, 0), last_thread=(255, 0, 0), count=512, current=True)
    second = replace(read, first_block=(2, 0, 0), first_thread=(0, 0, 0), count=512, current=False)
    focus = CudaFocus(device=0, sm=1, warp=6, lane=8, kernel=0, grid=2, block=(3, 0, 0), thread=(200, 0, 0))
    assert [r.current for r in focused_in((first, second), focus)] == [False, True]
    assert [r.current for r in focused_in((first, second), replace(focus, block=(1, 0, 0)))] == [True, False]
    assert [r.current for r in focused_in((first, second), replace(focus, kernel=1))] == [False, False]
    assert focused_in((first, second), None) == (replace(first, current=False), second)


@pytest.mark.parametrize("what", sorted(TABLES))
def test_every_table_parser_reads_rows(what):
    parser = getattr(tables, f"parse_{what.replace('-', '_')}")
    assert len(parser(result("inspect.jsonl", f"-cuda-info-{what}")[1])) >= 1
    assert parser({}) == () and parser({"InfoCudaWarpsTable": "junk"}) == ()


def test_divergent_warps_and_lanes_across_steps():
    warps = parse_warps(result("divergent.jsonl", "-cuda-info-warps")[1])
    assert [(w.number, w.first_thread, w.current) for w in warps] == [(1, (0, 0, 0), True), (2, (32, 0, 0), False)]
    assert warps[0].pc != warps[1].pc
    before = parse_lanes(result("divergent.jsonl", "-cuda-info-lanes", 0)[1])
    after = parse_lanes(result("divergent.jsonl", "-cuda-info-lanes", 1)[1])
    assert {x.pc for x in before} == {warps[0].pc} and len({x.pc for x in after}) == 1
    assert {x.pc for x in after} != {x.pc for x in before}


# -- registers ------------------------------------------------------------------------------------


def test_register_names_filtered_and_grouped():
    raw = [str(n) for n in result("inspect.jsonl", "-data-list-register-names")[1]["register-names"]]
    assert "" in raw and raw.count("(dummy internal register)") == 2
    names = usable_register_names(raw)
    values = list(names.values())
    assert "" not in values and len(values) == len(set(values))
    assert not [n for n in values if n.startswith("(")]
    assert values[:4] == ["pc", "errorpc", "R0", "R1"] and names[0] == "pc" and names[2] == "R0"
    assert all(raw[number] == name for number, name in names.items())
    groups = {register_group(n) for n in values}
    assert groups == {"system", "R", "P", "UR", "UP"}
    assert [n for n in values if register_group(n) == "system"] == ["pc", "errorpc", "CC"]
    assert {"RZ", "PT", "URZ", "UPT"} <= set(values) and len([n for n in values if n.startswith("UR")]) == 64


def test_register_values_by_number():
    names = usable_register_names(result("inspect.jsonl", "-data-list-register-names")[1]["register-names"])
    regs = parse_register_values(result("inspect.jsonl", "-data-list-register-values --skip-unavailable x")[1], names)
    by_name = {r.name: r for r in regs}
    assert by_name["pc"].int_value == 0x7FFD037A2560 and by_name["pc"].group == "system"
    assert by_name["R1"].int_value == 0xFFFC60 and by_name["R3"].int_value == 1000  # n == 1000
    assert "errorpc" not in by_name  # --skip-unavailable left it out
    subset = parse_register_values(result("inspect.jsonl", "-data-list-register-values x 2 3 4 5 6")[1], names)
    assert [(r.number, r.name) for r in subset] == [(2, "R0"), (3, "R1"), (4, "R2"), (5, "R3"), (6, "R4")]
    assert [r.value for r in subset] == ["0x7ffc", "0xfffc60", "0xd9a00000", "0x3e8", "0xd9a03000"]


# -- stops, exceptions, focus ----------------------------------------------------------------------


def test_breakpoint_stop_in_kernel():
    stop = stops("inspect.jsonl")[0]
    assert stop.reason == "breakpoint-hit" and stop.breakpoint == 1 and stop.exception is None
    assert stop.focus == CudaFocus(0, 128, 0, 0, 0, 2, (0, 0, 0), (0, 0, 0))
    assert (stop.frame.func, stop.frame.file, stop.frame.line) == ("reduce_racy", "bugs.cu", 9)
    assert dict(stop.frame.args) == {"in": "0x7ffcd9a00000", "out": "0x7ffcd9a03000", "n": "1000"}


def test_oob_exception_stop_not_recoverable():
    stop, end = stops("oob.jsonl")
    assert stop.reason == "signal-received" and stop.signal == "CUDA_EXCEPTION_14"
    assert stop.exception.code == 14 and stop.exception.name == "Warp Illegal Address"
    assert not stop.exception.recoverable and stop.exception.signal_name == "CUDA_EXCEPTION_14"
    assert stop.focus.block == (2379, 0, 0) and stop.focus.thread == (0, 0, 0)
    assert (stop.frame.func, stop.frame.line) == ("add_kernel", 5)
    assert end.reason == "exited-signalled" and end.exited and end.signal == "SIGKILL" and end.exit_code is None
    lanes = parse_lanes_console(console_text("oob.jsonl", '-interpreter-exec console "info cuda lanes"'))
    assert [x.number for x in lanes] == list(range(32)) and [x.number for x in lanes if x.current] == [0]
    assert {x.exception for x in lanes} == {"Warp Illegal Address"} and {x.state for x in lanes} == {"active"}
    assert [x.thread for x in lanes] == [(i, 0, 0) for i in range(32)] and {x.pc for x in lanes} == {0x7FFD037A2780}
    variables = [Variable.from_mi(v) for v in result("oob.jsonl", "-stack-list-variables --simple-values")[1]["variables"]]
    assert [(v.name, v.value, v.is_arg) for v in variables][0] == ("idx", "609024", False)
    assert [v.address_space for v in variables] == ["register", "parameter", "parameter", "parameter", "register"]


def test_assert_exception_stop_recoverable():
    stop, end = stops("assert.jsonl")
    assert stop.exception.code == 12 and stop.exception.name == "Warp Assert" and stop.exception.recoverable
    assert stop.focus.thread == (77, 0, 0) and stop.focus.warp == 3 and stop.focus.lane == 13
    assert stop.frame.func == "__assert_fail" and stop.frame.line is None
    frames = [Frame.from_mi(f, i) for i, f in enumerate(result("assert.jsonl", "-stack-list-frames")[1]["stack"])]
    assert [(f.level, f.func, f.line) for f in frames] == [(0, "__assert_fail", None), (1, "checked_index", 27)]
    assert frames[1].where == "checked_index at bugs.cu:27"
    assert end.reason == "exited-normally" and end.exit_code == 0


def test_torch_assert_stop():
    stop, _ = stops("torch_assert.jsonl")
    assert stop.exception.code == 12 and stop.exception.recoverable
    assert stop.focus.thread == (1, 0, 0) and stop.focus.block == (0, 0, 0)
    assert stop.frame.func.startswith("void at::native::index_elementwise_kernel<128, 4,")
    assert kernel_name(stop.frame.func).endswith(">") and "(" not in kernel_name(stop.frame.func)[-5:]
    assert result("torch_assert.jsonl", "-cuda-focus-query") == ("error", {"msg": "No CUDA coordinates found."})


def test_exception_names_cover_0_to_19():
    assert sorted(CUDA_EXCEPTIONS) == list(range(20))


@pytest.mark.parametrize(
    "command, focus",
    [
        ('-cuda-focus-switch "block (3,0,0) thread (200,0,0)"', CudaFocus(0, 126, 6, 8, 0, 2, (3, 0, 0), (200, 0, 0))),
        ('-cuda-focus-switch "warp 2 lane 3"', CudaFocus(0, 126, 2, 3, 0, 2, (3, 0, 0), (67, 0, 0))),
        ('-cuda-focus-switch "sm 130"', CudaFocus(0, 130, 2, 3, 0, 2, (1, 0, 0), (67, 0, 0))),
    ],
)
def test_focus_switch_results(command, focus):
    payload = result("inspect.jsonl", command)[1]
    assert CudaFocus.from_mi(payload["CudaFocus"]) == focus
    assert Frame.from_mi(payload["frame"]).func == "reduce_racy"


@pytest.mark.parametrize(
    "request_text, normal",
    [
        ("block (3,0,0) thread (200,0,0)", "block (3,0,0) thread (200,0,0)"),
        ("block 3 thread (200)", "block (3,0,0) thread (200,0,0)"),
        ("  warp 2   lane 3 ", "warp 2 lane 3"),
        ("sm 130", "sm 130"),
    ],
)
def test_normalize_focus(request_text, normal):
    assert normalize_focus(request_text) == normal


@pytest.mark.parametrize("bad", ["", "block", "thread (1,2,3,4)", 'block (1) "\n-gdb-exit', "lane -1", "warp 2; kill"])
def test_normalize_focus_rejects(bad):
    with pytest.raises(FocusSyntaxError, match="cannot read focus"):
        normalize_focus(bad)


def test_invalid_focus_coordinates_are_none():
    focus = CudaFocus.from_mi(
        {"device": "invalid", "sm": "invalid", "blockIdx": "(invalid,invalid,invalid)", "threadIdx": "(39,0,0)"}
    )
    assert (focus.device, focus.sm, focus.block, focus.thread) == (None, None, None, (39, 0, 0))


# -- shared memory and disassembly -------------------------------------------------------------------


def test_shared_memory_values():
    assert parse_array_value(result("inspect.jsonl", '-data-evaluate-expression "sdata[0]@32"')[1]["value"]) == ("0",) * 32
    assert len(parse_array_value(result("inspect.jsonl", '-data-evaluate-expression "*(@shared float (*)[16])0"')[1]["value"])) == 16
    assert parse_array_value("{1, 2, 0 <repeats 3 times>, 7}") == ("1", "2", "0", "0", "0", "7")
    assert parse_array_value("{{1, 2}, {3, 4}}") == ("1", "2", "3", "4")
    assert parse_array_value('{"a,b", 3}') == ("'a'", "','", "'b'", "3")  # a char row's string: its chars
    assert parse_array_value('{0x4005d4 "a,b", 0x0}') == ('0x4005d4 "a,b"', "0x0")  # char pointers stay whole
    chars = "{97 'a', 44 ',', 123 '{', 39 '\\'', 92 '\\\\', 0 '\\000' <repeats 3 times>}"
    assert parse_array_value(chars) == (
        "97 'a'", "44 ','", "123 '{'", "39 '\\''", "92 '\\\\'", "0 '\\000'", "0 '\\000'", "0 '\\000'"
    )
    assert parse_array_value("{1.5, -inf, nan(0x400000)}") == ("1.5", "-inf", "nan(0x400000)")
    assert result("inspect.jsonl", '-data-read-memory-bytes "(@shared char*)&sdata[0]" 64') == ("error", {"msg": "Unable to read memory."})
    variable = result("inspect.jsonl", '-var-create - * "sdata[0]@8"')[1]
    assert Variable.from_mi(variable).address_space == "shared"


def test_shared_slice_expression():
    assert shared_slice_expression("sdata", 256, 128) == "sdata[256]@128"
    with pytest.raises(ValueError):
        shared_slice_expression("sdata[0]); -gdb-exit", 0, 1)


def test_disassembly_with_source():
    insns = parse_disassembly(result("inspect.jsonl", '-data-disassemble -s $pc -e "$pc+48" -- 1')[1])
    assert len(insns) == 13 and insns[0].address == 0x7FFD037A2560 and insns[0].offset == 352
    assert insns[0].text == "S2R R8,SR_TID.X" and insns[0].function == "reduce_racy"
    assert {(i.line, i.file) for i in insns} == {(9, "/home/user/lesson/bugs.cu")}
    assert [b.address - a.address for a, b in zip(insns, insns[1:])] == [16] * 12
    plain = parse_disassembly({"asm_insns": [{"address": "0x10", "func-name": "k", "offset": "0", "inst": "NOP"}]})
    assert plain[0].line is None and plain[0].text == "NOP"


RACE_TOUR = FIXTURES / "recorded" / "tours" / "race.jsonl"


def test_exit_code_is_octal_in_stop_and_helper():
    """The race tour's program exited with 1: cuda-gdb wrote ``exit-code="01"`` (octal)."""
    lines = [json.loads(text).get("line", "") for text in RACE_TOUR.read_text().splitlines()]
    stopped = next(parse_line(line) for line in lines if line.startswith("*stopped,reason=\"exited\""))
    assert stopped.payload["exit-code"] == "01" and StopEvent.from_mi(stopped.payload).exit_code == 1
    assert [to_exit_code(text) for text in ("012", "010", "0377", "0", 3)] == [10, 8, 255, 0, 3]
    assert [to_exit_code(text) for text in (None, "", "09", "x1", "-1")] == [None] * 5


@pytest.mark.parametrize(
    ("type_text", "space"),
    [
        ("const @generic float * @parameter", "parameter"),  # oob.jsonl: the pointer is a parameter
        ("@generic float * @parameter", "parameter"),
        ("@parameter int", "parameter"),  # inspect.jsonl
        ("@register int", "register"),
        ("@shared float [18][18]", "shared"),
        ("@generic float (* @register)[18]", "register"),  # the tile lesson's tile, as recorded
        ("float", None),
        ("", None),
    ],
)
def test_address_space_is_the_variables_own_storage(type_text, space):
    assert Variable("v", "0", type_text).address_space == space


def test_address_space_of_recorded_locals():
    variables = [Variable.from_mi(v) for v in result("inspect.jsonl", "-stack-list-variables --simple-values")[1]["variables"]]
    assert {v.name: v.address_space for v in variables} == {
        "tid": "register", "idx": "register", "in": "parameter", "out": "parameter", "n": "parameter"
    }


def test_a_frame_is_named_by_its_file_s_base_name():
    """A recording names the recording machine's paths (the oob lesson's frame is at
    /work/main/kernels/oob.cu there): the banner and the notes say ``oob.cu:20``."""
    frame = Frame.from_mi({"level": "0", "func": "add_buggy", "file": "/work/main/kernels/oob.cu",
                           "fullname": "/work/main/kernels/oob.cu", "line": "20"}, 0)
    assert frame.where == "add_buggy at oob.cu:20"
    assert Frame.from_mi({"level": "0", "func": "f", "addr": "0x10"}, 0).where == "f at 0x10"
