"""The notes read from a program's output: real Python tracebacks (scripts run here), the device
assert line PyTorch printed on the H200, CUDA error messages, and the next step."""

from __future__ import annotations

import subprocess
import sys

from cudatui.gdbbridge.outcome import (
    TAIL_CHARS, OutputTail, cuda_error, device_assert, next_step, notes_at_exit, python_error,
)
from tests.support.paths import FIXTURES

TORCH_ASSERT = ('/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:111: operator(): block: [0,0,0], thread: [2,0,0] '
                'Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.\n')
"""The line the program printed before cuda-gdb's stop (tests/fixtures/recorded/own/ui_torch_index.jsonl)."""


def stderr_of(code: str, tmp_path) -> str:
    script = tmp_path / "prog.py"
    script.write_text(code)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path).stderr


def test_the_last_traceback_of_a_chained_exception(tmp_path) -> None:
    output = "loss 1.0\n" + stderr_of("def f():\n    raise KeyError('w')\ntry:\n    f()\nexcept KeyError:\n"
                                      "    raise ValueError('bad\\nsecond line')\n", tmp_path)
    error = python_error(output)
    assert error is not None and error.summary == "ValueError: bad"
    assert [(f.line, f.function) for f in error.frames] == [(6, "<module>")]
    assert error.frame.code == "raise ValueError('bad\\nsecond line')" and not error.asynchronous


def test_the_frame_shown_is_the_users_innermost_not_the_librarys(tmp_path) -> None:
    output = stderr_of("import json\njson.loads('{')\n", tmp_path)
    error = python_error(output)
    assert error.summary.startswith("json.decoder.JSONDecodeError: Expecting property name")
    assert error.frames[-1].file.endswith("decoder.py")  # the library's innermost
    assert error.frame.file == str(tmp_path / "prog.py") and error.frame.line == 2


def test_no_traceback_no_python_error() -> None:
    assert python_error("all good\nTraceback? no\n") is None


def test_cuda_error_messages_of_compiled_programs() -> None:
    assert cuda_error("x\nCUDA error: an illegal memory access was encountered (700)\n").summary == (
        "CUDA error: an illegal memory access was encountered (700)")
    found = cuda_error("cudaMemcpy failed: cudaErrorIllegalAddress\n")
    assert found.summary == "cudaErrorIllegalAddress" and found.asynchronous
    assert cuda_error("fine\n") is None


def test_device_assert_of_the_focused_thread() -> None:
    other = TORCH_ASSERT.replace("thread: [2,0,0]", "thread: [5,0,0]")
    found = device_assert(other + TORCH_ASSERT + other, (0, 0, 0), (2, 0, 0))
    assert (found.file, found.line, found.thread) == ("/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu", 111, (2, 0, 0))
    assert str(found) == 'Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed at IndexKernel.cu:111'
    assert device_assert(other, (0, 0, 0), (2, 0, 0)).thread == (5, 0, 0)  # none of its own: the last one
    assert device_assert("nothing\n") is None


def test_next_steps() -> None:
    assert "m runs memcheck" in next_step(0, None, cuda=True)
    assert next_step(0, None, cuda=False) is None
    assert "CUDA_LAUNCH_BLOCKING=1" in notes_at_exit("CUDA error: unspecified launch failure\n", 1, True).next_step
    assert notes_at_exit("ok\n", 3, False).error is None


def test_the_tail_is_bounded() -> None:
    tail = OutputTail()
    for _ in range(100):
        tail.feed("x" * 4096)
    tail.feed((FIXTURES / "python" / "raises.py").read_text())
    assert len(tail.text) == TAIL_CHARS and tail.text.endswith("# THE CALL\n")
