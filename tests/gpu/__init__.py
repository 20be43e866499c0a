"""GPU tests (marked gpu; skipped without an NVIDIA GPU): real cuda-gdb, compute-sanitizer, NVML."""
