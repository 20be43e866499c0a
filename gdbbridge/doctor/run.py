"""`cudatui doctor`: is this machine ready for live CUDA debugging?

:func:`run_checks` probes the tools (cuda-gdb, compute-sanitizer, nvcc), the CUDA debugger
backend library, ptrace permissions, the driver and GPUs through NVML, PyTorch's CUDA build and
the bundled kernels' ``-G`` build, and returns one :class:`Check` per line of the report. Every
probe has a timeout and turns failures into a ``fail``/``warn`` line with a fix; nothing here
raises. The individual probes live in :mod:`cudatui.gdbbridge.doctor.checks` and
:mod:`cudatui.gdbbridge.doctor.toolchain`, what they share in :mod:`cudatui.gdbbridge.doctor.probe`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict

from cudatui.gdbbridge.doctor import checks as probes
from cudatui.gdbbridge.doctor import toolchain
from cudatui.gdbbridge.i18n import tr
from cudatui.gdbbridge.doctor.probe import Check, DoctorConfig

SYMBOLS = {"ok": "✓", "fail": "✗", "warn": "!", "info": "·"}


def run_checks(config: DoctorConfig | None = None) -> tuple[Check, ...]:
    """Run every probe (the slow ones in parallel) and return the report's lines in order."""
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
            lines.append(("", f"  {' ' * width}  {tr('fix:')} {check.fix}"))
    absent = missing(checks)
    lines.append(("", ""))
    if absent:
        lines.append(("fail", tr("Live debugging: NOT ready, missing: ") + ", ".join(absent)))
    else:
        lines.append(("ok", tr("Live debugging: ready")))
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
