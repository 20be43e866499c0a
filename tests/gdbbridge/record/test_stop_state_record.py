"""The stop states a live session writes into its recording (``-cudatui-stop-state``) and the
marks of a recorded path (``-cudatui-path-step``): what is written reads back as it was, whatever
the names hold, and program output that arrives after such a virtual exchange stays with the
command it followed."""

from __future__ import annotations

import json
from pathlib import Path

from cudatui.gdbbridge import load
from cudatui.gdbbridge.models.cuda import CudaException, CudaFocus
from cudatui.gdbbridge.models import Frame, StopEvent, StopState, Variable
from cudatui.gdbbridge.session.recorder import Recorder
from cudatui.gdbbridge.record.stop_state import COMMAND, record, record_step, recorded_path, summarize
from tests.support.paths import RECORDED

HOSTILE = 'a"b\\c\nd\x1b]2;title\x07 e\u2028f'


def state(func: str, file: str) -> StopState:
    frame = Frame(level=0, func=func, file=file, fullname=file, line=7)
    focus = CudaFocus(0, 1, 2, 3, 1, 1, (1, 0, 0), (5, 0, 0))
    stop = StopEvent("signal-received", frame=frame, focus=focus, signal="CUDA_EXCEPTION_14",
                     exception=CudaException.from_signal("CUDA_EXCEPTION_14", "Warp Illegal Address"))
    return StopState(1, stop, frames=(frame,), focus=focus, variables=(Variable("i", "0"), Variable(func, "1")))


def test_a_stop_state_and_a_step_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    recorder = Recorder(path, ["gdb"])
    recorder.write("in", "1-exec-run")
    recorder.write("out", "1^running")
    written = state(HOSTILE, f"/w/{HOSTILE}.cu")
    record(recorder.write, written)
    record_step(recorder.write, 0, "key", HOSTILE, "c")
    recorder.close()
    steps = recorded_path(load(str(path)))
    assert len(steps) == 1 and (steps[0].kind, steps[0].arg, steps[0].keys) == ("key", HOSTILE, "c")
    summary = steps[0].state
    assert summary == summarize(written)
    assert (summary.func, summary.file, summary.line, summary.block, summary.thread, summary.exception) == (
        HOSTILE, f"{HOSTILE}.cu", "7", "(1,0,0)", "(5,0,0)", "CUDA_EXCEPTION_14")
    assert summary.locals == f"i,{HOSTILE}"


def test_output_after_a_virtual_exchange_stays_with_the_command_before_it(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    recorder = Recorder(path, ["gdb"])
    recorder.write("in", "5-interpreter-exec console \"print 1\"")
    record(recorder.write, state("f", "f.cu"))
    recorder.write("out", '~"$1 = 1\\n"')
    recorder.write("program", "late output\n")
    recorder.write("out", "5^done")
    recorder.close()
    exchanges = load(str(path)).exchanges
    console, virtual = exchanges
    assert virtual.key == (COMMAND,)
    assert [e.line for e in console.output] == ['~"$1 = 1\\n"', "late output\n", "5^done"]
    assert [e.dir for e in virtual.output] == ["out"]


def test_the_gdb_recording_holds_a_state_for_each_step() -> None:
    path = RECORDED / "gdb" / "panes_path.jsonl.gz"
    steps = recorded_path(load(str(path)))
    assert [s.number for s in steps] == list(range(len(steps))) and all(s.state for s in steps)
    assert json.dumps([s.state.func for s in steps])  # plain strings
