"""The explain rules keep their order across kb.py and kb_torch.py: the first match wins."""

from __future__ import annotations

from cudatui.gdbbridge.explain.kb import RULES

RULE_ORDER = (
    "device_assert", "no_kernel_image", "driver_insufficient", "cuda_version_mismatch",
    "device_mismatch", "cublas_alloc_failed", "cublas_execution_failed", "cudnn_failure",
    "oom_fragmentation", "out_of_memory", "race", "uninitialized", "leak", "illegal_address",
    "misaligned_address", "illegal_instruction", "launch_failure", "launch_timeout",
    "launch_out_of_resources", "invalid_configuration", "invalid_argument", "nccl_error",
    "nccl_timeout", "async_report",
)
"""``RULES``' keys as they were when all rules lived in kb.py."""


def test_rules_keep_their_order_after_the_split():
    assert tuple(rule.key for rule in RULES) == RULE_ORDER
