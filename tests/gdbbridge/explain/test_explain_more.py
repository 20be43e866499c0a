"""`cudatui explain` beyond the lessons: NCCL, tensors on two devices, cuDNN, launch resources and
configuration, a fragmented cache - real texts (GitHub issues, runs on the GPU box) -> diagnoses."""

from __future__ import annotations

import argparse
import io
import sys

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from cudatui.gdbbridge.explain.diagnose import ACTION_KINDS, Diagnosis, explain, explain_all
from cudatui.gdbbridge.explain.facts import FRAGMENTED_SHARE
from cudatui.tui.commands import explain as explain_command
from cudatui.tui.widgets.explain_view import ExplainPanel
from tests.support import paths

MORE = paths.FIXTURES / "explain" / "more"
FIXTURES = sorted(path.name for path in MORE.glob("*.txt"))


def read(name: str) -> str:
    return (MORE / name).read_text(encoding="utf-8")


def diagnose(name: str) -> Diagnosis:
    diagnosis = explain(read(name))
    assert diagnosis is not None, name
    return diagnosis


def steps_of(name: str) -> str:
    return "\n".join(diagnose(name).next_steps)


EXPECTED = {
    "issue_cudnn_bad_param.txt": "cudnn_failure",
    "issue_cudnn_execution_failed.txt": "cudnn_failure",
    "issue_cudnn_internal_error.txt": "cudnn_failure",
    "issue_cudnn_not_supported.txt": "cudnn_failure",
    "issue_device_conv_types.txt": "device_mismatch",
    "issue_device_data_parallel.txt": "device_mismatch",
    "issue_device_found_two.txt": "device_mismatch",
    "issue_invalid_configuration.txt": "invalid_configuration",
    "issue_invalid_configuration_conv1d.txt": "invalid_configuration",
    "issue_launch_out_of_resources.txt": "launch_out_of_resources",
    "issue_nccl_aborted.txt": "nccl_timeout",
    "issue_nccl_internal_error.txt": "nccl_error",
    "issue_nccl_system_error.txt": "nccl_error",
    "issue_nccl_timeout_lightning.txt": "nccl_timeout",
    "issue_nccl_timeout_llamafactory.txt": "nccl_timeout",
    "issue_nccl_unhandled_cuda.txt": "nccl_error",
    "issue_oom_exhausted_cobra.txt": "out_of_memory",
    "issue_oom_fragmented_mask2dit.txt": "oom_fragmentation",
    "nccl_same_gpu.txt": "nccl_error",
    "nccl_same_gpu_warn.txt": "nccl_error",
    "torch_block_too_big_cuda13.txt": "invalid_argument",
    "torch_device_conv.txt": "device_mismatch",
    "torch_device_embedding.txt": "device_mismatch",
    "torch_device_linear.txt": "device_mismatch",
    "torch_device_mm.txt": "device_mismatch",
    "torch_empty_grid_cuda13.txt": "invalid_argument",
    "torch_oom_scattered.txt": "oom_fragmentation",
    "torch_oom_split.txt": "oom_fragmentation",
    "torch_out_of_resources.txt": "launch_out_of_resources",
}


def test_every_fixture_has_an_expected_diagnosis() -> None:
    assert sorted(EXPECTED) == [name for name in FIXTURES if name != "issue_cudnn_plan_warning.txt"]


@pytest.mark.parametrize(("fixture", "key"), sorted(EXPECTED.items()))
def test_real_messages_get_the_right_diagnosis(fixture: str, key: str) -> None:
    diagnosis = diagnose(fixture)
    assert diagnosis.key == key
    assert diagnosis.next_steps and diagnosis.meaning and diagnosis.why_wrong_line
    assert {action.kind for action in diagnosis.actions} <= set(ACTION_KINDS)


