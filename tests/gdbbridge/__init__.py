"""Units of the library: MI, the session, replay, CUDA parsing, state, breakpoints, sanitizer, NVML, doctor, explain, kernels."""
