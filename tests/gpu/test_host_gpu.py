"""The host Python stack behind a real CUDA exception stop (gdbbridge/host), on the GPU box.

scripts/own_programs/torch_index.py faults in PyTorch's own index kernel (CUDA_EXCEPTION_12).
cuda-gdb holds the process; :func:`read_python_stack` reads its Python stack: without launch blocking
the user frame is line 7, the ``.item()`` that waits for the GPU, and the note says the kernel
was launched earlier; with ``CUDA_LAUNCH_BLOCKING=1`` it is line 6, the launch, and there is no
note. The stack then goes through the recording encoding unchanged.

Run: ``python -m pytest -m gpu tests/gpu/test_host_gpu.py -v``
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys

import pytest

from cudatui.gdbbridge.host.encoding import decode, result_line
from cudatui.gdbbridge.host.reader import read_python_stack
from cudatui.gdbbridge.host.view import sync_point
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.mi import parse_line
from tests.support.paths import ROOT

pytestmark = pytest.mark.gpu

PROGRAM = ROOT / "scripts" / "own_programs" / "torch_index.py"
WAIT = 240.0


@pytest.mark.parametrize("blocking, line, code", [
    ("0", 7, 'print("sum", y.sum().item())'),
    ("1", 6, "y = x[idx]"),
])
async def test_the_scripts_line_behind_pytorchs_kernel_assert(blocking: str, line: int, code: str) -> None:
    if shutil.which("cuda-gdb") is None:
        pytest.skip("cuda-gdb is not on PATH")
    pytest.importorskip("torch")
    pytest.importorskip("pystack")
    env = {**os.environ, "CUDA_LAUNCH_BLOCKING": blocking}
    session = GdbSession(["cuda-gdb"], [sys.executable, str(PROGRAM)], env=env, cwd=str(PROGRAM.parent))
    q = session.queue()
    try:
        await asyncio.wait_for(session.start(), 60)
        await session.command("-exec-run")
        while not isinstance(event := await asyncio.wait_for(q.get(), WAIT), ev.Stopped):
            pass
        assert event.stop.signal == "CUDA_EXCEPTION_12"
        assert session.inferior_pid is not None
        stack = read_python_stack(session.inferior_pid)
        assert stack.error is None
        frame = stack.user_frame
        assert frame is not None
        assert (frame.file, frame.line, frame.function, frame.code) == (str(PROGRAM), line, "<module>", code)
        note = sync_point(stack, env)
        if blocking == "1":
            assert note is None
        else:
            assert note is not None and "line 7 of torch_index.py (.item())" in note and "EARLIER" in note
        assert decode(parse_line(result_line(stack, 3)).payload) == stack
    finally:
        await session.close()
