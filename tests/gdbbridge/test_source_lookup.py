"""Where the source of a kernel compiled at run time is found: real files in temporary folders
laid out as CuPy, torch.utils.cpp_extension and NVRTC leave them, with their environment
variables; and the environment cudatui gives a Python program for CuPy."""

from __future__ import annotations

import os

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.advice import JIT_ENV
from cudatui.gdbbridge.debugger.host import jit_env
from cudatui.gdbbridge.source import find_source, jit_candidates, missing_reason

SHA = "3f786850e387550fdab836ed7e6dc881de23001b"
CUPY_TMP = f"/tmp/tmpa1b2c3d4/{SHA}.cubin.cu"
"""The file CuPy's debug info names on the H200 (its temporary compile folder, deleted)."""
EXT = "/root/.cache/torch_extensions/py312_cu130/ext_oob/cuda.cu"
"""The cpp_extension source cuda-gdb named on the H200 (tests/fixtures/recorded/own/ext_oob.jsonl)."""


def write(path, text="// kernel\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_cupy_kernel_source_from_its_cache_dir_or_home(tmp_path) -> None:
    home = tmp_path / "home"
    cached = write(home / ".cupy" / "kernel_cache" / f"{SHA}.cubin.cu")
    assert find_source(CUPY_TMP, env={"HOME": str(home)}) == cached
    other = write(tmp_path / "cache" / f"{SHA}.cubin.cu")
    assert find_source(CUPY_TMP, env={"HOME": str(home), "CUPY_CACHE_DIR": str(tmp_path / "cache")}) == other
    assert find_source(CUPY_TMP, env={"HOME": str(tmp_path / "nobody")}) is None
    reason = missing_reason(CUPY_TMP, env={"HOME": str(tmp_path / "nobody")})
    assert "CuPy's compile folder" in reason and "CUPY_CACHE_SAVE_CUDA_SOURCE=1" in reason
    assert str(tmp_path / "nobody" / ".cupy" / "kernel_cache") in reason


def test_cpp_extension_source_from_this_machines_build_folder(tmp_path) -> None:
    home = tmp_path / "home"
    built = write(home / ".cache" / "torch_extensions" / "py312_cu130" / "ext_oob" / "cuda.cu")
    assert find_source(EXT, env={"HOME": str(home)}, recorded=True) == built
    # TORCH_EXTENSIONS_DIR holds the extensions' folders directly (no pyXY_cuZZ level)
    direct = write(tmp_path / "ext" / "ext_oob" / "cuda.cu")
    assert find_source(EXT, env={"HOME": str(tmp_path), "TORCH_EXTENSIONS_DIR": str(tmp_path / "ext")}) == direct
    assert jit_candidates("/src/kernel.cu", env={"HOME": str(home)}) == []
    assert "the extension's build folder is not here" in missing_reason(EXT, env={"HOME": str(tmp_path / "x")})


def test_nvrtc_program_name_in_the_source_dirs_else_a_clear_message(tmp_path) -> None:
    mine = write(tmp_path / "src" / "saxpy.cu")
    assert find_source("saxpy.cu", (str(tmp_path / "src"),)) == mine
    assert find_source("default_program", (str(tmp_path / "src"),)) is None
    reason = missing_reason("default_program", (str(tmp_path / "src"),))
    assert "is a name, not a file (an NVRTC program's name?)" in reason and "--source-dir DIR" in reason


def test_a_python_program_gets_cupys_variables_unless_the_user_set_them(monkeypatch) -> None:
    for name in JIT_ENV:
        monkeypatch.delenv(name, raising=False)
    assert jit_env(LaunchConfig(("cuda-gdb",), ("train.py",))) == JIT_ENV
    monkeypatch.setenv("CUPY_CUDA_COMPILE_WITH_DEBUG", "0")
    assert jit_env(LaunchConfig(("cuda-gdb",), ("train.py",))) == {"CUPY_CACHE_SAVE_CUDA_SOURCE": "1"}
    given = LaunchConfig(("cuda-gdb",), ("train.py",), env=(("CUPY_CACHE_SAVE_CUDA_SOURCE", "0"),))
    assert jit_env(given) == {}
    assert jit_env(LaunchConfig(("cuda-gdb",), ("./a.out",))) == {}  # not Python
    assert os.environ["CUPY_CUDA_COMPILE_WITH_DEBUG"] == "0"
