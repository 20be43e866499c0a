"""Debugger state over a session: one immutable ``StopState`` per stop, built by one refresh
batch (``state``), and breakpoints, including CUDA-thread conditions that cuda-gdb can only take
once the kernel is loaded (``breakpoints``).
"""
