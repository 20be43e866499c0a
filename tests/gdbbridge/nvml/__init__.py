"""gdbbridge/nvml: the sampler and its models."""