def _cli(text: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    explain_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["explain", "-"])
    out = io.StringIO()
    old_out, old_in = sys.stdout, sys.stdin
    sys.stdout, sys.stdin = out, io.StringIO(text)
    try:
        code = args.func(args)
    finally:
        sys.stdout, sys.stdin = old_out, old_in
    return code, out.getvalue()


@pytest.mark.parametrize("fixture", sorted(EXPECTED))
def test_the_command_prints_one_screen_at_80_columns(fixture: str) -> None:
    code, out = _cli(read(fixture))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == diagnose(fixture).title
    assert max(len(line) for line in lines) <= 80
    assert len(lines) <= 50


# NCCL


def test_nccl_error_of_two_ranks_on_one_gpu() -> None:
    diagnosis = diagnose("nccl_same_gpu.txt")
    facts = diagnosis.facts
    assert facts["nccl_error"] == "invalid usage"
    assert facts["nccl_result"] == "ncclInvalidUsage"
    assert facts["nccl_version"] == "2.28.9"
    assert facts["nccl_last_error"] == (
        "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60"
    )
    assert facts["ranks"] == "0, 1"
    assert facts["nccl_env"] == "NCCL_DEBUG"
    # torchrun's own frames (its bin/ launcher) are not the user's code
    assert facts["user_line"] == "/tmp/explain/nccl_same_gpu.py:13"
    assert diagnose("nccl_same_gpu_warn.txt").facts["nccl_warn"] == (
        "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60"
    )
    steps = steps_of("nccl_same_gpu.txt")
    assert "NCCL_DEBUG=INFO" in steps and "NCCL_DEBUG_SUBSYS" in steps
    assert "torch.cuda.set_device(local_rank)" in steps
    assert "`cudatui /tmp/explain/nccl_same_gpu.py` for that rank" in steps
    assert diagnosis.actions == ()


@pytest.mark.parametrize(
    ("fixture", "error", "result", "version", "last"),
    [
        ("issue_nccl_system_error.txt", "unhandled system error", "ncclSystemError", "2.18.5",
         "socketStartConnect: Connect to 127.0.0.1<45069> failed : Software caused connection "
         "abort"),
        ("issue_nccl_internal_error.txt", "internal error", "ncclInternalError", "2.18.6",
         "Attribute busid of node nic not found"),
        ("issue_nccl_unhandled_cuda.txt", "unhandled cuda error", "ncclUnhandledCudaError",
         "2.20.5", "Cuda failure 1 'invalid argument'"),
    ],
)
def test_nccl_error_facts_through_line_prefixes(
    fixture: str, error: str, result: str, version: str, last: str
) -> None:
    facts = diagnose(fixture).facts
    assert (facts["nccl_error"], facts["nccl_result"]) == (error, result)
    assert facts["nccl_version"] == version
    assert facts["nccl_last_error"] == last


def test_a_cuda_failure_inside_nccl_is_not_a_cuda_invalid_argument() -> None:
    assert [d.key for d in explain_all(read("issue_nccl_unhandled_cuda.txt"))] == ["nccl_error"]


def test_nccl_test_failure_line() -> None:
    # NVIDIA/nccl-tests#6
    diagnosis = explain("NCCL failure common.cu:908 'unhandled cuda error'.")
    assert diagnosis.key == "nccl_error" and diagnosis.facts["nccl_error"] == "unhandled cuda error"


def test_watchdog_timeout_names_the_collective_ranks_and_timeout() -> None:
    diagnosis = diagnose("issue_nccl_timeout_llamafactory.txt")
    facts = diagnosis.facts
    assert facts["collective"] == "_REDUCE_SCATTER_BASE, SeqNum 7753, 544997376 elements"
    assert facts["timeout"] == "600000 ms"
    assert facts["ranks"] == "0, 2, 3, 4"
    assert "nccl_advice" not in facts
    steps = "\n".join(diagnosis.next_steps)
    for needle in ("every rank's output", "sits at a breakpoint", "NCCL_DEBUG=INFO",
                   "NCCL_DEBUG_SUBSYS", "TORCH_NCCL_BLOCKING_WAIT=1",
                   "TORCH_NCCL_ASYNC_ERROR_HANDLING", "TORCH_DISTRIBUTED_DEBUG=DETAIL",
                   "`cudatui script.py` for that rank", "timeout=timedelta(hours=1)"):
        assert needle in steps, needle
    assert "debugger" in diagnosis.meaning


