"""Attach to a hung CUDA program and debug one rank of a torchrun job, with real cuda-gdb 13.0,
through the debugger app (Pilot at 160x48), each session recorded with cudatui's recorder.

``CUDATUI_RECORD_OWN=DIR`` keeps the recordings as ``DIR/ui_attach.jsonl`` and
``DIR/ui_rank1.jsonl`` (never over an existing file: then tmp_path); copied to
tests/fixtures/recorded/own/, they turn on tests/app/test_jobs_replay.py. ``bash
scripts/gpu_box.sh jobs`` runs this module (and builds the rank's extension first).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Step
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.events import DebuggerEvent, PhaseChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.apps.launch import attach_config
from cudatui.tui.panes.output import OutputPane
from tests.support.app import phase, status
from tests.support.jobs import JOBS
from tests.support.processes import alive
from tests.support.wait import wait_for, wait_until

pytestmark = pytest.mark.gpu
WAIT = 240.0


def record_to(name: str, tmp_path: Path) -> str:
    folder = Path(os.environ.get("CUDATUI_RECORD_OWN") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    return str(path if not path.exists() else tmp_path / f"{name}.jsonl")


def needs(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH")


async def test_attach_to_a_spinning_kernel_interrupt_warps_and_detach(tmp_path: Path) -> None:
    needs("cuda-gdb", "nvcc")
    exe = tmp_path / "spin"
    subprocess.run(["nvcc", "-g", "-G", "-o", str(exe), str(JOBS / "spin.cu")], check=True, capture_output=True)
    spin = subprocess.Popen([str(exe)], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert spin.stdout is not None and spin.stdout.readline().startswith("spinning pid")
        config = attach_config(spin.pid, None)
        assert config.debugger == ("cuda-gdb",)  # it maps libcuda
        app = DebuggerApp(replace(config, record=record_to("ui_attach", tmp_path), source_dirs=(str(JOBS),)))
        async with app.run_test(size=(160, 48)) as pilot:
            await wait_for(pilot, lambda: status(app) == ("stopped", "attached"), WAIT)
            session = app.debugger.session
            assert session is not None and session.async_mode  # -iex "set mi-async on" before -p held
            state = app.debugger.state
            assert state is not None and state.in_kernel and state.warps, "attached in the kernel with its warps"
            assert app.debugger.status.kernel.startswith("spin")
            await pilot.press("c")
            await wait_for(pilot, lambda: phase(app) == "running", WAIT)
            await pilot.press("ctrl+c")
            await wait_for(pilot, lambda: phase(app) == "stopped" and app.debugger.state is not state, WAIT)
            assert app.debugger.state is not None and app.debugger.state.in_kernel and app.debugger.state.warps
            await wait_for(pilot, lambda: len(app.query_one("#warps-table").rows) > 0, WAIT)  # type: ignore[attr-defined]
            await pilot.press("q")
        assert spin.poll() is None and alive(spin.pid)
        wait_until(lambda: "TracerPid:\t0" in Path(f"/proc/{spin.pid}/status").read_text(), 20, "the detach")
        assert Path(f"/proc/{spin.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "RS"
    finally:
        spin.kill()
        spin.wait()


async def test_an_interrupt_right_after_a_continue_stops_the_spinning_kernel(tmp_path: Path) -> None:
    """c then ctrl+c typed fast, with cuda-gdb attached in a kernel: the interrupt waits for the
    continue on its way, then stops the kernel again (not the host alone), and a later continue
    and interrupt still work."""
    needs("cuda-gdb", "nvcc")
    exe = tmp_path / "spin"
    subprocess.run(["nvcc", "-g", "-G", "-o", str(exe), str(JOBS / "spin.cu")], check=True, capture_output=True)
    spin = subprocess.Popen([str(exe)], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    debugger = Debugger(replace(attach_config(spin.pid, None), source_dirs=(str(JOBS),)))
    stops: asyncio.Queue[tuple[str | None, bool]] = asyncio.Queue()

    def on_event(event: DebuggerEvent) -> None:
        if isinstance(event, PhaseChanged) and event.status.phase is Phase.STOPPED and debugger.state is not None:
            stops.put_nowait((debugger.state.stop.signal, debugger.state.in_kernel))

    debugger.subscribe(on_event)
    try:
        assert spin.stdout is not None and spin.stdout.readline().startswith("spinning pid")
        await asyncio.wait_for(debugger.start(), WAIT)
        assert (await asyncio.wait_for(stops.get(), WAIT))[1], "attached in the kernel"
        for _ in range(2):
            await asyncio.wait_for(asyncio.gather(debugger.resume(Step.CONTINUE), debugger.interrupt()), WAIT)
            assert await asyncio.wait_for(stops.get(), WAIT) == ("SIGINT", True)
    finally:
        await debugger.close()
        spin.kill()
        spin.wait()


async def test_rank_1_of_a_torchrun_job_stops_in_its_kernel(tmp_path: Path) -> None:
    needs("cuda-gdb", "torchrun")
    script = JOBS / "ddp_bump.py"
    config = LaunchConfig(debugger=("cuda-gdb",), target=(shutil.which("torchrun") or "torchrun", "--nproc-per-node",
                                                          "2", str(script)),
                          rank=1, breakpoints=("bump",), cwd=str(JOBS), source_dirs=(str(JOBS),),
                          record=record_to("ui_rank1", tmp_path))
    app = DebuggerApp(config)
    async with app.run_test(size=(160, 48)) as pilot:
        kernel_stops = 0
        for _ in range(6):  # `bump` names the kernel and its host stub: c until it ends
            await wait_for(pilot, lambda: phase(app) in ("stopped", "exited", "dead"), WAIT)
            if phase(app) != "stopped":
                break
            assert app.debugger.status.detail == "breakpoint 1", app.debugger.status
            state = app.debugger.state
            assert state is not None and state.frame is not None and state.frame.func.startswith("bump")
            if state.in_kernel:
                kernel_stops += 1
                assert state.focus is not None and state.warps and app.debugger.status.kernel.startswith("bump")
            job = app.debugger.job
            assert job is not None and app.debugger.status.context == f"rank 1 · other ranks' output: {job.log}"
            await pilot.press("c")
            await wait_for(pilot, lambda: app.debugger.state is not state or phase(app) == "dead", WAIT)  # the next stop or the exit
        assert kernel_stops >= 1 and phase(app) == "exited"
        assert app.debugger.status.detail == "0"
        await wait_for(pilot, lambda: "rank 1: sum 768.0" in app.query_one(OutputPane).text, WAIT)
        wait_until(lambda: "rank 0: sum 768.0" in job.log.read_text(), 60, "rank 0's result in the log")
        assert "rank 1: sum" not in job.log.read_text()
        await pilot.press("q")
