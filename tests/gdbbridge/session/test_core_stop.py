"""The stop a GPU coredump holds, from cuda-gdb 13.0's console text when it opens one (texts as the
H200 printed them: tests/fixtures/recorded/own/triage_cupy_oob.jsonl, and a dump that ended with
a signal)."""

from __future__ import annotations

from cudatui.gdbbridge.session.core_stop import core_stop

FOCUS = "[Current focus set to CUDA kernel 0, grid 4, block (0,0,0), thread (0,0,0), device 0, sm 124, warp 0, lane 0]\n"


def test_the_drivers_dump_of_a_fault_names_only_the_exception() -> None:
    stop = core_stop(FOCUS + "\nCUDA Exception: Warp Illegal Address\n"
                     "The exception was triggered at PC 0x7f4aff7a2400  gather\n")
    assert stop.reason == "core" and stop.exception is not None
    assert (stop.exception.code, stop.exception.name) == (14, "Warp Illegal Address")
    assert (stop.signal, stop.signal_meaning) == ("CUDA_EXCEPTION_14", "Warp Illegal Address")
    assert stop.focus is not None and stop.focus.software == "block (0,0,0) thread (0,0,0)"


def test_a_dump_that_ended_with_a_signal_names_the_signal() -> None:
    stop = core_stop(FOCUS + "Program terminated with signal SIGTRAP, Trace/breakpoint trap.\n")
    assert (stop.signal, stop.signal_meaning, stop.exception) == ("SIGTRAP", "Trace/breakpoint trap", None)


def test_an_unknown_exception_name_is_no_exception() -> None:
    assert core_stop(FOCUS + "CUDA Exception: Something New\n").exception is None
