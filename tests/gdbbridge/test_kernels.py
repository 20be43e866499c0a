"""Teaching kernels without a GPU: they compile, the cache works, metadata is consistent.

Compiling needs nvcc (skipped with a reason when it is missing); the wrapper
checks need torch (CPU build is enough; skipped without it). Nothing here runs
a kernel: tests/gpu/test_lessons_gpu.py does that on a GPU box.
"""

from __future__ import annotations

import ctypes
import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.kernels import build, lessons, ops
from cudatui.kernels.lessons import LESSONS, TOOLS, LessonError, format_lesson_list, get_lesson
from tests.support.paths import ROOT

NVCC = shutil.which("nvcc")
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH; CUDA toolkit needed to compile lessons")

_FUNCTION = re.compile(r"^(?:extern \"C\" )?(?:(__global__|__device__)\s+\w+|int)\s+(\w+)\(", re.MULTILINE)


def _functions(source: Path) -> dict[str, tuple[str, int, int]]:
    """Map each function to (``__global__``/``__device__``/``host``, first line, last line)."""
    text = source.read_text()
    starts = [
        (m.group(2), m.group(1) or "host", text.count("\n", 0, m.start()) + 1) for m in _FUNCTION.finditer(text)
    ]
    total = text.count("\n") + 1
    spans = {}
    for index, (name, kind, first) in enumerate(starts):
        last = starts[index + 1][2] - 1 if index + 1 < len(starts) else total
        spans[name] = (kind, first, last)
    return spans


@pytest.fixture(scope="module")
def built_libraries(tmp_path_factory) -> dict[str, Path]:
    """Every lesson compiled once for sm_90 into a private cache."""
    if NVCC is None:
        pytest.skip("nvcc is not on PATH; CUDA toolkit needed to compile lessons")
    cache = tmp_path_factory.mktemp("kernel-cache")
    return {lesson.name: build.build_source(lesson.source, arch="sm_90", cache_root=cache) for lesson in LESSONS}


@needs_nvcc
@pytest.mark.parametrize("name", [lesson.name for lesson in LESSONS])
def test_every_lesson_compiles_and_exports_its_launcher(built_libraries, name):
    library_path = built_libraries[name]
    assert library_path.name == f"lib{name}.so"
    assert library_path.stat().st_size > 0
    symbol = ops._LAUNCHERS[name][0]
    assert hasattr(ctypes.CDLL(str(library_path)), symbol)


@needs_nvcc
def test_build_reuses_cache_and_key_follows_source_and_arch(tmp_path):
    source = tmp_path / "tiny.cu"
    source.write_text('extern "C" __global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n')
    cache = tmp_path / "cache"
    first = build.build_source(source, arch="sm_90", cache_root=cache)
    stamp = first.stat().st_mtime_ns
    again = build.build_source(source, arch="90", cache_root=cache)
    assert again == first and again.stat().st_mtime_ns == stamp
    other_arch = build.build_source(source, arch="sm_80", cache_root=cache)
    assert other_arch.parent != first.parent
    source.write_text('extern "C" __global__ void k(float* a) { a[threadIdx.x] = 2.0f; }\n')
    edited = build.build_source(source, arch="sm_90", cache_root=cache)
    assert edited.parent not in (first.parent, other_arch.parent)
    assert not list(cache.rglob(".lib*")), "temporary build files must be renamed or removed"


def test_cache_key_changes_with_each_input():
    base = ("src", Path("/a/x.cu"), "sm_90", "nvcc 13.0")
    key = build.cache_key(*base)
    assert key == build.cache_key(*base)
    for position, value in enumerate(("src2", Path("/b/x.cu"), "sm_80", "nvcc 12.4")):
        changed = list(base)
        changed[position] = value
        assert build.cache_key(*changed) != key


@needs_nvcc
def test_broken_source_gives_one_line_error_with_nvcc_stderr(tmp_path):
    source = tmp_path / "broken.cu"
    source.write_text('extern "C" __global__ void k(float* a) { a[threadIdx.x] = undefined_name; }\n')
    with pytest.raises(build.BuildError) as caught:
        build.build_source(source, arch="sm_90", cache_root=tmp_path / "cache")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("nvcc failed to compile broken.cu:")
    assert "undefined_name" in message
    assert "undefined_name" in caught.value.stderr
    assert not list((tmp_path / "cache").rglob("*.so")), "a failed build must leave no library behind"


def test_missing_nvcc_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(build.shutil, "which", lambda _name: None)
    monkeypatch.setattr(build, "CUDA_ROOTS", ())
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    with pytest.raises(build.BuildError, match=r"^nvcc not found"):
        build.find_nvcc()
    with pytest.raises(build.BuildError, match=r"^cannot run"):
        build.nvcc_version(str(tmp_path / "no-nvcc"))


def test_missing_source_is_a_clear_error(tmp_path):
    with pytest.raises(build.BuildError, match=r"^no such CUDA source"):
        build.build_source(tmp_path / "absent.cu", arch="sm_90", cache_root=tmp_path)