def test_ranks_waiting_in_different_collectives_are_pointed_out() -> None:
    diagnosis = diagnose("issue_nccl_timeout_lightning.txt")
    assert diagnosis.facts["collectives"] == (
        "rank 0: _ALLGATHER_BASE (SeqNum 532341); ranks 1, 2: BROADCAST (SeqNum 532339)"
    )
    assert diagnosis.facts["timeout"] == "1800000 ms"  # read across the wrapped lines
    assert diagnosis.next_steps[0].startswith("Not all ranks wait in the same collective")
    assert "collective" not in diagnosis.facts


def test_aborted_communicator_gives_rank_and_reason() -> None:
    facts = diagnose("issue_nccl_aborted.txt").facts
    assert facts["aborted_rank"] == "1"
    assert facts["abort_reason"].startswith("[Rank 1] Watchdog caught collective operation timeout")
    assert facts["collective"] == "ALLREDUCE, SeqNum 2511984"
    assert facts["ranks"] == "0, 1, 2"


def test_blocking_wait_timeout() -> None:
    # huggingface/diffusers#12422
    line = (
        "[rank1]:[E1002 18:16:40.662691402 ProcessGroupNCCL.cpp:756] [Rank 1] Work "
        "WorkNCCL(SeqNum=2521, OpType=ALLREDUCE, NumelIn=160672064, NumelOut=160672064, "
        "Timeout(ms)=600000) timed out in blocking wait."
    )
    diagnosis = explain(line)
    assert diagnosis.key == "nccl_timeout"
    assert diagnosis.facts["collective"] == "ALLREDUCE, SeqNum 2521, 160672064 elements"


@pytest.mark.parametrize("cause", ["../torch_device_assert.txt", "issue_oom_exhausted_cobra.txt"])
def test_a_failed_rank_comes_before_the_timeouts_it_caused(cause: str) -> None:
    found = [d.key for d in explain_all(read(cause) + read("issue_nccl_timeout_llamafactory.txt"))]
    assert found[0] != "nccl_timeout" and "nccl_timeout" in found


# tensors on different devices


@pytest.mark.parametrize(
    ("fixture", "devices", "tensor", "op"),
    [
        ("torch_device_mm.txt", "cuda:0 and cpu", "mat2, on cpu", "wrapper_CUDA_mm"),
        ("torch_device_linear.txt", "cuda:0 and cpu", "mat1, on cpu", "wrapper_CUDA_addmm"),
        ("torch_device_embedding.txt", "cpu and cuda:0", "index, on cuda:0",
         "wrapper_CUDA__index_select"),
        ("torch_device_conv.txt", "cpu and cuda:0", "weight, on cuda:0",
         "wrapper_CUDA___slow_conv2d_forward"),
        ("issue_device_found_two.txt", "cpu and cuda:0", "mat2, on cuda:0", "wrapper_CUDA_mm"),
    ],
)
def test_device_mismatch_names_devices_tensor_and_op(
    fixture: str, devices: str, tensor: str, op: str
) -> None:
    diagnosis = diagnose(fixture)
    assert (diagnosis.facts["devices"], diagnosis.facts["tensor"], diagnosis.facts["op"]) == (
        devices, tensor, op
    )
    argument = tensor.split(",")[0]
    assert any(step.startswith(f"`{argument}` is on ") for step in diagnosis.next_steps)
    assert "before it launches anything" in diagnosis.why_wrong_line
    assert diagnosis.actions == ()


