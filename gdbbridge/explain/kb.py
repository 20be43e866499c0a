"""The knowledge base behind ``cudatui explain``: CUDA error message -> cause -> next step.

Rules are listed most specific first (the first match is the primary diagnosis); a rule with
``requires`` only matches when the facts :mod:`cudatui.gdbbridge.explain.facts` finds include that
one. Step texts are templates filled from those facts (``{script}``, ``{tool}``). This module holds
the CUDA rules and ``RULES``, the order they are tried in; the PyTorch rules (devices, cuDNN, out
of memory, NCCL) live in :mod:`cudatui.gdbbridge.explain.kb_torch` and take their places in it.
"""

from __future__ import annotations

from cudatui.gdbbridge.explain.kb_torch import (
    CUDNN_FAILURE,
    DEVICE_MISMATCH,
    NCCL_ERROR,
    NCCL_TIMEOUT,
    OOM_FRAGMENTATION,
    OUT_OF_MEMORY,
)
from cudatui.gdbbridge.explain.rule import API_STOP, ASYNC_WHY, BLOCKING, SANITIZE, TRIAGE, Rule, rx

SYNC_WHY = (
    "This error is returned by the call that caused it, so the traceback line is usually right; "
    "if it points at a kernel launch, re-run with launch blocking to be sure."
)
LAUNCH_WHY = (
    "The launch is refused before anything runs, so the CUDA context stays usable. The error is "
    "raised where the launch is checked: at the launch itself when its code checks (PyTorch's "
    "kernels and C10_CUDA_KERNEL_LAUNCH_CHECK do), otherwise at the next call that checks, "
    "often the next PyTorch operation."
)
ENV_WHY = (
    "This is an installation problem, not a bug in a kernel: it appears at the first CUDA call "
    "(often CUDA initialisation or the first .cuda()), wherever that is."
)
DEBUG = (
    "Run it under the debugger (`cudatui {script}`): cuda-gdb stops on the faulting warp with "
    "the focus on the failing block and thread, so you can read its variables."
)
DOCTOR = "Run `cudatui doctor`: it compares the driver, PyTorch's CUDA build and the GPUs."


