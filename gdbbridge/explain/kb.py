"""The knowledge base behind ``cudatui explain``: CUDA error message -> cause -> next step.

Rules are listed most specific first (the first match is the primary diagnosis); a rule with
``requires`` only matches when the facts :mod:`cudatui.gdbbridge.explain.facts` finds include that
one. Step texts are templates filled from those facts (``{script}``, ``{tool}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ASYNC_WHY = (
    "Kernel launches are asynchronous: the launch returns at once and a failure inside the "
    "kernel is only noticed by a later CUDA call (a copy, .item(), .cpu(), a synchronize, the "
    "next launch). The traceback shows that later call, not the kernel that failed, and every "
    "CUDA call after the failure reports the same error."
)
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
OOM_WHY = (
    "Allocations fail synchronously, so the traceback line is the allocation that failed - but "
    "it is only the last straw: the memory was filled by earlier code."
)
ENV_WHY = (
    "This is an installation problem, not a bug in a kernel: it appears at the first CUDA call "
    "(often CUDA initialisation or the first .cuda()), wherever that is."
)

BLOCKING = (
    "Re-run with CUDA_LAUNCH_BLOCKING=1 python {script} (in cudatui: `set cuda launch_blocking "
    "on`): each launch then waits for its kernel, so the error is raised at the launch that failed."
)
SANITIZE = (
    "Run `cudatui sanitize --tool {tool} {script}`: it names the kernel, the source line, the "
    "block and thread, and the Python line that launched it."
)
DEBUG = (
    "Run it under the debugger (`cudatui {script}`): cuda-gdb stops on the faulting warp with "
    "the focus on the failing block and thread, so you can read its variables."
)
API_STOP = (
    "In cudatui, `set cuda api_failures stop` stops at the CUDA API call that returned the error, "
    "with its host backtrace."
)
DOCTOR = "Run `cudatui doctor`: it compares the driver, PyTorch's CUDA build and the GPUs."
NCCL_DEBUG = (
    "Re-run with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET or COLL to narrow it): each rank "
    "logs its set-up and the call that failed, with host, GPU and network interface."
)
ONE_RANK = (
    "Debug one rank in cudatui: start each rank by hand in its own terminal, with RANK, "
    "LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set as torchrun would, `cudatui "
    "{script}` for that rank and `python {script}` for the others. Raise the timeout first "
    "(init_process_group(timeout=timedelta(hours=1))): while it is stopped, the others wait."
)


@dataclass(frozen=True)
class Rule:
    """One family of error messages and what to tell the user about it."""

    key: str
    pattern: re.Pattern[str]
    title: str
    meaning: str
    why_wrong_line: str
    steps: tuple[str, ...]
    tool: str | None = None
    lesson: str | None = None
    actions: tuple[str, ...] = ()
    requires: str | None = None
    """A fact the input must yield for the rule to match, beyond its pattern."""


def rx(pattern: str) -> re.Pattern[str]:
    """A case-insensitive pattern."""
    return re.compile(pattern, re.IGNORECASE)


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
        steps=(BLOCKING, DEBUG, SANITIZE),
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
    Rule(
        key="device_mismatch",
        pattern=rx(
            r"Expected all tensors to be on the same (?:common )?device|module must have its "
            r"parameters and buffers on device|Input type \(torch\.cuda\.\w+\) and weight type "
            r"\(torch\.\w+\)|Input type \(torch\.\w+\) and weight type \(torch\.cuda\.\w+\)"
        ),
        title="Tensors on different devices",
        meaning=(
            "One operation got tensors on two devices (the GPU and the CPU, or two GPUs), and "
            "PyTorch does not move them for you. Usually the model was moved with .to(device) "
            "and its input was not, or the reverse; or a tensor made inside forward() lands on "
            "the CPU; or a module keeps a tensor that .to() does not move (a plain attribute, "
            "not a registered buffer)."
        ),
        why_wrong_line=(
            "PyTorch checks the devices before it launches anything, so the operation named in "
            "the message raises this at once: the last line of your code in the traceback is the "
            "call."
        ),
        steps=(
            "Move the odd tensor with .to(device), taking the device from the model "
            "(next(model.parameters()).device) or from another input (x.device); create new "
            "tensors with device=x.device instead of on the CPU.",
            "Check the model against its input: print(next(model.parameters()).device, "
            "batch.device). model.to() moves parameters and buffers, not plain tensor attributes "
            "or tensors in Python lists (use register_buffer and nn.ModuleList).",
            "With nn.DataParallel, move the model to device_ids[0] (model.to('cuda:0')) before "
            "wrapping it; DataParallel moves the inputs itself. CUDA_VISIBLE_DEVICES renumbers the "
            "GPUs: cuda:0 is the first visible one.",
        ),
    ),
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
    Rule(
        key="cudnn_failure",
        pattern=rx(r"(?<!Plan failed with a CuDNNError: cuDNN error: )CUDNN_STATUS_(?!SUCCESS)\w+"),
        title="A cuDNN call failed",
        meaning=(
            "A cuDNN routine (convolution, RNN, batch norm, attention) returned an error status. "
            "INTERNAL_ERROR and EXECUTION_FAILED are often not about this call: an earlier kernel "
            "that failed asynchronously, or a GPU too full for cuDNN's own allocations, is first "
            "noticed here. NOT_SUPPORTED and BAD_PARAM are about this call: a shape, dtype, "
            "memory layout or size that no cuDNN algorithm takes."
        ),
        why_wrong_line=ASYNC_WHY,
        steps=(
            BLOCKING,
            "Isolate cuDNN: run once with torch.backends.cudnn.enabled = False. If the error "
            "turns into a CUDA error (illegal address, out of memory), the cause is elsewhere; if "
            "it goes away, it is this layer's configuration in cuDNN.",
            "Set torch.backends.cudnn.benchmark = False: benchmark mode tries every algorithm, "
            "some with large workspaces, and may keep one that fails on this input.",
            "Check the layer's input: .contiguous(), the weights' dtype (half vs float), the "
            "memory format you expect (channels_last). The repro snippet PyTorch prints, run on "
            "its own, tells whether this call alone fails.",
            SANITIZE,
        ),
        tool="memcheck",
        actions=("launch_blocking", "sanitizer"),
    ),
    Rule(
        key="oom_fragmentation",
        pattern=rx(r"out of memory|OutOfMemoryError"),
        requires="fragmentation",
        title="GPU out of memory: PyTorch's cache is fragmented",
        meaning=(
            "PyTorch's caching allocator keeps freed GPU memory for reuse. Here it held more free "
            "memory than the request, but in pieces too small for it, and the GPU had no room "
            "for a new block. Before raising, PyTorch already gave its wholly unused cached "
            "blocks back to the driver and retried."
        ),
        why_wrong_line=OOM_WHY,
        steps=(
            "Start the process with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: segments "
            "then grow and release memory in pages, so freed space serves other sizes. "
            "PyTorch 2.8+ also reads the newer name PYTORCH_ALLOC_CONF (both worked on 2.11; "
            "2.9.1 ignored expandable_segments under the new name, pytorch/pytorch#183387). It "
            "cannot help when small live tensors are spread over all of the cache.",
            "torch.cuda.empty_cache() will not make this allocation fit: it only returns wholly "
            "unused cached blocks to the driver, which PyTorch already did; it helps other "
            "processes on the GPU.",
            "Print torch.cuda.memory_summary() just before the failing line: its 'Non-releasable "
            "memory' row is the fragmented part. Fewer distinct tensor sizes (pad or bucket "
            "variable-length batches), a smaller batch, or dropping long-lived tensors earlier "
            "avoids it.",
        ),
    ),
    Rule(
        key="out_of_memory",
        pattern=rx(r"out of memory|OutOfMemoryError|cudaErrorMemoryAllocation"),
        title="GPU out of memory",
        meaning=(
            "An allocation on the GPU failed: what the program asked for does not fit in the "
            "free device memory."
        ),
        why_wrong_line=OOM_WHY,
        steps=(
            "Reduce the batch size (or use gradient accumulation), free tensors you keep in "
            "lists, and wrap inference in torch.no_grad().",
            "Watch the GPU memory pane while it runs to see where memory grows.",
            "Run `cudatui sanitize --tool memcheck --leak-check full {script}` to find device "
            "allocations that are never freed.",
            API_STOP,
        ),
        tool="memcheck",
        lesson="leak",
        actions=("api_failures_stop",),
    ),
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
        steps=(BLOCKING, SANITIZE, DEBUG),
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
    Rule(
        key="nccl_error",
        pattern=rx(
            r"NCCL (?:error|Error \d+|WARN|failure)|nccl(?:SystemError|UnhandledCudaError|"
            r"InternalError|InvalidUsage|InvalidArgument|RemoteError)\b"
        ),
        title="NCCL failed",
        meaning=(
            "NCCL, the library behind torch.distributed's GPU collectives, returned an error. A "
            "system error is the OS or the network (a socket that cannot connect, the wrong "
            "interface, too little /dev/shm in a container), a CUDA error a CUDA call inside "
            "NCCL (out of memory, or a GPU broken by an earlier kernel fault), invalid usage a "
            "set-up mistake such as two ranks on one GPU, an internal error a bug or corrupted "
            "memory. The line after 'Last error:' (or a NCCL WARN line) names the failing call."
        ),
        why_wrong_line=(
            "NCCL connects the ranks at their first collective, so set-up failures surface "
            "there (or at init_process_group), not where the cause is. Each rank reports its own "
            "error; the first one in time is usually the cause."
        ),
        steps=(
            NCCL_DEBUG,
            "System error: set NCCL_SOCKET_IFNAME to the interface the nodes reach each other "
            "on, check firewalls, and in containers give /dev/shm room (docker --ipc=host).",
            "CUDA error: run with CUDA_LAUNCH_BLOCKING=1 to see whether a kernel of yours failed "
            "first, and watch GPU memory: NCCL allocates its buffers at the first collective.",
            "Give every rank its own GPU (torch.cuda.set_device(local_rank) before the first "
            "collective) and the same PyTorch and NCCL build on every node.",
            ONE_RANK,
        ),
    ),
    Rule(
        key="nccl_timeout",
        pattern=rx(
            r"Watchdog caught collective operation timeout|NCCL communicator was aborted|"
            r"timed out in blocking wait"
        ),
        title="A NCCL collective timed out",
        meaning=(
            "A collective (all-reduce, broadcast, all-gather ...) did not complete within the "
            "process group's timeout, so PyTorch's watchdog aborted it and took the process "
            "down. A collective completes only when every rank of the group enters it: usually "
            "one rank is elsewhere - crashed, stuck, stopped in a debugger, busy with work the "
            "others skip, or waiting in a different collective. A hung network link does the "
            "same."
        ),
        why_wrong_line=(
            "The error comes from the watchdog thread, not from your code, and every waiting "
            "rank reports it. The rank that caused it is the one whose output says something "
            "else: an earlier exception, another collective (OpType, SeqNum), or no timeout."
        ),
        steps=(
            "Read every rank's output, not only rank 0's, for the first error in time: a rank "
            "that crashed or sits at a breakpoint leaves the others waiting until this timeout.",
            "Make all ranks call the same collectives in the same order with the same sizes: "
            "none in code only some ranks run (rank-0 evaluation, logging, saving), the same "
            "number of batches everywhere (DistributedSampler(drop_last=True)). "
            "TORCH_DISTRIBUTED_DEBUG=DETAIL checks that the ranks' collectives match.",
            NCCL_DEBUG,
            "TORCH_NCCL_BLOCKING_WAIT=1 makes the waiting call raise a Python traceback at your "
            "collective instead of the watchdog; TORCH_NCCL_ASYNC_ERROR_HANDLING sets what the "
            "watchdog does (0: nothing, the job hangs; 1: abort and exit).",
            ONE_RANK,
        ),
    ),
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