@pytest.mark.parametrize(
    ("given", "expected"),
    [("sm_90", "sm_90"), ("90", "sm_90"), ("9.0", "sm_90"), ("12.0", "sm_120"), ("compute_80", "sm_80"), ("SM_90A", "sm_90a")],
)
def test_normalize_arch(given, expected):
    assert build.normalize_arch(given) == expected


def test_bad_arch_is_rejected():
    with pytest.raises(build.BuildError, match="not a GPU architecture"):
        build.normalize_arch("hopper")


def test_detect_arch_prefers_env_then_falls_back(monkeypatch):
    monkeypatch.setenv("CUDATUI_ARCH", "8.9")
    assert build.detect_arch() == "sm_89"
    monkeypatch.delenv("CUDATUI_ARCH")
    monkeypatch.setattr(build.shutil, "which", lambda _name: None)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    assert build.detect_arch() == build.DEFAULT_ARCH


def test_build_command_line_errors_are_one_line():
    for argv, pattern in ((["nope"], "unknown lesson 'nope'; valid lessons: oob"), (["--arch", "x"], "not a GPU")):
        done = subprocess.run(
            [sys.executable, "-m", "cudatui.kernels.build", *argv], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and pattern in done.stderr


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_lesson_metadata_is_consistent(lesson):
    assert lesson.source.is_file() and lesson.demo_path.is_file()
    assert lesson.tool in TOOLS and all(outcome.tool in TOOLS for outcome in lesson.outcomes)
    assert lesson.tool in {outcome.tool for outcome in lesson.outcomes}
    text = lesson.source.read_text()
    functions = _functions(lesson.source)
    for kernel in lesson.kernels:
        assert functions.get(kernel, ("",))[0] == "__global__", f"{kernel} is not a __global__ in {lesson.source.name}"
    for name in (lesson.buggy, lesson.fixed):
        assert re.search(rf"\b{name}\(", text), f"{name} is not defined in {lesson.source.name}"
    assert lesson.buggy != lesson.fixed
    assert re.search(rf'extern "C" int {ops._LAUNCHERS[lesson.name][0]}\(', text)
    for marker in ("bug", "fix", *(o.marker for o in lesson.outcomes), *(b.marker for b in lesson.breakpoints)):
        place = lesson.resolve(marker)
        assert f"LESSON:{marker}" in text.splitlines()[place.line - 1]
    assert lesson.source.read_text().splitlines()[lesson.bug_line - 1].strip()
    for outcome, line in zip(lesson.outcomes, lesson.outcome_lines()):
        assert line == f"{outcome.tool}: {outcome.finding} at {lesson.resolve(outcome.marker).location}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_breakpoints_stop_inside_device_code(lesson):
    functions = _functions(lesson.source)
    for location, condition in lesson.breakpoint_specs():
        file, line = location.split(":")
        assert file == lesson.source.name
        inside = [
            name for name, (kind, first, last) in functions.items() if kind != "host" and first <= int(line) <= last
        ]
        assert inside, f"{location} is not inside a __global__ or __device__ function"
        assert condition is None or re.search(r"\b(threadIdx|blockIdx)\.[xyz]\b", condition)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_bug_and_fix_lines_lie_in_the_named_functions(lesson):
    functions = _functions(lesson.source)

    def enclosing(line: int) -> str:
        return next(name for name, (_, first, last) in functions.items() if first <= line <= last)

    bug_owner = enclosing(lesson.bug_line)
    helpers = {name for name, (kind, _, _) in functions.items() if kind == "__device__"}
    assert bug_owner in {lesson.buggy, *lesson.kernels, *helpers}
    assert enclosing(lesson.fix_line) == lesson.fixed or lesson.fixed not in functions


def test_duplicate_marker_is_reported(tmp_path):
    source = tmp_path / "dup.cu"
    source.write_text("int a; // LESSON:bug\nint b; // LESSON:bug\n")
    with pytest.raises(LessonError, match="LESSON:bug appears twice"):
        lessons.source_markers(source)


def test_unknown_marker_and_lesson_are_clear_errors():
    with pytest.raises(LessonError, match="no '// LESSON:nowhere' marker"):
        get_lesson("oob").resolve("nowhere")
    with pytest.raises(LessonError) as caught:
        get_lesson("segfault")
    assert str(caught.value) == f"unknown lesson 'segfault'; valid lessons: {', '.join(lesson.name for lesson in LESSONS)}"


def test_format_lesson_list_has_one_line_per_lesson():
    lines = format_lesson_list().splitlines()
    assert len(lines) == len(LESSONS) >= 6
    for line, lesson in zip(lines, LESSONS):
        assert line.split()[:2] == [lesson.name, lesson.tool]
        assert lesson.title in line


def test_tsv_lists_each_sanitizer_outcome():
    done = subprocess.run(
        [sys.executable, "-m", "cudatui.kernels.lessons", "--tsv"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    rows = [line.split("\t") for line in done.stdout.splitlines()]
    expected = [(lesson.name, o.tool) for lesson in LESSONS for o in lesson.outcomes if o.tool != "cuda-gdb"]
    assert [(name, tool) for name, tool, _, _ in rows] == expected
    for name, tool, demo, options in rows:
        assert Path(demo) == get_lesson(name).demo_path
        assert options.split() == list(lessons.sanitizer_options(tool))
    with pytest.raises(LessonError, match="not a compute-sanitizer tool"):
        lessons.sanitizer_options("cuda-gdb")


def test_kernels_imports_without_torch():
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import cudatui.kernels, cudatui.kernels.build, cudatui.kernels.ops, cudatui.kernels.demos\n"
        "try:\n    cudatui.kernels.ops.add(None, None, None)\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "the lesson wrappers need PyTorch: pip install torch"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_demo_runs_by_file_path_and_as_module(lesson, tmp_path):
    by_path = subprocess.run(
        [sys.executable, str(lesson.demo_path), "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert by_path.returncode == 0, by_path.stderr
    assert "--fixed" in by_path.stdout and lesson.title in by_path.stdout.replace("\n", " ").replace("  ", " ")
    module = importlib.import_module(lesson.demo_module)
    assert callable(module.main) and module.DEMO.lesson is lesson


def test_demo_without_gpu_exits_2_with_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run(
        [sys.executable, str(get_lesson("oob").demo_path)], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout.startswith("[oob] ") and done.stdout.count("\n") == 1


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (build.BuildError("nvcc failed to compile oob.cu: boom", "stderr"), "[oob] cannot build oob.cu: nvcc failed"),
        (ops.KernelLaunchError("oob_add", 9), "[oob] oob_add failed to launch: cudaError_t 9"),
    ],
)
def test_demo_reports_build_and_launch_errors_in_one_line(capsys, error, expected):
    from cudatui.kernels.demos import Demo

    def body(_args):
        raise error

    with pytest.raises(SystemExit) as exited:
        Demo("oob").run(body, argv=[])
    assert exited.value.code == 1
    out = capsys.readouterr().out
    assert out.startswith(expected) and out.count("\n") == 1


def test_demo_check_and_surfaced_lines(capsys):
    from cudatui.kernels.demos import Demo

    demo = Demo("assert")
    assert demo.check("sum", True, "3 == 3") == 0 and demo.check("sum", False, "2 != 3") == 1
    assert demo.surfaced("`x.item()`", RuntimeError("CUDA error: device-side assert triggered\nmore")) == 1
    assert capsys.readouterr().out.splitlines() == [
        "[assert] sum: OK (3 == 3)",
        "[assert] sum: WRONG (2 != 3)",
        "[assert] the CUDA error surfaced at `x.item()`, not at the launch: CUDA error: device-side assert triggered",
        "[assert] the tool that finds the faulting line: cuda-gdb",
    ]


@pytest.mark.parametrize("lesson", [lesson.name for lesson in LESSONS if lesson.name != "tile"])
def test_each_demos_size_is_one_the_wrappers_accept(lesson):
    """A demo whose tensors the wrappers refuse exits 1 before its kernel (leak's 256 MiB
    workspace did, on the H200, batch 32)."""
    demo = importlib.import_module(f"cudatui.kernels.demos.{lesson}")
    assert 0 < demo.N <= ops.MAX_ELEMENTS


def _torch_or_skip():
    return pytest.importorskip("torch", reason="torch not installed; wrapper checks need it")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: ops.add([1.0], t.zeros(3), t.zeros(3)), "a must be a torch.Tensor, got list"),
        (lambda t: ops.add(t.zeros(3, dtype=t.float64), t.zeros(3), t.zeros(3)), "a must have dtype torch.float32"),
        (lambda t: ops.blur3x3(t.zeros(4, 5).t(), t.zeros(5, 4)), "image must be contiguous"),
        (lambda t: ops.add(t.zeros(3), t.zeros(4), t.zeros(3)), "b must have 3 element(s), got 4"),
        (lambda t: ops.blur3x3(t.zeros(20), t.zeros(20)), "image must have 2 dimension(s), got shape (20,)"),
        (lambda t: ops.one_hot(t.ones(4, dtype=t.int32), t.zeros(4, 3), 3), "labels must have dtype torch.int64"),
        (lambda t: ops.one_hot(t.ones(4, dtype=t.int64), t.zeros(4, 3), 0), "num_classes must be at least 1"),
        (lambda t: ops.reduce_sum(t.zeros(8), t.zeros(1), threads=100), "threads must be a power of two"),
        (lambda t: ops.scale_by_parity(t.zeros(0, dtype=t.int32), t.zeros(0, dtype=t.int32)), "x must have 1 to"),
        (lambda t: ops.relu_sum(t.zeros(8), t.zeros(1)), "x must be on a CUDA device, got cpu"),
        (lambda t: ops.square_plus(t.zeros(8), t.zeros(8)), "x must be on a CUDA device, got cpu"),
    ],
)
def test_wrappers_reject_bad_tensors_with_one_line(call, message):
    torch_module = _torch_or_skip()
    with pytest.raises(ValueError) as caught:
        call(torch_module)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