def test_data_parallel_placement() -> None:
    diagnosis = diagnose("issue_device_data_parallel.txt")
    assert diagnosis.facts["devices"] == "cuda:1 and cpu"
    assert diagnosis.facts["user_line"] == "main.py:449"
    steps = "\n".join(diagnosis.next_steps)
    assert "model.to('cuda:1') before wrapping it" in steps
    assert "CUDA_VISIBLE_DEVICES" in steps and "next(model.parameters()).device" in steps


def test_input_and_weight_types_on_two_devices() -> None:
    facts = diagnose("issue_device_conv_types.txt").facts
    assert (facts["devices"], facts["tensor"]) == ("cpu and cuda", "input on cpu, weight on cuda")


def test_a_dtype_mismatch_is_not_a_device_mismatch() -> None:
    # AUTOMATIC1111/stable-diffusion-webui-feature-showcase#24
    assert explain(
        "RuntimeError: Input type (torch.FloatTensor) and weight type (torch.HalfTensor) should be "
        "the same or input should be a MKLDNN tensor and weight is a dense tensor"
    ) is None


# cuDNN


def test_cudnn_repro_snippet_facts() -> None:
    diagnosis = diagnose("issue_cudnn_internal_error.txt")
    facts = diagnosis.facts
    assert facts["cudnn_status"] == "CUDNN_STATUS_INTERNAL_ERROR"
    assert facts["cudnn_input"] == "[1, 39, 1024, 1024] torch.float"
    assert facts["cudnn_layer"].startswith("Conv2d(39, 10, kernel_size=[3, 3]")
    assert facts["cudnn_benchmark"] == "True"
    steps = "\n".join(diagnosis.next_steps)
    for needle in ("CUDA_LAUNCH_BLOCKING=1", "torch.backends.cudnn.enabled = False",
                   "torch.backends.cudnn.benchmark = False", ".contiguous()"):
        assert needle in steps, needle
    assert [a.kind for a in diagnosis.actions] == ["launch_blocking", "sanitizer"]
    assert "asynchronous" in diagnosis.why_wrong_line


@pytest.mark.parametrize(
    ("fixture", "status"),
    [
        ("issue_cudnn_not_supported.txt", "CUDNN_STATUS_NOT_SUPPORTED"),
        ("issue_cudnn_bad_param.txt", "CUDNN_STATUS_BAD_PARAM"),
        ("issue_cudnn_execution_failed.txt", "CUDNN_STATUS_EXECUTION_FAILED"),
    ],
)
def test_cudnn_status(fixture: str, status: str) -> None:
    assert diagnose(fixture).facts["cudnn_status"] == status


def test_a_cudnn_plan_that_pytorch_replaced_is_no_error() -> None:
    assert explain(read("issue_cudnn_plan_warning.txt")) is None


# out of memory: fragmentation or a full GPU


@pytest.mark.parametrize(
    ("fixture", "fragmentation"),
    [
        ("torch_oom_split.txt", "57.55 GiB cached but unused, 41% of the GPU"),
        ("torch_oom_scattered.txt", "104.46 GiB cached but unused, 75% of the GPU"),
        ("issue_oom_fragmented_mask2dit.txt", "40.69 GiB cached but unused, 51% of the GPU"),
        ("../messages/issue_oom_fragmented.txt", "2.30 GiB cached but unused, 38% of the GPU"),
    ],
)
def test_fragmented_cache(fixture: str, fragmentation: str) -> None:
    found = explain_all(read(fixture))
    assert [d.key for d in found][:2] == ["oom_fragmentation", "out_of_memory"]
    diagnosis = found[0]
    assert diagnosis.facts["fragmentation"] == fragmentation
    assert "in pieces too small for it (fragmentation)" in diagnosis.facts["oom_advice"]
    steps = "\n".join(diagnosis.next_steps)
    for needle in ("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", "PYTORCH_ALLOC_CONF",
                   "empty_cache() will not make this allocation fit", "memory_summary()",
                   "Non-releasable memory", "smaller batch", "cannot help when small live"):
        assert needle in steps, needle


