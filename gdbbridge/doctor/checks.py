"""The individual probes of ``cudatui doctor``; each returns :class:`~cudatui.gdbbridge.doctor.probe.Check`\\s.

NVML, PyTorch and the kernel build run in child Python processes with a timeout, so a slow
``import torch`` or a hung driver call cannot stall the doctor, and a missing or broken
package only yields a report line.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cudatui.gdbbridge.doctor.probe import Check, DoctorConfig, run_tool
from cudatui.gdbbridge.i18n import N_, tr

CAP_SYS_PTRACE = 19
BACKEND_LIB = "libcudadebugger.so.1"
TOOLKIT_HINT = N_("install the CUDA toolkit and put its bin/ on PATH (e.g. /usr/local/cuda/bin)")
_NVML_ERRORS = {
    "NVMLError_LibraryNotFound": (
        "NVML library libnvidia-ml.so.1 not found: no NVIDIA driver on this machine",
        N_("install the NVIDIA driver (in a container: run it with --gpus all)"),
    ),
    "NVMLError_DriverNotLoaded": (
        "the NVIDIA driver is installed but not loaded",
        N_("load it (sudo modprobe nvidia) or reboot"),
    ),
    "NVMLError_NoPermission": (
        "no permission to talk to the NVIDIA driver",
        N_("check the permissions of /dev/nvidia* (add the user to the video group)"),
    ),
}


@dataclass(frozen=True)
class Gpu:
    """One GPU as NVML reports it."""

    index: int
    name: str
    capability: tuple[int, int] | None


@dataclass(frozen=True)
class NvmlInfo:
    """What NVML said: driver, the CUDA version it supports, GPUs; or why it could not."""

    driver: str = ""
    cuda: tuple[int, int] | None = None
    gpus: tuple[Gpu, ...] = ()
    error: str = ""
    fix: str = ""


@dataclass(frozen=True)
class TorchInfo:
    """What ``import torch`` in a child process said."""

    version: str = ""
    cuda: str | None = None
    archs: tuple[str, ...] = field(default_factory=tuple)
    error: str = ""
    missing: bool = False


def find_tool(name: str, config: DoctorConfig) -> tuple[str | None, bool]:
    """``(path, on_path)``: PATH first, then $CUDA_HOME/bin and the usual toolkit roots."""
    found = shutil.which(name, path=config.env.get("PATH", ""))
    if found:
        return found, True
    for root in (config.env.get("CUDA_HOME", ""), *config.cuda_roots):
        candidate = Path(root, "bin", name)
        if root and candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate), False
    return None, False


def _tool_check(
    name: str, config: DoctorConfig, version_rx: str, required: bool, fix: str
) -> Check:
    path, on_path = find_tool(name, config)
    if path is None:
        where = ", ".join(["PATH", "$CUDA_HOME/bin", *(f"{r}/bin" for r in config.cuda_roots)])
        return Check(name, "fail", f"{name} not found ({where})", fix, required)
    result = run_tool([path, "--version"], config.timeout, config.env)
    if not result.ok:
        return Check(name, "fail", f"{path} --version failed: {result.first_error_line()}",
                     tr("fix the error above (often a missing shared library of the tool)"), required)
    match = re.search(version_rx, result.stdout)
    version = match.group(1) if match else result.stdout.strip().splitlines()[0]
    if not on_path:
        return Check(name, "warn", f"{version} at {path}, but not on PATH",
                     f"export PATH={Path(path).parent}:$PATH", required)
    return Check(name, "ok", f"{version} ({path})", required=required)


def check_cuda_gdb(config: DoctorConfig) -> Check:
    """cuda-gdb present and answering ``--version``."""
    return _tool_check("cuda-gdb", config, r"cuda-gdb\)?\s+([\d.]+)", True,
                       tr("{hint}; cuda-gdb is part of the toolkit").format(hint=tr(TOOLKIT_HINT)))


def check_sanitizer(config: DoctorConfig) -> Check:
    """compute-sanitizer present and answering ``--version``."""
    return _tool_check("compute-sanitizer", config, r"Version\s+([\d.]+)", False,
                       tr("{hint}; compute-sanitizer is part of the toolkit").format(hint=tr(TOOLKIT_HINT)))


def check_debugger_backend(config: DoctorConfig) -> Check:
    """The driver's CUDA debugger backend library, which cuda-gdb loads to control the GPU."""
    ldconfig = shutil.which(config.ldconfig, path=config.env.get("PATH", "") + ":/sbin:/usr/sbin")
    if ldconfig:
        listing = run_tool([ldconfig, "-p"], config.timeout)
        for line in listing.stdout.splitlines():
            if line.strip().startswith(BACKEND_LIB) and "=>" in line:
                return Check("debugger backend", "ok", line.split("=>", 1)[1].strip(),
                             required=True)
    extra = [d for d in config.env.get("LD_LIBRARY_PATH", "").split(":") if d]
    for directory in (*extra, *config.lib_dirs):
        hits = sorted(glob.glob(os.path.join(directory, BACKEND_LIB + "*")))
        if hits:
            return Check("debugger backend", "ok", hits[0], required=True)
    return Check(
        "debugger backend", "fail",
        f"{BACKEND_LIB} not found (not in ldconfig's cache, LD_LIBRARY_PATH or the driver's "
        "library directories)",
        tr("it ships with the NVIDIA driver: install the full driver (e.g. libnvidia-compute-<ver>); "
        "in a container let the runtime mount the driver's compute libraries "
        "(NVIDIA_DRIVER_CAPABILITIES=compute,utility)"),
        required=True,
    )


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _status_field(status: str, name: str) -> str | None:
    match = re.search(rf"^{name}:\s*(\S+)", status, re.M)
    return match.group(1) if match else None


