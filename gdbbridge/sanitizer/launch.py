"""Which line of the user's code launched the kernel of a finding: its "launched from" frame.

compute-sanitizer saves the host backtrace at the kernel launch, innermost frame first: the
CUDA runtime and driver, the libraries between (PyTorch's dispatcher, cuBLAS ...), the
interpreter's own C frames, and at the end the Python frames (``<module> in script.py:5``),
again innermost first. The launch frame is the first frame of the user's own code in that
order, a C++ one (``oob_add in oob.cu:41 [..] in liboob.so``, a ctypes library of the user's)
or a Python one. A frame is a library's, and skipped, when

- it is a Python frame in a ``site-packages``/``dist-packages`` folder or the standard library
  (:func:`~cudatui.gdbbridge.paths.is_user_file`); the text report names a Python file by
  its base name only (``module.py:1751`` of torch.nn as much as ``a.py:5``): given the program's
  folders (``roots``), such a frame is the user's only when a file of that name lies in one;
- its module is a known library (:data:`LIBRARIES`: the CUDA runtime and driver, PyTorch,
  cuBLAS, cuDNN, NCCL, the C and C++ runtimes, the Python interpreter) or lies in a package
  folder;
- it has no source line (a stripped frame of any module);
- its file is a CUDA header or a generated launch stub (``cuda_runtime.h``, ``*.cudafe1.stub.c``)
  or it is the kernel's own host stub (the kernel's name, at the kernel's declaration line).
"""

from __future__ import annotations

import os
import posixpath
import re

from cudatui.gdbbridge.paths import PACKAGE_DIRS, is_user_file
from cudatui.gdbbridge.sanitizer.findings import Finding, FindingGroup, HostFrame, function_name

LIBRARIES = re.compile(
    r"^(?:lib(?:cuda|cudart|cudadebugger|nvrtc|nvJitLink|cublas|cublasLt|cudnn\w*|cufft|curand|cusparse\w*"
    r"|cusolver|nccl|nvshmem\w*|torch\w*|c10\w*|caffe2\w*|triton|cupy\w*|python3[\w.]*|c|m|dl|rt|pthread|stdc\+\+"
    r"|gcc_s|gomp|ffi)(?:[-.].*)?|python3?[\w.]*|ld-linux.*|_C\..*\.so)$")
"""Modules (base names) whose frames are never the user's code."""
_SYSTEM_FILES = ("cuda_runtime.h", "cuda_runtime_api.h", "device_functions.h", ".cudafe1.stub.c", "host_runtime.h")


def is_library_frame(frame: HostFrame, kernel: str | None = None, roots: tuple[str, ...] = ()) -> bool:
    """Whether ``frame`` is a library's (see the module docstring); ``kernel`` is the finding's
    kernel, whose host stub is not the launch; ``roots`` the program's folders."""
    if frame.line is None or not frame.file:
        return True
    if frame.is_python:
        if frame.file.startswith("/"):
            return not is_user_file(frame.file)
        return _in_packages(frame.file) or bool(roots) and not any(
            os.path.isfile(os.path.join(root, frame.file)) for root in roots)
    if frame.file.endswith(_SYSTEM_FILES) or frame.function.startswith("__device_stub__"):
        return True
    module = frame.module or ""
    if module and (LIBRARIES.match(posixpath.basename(module)) or _in_packages(module)):
        return True
    return bool(kernel) and function_name(frame.function) == function_name(kernel)


def _in_packages(path: str) -> bool:
    return any(f"/{folder}/" in f"/{path}" for folder in PACKAGE_DIRS)


def launched_from(finding: Finding | FindingGroup, roots: tuple[str, ...] = ()) -> HostFrame | None:
    """The first frame of the user's code in the finding's launch-time host backtrace, or None
    (no backtrace, or only library frames in it); ``roots``: the program's folders, if known."""
    if isinstance(finding, FindingGroup):
        finding = finding.first
    return next((f for f in finding.host_backtrace if not is_library_frame(f, finding.kernel, roots)), None)


def launch_place(finding: Finding | FindingGroup, roots: tuple[str, ...] = ()) -> str:
    """``file:line`` (the file's base name) of :func:`launched_from`, or "-"."""
    frame = launched_from(finding, roots)
    if frame is None or not frame.file:
        return "-"
    return f"{posixpath.basename(frame.file)}:{frame.line}"
