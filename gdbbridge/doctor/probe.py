"""What every ``cudatui doctor`` probe shares: the report line, the machine it reads, a tool run.

:class:`Check` is one line of the report, :class:`DoctorConfig` everything a probe reads from
the machine (injectable for tests) and :func:`run_tool` runs a tool with a timeout, never
raising. The probes (:mod:`cudatui.gdbbridge.doctor.checks`,
:mod:`cudatui.gdbbridge.doctor.toolchain`) and the report (:mod:`cudatui.gdbbridge.doctor.run`)
import them from here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

STATUSES = ("ok", "fail", "warn", "info")

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