def in_container(config: DoctorConfig) -> bool:
    """Docker/Podman marker files, or a container runtime named in PID 1's cgroup."""
    if any(marker.exists() for marker in config.container_markers):
        return True
    cgroup = _read(config.cgroup_path) or ""
    return bool(re.search(r"docker|kubepods|containerd|libpod|lxc", cgroup))


def check_ptrace(config: DoctorConfig) -> list[Check]:
    """Yama's ptrace_scope and, in a container, CAP_SYS_PTRACE and seccomp."""
    status = _read(config.proc_status_path) or ""
    cap_hex = _status_field(status, "CapEff")
    has_cap = cap_hex is not None and bool(int(cap_hex, 16) >> CAP_SYS_PTRACE & 1)
    raw = _read(config.ptrace_scope_path)
    scope = raw.strip() if raw is not None else None
    fix_scope = tr("sudo sysctl kernel.yama.ptrace_scope=1 (0 also allows attaching to a PID)")
    if scope is None:
        check = Check("ptrace", "ok", "no Yama ptrace restriction on this kernel", required=True)
    elif scope == "0":
        check = Check("ptrace", "ok", "ptrace_scope 0: unrestricted", required=True)
    elif scope == "1":
        check = Check("ptrace", "ok", "ptrace_scope 1: cuda-gdb can debug programs it starts; "
                      "attaching to a running PID needs root", required=True)
    elif scope == "2" and has_cap:
        check = Check("ptrace", "ok", "ptrace_scope 2 (admin only), and this process has "
                      "CAP_SYS_PTRACE", required=True)
    elif scope == "2":
        check = Check("ptrace", "fail", "ptrace_scope 2: only CAP_SYS_PTRACE processes may "
                      "trace, so cuda-gdb cannot debug", fix_scope, required=True)
    elif scope == "3":
        check = Check("ptrace", "fail", "ptrace_scope 3: ptrace is disabled until reboot",
                      tr("set kernel.yama.ptrace_scope=1 in /etc/sysctl.d and reboot"), required=True)
    else:
        check = Check("ptrace", "warn", f"unexpected ptrace_scope value {scope!r}", fix_scope,
                      required=True)
    checks = [check]
    if in_container(config):
        seccomp = _status_field(status, "Seccomp")
        notes = [] if has_cap else ["no CAP_SYS_PTRACE (attaching to a PID will fail)"]
        if seccomp == "2":
            notes.append("a seccomp filter is active")
        if notes:
            checks.append(Check("container", "warn", "inside a container: " + "; ".join(notes),
                                tr("docker run --cap-add=SYS_PTRACE --security-opt "
                                "seccomp=unconfined ...")))
        else:
            checks.append(Check("container", "ok", "inside a container with CAP_SYS_PTRACE"))
    return checks


