"""The doctor's checks on this no-GPU machine, and each check with controlled inputs (the command
line, `cudatui doctor`, is tests/app/test_doctor_command.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from cudatui.gdbbridge.doctor.probe import Check, DoctorConfig, run_tool
from cudatui.gdbbridge.doctor.run import SYMBOLS, checks_to_json, exit_code, format_table, run_checks
from cudatui.gdbbridge.doctor.checks import (
    Gpu,
    NvmlInfo,
    TorchInfo,
    check_cuda_gdb,
    check_debugger_backend,
    check_ptrace,
    check_sanitizer,
    nvml_checks,
    probe_nvml,
)
from cudatui.gdbbridge.doctor.toolchain import (
    arch_supports,
    check_debug_build,
    check_nvcc,
    env_checks,
    probe_torch,
    torch_checks,
)
from tests.support.nvml import needs_no_driver
from tests.support.paths import ROOT

H200 = NvmlInfo("580.159.04", (13, 0), (Gpu(0, "NVIDIA H200", (9, 0)),))


def isolated(tmp_path: Path, **overrides: object) -> DoctorConfig:
    """A config that sees only ``tmp_path/bin`` on PATH and no toolkit roots."""
    (tmp_path / "bin").mkdir(exist_ok=True)
    env = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path)}
    base = DoctorConfig(env=env, cuda_roots=(), ldconfig="no-such-ldconfig",
                        lib_dirs=(str(tmp_path / "lib"),), timeout=5.0)
    return replace(base, **overrides)


def tool(tmp_path: Path, name: str, body: str) -> Path:
    """An executable shell script standing in for a tool on the isolated PATH."""
    path = tmp_path / "bin" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return path


@needs_no_driver
def test_doctor_on_this_machine_says_what_is_missing() -> None:
    checks = run_checks(replace(DoctorConfig(), build_kernels=False))
    by_name = {check.name: check for check in checks}
    assert exit_code(checks) == 1
    assert by_name["NVML / driver"].status == "fail"
    assert "libnvidia-ml.so.1 not found" in by_name["NVML / driver"].detail
    assert by_name["GPUs"].detail == "unknown: NVML unavailable"
    assert by_name["debugger backend"].status == "fail"
    for check in checks:
        assert check.status in SYMBOLS
        assert check.status == "ok" or check.status == "info" or check.fix, check
    if shutil.which("cuda-gdb") is None:
        assert by_name["cuda-gdb"].detail.startswith("cuda-gdb not found")
    table = format_table(checks)
    assert table.splitlines()[-1].startswith("Live debugging: NOT ready, missing: ")
    assert "NVML / driver" in table.splitlines()[-1]


def test_cuda_gdb_missing_from_path(tmp_path: Path) -> None:
    check = check_cuda_gdb(isolated(tmp_path))
    assert (check.status, check.required) == ("fail", True)
    assert check.detail == "cuda-gdb not found (PATH, $CUDA_HOME/bin)"
    assert "CUDA toolkit" in check.fix


def test_cuda_gdb_version_is_read(tmp_path: Path) -> None:
    path = tool(tmp_path, "cuda-gdb", "echo 'NVIDIA (R) cuda-gdb 13.0'; echo 'Based on GNU gdb 14.2'")
    check = check_cuda_gdb(isolated(tmp_path))
    assert (check.status, check.detail) == ("ok", f"13.0 ({path})")


def test_cuda_gdb_that_cannot_start(tmp_path: Path) -> None:
    tool(tmp_path, "cuda-gdb", "echo 'cuda-gdb: error while loading shared libraries: "
         "libncursesw.so.5: cannot open shared object file' >&2; exit 127")
    check = check_cuda_gdb(isolated(tmp_path))
    assert check.status == "fail"
    assert check.detail.endswith("exit code 127: cuda-gdb: error while loading shared libraries: "
                                 "libncursesw.so.5: cannot open shared object file")


def test_tool_that_hangs_times_out(tmp_path: Path) -> None:
    tool(tmp_path, "compute-sanitizer", "exec /bin/sleep 30")
    check = check_sanitizer(isolated(tmp_path, timeout=0.5))
    assert check.status == "fail" and "did not answer within 0.5 s" in check.detail


def test_sanitizer_off_path_under_cuda_home(tmp_path: Path) -> None:
    home = tmp_path / "cuda"
    (home / "bin").mkdir(parents=True)
    script = home / "bin" / "compute-sanitizer"
    script.write_text("#!/bin/sh\necho 'NVIDIA (R) Compute Sanitizer'\necho 'Version 2025.3.1.0'\n")
    script.chmod(0o755)
    config = isolated(tmp_path)
    config = replace(config, env={**config.env, "CUDA_HOME": str(home)})
    check = check_sanitizer(config)
    assert (check.status, check.required) == ("warn", False)
    assert check.detail == f"2025.3.1.0 at {script}, but not on PATH"
    assert check.fix == f"export PATH={home / 'bin'}:$PATH"


def test_run_tool_never_raises(tmp_path: Path) -> None:
    assert run_tool([str(tmp_path / "nothing")], 1).error.endswith("not found")
    assert not run_tool([sys.executable, "-c", "import sys; sys.exit(3)"], 5).ok


def test_debugger_backend_found_in_a_library_dir(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libcudadebugger.so.1").write_bytes(b"")
    check = check_debugger_backend(isolated(tmp_path))
    assert (check.status, check.detail) == ("ok", str(tmp_path / "lib" / "libcudadebugger.so.1"))


def test_debugger_backend_missing(tmp_path: Path) -> None:
    check = check_debugger_backend(isolated(tmp_path))
    assert (check.status, check.required) == ("fail", True)
    assert check.detail.startswith("libcudadebugger.so.1 not found")
    assert "driver" in check.fix


def _ptrace(tmp_path: Path, scope: str | None, cap_eff: str, container: bool = False) -> list[Check]:
    scope_path = tmp_path / "ptrace_scope"
    if scope is not None:
        scope_path.write_text(scope + "\n")
    status = tmp_path / "status"
    status.write_text(f"Name:\tpython\nCapEff:\t{cap_eff}\nSeccomp:\t2\n")
    marker = tmp_path / ".dockerenv"
    if container:
        marker.write_text("")
    return check_ptrace(isolated(
        tmp_path, ptrace_scope_path=scope_path, proc_status_path=status,
        container_markers=(marker,), cgroup_path=tmp_path / "no-cgroup",
    ))


@pytest.mark.parametrize(
    ("scope", "cap", "status", "words"),
    [
        (None, "0000000000000000", "ok", "no Yama"),
        ("0", "0000000000000000", "ok", "unrestricted"),
        ("1", "0000000000000000", "ok", "programs it starts"),
        ("2", "0000000000000000", "fail", "cannot debug"),
        ("2", "0000000000080000", "ok", "CAP_SYS_PTRACE"),
        ("3", "000001fffeffffff", "fail", "disabled until reboot"),
    ],
)
def test_ptrace_scope(tmp_path: Path, scope: str | None, cap: str, status: str, words: str) -> None:
    checks = _ptrace(tmp_path, scope, cap)
    assert [c.name for c in checks] == ["ptrace"]
    assert checks[0].status == status and words in checks[0].detail


def test_container_without_cap_sys_ptrace_warns(tmp_path: Path) -> None:
    checks = _ptrace(tmp_path, "1", "00000000a80425fb", container=True)
    assert checks[1].name == "container" and checks[1].status == "warn"
    assert "no CAP_SYS_PTRACE" in checks[1].detail and "seccomp" in checks[1].detail
    assert "--cap-add=SYS_PTRACE" in checks[1].fix


@needs_no_driver
def test_nvml_probe_reports_the_missing_driver() -> None:
    info = probe_nvml(DoctorConfig())
    assert info.error.startswith("NVML library libnvidia-ml.so.1 not found")
    assert [c.status for c in nvml_checks(info)] == ["fail", "fail"]


def test_probes_survive_a_missing_python(tmp_path: Path) -> None:
    config = isolated(tmp_path, python=str(tmp_path / "no-python"))
    assert "not found" in probe_nvml(config).error
    torch_info = probe_torch(config)
    assert "not found" in torch_info.error
    assert torch_checks(torch_info, NvmlInfo())[0].status == "fail"


def test_nvml_checks_list_each_gpu() -> None:
    checks = nvml_checks(H200)
    assert [(c.name, c.status) for c in checks] == [
        ("NVML / driver", "ok"), ("GPUs", "ok"), ("GPU 0", "info")
    ]
    assert checks[0].detail == "driver 580.159.04 (supports CUDA 13.0)"
    assert checks[2].detail == "NVIDIA H200, compute capability 9.0 (sm_90)"


@pytest.mark.parametrize(
    ("archs", "capability", "runs"),
    [
        (("sm_90",), (9, 0), True),
        (("sm_80",), (8, 6), True),
        (("sm_86",), (8, 0), False),
        (("sm_90a",), (9, 0), True),
        (("sm_90a",), (10, 0), False),
        (("compute_90",), (12, 0), True),
        (("sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"), (12, 0), False),
        (("sm_100", "sm_120"), (12, 1), True),
    ],
)
def test_arch_supports(archs: tuple[str, ...], capability: tuple[int, int], runs: bool) -> None:
    assert arch_supports(archs, capability) is runs


def test_torch_on_this_machine() -> None:
    info = probe_torch(DoctorConfig())
    first = torch_checks(info, NvmlInfo())[0]
    if importlib.util.find_spec("torch") is None:
        assert (info.missing, first.status) == (True, "info")
    else:
        assert info.version and first.name == "PyTorch"
        assert first.status == ("ok" if info.cuda else "warn")


def test_torch_mismatches_are_failures() -> None:
    old_driver = replace(H200, cuda=(12, 4))
    checks = torch_checks(TorchInfo("2.11.0+cu130", "13.0", ("sm_80", "sm_90")), old_driver)
    assert [(c.name, c.status) for c in checks] == [
        ("PyTorch", "ok"), ("PyTorch vs driver", "fail"), ("PyTorch archs GPU 0", "ok")
    ]
    blackwell = replace(H200, gpus=(Gpu(0, "NVIDIA GeForce RTX 5090", (12, 0)),))
    archs = ("sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90")
    arch_check = torch_checks(TorchInfo("2.6.0+cu124", "12.4", archs), blackwell)[-1]
    assert arch_check.status == "fail" and "no kernel image is available" in arch_check.detail
    cpu = torch_checks(TorchInfo("2.13.0+cpu", None, ()), H200)
    assert [(c.status, c.detail) for c in cpu] == [
        ("warn", "2.13.0+cpu is a CPU-only build: it runs no CUDA kernels")
    ]


def test_environment_variables() -> None:
    checks = env_checks(DoctorConfig(env={"CUDA_LAUNCH_BLOCKING": "1",
                                          "CUDA_VISIBLE_DEVICES": ""}), H200)
    assert checks[0].detail.startswith("1: every launch waits")
    assert checks[1].status == "warn" and "hides every GPU" in checks[1].detail
    beyond = env_checks(DoctorConfig(env={"CUDA_VISIBLE_DEVICES": "0,3"}), H200)[1]
    assert beyond.status == "warn" and "[3]" in beyond.detail


def test_the_build_advice_for_the_users_own_kernels() -> None:
    own = env_checks(DoctorConfig(env={}), H200)[-1]
    assert own.name == "own kernels' source" and "CUPY_CUDA_COMPILE_WITH_DEBUG=1" in own.detail
    assert "nvcc -G -lineinfo" in own.fix and 'extra_cuda_cflags=["-G", "-g"]' in own.fix
    kept = env_checks(DoctorConfig(env={"CUPY_CUDA_COMPILE_WITH_DEBUG": "0"}), H200)[-1]
    assert kept.detail == "CuPy kernels: CUPY_CUDA_COMPILE_WITH_DEBUG='0' (yours, kept)"


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_nvcc_version_and_target_list() -> None:
    kepler = NvmlInfo("1", (13, 0), (Gpu(0, "Tesla K80", (3, 7)),))
    checks = check_nvcc(DoctorConfig(), kepler)
    assert checks[0].status == "ok" and "targets compute_" in checks[0].detail
    assert checks[1].status == "warn" and "cannot target sm_37" in checks[1].detail


def test_build_check_without_the_module(tmp_path: Path) -> None:
    check = check_debug_build(isolated(tmp_path, build_module="no_such_pkg.build"), NvmlInfo())
    assert (check.status, check.detail) == ("info", "not available (no_such_pkg.build not found)")


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_bundled_kernel_builds_with_debug_info() -> None:
    check = check_debug_build(DoctorConfig(env=dict(os.environ)), H200)
    assert check.status == "ok", check.detail
    assert check.detail.startswith("lesson 'oob' built with -g -G for sm_90 (")
    assert Path(check.detail.rsplit("(", 1)[1].rstrip(")")).is_file()


def test_json_round_trip() -> None:
    checks = (Check("a", "ok", "fine", required=True), Check("b", "fail", "bad", "do x", True))
    payload = json.loads(checks_to_json(checks))
    assert payload == {
        "ready": False,
        "missing": ["b"],
        "checks": [
            {"name": "a", "status": "ok", "detail": "fine", "fix": "", "required": True},
            {"name": "b", "status": "fail", "detail": "bad", "fix": "do x", "required": True},
        ],
    }
    assert format_table(checks).splitlines()[:3] == ["✓ a  fine", "✗ b  bad", "     fix: do x"]


def test_gdbbridge_doctor_imports_without_ui_libraries() -> None:
    probe = (
        "import sys, cudatui.gdbbridge.doctor.run, cudatui.gdbbridge.doctor.checks, cudatui.gdbbridge.doctor.toolchain; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'rich'}))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"