def test_full_gpu_is_not_fragmentation() -> None:
    diagnosis = diagnose("issue_oom_exhausted_cobra.txt")
    assert "fragmentation" not in diagnosis.facts
    assert diagnosis.facts["reserved_unallocated"] == "910.35 MiB"
    advice = diagnosis.facts["oom_advice"]
    assert "may let this allocation through, yet the GPU is full (22.14 GiB allocated" in advice
    assert "expandable_segments:True" in advice


@pytest.mark.parametrize(("unused_mib", "fragmented"), [(400, False), (600, True)])
def test_fragmentation_needs_a_share_of_the_gpu(unused_mib: int, fragmented: bool) -> None:
    text = (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 10.00 MiB. GPU 0 has a "
        "total capacity of 10.00 GiB of which 1.00 MiB is free. Of the allocated memory 9.00 GiB "
        f"is allocated by PyTorch, and {unused_mib}.00 MiB is reserved by PyTorch but unallocated."
    )
    assert 400 < FRAGMENTED_SHARE * 10 * 1024 < 600  # the two cases lie either side of it
    assert explain(text).key == ("oom_fragmentation" if fragmented else "out_of_memory")


# kernel launches


def test_launch_over_the_register_file() -> None:
    diagnosis = diagnose("torch_out_of_resources.txt")
    assert diagnosis.facts["cuda_error"] == "cudaErrorLaunchOutOfResources"
    assert diagnosis.facts["user_line"] == "/tmp/explain/out_of_resources.py:18"
    steps = "\n".join(diagnosis.next_steps)
    for needle in ("cuobjdump --dump-resource-usage", "-Xptxas -v", "65536",
                   "256 threads instead of 1024", "__launch_bounds__(1024)", "-maxrregcount=N",
                   "set cuda api_failures stop"):
        assert needle in steps, needle
    assert [a.kind for a in diagnosis.actions] == ["api_failures_stop"]
    found = explain_all(read("torch_out_of_resources.txt"))
    assert "invalid_configuration" not in [d.key for d in found]


def test_driver_api_name_of_out_of_resources() -> None:
    # JuliaGPU/CUDAnative.jl#293
    line = (
        "ERROR: CUDA error: too many resources requested for launch (code #701, "
        "ERROR_LAUNCH_OUT_OF_RESOURCES)"
    )
    assert explain(line).key == "launch_out_of_resources"


@pytest.mark.parametrize(
    "fixture", ["issue_invalid_configuration.txt", "issue_invalid_configuration_conv1d.txt"]
)
def test_invalid_configuration(fixture: str) -> None:
    diagnosis = diagnose(fixture)
    steps = "\n".join(diagnosis.next_steps)
    assert "x.numel() == 0" in steps and "1024 threads" in steps and "65535" in steps
    assert "refused before anything runs" in diagnosis.why_wrong_line


@pytest.mark.parametrize(
    "fixture", ["torch_block_too_big_cuda13.txt", "torch_empty_grid_cuda13.txt"]
)
def test_cuda_13_reports_bad_launches_as_invalid_argument(fixture: str) -> None:
    diagnosis = diagnose(fixture)
    assert diagnosis.facts["cuda_error"] == "cudaErrorInvalidValue"
    assert any("CUDA 13.0 reported a block over 1024 threads" in s for s in diagnosis.next_steps)


# the TUI panel


async def test_panel_shows_the_new_facts() -> None:
    class PanelApp(App[None]):
        def compose(self) -> ComposeResult:
            yield ExplainPanel(diagnose("torch_device_mm.txt"))

    app = PanelApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        facts = str(app.query_one("#facts", Static).render())
        assert "Devices    cuda:0 and cpu" in facts
        assert "Tensor     mat2, on cpu" in facts