_NVML_PROBE = r"""
import json
out = {}
try:
    import pynvml
except Exception as exc:
    out["error"] = "import"; out["message"] = f"{type(exc).__name__}: {exc}"
else:
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        out["error"] = type(exc).__name__; out["message"] = str(exc)
    else:
        out["driver"] = text(pynvml.nvmlSystemGetDriverVersion())
        try:
            out["cuda"] = pynvml.nvmlSystemGetCudaDriverVersion_v2()
        except pynvml.NVMLError:
            pass
        gpus = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            h = pynvml.nvmlDeviceGetHandleByIndex(i)
            gpu = {"index": i, "name": text(pynvml.nvmlDeviceGetName(h))}
            try:
                gpu["cc"] = list(pynvml.nvmlDeviceGetCudaComputeCapability(h))
            except pynvml.NVMLError:
                pass
            gpus.append(gpu)
        out["gpus"] = gpus
        pynvml.nvmlShutdown()
print(json.dumps(out))
"""


def child_json(config: DoctorConfig, script: str, timeout: float,
                args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> dict[str, Any] | str:
    """Run ``script`` in a child Python; its last stdout line as JSON, or a one-line error."""
    result = run_tool([config.python, "-c", script, *args], timeout, env or config.env)
    if result.error:
        return result.error
    lines = result.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1]) if lines else result.first_error_line()
    except json.JSONDecodeError:
        return result.first_error_line()


def probe_nvml(config: DoctorConfig) -> NvmlInfo:
    """Driver version, supported CUDA version and GPUs through NVML (nvidia-ml-py)."""
    data = child_json(config, _NVML_PROBE, config.timeout)
    if isinstance(data, str):
        return NvmlInfo(error=f"NVML probe failed: {data}", fix=tr("run `nvidia-smi` to check"))
    if data.get("error") == "import":
        return NvmlInfo(error=f"nvidia-ml-py not importable ({data['message']})",
                        fix=tr("pip install nvidia-ml-py"))
    if "error" in data:
        error, fix = _NVML_ERRORS.get(data["error"], (f"NVML: {data['message']}",
                                                      tr("run `nvidia-smi` to see the problem")))
        return NvmlInfo(error=error, fix=tr(fix))
    cuda = data.get("cuda")
    gpus = tuple(
        Gpu(g["index"], g["name"], tuple(g["cc"]) if "cc" in g else None) for g in data["gpus"]
    )
    return NvmlInfo(data["driver"], (cuda // 1000, cuda % 1000 // 10) if cuda else None, gpus)


def sm(capability: tuple[int, int]) -> str:
    """``(9, 0)`` -> ``"sm_90"``."""
    return f"sm_{capability[0]}{capability[1]}"


def nvml_checks(info: NvmlInfo) -> list[Check]:
    """The driver line, the GPU count line and one line per GPU."""
    if info.error:
        return [
            Check("NVML / driver", "fail", info.error, info.fix, required=True),
            Check("GPUs", "fail", "unknown: NVML unavailable", info.fix, required=True),
        ]
    cuda = f" (supports CUDA {info.cuda[0]}.{info.cuda[1]})" if info.cuda else ""
    checks = [Check("NVML / driver", "ok", f"driver {info.driver}{cuda}", required=True)]
    if not info.gpus:
        checks.append(Check("GPUs", "fail", "NVML works but reports no GPU",
                            tr("check `nvidia-smi`; in a container pass --gpus all"), required=True))
    else:
        checks.append(Check("GPUs", "ok", f"{len(info.gpus)} visible to NVML", required=True))
    for gpu in info.gpus:
        cc = (f"compute capability {gpu.capability[0]}.{gpu.capability[1]} ({sm(gpu.capability)})"
              if gpu.capability else "compute capability unknown")
        checks.append(Check(f"GPU {gpu.index}", "info", f"{gpu.name}, {cc}"))
    return checks
