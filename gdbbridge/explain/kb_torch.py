"""The PyTorch rules of ``cudatui explain``: tensors on two devices, cuDNN, out of memory, NCCL.

:mod:`cudatui.gdbbridge.explain.kb` puts each of them at its place in ``RULES``; the first match
is the primary diagnosis, so that place matters.
"""

from __future__ import annotations

from cudatui.gdbbridge.explain.rule import API_STOP, ASYNC_WHY, BLOCKING, SANITIZE, Rule, rx

OOM_WHY = (
    "Allocations fail synchronously, so the traceback line is the allocation that failed - but "
    "it is only the last straw: the memory was filled by earlier code."
)
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


DEVICE_MISMATCH = Rule(
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
)


CUDNN_FAILURE = Rule(
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
)


OOM_FRAGMENTATION = Rule(
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
)


OUT_OF_MEMORY = Rule(
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
)


NCCL_ERROR = Rule(
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
)


NCCL_TIMEOUT = Rule(
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
)
