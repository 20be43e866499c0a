"""`cudatui triage` on the GPU box: PyTorch's own index kernel faults at full speed (no debugger);
the driver writes a lightweight GPU coredump into the run's private directory and aborts the
process, faulthandler prints its Python stack; the Debugger opens the dump at the faulting
thread, with the program's sync line (7, the ``.item()``) as the stop's host stack and the
device assert message among the program's output. A warp-wide fault (a cpp_extension's lane 24 reads
out of bounds) opens at its culprit lane.

Run: ``python -m pytest -m gpu tests/gpu/test_triage_gpu.py -v``
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.jobs import triage
from tests.support.paths import ROOT
from tests.support.wait import until

pytestmark = pytest.mark.gpu

PROGRAM = ROOT / "scripts" / "own_programs" / "torch_index.py"
WAIT = 240.0


@asynccontextmanager
async def post_mortem(program: Path, result: triage.TriageResult) -> AsyncIterator[Debugger]:
    """The Debugger on the run's dump (the program's output beside it), once its stop is shown."""
    debugger = Debugger(LaunchConfig(debugger=("cuda-gdb",), target=(str(program),), cwd=str(program.parent),
                                     core=str(result.dump), program_output=str(result.output)))
    await debugger.start()
    try:
        await until(lambda: debugger.state is not None and debugger.phase is Phase.STOPPED, WAIT, "the post-mortem stop")
        yield debugger
    finally:
        await debugger.close()


async def test_a_pytorch_index_assert_is_dumped_and_opened_at_its_thread_with_the_python_line(tmp_path: Path) -> None:
    if shutil.which("cuda-gdb") is None:
        pytest.skip("needs cuda-gdb")
    directory = triage.private_directory(str(tmp_path / "dumps"))
    said: list[bytes] = []
    result = await asyncio.to_thread(triage.run_armed, [sys.executable, str(PROGRAM)], directory, cwd=str(PROGRAM.parent),
                                     echo=said.append)
    assert result.returncode == -signal.SIGABRT, b"".join(said)[-2000:]
    assert result.dump is not None and result.dump.parent == directory
    assert result.notes == ()  # whole, not cut
    output = b"".join(said).decode(errors="replace")
    assert "Assertion" in output and "Fatal Python error: Aborted" in output

    async with post_mortem(PROGRAM, result) as debugger:
        state = debugger.state
        assert state is not None and state.focus is not None
        assert state.host is not None
        frame = state.host.user_frame
        assert frame is not None and (Path(frame.file).name, frame.line) == ("torch_index.py", 7)
        assert frame.code == 'print("sum", y.sum().item())'
        assert "Assertion" in debugger.output_tail.text
        assert state.culprit is not None and state.culprit.lane == state.focus.lane, state.culprit  # the one lane


async def test_the_post_mortem_of_a_warp_wide_fault_focuses_the_culprit_lane(tmp_path: Path) -> None:
    """A cpp_extension gather (-G) whose lane 24 reads idx[24] = 2^34: the driver's dump has all 32
    lanes of the warp faulted and cuda-gdb focuses lane 0; opening it, the Debugger walks the faulting
    line over the lanes (the search behind the Warps pane's C) and shows the stop at lane 24."""
    if shutil.which("cuda-gdb") is None:
        pytest.skip("needs cuda-gdb")
    program = ROOT / "scripts" / "own_programs" / "ext_oob.py"
    directory = triage.private_directory(str(tmp_path / "dumps"))
    said: list[bytes] = []
    result = await asyncio.to_thread(triage.run_armed, [sys.executable, str(program)], directory,
                                     cwd=str(program.parent), echo=said.append)
    assert result.dump is not None, b"".join(said)[-3000:]
    print(f"ext_oob dump {result.dump.stat().st_size} bytes, starts {result.dump.read_bytes()[:4]!r}", flush=True)
    assert result.notes == ()  # a whole dump is not said to be cut (an ELF file: its headers are checked)
    async with post_mortem(program, result) as debugger:
        state = debugger.state
        assert state is not None and state.focus is not None and state.culprit is not None
        print(f"ext_oob post-mortem: focus {state.focus.software} lane {state.focus.lane}; {state.culprit}", flush=True)
        assert sum(1 for lane in state.lanes if lane.exception) > 1  # a warp-wide fault
        assert state.culprit.lane == 24 and state.culprit.expression in ("j", "idx[i]")
        assert "is outside 0..63" in state.culprit.reason
        assert state.focus.lane == 24 and state.focus.thread == (24, 0, 0)


async def test_rank_1_of_a_torchrun_job_is_dumped_alone(tmp_path: Path) -> None:
    """``cudatui triage --rank 1 -- torchrun --nproc-per-node 2 ddp_oob.py``: rank 1's out-of-bounds
    read is dumped (only rank 1 is armed), and its post-mortem opens with rank 1's Python line."""
    torchrun = shutil.which("torchrun")
    if shutil.which("cuda-gdb") is None or torchrun is None:
        pytest.skip("needs cuda-gdb and torchrun")
    program = ROOT / "scripts" / "own_programs" / "ddp_oob.py"
    directory = triage.private_directory(str(tmp_path / "dumps"))
    said: list[bytes] = []
    result = await asyncio.to_thread(triage.run_armed, [torchrun, "--nproc-per-node", "2", str(program)], directory,
                                     cwd=str(program.parent), echo=said.append, rank=1)
    output = b"".join(said).decode(errors="replace")
    assert result.dump is not None, output[-3000:]
    assert [p.name for p in directory.glob("gpu.*.nvcudmp")] == [result.dump.name], "only rank 1 was armed"
    async with post_mortem(program, result) as debugger:
        state = debugger.state
        assert state is not None and state.stop.exception is not None
        assert state.host is not None and state.host.user_frame is not None
        assert Path(state.host.user_frame.file).name == "ddp_oob.py"


async def test_a_cpu_core_is_capped_by_the_dump_size_and_the_gpu_dump_still_opens(tmp_path: Path) -> None:
    """``--cpu-core --max-dump-size 256M`` on PyTorch's index assert: the driver aborts the process,
    the kernel writes its CPU core (1.2 GB whole, DESIGN.md) cut at 256 MiB by RLIMIT_CORE, triage
    moves it into the run's directory and says it is cut; the GPU dump is whole and opens."""
    from cudatui.gdbbridge.jobs.dump_limits import CorePlace, core_place
    if shutil.which("cuda-gdb") is None:
        pytest.skip("needs cuda-gdb")
    if not isinstance(core_place(str(PROGRAM.parent)), CorePlace):
        pytest.skip(f"the kernel writes no CPU core file here: {core_place(str(PROGRAM.parent))}")
    directory = triage.private_directory(str(tmp_path / "dumps"))
    said: list[bytes] = []
    result = await asyncio.to_thread(triage.run_armed, [sys.executable, str(PROGRAM)], directory,
                                     cwd=str(PROGRAM.parent), echo=said.append, core_limit=256 << 20)
    print(f"torch_index --cpu-core 256M: {result.cpu_core} "
          f"{result.cpu_core.stat().st_size if result.cpu_core else 0} bytes; notes {result.notes}", flush=True)
    assert result.dump is not None, b"".join(said)[-2000:]
    assert result.cpu_core == directory / "cpu.core"
    # the kernel stops writing at RLIMIT_CORE; pages it skips leave holes, so the file's apparent
    # size may pass the limit (343 MB for 256 MiB on the H200, batch 34) while its blocks do not
    assert result.cpu_core.stat().st_blocks * 512 <= (256 << 20) + (16 << 20)
    assert any("CPU core is cut short" in note for note in result.notes), result.notes
    assert not any("GPU coredump" in note for note in result.notes), result.notes
    async with post_mortem(PROGRAM, result) as debugger:
        assert debugger.state is not None and debugger.state.focus is not None
