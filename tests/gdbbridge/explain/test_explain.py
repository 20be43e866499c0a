"""Explain: real error texts (seeds, GitHub issues, recorded GPU runs) -> diagnoses (the command
line, `cudatui explain`, is tests/app/test_explain_command.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cudatui.gdbbridge.explain.diagnose import (
    ACTION_KINDS,
    explain,
    explain_all,
    format_diagnosis,
)
from cudatui.gdbbridge.explain.facts import breakpoint_condition, normalize, to_bytes
from cudatui.gdbbridge.explain.kb import RULES
from cudatui.gdbbridge.models.cuda import CUDA_EXCEPTIONS
from tests.support import paths
from tests.support.paths import ROOT

FIXTURES = paths.FIXTURES / "explain"
MESSAGES = FIXTURES / "messages"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("fixture", "key"),
    [
        ("messages/seed_async.txt", "async_report"),
        ("messages/seed_scatter_assert.txt", "device_assert"),
        ("messages/seed_no_kernel_image.txt", "no_kernel_image"),
        ("messages/seed_illegal_address.txt", "illegal_address"),
        ("messages/seed_unspecified_launch_failure.txt", "launch_failure"),
        ("messages/seed_out_of_memory.txt", "out_of_memory"),
        ("messages/seed_invalid_argument.txt", "invalid_argument"),
        ("messages/seed_misaligned_address.txt", "misaligned_address"),
        ("messages/seed_cublas_alloc_failed.txt", "cublas_alloc_failed"),
        ("messages/seed_cuda_memcheck.txt", "illegal_address"),
        ("messages/issue_version_mismatch.txt", "cuda_version_mismatch"),
        ("messages/issue_oom_new.txt", "out_of_memory"),
        ("messages/issue_oom_old.txt", "out_of_memory"),
        ("messages/issue_arch_warning.txt", "no_kernel_image"),
        ("messages/issue_driver_insufficient.txt", "driver_insufficient"),
        ("messages/issue_driver_traceback.txt", "driver_insufficient"),
        ("messages/issue_cublas_execution_failed.txt", "cublas_execution_failed"),
        ("torch_device_assert.txt", "device_assert"),
        ("torch_device_assert_blocking.txt", "device_assert"),
        ("gdb_torch_assert.txt", "device_assert"),
        ("gdb_assert.txt", "device_assert"),
        ("gdb_oob.txt", "cuda_exception_14"),
        ("memcheck.txt", "illegal_address"),
        ("memcheck_torch.txt", "device_assert"),
        ("initcheck.txt", "uninitialized"),
        ("leakcheck.txt", "leak"),
        ("sanitizer_text.txt", "device_assert"),
    ],
)
def test_real_messages_get_the_right_diagnosis(fixture: str, key: str) -> None:
    diagnosis = explain(read(fixture))
    assert diagnosis is not None
    assert diagnosis.key == key
    assert diagnosis.next_steps and diagnosis.meaning and diagnosis.why_wrong_line
    assert {action.kind for action in diagnosis.actions} <= set(ACTION_KINDS)


def test_pytorch_device_assert_from_the_debugger_run() -> None:
    found = explain_all(read("gdb_torch_assert.txt"))
    assert [d.key for d in found][:2] == ["device_assert", "cuda_exception_12"]
    facts = found[0].facts
    assert facts["source"] == "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:111"
    assert facts["block"] == "(0,0,0)"
    assert facts["thread"] == "(1,0,0)"
    assert facts["assert_condition"].endswith('"index out of bounds"')
    assert facts["in_pytorch"] == "yes"
    assert facts["exception_name"] == "Warp Assert"
    assert found[0].lesson == "assert"
    assert any("PyTorch's own kernel" in step for step in found[0].next_steps)
    # a PyTorch-internal source line is no place for a user breakpoint
    assert not any(step.startswith("Stop at the failing thread") for step in found[0].next_steps)


def test_pytorch_exception_text_mentions_async_report_and_offers_actions() -> None:
    found = explain_all(read("torch_device_assert.txt"))
    assert [d.key for d in found] == ["device_assert", "async_report"]
    assert found[0].facts["cuda_error"] == "cudaErrorAssert"
    kinds = [a.kind for a in found[0].actions]
    assert kinds == ["launch_blocking", "sanitizer"]
    assert found[0].actions[1].argument == "memcheck"
    assert "asynchronous" in found[0].why_wrong_line
    text = format_diagnosis(found[0], found)
    assert "Also mentioned in the input: A CUDA error reported at a later call" in text


def test_bundled_kernel_assert_gives_a_breakpoint() -> None:
    facts = explain(read("gdb_assert.txt")).facts
    assert facts["breakpoint"] == "bugs.cu:27 if blockIdx.x == 0 && threadIdx.x == 77"
    assert facts["assert_condition"] == "j >= 0 && j < n"
    steps = explain(read("gdb_assert.txt")).next_steps
    assert steps[0] == (
        "Stop at the failing thread: `break bugs.cu:27 if blockIdx.x == 0 && threadIdx.x == 77`"
        " in cudatui, then run."
    )


def test_cuda_gdb_exception_stop_takes_focus_and_kernel_from_the_mi_output() -> None:
    diagnosis = explain(read("gdb_oob.txt"))
    assert diagnosis.title == "Warp Illegal Address (CUDA_EXCEPTION_14)"
    assert diagnosis.facts["kernel"] == "add_kernel"
    assert diagnosis.facts["source"] == "bugs.cu:5"
    assert diagnosis.facts["launch"] == "grid (16000,1,1), block (256,1,1)"
    assert diagnosis.facts["block"] == "(2379,0,0)"
    assert diagnosis.lesson == "oob" and diagnosis.tool == "memcheck"


@pytest.mark.parametrize("fixture", ["gdb_oob.txt", "gdb_assert.txt", "gdb_torch_assert.txt"])
def test_exception_names_match_what_cuda_gdb_prints(fixture: str) -> None:
    facts = explain(read(fixture)).facts
    assert CUDA_EXCEPTIONS[int(facts["exception_code"])] == facts["exception_name"]


def test_exception_code_without_a_table_entry_keeps_the_printed_name() -> None:
    line = 'received signal CUDA_EXCEPTION_16, Some Future Exception.'
    diagnosis = explain(line)
    assert diagnosis.key == "cuda_exception_16"
    assert diagnosis.title == "Some Future Exception (CUDA_EXCEPTION_16)"


def test_sanitizer_reports_give_location_and_script() -> None:
    memcheck = explain(read("memcheck.txt"))
    assert memcheck.facts["access"] == "Invalid __global__ write of 4 bytes"
    assert memcheck.facts["breakpoint"] == "t.cu:8 if blockIdx.x == 1 && threadIdx.x == 5"
    assert memcheck.facts["api_call"] == "cudaDeviceSynchronize"
    torch_run = explain(read("memcheck_torch.txt"))
    assert torch_run.facts["script"] == "a.py" and torch_run.facts["user_line"] == "a.py:5"
    assert any("cudatui sanitize --tool memcheck a.py" in s for s in torch_run.next_steps)
    old = explain(read("messages/seed_cuda_memcheck.txt")).facts
    assert (old["kernel"], old["source"], old["block"], old["thread"]) == (
        "add_kernel", "add_kernel.cu:12", "(1,0,0)", "(32,0,0)"
    )
    assert explain(read("leakcheck.txt")).facts["leaked"] == "512 bytes in 2 allocations"


def test_traceback_names_the_script_and_the_last_own_line() -> None:
    facts = explain(read("messages/issue_driver_traceback.txt")).facts
    assert facts["script"] == "pose_estimation/train.py"
    assert facts["user_line"] == "pose_estimation/train.py:115"


@pytest.mark.parametrize(
    ("fixture", "tried", "advice"),
    [
        ("issue_oom_too_big.txt", "55.57 GiB", "larger than the whole GPU (12.00 GiB)"),
        ("issue_oom_fragmented.txt", "1.70 GiB", "PyTorch holds 2.30 GiB reserved"),
        ("issue_oom_old.txt", "2.26 GiB", "3.03 GiB is free, more than the 2.26 GiB"),
        ("issue_oom_new.txt", "22.00 MiB", "expandable_segments:True"),
    ],
)
def test_out_of_memory_numbers(fixture: str, tried: str, advice: str) -> None:
    diagnosis = explain((MESSAGES / fixture).read_text())
    assert diagnosis.facts["tried_to_allocate"] == tried
    assert advice in diagnosis.facts["oom_advice"]
    assert diagnosis.facts["oom_advice"] in diagnosis.next_steps


def test_new_oom_format_fields() -> None:
    facts = explain((MESSAGES / "issue_oom_new.txt").read_text()).facts
    assert facts["gpu_total"] == "23.65 GiB"
    assert facts["gpu_free"] == "11.06 MiB"
    assert facts["process_in_use"] == "23.60 GiB"
    assert facts["reserved_unallocated"] == "194.87 MiB"
    assert to_bytes("22.00", "MiB") == 22 * 2**20


def test_environment_messages_extract_versions_and_archs() -> None:
    arch = explain((MESSAGES / "issue_arch_warning.txt").read_text()).facts
    assert arch["gpu_capability"] == "sm_120"
    assert arch["supported_archs"].split()[-1] == "sm_90"
    mismatch = explain((MESSAGES / "issue_version_mismatch.txt").read_text()).facts
    assert (mismatch["detected_cuda"], mismatch["torch_cuda"]) == ("11.8", "12.4")
    assert explain("ImportError: libcudart.so.11.0: cannot open shared object file").facts[
        "missing_library"
    ] == "libcudart.so.11.0"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Traceback (most recent call last):\n  File \"a.py\", line 1\nAssertionError: x > 0",
        "ValueError: invalid argument to reshape",
        "Segmentation fault (core dumped)",
    ],
)
def test_unrelated_text_is_not_a_cuda_error(text: str) -> None:
    assert explain(text) is None


def test_every_rule_names_real_actions_and_lessons() -> None:
    lessons = {"oob", "race", "assert", "divergence", "uninit", "leak", None}
    for rule in RULES:
        assert set(rule.actions) <= set(ACTION_KINDS), rule.key
        assert rule.lesson in lessons, rule.key
        assert ("sanitizer" in rule.actions) <= (rule.tool is not None), rule.key


def test_mi_stream_records_are_decoded() -> None:
    text = '~"\\nThread "\n~"1 \\"python3\\" received signal X\\n"\n~"caf\\303\\251\\n"\n^done'
    assert normalize(text) == '\nThread 1 "python3" received signal X\ncafé\n^done\n'


def test_breakpoint_condition_tests_y_and_z_only_when_set() -> None:
    assert breakpoint_condition("(1,2,0)", "(3,0,4)") == (
        "blockIdx.x == 1 && blockIdx.y == 2 && threadIdx.x == 3 && threadIdx.z == 4"
    )


def test_gdbbridge_explain_imports_without_ui_libraries() -> None:
    probe = (
        "import sys, cudatui.gdbbridge.explain.diagnose; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'rich'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True,
        cwd=ROOT,
    )
    assert done.stdout.strip() == "[]"
