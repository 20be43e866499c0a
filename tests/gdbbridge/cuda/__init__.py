"""gdbbridge/cuda: cuda-gdb's tables parsed, the culprit lane, threads at a breakpoint, shared declarations."""
