"""The "launched from" frame of sanitizer findings, on real compute-sanitizer reports (H200)."""

from __future__ import annotations

import pytest

from cudatui.gdbbridge.sanitizer.findings import Finding, HostFrame
from cudatui.gdbbridge.sanitizer.launch import is_library_frame, launch_place, launched_from
from cudatui.gdbbridge.sanitizer.report import read_report
from tests.support import paths

FIXTURES = paths.FIXTURES / "sanitizer"


@pytest.mark.parametrize(("report", "place", "function"), [
    # PyTorch's own kernel: 23 library frames (libcudart, libtorch_cuda, python3, libc) before the script's line
    ("memcheck_torch.txt", "a.py:5", "<module>"),
    # a ctypes library of the user's: its C++ launch line is the first of the user's code
    ("lessons/oob_memcheck_buggy.txt", "oob.cu:41", "oob_add"),
    # a native program: the kernel's own host stub (r(int*) at r.cu:1) is not the launch, main is
    ("racecheck_synccheck.txt", "r.cu:4", "main"),
    # the XML report names libcuda.so.1 and the program's CUDA runtime stub frames: main of t.cu
    ("memcheck.xml", "t.cu:9", "main"),
])
def test_launch_frame_of_real_reports(report: str, place: str, function: str) -> None:
    group = read_report(str(FIXTURES / report)).groups[0]
    frame = launched_from(group)
    assert frame is not None and frame.function == function
    assert launch_place(group) == place


def test_torch_assert_launch_is_the_script_line_after_every_library_frame() -> None:
    group = read_report(str(FIXTURES / "memcheck_torch.txt")).groups[0]
    frames = group.first.host_backtrace
    first_user = frames.index(launched_from(group))  # type: ignore[arg-type]
    assert first_user == len(frames) - 1 and first_user > 20
    assert all(is_library_frame(f, group.first.kernel) for f in frames[:first_user])


def test_a_finding_without_host_backtrace_has_no_launch_place() -> None:
    report = read_report(str(FIXTURES / "leakcheck.txt"))
    bare = [g for g in report.groups if not g.first.host_backtrace]
    for group in bare:
        assert launched_from(group) is None and launch_place(group) == "-"


@pytest.mark.parametrize(("frame", "library"), [
    (HostFrame("forward", "/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", 1751), True),
    (HostFrame("<module>", "/home/me/train.py", 40), False),
    (HostFrame("<module>", "train.py", 40), False),
    (HostFrame("_call", "/usr/lib/python3.12/threading.py", 10), True),
    (HostFrame("cudaLaunchKernel", None, None, "libcudart.so.13", 0x745B7), True),
    (HostFrame("launch", "kern.cu", 12, "/venv/lib/python3.12/site-packages/mypkg/_ext.so", 1), True),
    (HostFrame("launch", "kern.cu", 12, "libmine.so", 1), False),
    (HostFrame("at::native::index_kernel", "IndexKernel.cu", 300, "libtorch_cuda.so", 1), True),
    (HostFrame("cudaMalloc<float>", "cuda_runtime.h", 879, "libleak.so", 1), True),
])
def test_library_frames(frame: HostFrame, library: bool) -> None:
    assert is_library_frame(frame) is library


def test_bare_python_file_names_are_the_users_only_in_the_programs_folders(tmp_path) -> None:
    """The text report names Python files by base name: torch.nn's linear.py looks like the
    user's model.py; the program's folders tell them apart."""
    (tmp_path / "model.py").write_text("# the user's model\n")
    (tmp_path / "train.py").write_text("# the user's script\n")
    finding = Finding("memcheck", "invalid_access", "Invalid __global__ read", kernel="k", host_backtrace=(
        HostFrame("cudaLaunchKernel", None, None, "libcudart.so.13", 1),
        HostFrame("forward", "linear.py", 125), HostFrame("forward", "model.py", 20),
        HostFrame("<module>", "train.py", 9)))
    assert launch_place(finding) == "linear.py:125"  # a saved report: no folders known
    assert launch_place(finding, (str(tmp_path),)) == "model.py:20"
