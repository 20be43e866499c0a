"""`cudatui doctor`: is this machine ready for live CUDA debugging?

:func:`run_checks` probes the tools (cuda-gdb, compute-sanitizer, nvcc), the CUDA debugger
backend library, ptrace permissions, the driver and GPUs through NVML, PyTorch's CUDA build and
the bundled kernels' ``-G`` build, and returns one :class:`Check` per line of the report. Every
probe has a timeout and turns failures into a ``fail``/``warn`` line with a fix; nothing here
raises. The individual probes live in :mod:`cudatui.gdbbridge.doctor.checks`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

STATUSES = ("ok", "fail", "warn", "info")
SYMBOLS = {"ok": "✓", "fail": "✗", "warn": "!", "info": "·"}

DEFAULT_LIB_DIRS = (
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/nvidia/lib64",
    "/usr/local/nvidia/lib",
    "/usr/lib/wsl/lib",
)


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report.

    ``status`` is one of :data:`STATUSES`; ``fix`` says what to do when it is not ``ok``;
    ``required`` marks the checks that live debugging cannot do without.
    """

    name: str
    status: str
    detail: str
    fix: str = ""
    required: bool = False


@dataclass(frozen=True)
class ToolResult:
    """The outcome of running a tool: ``error`` is a one-line reason when it could not run."""

    returncode: int | None
    stdout: str = ""
    stderr: str = ""
    error: str = ""

    @property
    def ok(self) -> bool:
        """True when the tool ran and exited with 0."""
        return not self.error and self.returncode == 0

    def first_error_line(self) -> str:
        """The reason it failed, in one line."""
        if self.error:
            return self.error
        lines = [line.strip() for line in (self.stderr or self.stdout).splitlines()]
        text = next((line for line in lines if line), "")
        return f"exit code {self.returncode}" + (f": {text}" if text else "")


@dataclass(frozen=True)
class DoctorConfig:
    """Everything the probes read from the machine, injectable for tests."""

    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    ptrace_scope_path: Path = Path("/proc/sys/kernel/yama/ptrace_scope")
    proc_status_path: Path = Path("/proc/self/status")
    cgroup_path: Path = Path("/proc/1/cgroup")
    container_markers: tuple[Path, ...] = (Path("/.dockerenv"), Path("/run/.containerenv"))
    lib_dirs: tuple[str, ...] = DEFAULT_LIB_DIRS
    cuda_roots: tuple[str, ...] = ("/usr/local/cuda",)
    ldconfig: str = "ldconfig"
    python: str = sys.executable
    timeout: float = 20.0
    torch_timeout: float = 120.0
    build_timeout: float = 300.0
    build_kernels: bool = True
    build_module: str = "cudatui.kernels.build"


def run_tool(
    argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None
) -> ToolResult:
    """Run ``argv`` with a timeout and capture its output; never raises."""
    try:
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            env=dict(env) if env is not None else None,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except FileNotFoundError:
        return ToolResult(None, error=f"{argv[0]} not found")
    except PermissionError:
        return ToolResult(None, error=f"{argv[0]} is not executable")
    except subprocess.TimeoutExpired:
        return ToolResult(None, error=f"{Path(argv[0]).name} did not answer within {timeout:g} s")
    except OSError as exc:
        return ToolResult(None, error=f"cannot run {argv[0]}: {exc.strerror or exc}")
    return ToolResult(done.returncode, done.stdout, done.stderr)


def run_checks(config: DoctorConfig | None = None) -> tuple[Check, ...]:
    """Run every probe (the slow ones in parallel) and return the report's lines in order."""
    from cudatui.gdbbridge.doctor import checks as probes
    from cudatui.gdbbridge.doctor import toolchain

    config = config or DoctorConfig()
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="doctor") as pool:
        nvml_future = pool.submit(probes.probe_nvml, config)
        torch_future = pool.submit(toolchain.probe_torch, config)
        tools_future = pool.submit(
            lambda: (
                probes.check_cuda_gdb(config),
                probes.check_sanitizer(config),
                probes.check_debugger_backend(config),
            )
        )
        nvml = nvml_future.result()
        build_future = pool.submit(toolchain.check_debug_build, config, nvml)
        checks = [*tools_future.result(), *probes.check_ptrace(config)]
        checks += probes.nvml_checks(nvml)
        checks += toolchain.torch_checks(torch_future.result(), nvml)
        checks += toolchain.check_nvcc(config, nvml)
        checks += toolchain.env_checks(config, nvml)
        checks.append(build_future.result())
    return tuple(checks)


def missing(checks: Sequence[Check]) -> list[str]:
    """Names of the required checks that failed."""
    return [check.name for check in checks if check.required and check.status == "fail"]


def exit_code(checks: Sequence[Check]) -> int:
    """0 when everything live debugging needs is there, else 1."""
    return 1 if missing(checks) else 0


def format_lines(checks: Sequence[Check]) -> list[tuple[str, str]]:
    """The report as ``(status, text)`` lines; status is "" for lines that are not checks."""
    width = max((len(check.name) for check in checks), default=0)
    lines: list[tuple[str, str]] = []
    for check in checks:
        lines.append((check.status, f"{SYMBOLS[check.status]} {check.name.ljust(width)}  "
                      f"{check.detail}"))
        if check.fix and check.status != "ok":
            lines.append(("", f"  {' ' * width}  fix: {check.fix}"))
    absent = missing(checks)
    lines.append(("", ""))
    if absent:
        lines.append(("fail", "Live debugging: NOT ready, missing: " + ", ".join(absent)))
    else:
        lines.append(("ok", "Live debugging: ready"))
    return lines


def format_table(checks: Sequence[Check]) -> str:
    """The report as aligned plain text with ✓ / ✗ / ! / · marks."""
    return "\n".join(text for _, text in format_lines(checks))


def checks_to_json(checks: Sequence[Check]) -> str:
    """The report as JSON: ``{"ready": bool, "missing": [...], "checks": [...]}``."""
    payload = {
        "ready": not missing(checks),
        "missing": missing(checks),
        "checks": [asdict(check) for check in checks],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False)