RULES: tuple[Rule, ...] = (
    Rule(
        key="device_assert",
        pattern=rx(
            r"device-side assert triggered|cudaErrorAssert|block: \[[\d, ]+\], thread: "
            r"\[[\d, ]+\] Assertion"
        ),
        title="Device-side assert triggered",
        meaning=(
            "An assert() inside a kernel failed. The kernel stopped; the CUDA context is now "
            "unusable and every later CUDA call in the process fails with the same error. The "
            "'Assertion ... failed' line printed by the GPU (if you have it) names the kernel's "
            "source file and line, the block and thread, and the condition."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(BLOCKING, DEBUG, SANITIZE, TRIAGE),
        tool="memcheck",
        lesson="assert",
        actions=("launch_blocking", "sanitizer"),
    ),
    Rule(
        key="no_kernel_image",
        pattern=rx(
            r"no kernel image is available|cudaErrorNoKernelImageForDevice|is not compatible "
            r"with the current PyTorch installation"
        ),
        title="No kernel image for this GPU",
        meaning=(
            "The binary (PyTorch or your extension) holds no machine code for this GPU's compute "
            "capability and no PTX it could compile: it was built for other architectures."
        ),
        why_wrong_line=ENV_WHY,
        steps=(
            DOCTOR,
            "Compare torch.cuda.get_arch_list() with torch.cuda.get_device_capability(): the "
            "GPU's sm_XY (or an older sm_X* of the same major, or a compute_ PTX entry at or "
            "below it) must be in the list.",
            "Install a PyTorch wheel built for this GPU (a newer CUDA variant from "
            "pytorch.org), or rebuild your extension with -gencode arch=compute_XY,code=sm_XY "
            "(TORCH_CUDA_ARCH_LIST for torch extensions).",
        ),
    ),
    Rule(
        key="driver_insufficient",
        pattern=rx(
            r"driver version is insufficient|cudaErrorInsufficientDriver|NVIDIA driver on your "
            r"system is too old"
        ),
        title="NVIDIA driver too old for this CUDA runtime",
        meaning=(
            "The program's CUDA runtime (for PyTorch: torch.version.cuda) is newer than the "
            "newest CUDA version the installed driver supports."
        ),
        why_wrong_line=ENV_WHY,
        steps=(
            DOCTOR,
            "`nvidia-smi` shows the driver's highest supported CUDA version at the top right.",
            "Upgrade the NVIDIA driver, or install a PyTorch/CUDA build no newer than what the "
            "driver supports.",
        ),
    ),
    Rule(
        key="cuda_version_mismatch",
        pattern=rx(
            r"detected CUDA version \([\d.]+\) mismatches|lib(?:cudart|cublas\w*|cudnn\w*|"
            r"cufft|cusparse|curand|nvrtc|nccl)\.so[\d.]*: cannot open shared object file"
        ),
        title="PyTorch built for one CUDA, another one found",
        meaning=(
            "Two CUDA versions are in play: PyTorch was compiled against one CUDA release while "
            "the toolkit (nvcc, CUDA_HOME) or the libraries found at run time belong to another."
        ),
        why_wrong_line=ENV_WHY,
        steps=(
            DOCTOR,
            "Check `python -c 'import torch; print(torch.version.cuda)'` against `nvcc "
            "--version` and the CUDA_HOME / LD_LIBRARY_PATH in use.",
            "Build extensions with the toolkit matching torch.version.cuda (or install the "
            "PyTorch wheel for your toolkit); do not mix CUDA libraries from several "
            "installations on LD_LIBRARY_PATH.",
        ),
    ),
    DEVICE_MISMATCH,
    Rule(
        key="cublas_alloc_failed",
        pattern=rx(r"CUBLAS_STATUS_ALLOC_FAILED|CUBLAS_STATUS_NOT_INITIALIZED"),
        title="cuBLAS could not allocate its workspace",
        meaning=(
            "cuBLAS failed to get GPU memory for its handle or workspace: the GPU is (nearly) "
            "full, often because PyTorch's caching allocator holds the memory, or because "
            "another process uses the GPU."
        ),
        why_wrong_line=SYNC_WHY,
        steps=(
            "Look at the GPU memory pane (or `nvidia-smi`): who holds the memory?",
            "Reduce the batch size / model size, free tensors you keep alive, or call "
            "torch.cuda.empty_cache() before the first matmul.",
            API_STOP,
        ),
        tool="memcheck",
        lesson="leak",
        actions=("api_failures_stop",),
    ),
    Rule(
        key="cublas_execution_failed",
        pattern=rx(r"CUBLAS_STATUS_EXECUTION_FAILED"),
        title="A cuBLAS kernel failed",
        meaning=(
            "A cuBLAS routine (matmul, linear layer) could not run its kernel. Most often an "
            "earlier kernel already failed (illegal address, assert) and cuBLAS is just the "
            "first call to notice; otherwise its arguments are wrong (shapes, leading "
            "dimensions, dtypes) or the library does not match the GPU."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(BLOCKING, SANITIZE, DOCTOR),
        tool="memcheck",
        lesson="oob",
        actions=("launch_blocking", "sanitizer"),
    ),
    CUDNN_FAILURE,
    OOM_FRAGMENTATION,
    OUT_OF_MEMORY,
    Rule(
        key="race",
        pattern=rx(r"Race reported between|RACECHECK SUMMARY: [1-9]"),
        title="Shared-memory data race",
        meaning=(
            "Two threads of a block accessed the same shared-memory location, at least one of "
            "them writing, with no __syncthreads() between them: the result depends on timing."
        ),
        why_wrong_line="racecheck reports the two source lines involved; trust them.",
        steps=(
            "Put a __syncthreads() between the write and the read of the shared data (in every "
            "loop iteration that reuses it).",
            "In cudatui, set a breakpoint on the reported line and compare warps in the warps "
            "pane: they reach it at different times.",
        ),
        tool="racecheck",
        lesson="race",
        actions=("sanitizer",),
    ),
    Rule(
        key="uninitialized",
        pattern=rx(r"Uninitialized __global__ memory read"),
        title="Read of uninitialised device memory",
        meaning=(
            "A kernel read global memory that nothing has written since it was allocated: the "
            "value is garbage (torch.empty, cudaMalloc without a copy or memset)."
        ),
        why_wrong_line="initcheck reports the exact kernel line and thread; trust it.",
        steps=(
            "Initialise the buffer (torch.zeros, cudaMemset, a copy) or fix the index that "
            "reads past the written part.",
            "Set a breakpoint on the reported line with the reported thread's condition and "
            "inspect the index.",
        ),
        tool="initcheck",
        lesson="uninit",
        actions=("sanitizer",),
    ),
    Rule(
        key="leak",
        pattern=rx(r"Leaked \d+ bytes at|LEAK SUMMARY: [1-9]"),
        title="Device memory leak",
        meaning="Device allocations were still alive when the program exited.",
        why_wrong_line="The host backtrace under each leak shows where it was allocated.",
        steps=("Free each allocation on every path (cudaFree), or drop the Python references "
               "that keep tensors alive.",),
        tool="memcheck",
        lesson="leak",
        actions=("sanitizer",),
    ),
    Rule(
        key="illegal_address",
        pattern=rx(
            r"illegal memory access|cudaErrorIllegalAddress|Invalid __(?:global|shared|local)__ "
            r"(?:read|write)"
        ),
        title="Illegal memory access in a kernel",
        meaning=(
            "A kernel thread read or wrote an address outside any allocation: usually an index "
            "without a bounds check (idx >= n), a wrong size or stride, a pointer to host memory "
            "or to freed memory. The CUDA context is dead afterwards."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(BLOCKING, SANITIZE, DEBUG, TRIAGE),
        tool="memcheck",
        lesson="oob",
        actions=("launch_blocking", "sanitizer"),
    ),
    Rule(
        key="misaligned_address",
        pattern=rx(r"misaligned address|cudaErrorMisalignedAddress"),
        title="Misaligned memory access in a kernel",
        meaning=(
            "A thread accessed memory through a pointer not aligned to the access size (e.g. a "
            "float4 or int64 load from an odd offset): pointer casts, packed structs, or a "
            "non-contiguous tensor / storage offset handed to a custom kernel."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(
            BLOCKING,
            SANITIZE,
            "For tensors passed to your own kernels, call .contiguous() and check "
            "data_ptr() % alignment before the launch.",
        ),
        tool="memcheck",
        lesson="oob",
        actions=("launch_blocking", "sanitizer"),
    ),
    Rule(
        key="illegal_instruction",
        pattern=rx(r"illegal instruction was encountered|cudaErrorIllegalInstruction"),
        title="Illegal instruction in a kernel",
        meaning=(
            "A thread executed an invalid instruction: a corrupted function pointer or stack, "
            "code built for another architecture, or a trap."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(BLOCKING, DEBUG, DOCTOR),
        tool="memcheck",
        lesson="oob",
        actions=("launch_blocking", "sanitizer"),
    ),
    Rule(
        key="launch_failure",
        pattern=rx(r"unspecified launch failure|cudaErrorLaunchFailure"),
        title="Unspecified launch failure",
        meaning=(
            "A kernel died with an exception the runtime does not name more precisely: most "
            "often an out-of-bounds access (in shared or local memory too), sometimes a stack "
            "overflow or a driver problem. The CUDA context is dead afterwards."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(BLOCKING, SANITIZE, DEBUG),
        tool="memcheck",
        lesson="oob",
        actions=("launch_blocking", "sanitizer", "api_failures_stop"),
    ),
    Rule(
        key="launch_timeout",
        pattern=rx(r"launch timed out and was terminated|cudaErrorLaunchTimeout"),
        title="Kernel ran too long and was killed",
        meaning=(
            "The kernel exceeded the watchdog limit of a GPU that also drives a display, or it "
            "never finishes (an infinite loop, a __syncthreads() not reached by all threads)."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(
            "Interrupt it under cudatui (Ctrl-C) and look at the warps pane: which warps spin, "
            "and where?",
            "Run `cudatui sanitize --tool synccheck {script}` for barriers in divergent code.",
        ),
        tool="synccheck",
        lesson="divergence",
        actions=("sanitizer",),
    ),
    Rule(
        key="launch_out_of_resources",
        pattern=rx(
            r"too many resources requested for launch|cudaErrorLaunchOutOfResources|"
            r"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"
        ),
        title="Kernel launch needs more registers than a block can have",
        meaning=(
            "One block of this kernel needs more registers than the GPU gives a block: the "
            "registers per thread, fixed when the kernel was compiled, times the threads per "
            "block exceed the multiprocessor's register file (65536 32-bit registers on current "
            "GPUs). It fails the same way on every run until the kernel uses fewer registers or "
            "the blocks get smaller. (Rarely the kernel's arguments are the cause: too many "
            "bytes of them.)"
        ),
        why_wrong_line=LAUNCH_WHY,
        steps=(
            "Read the kernel's registers per thread: `cuobjdump --dump-resource-usage` on the "
            "binary or the extension's .so (REG:), or build with `nvcc -Xptxas -v` "
            "(extra_cuda_cflags=['-Xptxas', '-v'] for a torch extension). REG times the block "
            "size must stay within 65536.",
            "Launch smaller blocks (256 threads instead of 1024) and compute the grid from that "
            "block size.",
            "Or make the compiler fit the block: `__launch_bounds__(1024)` on the kernel (it "
            "spills registers to local memory if it must), or `-maxrregcount=N` for the whole "
            "file.",
            API_STOP,
        ),
        actions=("api_failures_stop",),
    ),
    Rule(
        key="invalid_configuration",
        pattern=rx(r"invalid configuration argument|cudaErrorInvalidConfiguration"),
        title="Kernel launch configuration rejected",
        meaning=(
            "The launch's grid or block is outside what CUDA accepts: more than 1024 threads per "
            "block, a grid dimension of 0 (an empty input makes (n + 255) / 256 zero), a grid "
            "y or z over 65535, or more shared memory than a block may use. Nothing ran. CUDA "
            "13.0 reported the same mistakes as 'invalid argument'."
        ),
        why_wrong_line=LAUNCH_WHY,
        steps=(
            "Print the grid, block and dynamic shared-memory size just before the launch.",
            "Guard empty inputs: return before the launch when x.numel() == 0 (a grid of 0 "
            "blocks is an error, not a no-op).",
            "Keep blocks at 1024 threads or fewer, and fold a y or z grid over 65535 into x or a "
            "loop inside the kernel.",
            API_STOP,
        ),
        actions=("api_failures_stop",),
    ),
    Rule(
        key="invalid_argument",
        pattern=rx(
            r"(?:CUDA error|cuda runtime error \(\d+\)|CUDA failure \d+): invalid argument|"
            r"cudaErrorInvalidValue"
        ),
        title="Invalid argument to a CUDA call",
        meaning=(
            "A CUDA API call got a bad parameter: a null or host pointer where a device pointer "
            "is needed, a size or copy direction that does not fit, a device index that does "
            "not exist (check CUDA_VISIBLE_DEVICES), or an invalid launch parameter."
        ),
        why_wrong_line=SYNC_WHY,
        steps=(
            API_STOP,
            "Check the sizes, pointers and device index passed to that call.",
            "If that call launches a kernel (your extension's), print its grid, block and "
            "shared-memory size: CUDA 13.0 reported a block over 1024 threads, a grid of 0 "
            "blocks and more than 48 KB of dynamic shared memory (without opting in) as invalid "
            "argument.",
            BLOCKING,
        ),
        actions=("api_failures_stop", "launch_blocking"),
    ),
    NCCL_ERROR,
    NCCL_TIMEOUT,
    Rule(
        key="async_report",
        pattern=rx(r"might be asynchronously reported"),
        title="A CUDA error reported at a later call",
        meaning=(
            "PyTorch adds this note to every CUDA error: some earlier kernel failed and this is "
            "the first call that noticed. The error name on the line before it says what "
            "happened."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(BLOCKING, SANITIZE, DEBUG),
        tool="memcheck",
        lesson="oob",
        actions=("launch_blocking", "sanitizer"),
    ),
)
