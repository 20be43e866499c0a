"""Host frames for display (gdbbridge/paths.py, stack.py, view.py): whose code a file is,
the package a library file belongs to, a source line read without blocking, library frames
folded, the thread shown, and the sync-point note over the real torch program of GPU batch 7
(scripts/own_programs/torch_index.py: host at line 7 without launch blocking, line 6 with it).
"""

from __future__ import annotations

import os
import sysconfig
from pathlib import Path

import pytest

from cudatui.gdbbridge import paths
from cudatui.gdbbridge.paths import is_user_file, package_of, source_line
from cudatui.gdbbridge.models.host import HostFrame, HostStack, HostThread
from cudatui.gdbbridge.host.view import Folded, fold, sync_point
from tests.support.paths import ROOT

TORCH_INDEX = str(ROOT / "scripts" / "own_programs" / "torch_index.py")
STDLIB = sysconfig.get_paths()["stdlib"]


@pytest.mark.parametrize("path, user", [
    ("/home/u/proj/train.py", True),
    ("relative/script.py", True),
    ("/x/venv/lib/python3.11/site-packages/torch/_tensor.py", False),
    ("/usr/lib/python3/dist-packages/numpy/core/numeric.py", False),
    ("/opt/conda/lib/python3.12/functools.py", False),
    ("/usr/lib64/python3.13t/threading.py", False),
    (os.path.join(STDLIB, "ctypes", "__init__.py"), False),
    ("<frozen importlib._bootstrap>", False),
    ("<string>", False),
    ("<stdin>", True),
    ("<ipython-input-3-0123abcd>", True),
])
def test_whose_code_a_file_is(path: str, user: bool) -> None:
    assert is_user_file(path) is user


@pytest.mark.parametrize("path, package", [
    ("/x/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", "torch"),
    ("/x/venv/lib/python3.11/site-packages/typing_extensions.py", "typing_extensions"),
    ("/usr/lib/python3/dist-packages/numpy/core/numeric.py", "numpy"),
    ("/opt/conda/lib/python3.12/functools.py", "functools"),
    (os.path.join(STDLIB, "ctypes", "__init__.py"), "ctypes"),
    ("<frozen importlib._bootstrap>", "importlib"),
    ("<frozen runpy>", "runpy"),
    ("<string>", "<string>"),
])
def test_the_package_of_a_library_file(path: str, package: str) -> None:
    assert package_of(path) == package


