"""Doctor probes for the build side: PyTorch's CUDA build, nvcc, the environment, ``-G`` builds.

The PyTorch check catches the classic mismatches: a CPU-only wheel, a wheel whose CUDA is newer
than the driver supports ("driver version is insufficient"), and a wheel compiled for other
GPU architectures ("no kernel image is available for execution on the device").
"""

from __future__ import annotations

import cudatui

import importlib.util
import re
from pathlib import Path

from cudatui.gdbbridge.advice import BUILD_ADVICE, JIT_ENV
from cudatui.gdbbridge.doctor.probe import Check, DoctorConfig, run_tool
from cudatui.gdbbridge.doctor.checks import NvmlInfo, TorchInfo, child_json, find_tool, sm
from cudatui.gdbbridge.i18n import N_, tr

BUILD_LESSON = "oob"
WHEEL_FIX = (
    N_("install a PyTorch wheel built for this GPU and driver, e.g. pip install torch "
    "--index-url https://download.pytorch.org/whl/cu130 (pick the cuXYZ your driver supports)")
)

_TORCH_PROBE = r"""
import json
out = {}
try:
    import torch
except ModuleNotFoundError as exc:
    out["missing"] = True; out["error"] = str(exc)
except Exception as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"
else:
    out["version"] = torch.__version__
    out["cuda"] = torch.version.cuda
    archs = []
    try:
        archs = list(torch.cuda.get_arch_list())
    except Exception:
        pass
    if not archs:
        try:
            archs = (torch._C._cuda_getArchFlags() or "").split()
        except Exception:
            pass
    out["archs"] = archs
print(json.dumps(out))
"""

_BUILD_PROBE = r"""
import importlib, json, sys
module = importlib.import_module(sys.argv[1])
try:
    path = module.build_lesson(sys.argv[2], arch=sys.argv[3] or None)
except module.BuildError as exc:
    print(json.dumps({"error": str(exc)}))
else:
    print(json.dumps({"path": str(path)}))
"""


def probe_torch(config: DoctorConfig) -> TorchInfo:
    """``import torch`` in a child process (slow, maybe absent) with a timeout."""
    data = child_json(config, _TORCH_PROBE, config.torch_timeout)
    if isinstance(data, str):
        return TorchInfo(error=f"probing PyTorch failed: {data}")
    if "error" in data:
        return TorchInfo(error=data["error"], missing=bool(data.get("missing")))
    return TorchInfo(data["version"], data["cuda"], tuple(data["archs"]))


