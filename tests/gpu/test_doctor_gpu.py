"""`cudatui doctor` and `cudatui explain` on a real GPU box.

The doctor must be all-green there (exit code 0, no failed check); its table and JSON are
written to ``$OUT`` (or pytest's tmp dir) as ``doctor_gpu.txt`` / ``doctor_gpu.json``. The
explain test runs PyTorch's out-of-range index for real and diagnoses the program's stderr.

Run: ``python -m pytest -m gpu tests/gpu/test_doctor_gpu.py -v -s``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.doctor.probe import DoctorConfig
from cudatui.gdbbridge.doctor.run import checks_to_json, exit_code, format_table, run_checks
from cudatui.gdbbridge.explain.diagnose import explain_all

pytestmark = pytest.mark.gpu

TORCH_ASSERT = """
import torch
x = torch.zeros(10, device="cuda")
i = torch.tensor([3, 20], device="cuda")
print(x[i].sum().item())
"""


def test_doctor_is_all_green(tmp_path: Path) -> None:
    checks = run_checks(DoctorConfig())
    table = format_table(checks)
    out = Path(os.environ.get("OUT") or tmp_path)
    (out / "doctor_gpu.txt").write_text(table + "\n", encoding="utf-8")
    (out / "doctor_gpu.json").write_text(checks_to_json(checks) + "\n", encoding="utf-8")
    print(table)
    by_name = {check.name: check for check in checks}
    assert exit_code(checks) == 0, table
    assert [c.name for c in checks if c.status == "fail"] == [], table
    assert re.match(r"\d+\.\d+ \(", by_name["cuda-gdb"].detail), by_name["cuda-gdb"]
    assert re.match(r"\d{4}\.\d+", by_name["compute-sanitizer"].detail)
    assert by_name["debugger backend"].detail.endswith("libcudadebugger.so.1")
    assert by_name["GPU 0"].detail.split(", ")[1].startswith("compute capability ")
    assert by_name["kernels build -G"].status == "ok"


def test_explain_a_real_pytorch_device_assert() -> None:
    torch_ok = subprocess.run(
        [sys.executable, "-c", "import torch; assert torch.cuda.is_available()"],
        capture_output=True, timeout=300, check=False,
    )
    if torch_ok.returncode != 0:
        pytest.skip("needs PyTorch with CUDA")
    run = subprocess.run(
        [sys.executable, "-c", TORCH_ASSERT], capture_output=True, text=True, timeout=300,
        check=False,
    )
    assert run.returncode != 0
    found = explain_all(run.stderr)
    assert found[0].key == "device_assert", run.stderr
    facts = found[0].facts
    assert re.search(r"/IndexKernel\.cu:\d+$", facts["source"]), facts
    assert re.fullmatch(r"\(\d+,\d+,\d+\)", facts["block"])
    assert re.fullmatch(r"\(\d+,\d+,\d+\)", facts["thread"])
    assert facts["in_pytorch"] == "yes"
    assert "async_report" in [d.key for d in found]
