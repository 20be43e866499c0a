"""Why a kernel has no source, and how the user gets source for their own: one place for the
UI's no-source lines, the exception banner and doctor's hint.

A kernel has no source when its code has no line information. cuda-gdb's device frames carry
no ``from`` (library) field, so a library is named from the frame's ``from`` when gdb gives one
(host frames), else from the kernel's C++ name (:data:`KNOWN_LIBRARIES`: PyTorch's ``at::``
kernels live in libtorch_cuda.so, cuBLAS's and CUTLASS's GEMMs in libcublas/libcublasLt ...);
any other kernel is the program's own, built without line information.
"""

from __future__ import annotations

import os
import re

from cudatui.gdbbridge.convert import fmt_dim3
from cudatui.gdbbridge.models.host import HostFrame
from cudatui.gdbbridge.models import Frame, StopState
from cudatui.gdbbridge.names import short_name

BUILD_ADVICE = ('for your own kernels: nvcc -G -lineinfo (lines only: -lineinfo); torch.utils.cpp_extension: '
                'extra_cuda_cflags=["-G", "-g"]; CuPy: CUPY_CUDA_COMPILE_WITH_DEBUG=1; Triton kernels have lines')
"""How to build the user's own kernels with source lines and locals."""
JIT_ENV = {"CUPY_CACHE_SAVE_CUDA_SOURCE": "1", "CUPY_CUDA_COMPILE_WITH_DEBUG": "1"}
"""Set for a Python program unless the user set them: CuPy keeps each kernel's source in its cache
(where the source pane finds it) and compiles with -G (source lines and locals in cuda-gdb)."""

KNOWN_LIBRARIES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:at|c10|caffe2|torch)::"), "PyTorch's kernel (libtorch_cuda.so)"),
    (re.compile(r"cublasLt|xmma|cutlass|sm\d+_\w*gemm", re.IGNORECASE), "a cuBLAS kernel (libcublasLt.so)"),
    (re.compile(r"cublas|gemv|gemmk|gemmSN", re.IGNORECASE), "a cuBLAS kernel (libcublas.so)"),
    (re.compile(r"cudnn", re.IGNORECASE), "a cuDNN kernel (libcudnn*.so)"),
    (re.compile(r"nccl", re.IGNORECASE), "an NCCL kernel (libnccl.so)"),
    (re.compile(r"\bcub::|\bthrust::"), "a CUB/Thrust kernel (in the library that launched it)"),
    (re.compile(r"cufft|\bvector_fft|regular_fft", re.IGNORECASE), "a cuFFT kernel (libcufft.so)"),
)


def library_of(frame: Frame) -> str | None:
    """Whose code ``frame`` is, when it is a library's: ``PyTorch's kernel (libtorch_cuda.so)``,
    ``libm.so.6`` (gdb's ``from``); None for the program's own code."""
    if frame.library:
        return os.path.basename(frame.library)
    return next((name for pattern, name in KNOWN_LIBRARIES if pattern.search(frame.func)), None)


def no_source_reason(frame: Frame | None) -> str:
    """One line: which code has no source and why."""
    if frame is None:
        return "no source: the stop has no frame"
    name = short_name(frame.func)
    library = library_of(frame)
    if library is None:
        return f"no source for {name}: it was built without line information (no -G or -lineinfo)"
    return f"no source for {name}: {library} has no line information"


def no_source_lines(state: StopState, host: HostFrame | None = None) -> list[str]:
    """The source pane's lines at a stop without source: why, the device assert the program
    printed, where SASS shows the faulting instruction, the Python line behind it, the build
    advice (for the user's own code)."""
    frame = state.frame
    lines = [no_source_reason(frame)]
    found = state.notes.device_assert
    if found is not None:
        lines.append(f"the program printed: {found} (block {fmt_dim3(found.block)} thread {fmt_dim3(found.thread)})")
    errorpc = next((r.int_value for r in state.registers if r.name == "errorpc"), None)
    if state.stop.exception is not None and errorpc:
        lines.append(f"SASS pane: the faulting instruction is marked at errorpc {errorpc:#x}")
    elif frame is not None and frame.addr:
        lines.append(f"SASS pane: the instruction it stopped at, pc {frame.addr:#x} (no errorpc at this stop)")
    if host is not None:
        code = f"  {host.code}" if host.code else ""
        lines.append(f"python: {os.path.basename(host.file)}:{host.line}{code} (the Stack pane has the whole stack)")
    if frame is None or library_of(frame) is None or frame.library:
        lines.append(BUILD_ADVICE)
    else:
        lines.append(f"a library's kernel has no source to show; {BUILD_ADVICE}")
    return lines