def _version(text: str) -> tuple[int, int] | None:
    match = re.match(r"(\d+)\.(\d+)", text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def arch_supports(archs: tuple[str, ...], capability: tuple[int, int]) -> bool:
    """Can code built for ``archs`` run on a GPU of ``capability``?

    ``sm_XY`` cubins run on the same major with minor >= Y (``sm_XYa`` only on X.Y exactly);
    ``compute_XY`` PTX is JIT-compiled for any GPU of capability X.Y or newer.
    """
    for arch in archs:
        match = re.fullmatch(r"(sm|compute)_(\d+)(\d)([a-z]?)", arch)
        if not match:
            continue
        kind, major, minor, suffix = match.group(1), int(match.group(2)), int(match.group(3)), \
            match.group(4)
        if kind == "sm" and suffix:
            fits = (major, minor) == capability
        elif kind == "sm":
            fits = major == capability[0] and minor <= capability[1]
        else:
            fits = not suffix and (major, minor) <= capability
        if fits:
            return True
    return False


def torch_checks(info: TorchInfo, nvml: NvmlInfo) -> list[Check]:
    """PyTorch version, its CUDA vs the driver, its arch list vs the GPUs."""
    if info.missing:
        return [Check("PyTorch", "info", "not installed (only needed for PyTorch programs)",
                      tr("pip install torch (CUDA build) to debug PyTorch programs"))]
    if info.error:
        return [Check("PyTorch", "fail", f"import torch failed: {info.error}", tr(WHEEL_FIX))]
    if not info.cuda:
        return [Check("PyTorch", "warn", f"{info.version} is a CPU-only build: it runs no CUDA "
                      "kernels", tr(WHEEL_FIX))]
    checks = [Check("PyTorch", "ok", f"{info.version} (CUDA {info.cuda})")]
    needed = _version(info.cuda)
    if needed and nvml.cuda:
        if needed > nvml.cuda:
            checks.append(Check(
                "PyTorch vs driver", "fail",
                f"PyTorch needs CUDA {info.cuda}, the driver supports up to "
                f"{nvml.cuda[0]}.{nvml.cuda[1]} ('CUDA driver version is insufficient')",
                tr("upgrade the NVIDIA driver, or {fix}").format(fix=tr(WHEEL_FIX))))
        else:
            checks.append(Check("PyTorch vs driver", "ok", f"CUDA {info.cuda} <= driver's "
                                f"{nvml.cuda[0]}.{nvml.cuda[1]}"))
    archs = " ".join(info.archs) or "unknown"
    gpus = [(gpu, gpu.capability) for gpu in nvml.gpus if gpu.capability]
    if not gpus:
        checks.append(Check("PyTorch archs", "info", f"{archs} (no GPU to compare with)"))
    for gpu, capability in gpus:
        if not info.archs or arch_supports(info.archs, capability):
            checks.append(Check(f"PyTorch archs GPU {gpu.index}", "ok",
                                f"{sm(capability)} covered by {archs}"))
        else:
            checks.append(Check(
                f"PyTorch archs GPU {gpu.index}", "fail",
                f"{sm(capability)} not in {archs}: 'no kernel image is available for "
                "execution on the device'", tr(WHEEL_FIX)))
    return checks


def check_nvcc(config: DoctorConfig, nvml: NvmlInfo) -> list[Check]:
    """nvcc present, its version and whether it can target the GPUs."""
    path, on_path = find_tool("nvcc", config)
    if path is None:
        return [Check("nvcc", "fail", "nvcc not found: the bundled kernels cannot be built",
                      tr("install the CUDA toolkit and put its bin/ on PATH"))]
    version = run_tool([path, "--version"], config.timeout, config.env)
    if not version.ok:
        return [Check("nvcc", "fail", f"{path} --version failed: {version.first_error_line()}",
                      tr("reinstall the CUDA toolkit"))]
    match = re.search(r"release ([\d.]+), (V[\d.]+)", version.stdout)
    release = f"{match.group(1)} ({match.group(2)})" if match else version.stdout.strip()
    listed = run_tool([path, "--list-gpu-arch"], config.timeout, config.env)
    found = re.findall(r"compute_(\d+)([a-z]?)", listed.stdout) if listed.ok else []
    archs = tuple(f"compute_{n}{s}" for n, s in sorted(set(found), key=lambda a: int(a[0])))
    span = f", targets {archs[0]}..{archs[-1]}" if archs else ""
    checks = [Check("nvcc", "ok" if on_path else "warn", f"{release}{span} ({path})",
                    "" if on_path else f"export PATH={Path(path).parent}:$PATH")]
    for gpu in nvml.gpus:
        if gpu.capability and archs and not arch_supports(archs, gpu.capability):
            checks.append(Check(f"nvcc for GPU {gpu.index}", "warn",
                                f"nvcc {release} cannot target {sm(gpu.capability)}",
                                tr("install a CUDA toolkit that supports this GPU")))
    return checks


def env_checks(config: DoctorConfig, nvml: NvmlInfo) -> list[Check]:
    """CUDA_LAUNCH_BLOCKING and CUDA_VISIBLE_DEVICES as the debuggee will see them."""
    blocking = config.env.get("CUDA_LAUNCH_BLOCKING")
    if blocking is None:
        checks = [Check("CUDA_LAUNCH_BLOCKING", "info", "unset: launches are asynchronous")]
    elif blocking.strip() == "1":
        checks = [Check("CUDA_LAUNCH_BLOCKING", "info", "1: every launch waits for its kernel "
                        "(slower; errors appear at the failing launch)")]
    else:
        checks = [Check("CUDA_LAUNCH_BLOCKING", "info", f"{blocking!r}: launches are "
                        "asynchronous (only 1 enables blocking)")]
    visible = config.env.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        checks.append(Check("CUDA_VISIBLE_DEVICES", "info", "unset: every GPU is visible"))
    elif visible.strip() in {"", "-1", "NoDevFiles"}:
        checks.append(Check("CUDA_VISIBLE_DEVICES", "warn", f"{visible!r} hides every GPU from "
                            "CUDA programs", tr("unset CUDA_VISIBLE_DEVICES")))
    else:
        numbers = [int(p) for p in re.findall(r"\d+", visible) if re.fullmatch(r"[\d, ]+", visible)]
        unknown = [n for n in numbers if nvml.gpus and n >= len(nvml.gpus)]
        if unknown:
            checks.append(Check("CUDA_VISIBLE_DEVICES", "warn", f"{visible!r} names GPU(s) "
                                f"{unknown} but only {len(nvml.gpus)} exist",
                                tr("use indexes from `nvidia-smi -L`")))
        else:
            checks.append(Check("CUDA_VISIBLE_DEVICES", "info", f"{visible!r}: CUDA programs see "
                                "only these GPUs, renumbered from 0"))
    checks.append(own_kernels_check(config))
    return checks


def own_kernels_check(config: DoctorConfig) -> Check:
    """How the user's own kernels get source lines and locals; the CuPy variables cudatui sets."""
    given = [f"{name}={config.env[name]!r}" for name in JIT_ENV if name in config.env]
    detail = ("CuPy kernels: " + (", ".join(given) + " (yours, kept)" if given else
                                  "cudatui runs Python programs with CUPY_CUDA_COMPILE_WITH_DEBUG=1 and "
                                  "CUPY_CACHE_SAVE_CUDA_SOURCE=1"))
    return Check("own kernels' source", "info", detail, BUILD_ADVICE)


def check_debug_build(config: DoctorConfig, nvml: NvmlInfo) -> Check:
    """Build one bundled lesson with ``-g -G`` through ``cudatui.kernels.build.build_lesson``."""
    name = "kernels build -G"
    if not config.build_kernels:
        return Check(name, "info", "skipped (--no-build)")
    try:
        spec = importlib.util.find_spec(config.build_module)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        return Check(name, "info", f"not available ({config.build_module} not found)")
    root = str(Path(cudatui.__file__).resolve().parent.parent)
    env = dict(config.env)
    env["PYTHONPATH"] = root + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    arch = sm(nvml.gpus[0].capability) if nvml.gpus and nvml.gpus[0].capability else ""
    data = child_json(config, _BUILD_PROBE, config.build_timeout,
                       (config.build_module, BUILD_LESSON, arch), env)
    if isinstance(data, str):
        return Check(name, "fail", f"building lesson {BUILD_LESSON!r} failed: {data}",
                     tr("run python -m cudatui.kernels.build {lesson} to see nvcc's output").format(lesson=BUILD_LESSON))
    if "error" in data:
        return Check(name, "fail", data["error"],
                     tr("run python -m cudatui.kernels.build {lesson} to see nvcc's output").format(lesson=BUILD_LESSON))
    return Check(name, "ok", f"lesson {BUILD_LESSON!r} built with -g -G"
                 f"{' for ' + arch if arch else ''} ({data['path']})")