def test_a_source_line_is_read_stripped_and_reread_after_an_edit(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text("a = 1\n    b = x.item()  \n")
    assert source_line(str(source), 2) == "b = x.item()"
    source.write_text("a = 1\nlonger = 22\n")
    assert source_line(str(source), 2) == "longer = 22"
    assert source_line(str(source), 3) == "" and source_line(str(source), 0) == ""


def test_a_source_line_honours_the_coding_cookie(tmp_path: Path) -> None:
    source = tmp_path / "latin.py"
    source.write_bytes(b"# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n")
    assert source_line(str(source), 2) == "name = 'café'"


def test_what_is_not_a_readable_source_gives_no_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    (tmp_path / "bad.py").write_bytes(b"x = '\xff\xfe'\n")
    (tmp_path / "big.py").write_text("x = 1\n" * 4)
    monkeypatch.setattr(paths, "MAX_SOURCE", 10)
    assert source_line(str(fifo), 1) == ""  # never opened: opening a FIFO would block the reader
    assert source_line(str(tmp_path), 1) == ""
    assert source_line(str(tmp_path / "missing.py"), 1) == ""
    assert source_line(str(tmp_path / "bad.py"), 1) == ""  # not UTF-8 and no coding cookie
    assert source_line(str(tmp_path / "big.py"), 1) == ""
    assert source_line("relative.py", 1) == "" and source_line("<string>", 1) == ""
    assert source_line(str(tmp_path / "nul\0.py"), 1) == ""


def test_a_file_name_that_is_not_utf8_is_shown_replaced_and_still_read(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/caf\xe9.py"
    with open(raw, "w") as handle:
        handle.write("def f():\n    return 1  # here\n")
    frame = HostFrame.at(os.fsdecode(raw), 2, "f")
    assert frame.file == f"{tmp_path}/caf\ufffd.py"
    assert frame.code == "return 1  # here" and frame.user


def lib(function: str, package: str) -> HostFrame:
    return HostFrame(f"/v/lib/python3.11/site-packages/{package}/core.py", 1, function, "", False)


def mine(function: str) -> HostFrame:
    return HostFrame("/home/u/train.py", 1, function, "", True)


def test_runs_of_library_frames_fold_into_one_entry_each() -> None:
    frames = [lib("__call__", "torch"), lib("wrapper", "functools"), lib("forward", "torch"), mine("step"),
              lib("run", "sched"), mine("main")]
    assert fold(frames) == (Folded(3, ("torch", "functools")), frames[3], Folded(1, ("sched",)), frames[5])
    assert [f.text for f in fold(frames) if isinstance(f, Folded)] == [
        "… 3 frames in torch, functools", "… 1 frame in sched"]
    assert fold([mine("a"), mine("b")]) == (mine("a"), mine("b"))
    assert fold([]) == ()


def test_the_thread_shown_is_the_main_one_running_user_code() -> None:
    waiting = HostThread(11, "python", (lib("wait", "threading"), mine("idle")))
    main = HostThread(10, "python", (lib("forward", "torch"), mine("step"), mine("<module>")))
    bare_main = HostThread(10, None, (lib("wait", "threading"),))
    assert HostStack(10, (waiting, main)).thread == main
    assert HostStack(10, (waiting, main)).user_frame == mine("step")
    assert HostStack(10, (bare_main, waiting)).thread == waiting
    assert HostStack(10, (bare_main,)).thread == bare_main and HostStack(10, (bare_main,)).user_frame is None
    assert HostStack(10, error="gone").thread is None and HostStack(10, error="gone").user_frame is None


def at_line(line: int) -> HostStack:
    """The host stack pystack read on the H200 for torch_index.py stopped in PyTorch's kernel."""
    return HostStack(7, (HostThread(7, "python", (HostFrame.at(TORCH_INDEX, line, "<module>"),)),))


def test_without_launch_blocking_the_sync_line_says_the_kernel_was_launched_earlier() -> None:
    stack = at_line(7)
    assert stack.user_frame is not None and stack.user_frame.code == 'print("sum", y.sum().item())'
    note = sync_point(stack, {"PATH": "/usr/bin"})
    assert note is not None
    assert "line 7 of torch_index.py" in note and "(.item())" in note and "launched EARLIER" in note
    assert "CUDA_LAUNCH_BLOCKING=1" in note
    assert sync_point(stack, {"CUDA_LAUNCH_BLOCKING": "0"}) == note


def test_an_attached_process_is_not_told_to_re_run() -> None:
    """Attached, r is refused: the note says where the host waits and no re-run advice."""
    note = sync_point(at_line(7), {}, can_rerun=False)
    assert note is not None and note.startswith("The host is waiting for the GPU at line 7 of torch_index.py")
    assert "CUDA_LAUNCH_BLOCKING" not in note and "Re-run" not in note and note.endswith(".")


def test_with_launch_blocking_the_line_shown_is_the_launch() -> None:
    stack = at_line(6)
    assert stack.user_frame is not None and stack.user_frame.code == "y = x[idx]"
    assert sync_point(stack, {"CUDA_LAUNCH_BLOCKING": "1"}) is None


def test_without_launch_blocking_any_line_is_said_to_follow_the_launch() -> None:
    note = sync_point(at_line(6), {})
    assert note is not None and "line 6 of torch_index.py" in note and "launched EARLIER" in note
    assert "waiting for the GPU" not in note and "CUDA_LAUNCH_BLOCKING=1" in note


def test_no_note_without_a_user_frame() -> None:
    assert sync_point(HostStack(7, error="pystack is missing"), {}) is None
    assert sync_point(HostStack(7, (HostThread(7, None, (lib("forward", "torch"),)),)), {}) is None


def note_for(code: str) -> str:
    note = sync_point(HostStack(1, (HostThread(1, None, (HostFrame("/w/t.py", 3, "f", code, True),)),)), {})
    assert note is not None
    return note


@pytest.mark.parametrize("code, call", [
    ("loss_value = loss.item()", ".item()"),
    ("rows = t.tolist()", ".tolist()"),
    ("a = x.cpu().numpy()", ".cpu()"),
    ("a = x.detach().numpy()", ".numpy()"),
    ("host = out.to('cpu')", '.to("cpu")'),
    ("torch.cuda.synchronize()", "synchronize()"),
    ("stream.synchronize()", "synchronize()"),
    ("cudart.cudaDeviceSynchronize()", "cudaDeviceSynchronize()"),
    ("h = cp.asnumpy(d)", "asnumpy()"),
])
def test_calls_that_wait_for_the_gpu_are_named(code: str, call: str) -> None:
    assert f"waiting for the GPU at line 3 of t.py ({call})" in note_for(code)


@pytest.mark.parametrize("code", ["print(y)", "for k, v in d.items():", "y = x[idx]", "n = os.cpu_count()",
                                  "x = x.to('cuda')"])
def test_other_lines_get_the_general_note(code: str) -> None:
    note = note_for(code)
    assert "waiting for the GPU" not in note and "launched EARLIER" in note
