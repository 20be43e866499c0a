"""Simplified Chinese: every English text cudatui translates, and its translation.

Keys are the English texts exactly as written in the code (tests/gdbbridge/test_i18n.py checks
that none is missing and none is stale). Tool names, API names, error texts, code and
``{placeholders}`` stay as they are.
"""

from __future__ import annotations

ZH: dict[str, str] = {
    " · bundled CUDA bugs to debug: pick a lesson":
        " · 内置的 CUDA 缺陷练习：选择一课",
    "(--fixed: the fixed kernel runs)":
        "（--fixed：运行的是修复后的 kernel）",
    "(live: no recording)":
        "（实时：没有录制）",
    "(the keys the recording was made with; a step off this path is not in it)":
        "（录制时按下的键；偏离这条路径的步骤不在录制中）",
    "2-D shared tile (3x3 blur) read before the block finished loading it":
        "二维共享内存 tile（3x3 模糊）在 block 加载完之前就被读取",
    "E: what it means and what to do next":
        "E：它的含义与下一步该做什么",
    "`continue` resumes the program after this assert.":
        "`continue` 可以让程序在这个 assert 之后继续运行。",
    "`nvidia-smi` shows the driver's highest supported CUDA version at the top right.":
        "`nvidia-smi` 在右上角显示驱动支持的最高 CUDA 版本。",
    "A collective (all-reduce, broadcast, all-gather ...) did not complete within the process group's timeout, so PyTorch's watchdog aborted it and took the process down. A collective completes only when every rank of the group enters it: usually one rank is elsewhere - crashed, stuck, stopped in a debugger, busy with work the others skip, or waiting in a different collective. A hung network link does the same.":
        "某个集合通信（all-reduce、broadcast、all-gather……）没有在进程组的超时时间内完成，于是 PyTorch 的 watchdog 中止了它并结束了进程。只有组内每个 rank 都进入时集合通信才会完成：通常是某个 rank 在别处——崩溃了、卡住了、停在调试器里、在做其他 rank 跳过的工作，或者在等另一个集合通信。网络链路挂起也会这样。",
    "a corner thread needs halo values":
        "角落的线程需要 halo 值",
    "A cuBLAS kernel failed":
        "cuBLAS kernel 失败",
    "A cuBLAS routine (matmul, linear layer) could not run its kernel. Most often an earlier kernel already failed (illegal address, assert) and cuBLAS is just the first call to notice; otherwise its arguments are wrong (shapes, leading dimensions, dtypes) or the library does not match the GPU.":
        "某个 cuBLAS 例程（matmul、线性层）无法运行它的 kernel。最常见的是更早的某个 kernel 已经失败（非法地址、assert），cuBLAS 只是第一个发现的调用；否则就是它的参数有误（形状、leading dimension、dtype），或者库与 GPU 不匹配。",
    "A CUDA API call got a bad parameter: a null or host pointer where a device pointer is needed, a size or copy direction that does not fit, a device index that does not exist (check CUDA_VISIBLE_DEVICES), or an invalid launch parameter.":
        "某个 CUDA API 调用收到了错误的参数：需要设备指针的地方传了空指针或主机指针，大小或拷贝方向不匹配，设备编号不存在（检查 CUDA_VISIBLE_DEVICES），或者 launch 参数无效。",
    "A CUDA error reported at a later call":
        "在后面的调用中才报告的 CUDA 错误",
    "A cuDNN call failed":
        "cuDNN 调用失败",
    "A cuDNN routine (convolution, RNN, batch norm, attention) returned an error status. INTERNAL_ERROR and EXECUTION_FAILED are often not about this call: an earlier kernel that failed asynchronously, or a GPU too full for cuDNN's own allocations, is first noticed here. NOT_SUPPORTED and BAD_PARAM are about this call: a shape, dtype, memory layout or size that no cuDNN algorithm takes.":
        "某个 cuDNN 例程（卷积、RNN、batch norm、attention）返回了错误状态。INTERNAL_ERROR 和 EXECUTION_FAILED 往往与这次调用无关：更早的某个异步失败的 kernel，或者 GPU 满到 cuDNN 无法为自己分配内存，都是在这里第一次被发现。NOT_SUPPORTED 和 BAD_PARAM 则与这次调用有关：某个形状、dtype、内存布局或大小没有任何 cuDNN 算法支持。",
    "A device stack canary was overwritten: a local array was written past its end.":
        "设备栈的 canary 被覆盖：某个局部数组写越了界。",
    "A device-side system call (printf, malloc) failed.":
        "设备端的系统调用（printf、malloc）失败。",
    "A global GPU error that matches no other code.":
        "不属于其他任何代码的全局 GPU 错误。",
    "A GPU exception.":
        "一个 GPU 异常。",
    "A kernel died with an exception the runtime does not name more precisely: most often an out-of-bounds access (in shared or local memory too), sometimes a stack overflow or a driver problem. The CUDA context is dead afterwards.":
        "某个 kernel 因运行时没有进一步说明的异常而终止：最常见的是越界访问（也可能在共享内存或局部内存中），有时是栈溢出或驱动问题。之后 CUDA 上下文就失效了。",
    "A kernel read global memory that nothing has written since it was allocated: the value is garbage (torch.empty, cudaMalloc without a copy or memset).":
        "某个 kernel 读取了一块分配后从未被写过的全局内存：读到的是垃圾值（torch.empty，或 cudaMalloc 之后没有拷贝或 memset）。",
    "A kernel thread read or wrote an address outside any allocation: usually an index without a bounds check (idx >= n), a wrong size or stride, a pointer to host memory or to freed memory. The CUDA context is dead afterwards.":
        "某个 kernel 线程读写了不属于任何分配的地址：通常是索引没有边界检查（idx >= n）、大小或步长错误、指向主机内存或已释放内存的指针。之后 CUDA 上下文就失效了。",
    "A NCCL collective timed out":
        "NCCL 集合通信超时",
    "A stack canary was overwritten: a local array was written past its end.":
        "栈 canary 被覆盖：某个局部数组写越了界。",
    "A thread accessed an address outside the local or shared memory window.":
        "某个线程访问了局部内存或共享内存窗口之外的地址。",
    "A thread accessed an illegal global address (the faulting thread is not known precisely).":
        "某个线程访问了非法的全局地址（无法精确知道出错的线程）。",
    "A thread accessed an illegal global address.":
        "某个线程访问了非法的全局地址。",
    "A thread accessed distributed shared memory outside its cluster's range.":
        "某个线程访问了其 cluster 范围之外的分布式共享内存。",
    "A thread accessed memory through a pointer not aligned to the access size (e.g. a float4 or int64 load from an odd offset): pointer casts, packed structs, or a non-contiguous tensor / storage offset handed to a custom kernel.":
        "某个线程通过没有按访问大小对齐的指针访问内存（例如从奇数偏移处加载 float4 或 int64）：原因可能是指针强制转换、packed 结构体，或者把非连续张量 / 带 storage offset 的张量传给了自定义 kernel。",
    "A thread accessed the shared memory of a block in its cluster that is not running (already exited).":
        "某个线程访问了其 cluster 中一个不在运行（已退出）的 block 的共享内存。",
    "A thread exceeded its stack (deep recursion, big local arrays).":
        "某个线程超出了它的栈（递归太深、局部数组太大）。",
    "A thread executed an invalid instruction: a corrupted function pointer or stack, code built for another architecture, or a trap.":
        "某个线程执行了无效指令：函数指针或栈被破坏、代码是为其他架构构建的，或者是一个 trap。",
    "A thread made a misaligned global memory access.":
        "某个线程进行了未对齐的全局内存访问。",
    "A thread made a misaligned local or shared memory access.":
        "某个线程进行了未对齐的局部或共享内存访问。",
    "A thread of the warp accessed an illegal global address; the process cannot continue after it.":
        "warp 中某个线程访问了非法的全局地址；此后进程无法继续。",
    "A thread of the warp executed an illegal instruction.":
        "warp 中某个线程执行了非法指令。",
    "A thread of the warp overflowed the hardware stack.":
        "warp 中某个线程的硬件栈溢出。",
    "a thread that reads a neighbour's partial sum":
        "读取邻居部分和的线程",
    "A thread's device-side assert() failed; this is the only exception the program can continue from.":
        "某个线程的设备端 assert() 失败；这是程序唯一可以从中继续的异常。",
    "A thread's program counter left the valid code range.":
        "某个线程的程序计数器离开了有效代码范围。",
    "Action 1":
        "操作 1",
    "Action 2":
        "操作 2",
    "Action 3":
        "操作 3",
    "Add":
        "添加",
    "Add kernel without a bounds check: illegal memory access":
        "没有边界检查的加法 kernel：非法内存访问",
    "Allocations fail synchronously, so the traceback line is the allocation that failed - but it is only the last straw: the memory was filled by earlier code.":
        "分配是同步失败的，所以 traceback 指向的就是失败的那次分配——但它只是最后一根稻草：内存早已被之前的代码占满。",
    "Also mentioned in the input: ":
        "输入中还提到：",
    "An allocation on the GPU failed: what the program asked for does not fit in the free device memory.":
        "GPU 上的一次分配失败：程序请求的大小放不进空闲的设备内存。",
    "An assert() inside a kernel failed. The kernel stopped; the CUDA context is now unusable and every later CUDA call in the process fails with the same error. The 'Assertion ... failed' line printed by the GPU (if you have it) names the kernel's source file and line, the block and thread, and the condition.":
        "kernel 中的某个 assert() 失败了。kernel 已停止；CUDA 上下文现在不可用，进程中之后的每个 CUDA 调用都会报同样的错误。GPU 打印的 'Assertion ... failed' 行（如果有的话）给出了 kernel 的源文件和行号、block 和 thread，以及条件。",
    "An instruction accessed a memory space it may not use.":
        "某条指令访问了它不允许使用的内存空间。",
    "API call":
        "API 调用",
    "Array":
        "数组",
    "at the exception, the focus in the status bar: a block far past the last valid block (3)":
        "在异常处，状态栏中的焦点：一个远远超过最后一个有效 block（3）的 block",
    "Back to the debugger":
        "回到调试器",
    "Back to the lesson picker (ctrl+q quits)":
        "回到课程选择（ctrl+q 退出）",
    "Block":
        "Block",
    "Bottom":
        "底部",
    "Break":
        "断点",
    "Breakpoint on or off at the source cursor":
        "在源码光标处设置或取消断点",
    "Breaks":
        "断点",
    "Build extensions with the toolkit matching torch.version.cuda (or install the PyTorch wheel for your toolkit); do not mix CUDA libraries from several installations on LD_LIBRARY_PATH.":
        "用与 torch.version.cuda 匹配的 toolkit 构建扩展（或者安装对应你的 toolkit 的 PyTorch wheel）；不要在 LD_LIBRARY_PATH 上混用多个安装的 CUDA 库。",
    "c (continue): cuda-gdb stops with CUDA_EXCEPTION_12 on the asserting thread":
        "c（continue）：cuda-gdb 在触发 assert 的线程上以 CUDA_EXCEPTION_12 停下",
    "c (continue): cuda-gdb stops with CUDA_EXCEPTION_14 on a block far past the end":
        "c（continue）：cuda-gdb 在一个远超末尾的 block 上以 CUDA_EXCEPTION_14 停下",
    "c to the read in sum_all, then : print y[i]: whatever the fresh cudaMalloc held":
        "c 运行到 sum_all 中的读取处，然后 : print y[i]：新 cudaMalloc 的内存里原本是什么就是什么",
    "call __syncthreads() at the end of every reduction step":
        "在每个归约步骤的末尾调用 __syncthreads()",
    "call __syncthreads() between load_tile and the window reads":
        "在 load_tile 和窗口读取之间调用 __syncthreads()",
    "Cancel":
        "取消",
    "Cancel run":
        "取消运行",
    "caught by ":
        "发现工具：",
    "check `nvidia-smi`; in a container pass --gpus all":
        "检查 `nvidia-smi`；在容器中请传入 --gpus all",
    "Check `python -c 'import torch; print(torch.version.cuda)'` against `nvcc --version` and the CUDA_HOME / LD_LIBRARY_PATH in use.":
        "对比 `python -c 'import torch; print(torch.version.cuda)'` 与 `nvcc --version`，以及正在使用的 CUDA_HOME / LD_LIBRARY_PATH。",
    "Check pointer casts and offsets: a 4-byte load needs a 4-byte aligned address.":
        "检查指针转换和偏移：4 字节的加载需要 4 字节对齐的地址。",
    "Check the index of the shared or local array against its declared size.":
        "把共享或局部数组的索引与它声明的大小比较。",
    "Check the layer's input: .contiguous(), the weights' dtype (half vs float), the memory format you expect (channels_last). The repro snippet PyTorch prints, run on its own, tells whether this call alone fails.":
        "检查这一层的输入：.contiguous()、权重的 dtype（half 还是 float）、你期望的内存格式（channels_last）。单独运行 PyTorch 打印的复现代码片段，就能知道是否只是这次调用失败。",
    "Check the model against its input: print(next(model.parameters()).device, batch.device). model.to() moves parameters and buffers, not plain tensor attributes or tensors in Python lists (use register_buffer and nn.ModuleList).":
        "对比模型和它的输入：print(next(model.parameters()).device, batch.device)。model.to() 移动参数和 buffer，不移动普通的张量属性或 Python 列表里的张量（请使用 register_buffer 和 nn.ModuleList）。",
    "check the permissions of /dev/nvidia* (add the user to the video group)":
        "检查 /dev/nvidia* 的权限（把用户加入 video 组）",
    "Check the sizes, pointers and device index passed to that call.":
        "检查传给这次调用的大小、指针和设备编号。",
    "Close":
        "关闭",
    "Close help":
        "关闭帮助",
    "Close it (again: to its parent)":
        "收起（再按：到上一级）",
    "Collective":
        "集合通信",
    "Compare the index in the faulting line with the size of the array it reads or writes; look at the lane's locals and at blockIdx/threadIdx. A bounds check (`if (i < n)`) is the usual fix.":
        "把出错行中的索引与它读写的数组大小比较；查看该 lane 的局部变量以及 blockIdx/threadIdx。通常的修复是加边界检查（`if (i < n)`）。",
    "Compare torch.cuda.get_arch_list() with torch.cuda.get_device_capability(): the GPU's sm_XY (or an older sm_X* of the same major, or a compute_ PTX entry at or below it) must be in the list.":
        "对比 torch.cuda.get_arch_list() 和 torch.cuda.get_device_capability()：GPU 的 sm_XY（或同一主版本中更旧的 sm_X*，或不高于它的 compute_ PTX 项）必须在列表中。",
    "compute the factor without a branch: 2 + (i & 1)":
        "不用分支计算系数：2 + (i & 1)",
    "Condition":
        "条件",
    "Console":
        "控制台",
    "Console: type a gdb command":
        "控制台：输入 gdb 命令",
    "Cont":
        "继续",
    "Continue to the next stop":
        "继续运行到下一次停止",
    "convert the 1-based label to a 0-based column (labels[i] - 1)":
        "把从 1 开始的标签转换为从 0 开始的列（labels[i] - 1）",
    "cuBLAS could not allocate its workspace":
        "cuBLAS 无法分配它的 workspace",
    "cuBLAS failed to get GPU memory for its handle or workspace: the GPU is (nearly) full, often because PyTorch's caching allocator holds the memory, or because another process uses the GPU.":
        "cuBLAS 无法为它的 handle 或 workspace 获取 GPU 内存：GPU（几乎）满了，通常是因为 PyTorch 的缓存分配器占着内存，或者有另一个进程在使用这块 GPU。",
    "CUDA error":
        "CUDA 错误",
    "CUDA error: run with CUDA_LAUNCH_BLOCKING=1 to see whether a kernel of yours failed first, and watch GPU memory: NCCL allocates its buffers at the first collective.":
        "CUDA 错误：用 CUDA_LAUNCH_BLOCKING=1 运行，看看是否是你的某个 kernel 先失败了，并留意 GPU 内存：NCCL 在第一次集合通信时分配它的缓冲区。",
    "cuda-gdb stopped on a GPU exception":
        "cuda-gdb 停在了一个 GPU 异常上",
    "cuda-gdb stopped the kernel at the exception itself, so the focus (block, thread, source line) is the failing one - unlike the traceback of a plain run.":
        "cuda-gdb 正好在异常处停下了 kernel，所以焦点（block、thread、源码行）就是出错的那个——这和普通运行时的 traceback 不同。",
    "cudaFree the workspace before returning":
        "在返回之前 cudaFree 这个 workspace",
    "cudatui demo assert --fixed: labels are shifted to 0-based columns":
        "cudatui demo assert --fixed：标签被平移为从 0 开始的列",
    "cudatui demo assert --torch: PyTorch's own x[idx] stops the same way inside IndexKernel":
        "cudatui demo assert --torch：PyTorch 自己的 x[idx] 会以同样的方式停在 IndexKernel 中",
    "cudatui demo divergence --fixed: no branch, all 32 lanes stay active":
        "cudatui demo divergence --fixed：没有分支，32 个 lane 全部保持活跃",
    "cudatui demo leak --fixed: the workspace is freed and no leak from leak.cu remains":
        "cudatui demo leak --fixed：workspace 被释放，leak.cu 不再有泄漏",
    "cudatui demo oob --fixed: the `if (idx < n)` guard keeps every thread in bounds":
        "cudatui demo oob --fixed：`if (idx < n)` 保护让每个线程都不越界",
    "cudatui demo race --fixed: the sum equals torch's sum every time":
        "cudatui demo race --fixed：每次的和都等于 torch 的和",
    "cudatui demo tile --fixed: __syncthreads() after load_tile, output equals torch's":
        "cudatui demo tile --fixed：load_tile 之后有 __syncthreads()，输出与 torch 的相同",
    "cudatui demo uninit --fixed: negative inputs store 0 and initcheck is clean":
        "cudatui demo uninit --fixed：负输入写入 0，initcheck 没有报告",
    "cudatui keys  (escape closes; the command palette, ctrl+p, lists every action)":
        "cudatui 按键（escape 关闭；命令面板 ctrl+p 列出所有操作）",
    "cuDNN":
        "cuDNN",
    "Culprit lane":
        "罪魁 lane",
    "Debug finding":
        "调试该问题",
    "Debug one rank in cudatui: start each rank by hand in its own terminal, with RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set as torchrun would, `cudatui {script}` for that rank and `python {script}` for the others. Raise the timeout first (init_process_group(timeout=timedelta(hours=1))): while it is stopped, the others wait.":
        "在 cudatui 中调试单个 rank：在各自的终端里手动启动每个 rank，像 torchrun 那样设置 RANK、LOCAL_RANK、WORLD_SIZE、MASTER_ADDR 和 MASTER_PORT，对这个 rank 用 `cudatui {script}`，其他 rank 用 `python {script}`。先调大超时（init_process_group(timeout=timedelta(hours=1))）：它停下时，其他 rank 会一直等待。",
    "Debugger":
        "调试器",
    "Delete":
        "删除",
    "Device allocations were still alive when the program exited.":
        "程序退出时仍有设备内存分配没有释放。",
    "Device memory leak":
        "设备内存泄漏",
    "Device-side assert from a class label out of range":
        "类别标签越界引发的设备端 assert",
    "Device-side assert triggered":
        "触发了设备端 assert",
    "Devices":
        "设备",
    "docker run --cap-add=SYS_PTRACE --security-opt seccomp=unconfined ...":
        "docker run --cap-add=SYS_PTRACE --security-opt seccomp=unconfined ...",
    "Down":
        "向下",
    "Down frame":
        "下一帧",
    "End search":
        "结束搜索",
    "Enter opens the lesson: live with cuda-gdb and a GPU, else its recording (REPLAY); q there comes back here. Also: cudatui demo LESSON [--live | --replay] [--fixed], cudatui demo --list.":
        "Enter 打开这一课：有 cuda-gdb 和 GPU 时实时调试，否则播放它的录制（REPLAY）；在那里按 q 回到这里。另见：cudatui demo LESSON [--live | --replay] [--fixed]、cudatui demo --list。",
    "Even/odd branch: warp divergence (a stepping lesson)":
        "奇偶分支：warp 分歧（单步调试课）",
    "every lane of the warp reaches the branch":
        "warp 的每个 lane 都到达了这个分支",
    "Explain error":
        "解释错误",
    "fatal: ":
        "致命：",
    "Finish":
        "运行到返回",
    "Finish: run until the frame returns":
        "运行到返回：运行到当前帧返回",
    "first thread: block 0, thread 0; idx and n are readable":
        "第一个线程：block 0，thread 0；idx 和 n 可读",
    "fix the error above (often a missing shared library of the tool)":
        "修复上面的错误（通常是该工具缺少某个共享库）",
    "fix:":
        "修复：",
    "Focus":
        "焦点",
    "Follow / look around":
        "跟随 / 自行查看",
    "For tensors passed to your own kernels, call .contiguous() and check data_ptr() % alignment before the launch.":
        "对传给你自己 kernel 的张量，在 launch 之前调用 .contiguous() 并检查 data_ptr() % 对齐值。",
    "Forgotten else-branch: uninitialised global memory read":
        "遗漏的 else 分支：读取未初始化的全局内存",
    "Format":
        "格式",
    "Found in the input:":
        "在输入中找到：",
    "Fragmented":
        "碎片",
    "Free":
        "空闲",
    "Free each allocation on every path (cudaFree), or drop the Python references that keep tensors alive.":
        "在每条路径上释放每次分配（cudaFree），或者去掉让张量一直存活的 Python 引用。",
    "Full guide":
        "完整指南",
    "g, then block (0,0,0) thread (32,0,0): a lane of the next warp; compare":
        "g，然后 block (0,0,0) thread (32,0,0)：下一个 warp 的一个 lane；比较",
    "g, then block (1,1,0) thread (15,15,0); then : print tile[16][16]@3":
        "g，然后 block (1,1,0) thread (15,15,0)；然后 : print tile[16][16]@3",
    "g, then block (3,0,0) thread (200,0,0): another block, at its own step":
        "g，然后 block (3,0,0) thread (200,0,0)：另一个 block，处在它自己的步骤",
    "g, then block (3,0,0) thread (232,0,0): idx == n, the first thread past the end":
        "g，然后 block (3,0,0) thread (232,0,0)：idx == n，第一个越过末尾的线程",
    "General advice:":
        "一般建议：",
    "Give every rank its own GPU (torch.cuda.set_device(local_rank) before the first collective) and the same PyTorch and NCCL build on every node.":
        "给每个 rank 分配自己的 GPU（在第一次集合通信之前调用 torch.cuda.set_device(local_rank)），并在每个节点上使用相同的 PyTorch 和 NCCL 构建。",
    "Go to":
        "跳转",
    "Go to a CUDA focus (block, thread, warp, lane)":
        "跳转到一个 CUDA 焦点（block、thread、warp、lane）",
    "Go to line":
        "跳转到行",
    "GPU":
        "GPU",
    "GPU out of memory":
        "GPU 内存不足",
    "GPU out of memory: PyTorch's cache is fragmented":
        "GPU 内存不足：PyTorch 的缓存产生了碎片",
    "GPU: used memory grows with every call":
        "GPU：已用内存随每次调用增长",
    "Group":
        "分组",
    "Guard empty inputs: return before the launch when x.numel() == 0 (a grid of 0 blocks is an error, not a no-op).":
        "处理空输入：当 x.numel() == 0 时在 launch 之前返回（0 个 block 的 grid 是错误，而不是空操作）。",
    "guard the access with `if (idx < n)` and size the grid from n":
        "用 `if (idx < n)` 保护访问，并根据 n 计算 grid 大小",
    "Guide":
        "指南",
    "Guide strip":
        "指南条",
    "h or a click: the whole guide (recorded path, look at, try next, the fix); the wheel scrolls":
        "h 或点击：完整指南（录制路径、查看、接下来试试、修复方法）；滚轮滚动",
    "Help":
        "帮助",
    "Hide or show the guide strip":
        "隐藏或显示指南条",
    "If that call launches a kernel (your extension's), print its grid, block and shared-memory size: CUDA 13.0 reported a block over 1024 threads, a grid of 0 blocks and more than 48 KB of dynamic shared memory (without opting in) as invalid argument.":
        "如果这次调用 launch 了一个 kernel（你的扩展中的），打印它的 grid、block 和共享内存大小：CUDA 13.0 会把超过 1024 个线程的 block、0 个 block 的 grid 以及（未显式开启时）超过 48 KB 的动态共享内存报告为 invalid argument。",
    "Illegal instruction in a kernel":
        "kernel 中的非法指令",
    "Illegal memory access in a kernel":
        "kernel 中的非法内存访问",
    "in a replay the GPU pane shows the recorded samples where the recording holds them":
        "回放时 GPU 窗格显示录制的采样（如果录制中有）",
    "in a replay the SASS pane shows the disassembly where the recording holds it":
        "回放时 SASS 窗格显示反汇编（如果录制中有）",
    "in a replay there is no program to run the tool on: S shows the tool's report where the recording holds one, else says so":
        "回放时没有可以运行工具的程序：如果录制中有该工具的报告，S 会显示它，否则会说明",
    "In cudatui, `set cuda api_failures stop` stops at the CUDA API call that returned the error, with its host backtrace.":
        "在 cudatui 中，`set cuda api_failures stop` 会停在返回错误的 CUDA API 调用处，并给出它的主机端 backtrace。",
    "In cudatui, set a breakpoint on the reported line and compare warps in the warps pane: they reach it at different times.":
        "在 cudatui 中，在报告的行上设置断点，并在 warps 窗格中比较各个 warp：它们到达这里的时间不同。",
    "initcheck reports global memory only; shared memory is not checked":
        "initcheck 只报告全局内存；共享内存不会被检查",
    "initcheck reports the exact kernel line and thread; trust it.":
        "initcheck 报告确切的 kernel 行和线程；相信它。",
    "Initialise the buffer (torch.zeros, cudaMemset, a copy) or fix the index that reads past the written part.":
        "初始化缓冲区（torch.zeros、cudaMemset、一次拷贝），或者修正读到已写部分之外的索引。",
    "inside box3x3: the window read from the tile":
        "在 box3x3 内部：从 tile 读取的窗口",
    "inside the even branch: odd lanes are masked off":
        "在偶数分支内部：奇数 lane 被屏蔽",
    "inside the odd branch":
        "在奇数分支内部",
    "Inspect the faulting thread's locals and source line; memcheck narrows memory errors down.":
        "检查出错线程的局部变量和源码行；memcheck 可以缩小内存错误的范围。",
    "install a CUDA toolkit that supports this GPU":
        "安装支持这块 GPU 的 CUDA toolkit",
    "Install a PyTorch wheel built for this GPU (a newer CUDA variant from pytorch.org), or rebuild your extension with -gencode arch=compute_XY,code=sm_XY (TORCH_CUDA_ARCH_LIST for torch extensions).":
        "安装为这块 GPU 构建的 PyTorch wheel（pytorch.org 上更新的 CUDA 版本），或者用 -gencode arch=compute_XY,code=sm_XY 重新构建你的扩展（torch 扩展使用 TORCH_CUDA_ARCH_LIST）。",
    "install a PyTorch wheel built for this GPU and driver, e.g. pip install torch --index-url https://download.pytorch.org/whl/cu130 (pick the cuXYZ your driver supports)":
        "安装为这块 GPU 和驱动构建的 PyTorch wheel，例如 pip install torch --index-url https://download.pytorch.org/whl/cu130（选择你的驱动支持的 cuXYZ）",
    "install the CUDA toolkit and put its bin/ on PATH":
        "安装 CUDA toolkit 并把它的 bin/ 加入 PATH",
    "install the CUDA toolkit and put its bin/ on PATH (e.g. /usr/local/cuda/bin)":
        "安装 CUDA toolkit 并把它的 bin/ 加入 PATH（例如 /usr/local/cuda/bin）",
    "install the NVIDIA driver (in a container: run it with --gpus all)":
        "安装 NVIDIA 驱动（在容器中：用 --gpus all 运行）",
    "Interrupt":
        "中断",
    "Interrupt it under cudatui (Ctrl-C) and look at the warps pane: which warps spin, and where?":
        "在 cudatui 下中断它（Ctrl-C），查看 warps 窗格：哪些 warp 在空转，停在哪里？",
    "Interrupt the running program":
        "中断正在运行的程序",
    "Invalid argument to a CUDA call":
        "CUDA 调用的参数无效",
    "Isolate cuDNN: run once with torch.backends.cudnn.enabled = False. If the error turns into a CUDA error (illegal address, out of memory), the cause is elsewhere; if it goes away, it is this layer's configuration in cuDNN.":
        "隔离 cuDNN：用 torch.backends.cudnn.enabled = False 运行一次。如果错误变成了 CUDA 错误（非法地址、内存不足），原因在别处；如果错误消失，就是这一层在 cuDNN 中的配置问题。",
    "it ships with the NVIDIA driver: install the full driver (e.g. libnvidia-compute-<ver>); in a container let the runtime mount the driver's compute libraries (NVIDIA_DRIVER_CAPABILITIES=compute,utility)":
        "它随 NVIDIA 驱动一起提供：安装完整的驱动（例如 libnvidia-compute-<ver>）；在容器中让运行时挂载驱动的计算库（NVIDIA_DRIVER_CAPABILITIES=compute,utility）",
    "Keep blocks at 1024 threads or fewer, and fold a y or z grid over 65535 into x or a loop inside the kernel.":
        "让每个 block 不超过 1024 个线程，并把超过 65535 的 y 或 z 维 grid 折叠到 x 维或 kernel 内部的循环中。",
    "Kernel":
        "Kernel",
    "Kernel launch configuration rejected":
        "kernel launch 配置被拒绝",
    "Kernel launch needs more registers than a block can have":
        "kernel launch 需要的寄存器超过一个 block 能拥有的数量",
    "Kernel launches are asynchronous: the launch returns at once and a failure inside the kernel is only noticed by a later CUDA call (a copy, .item(), .cpu(), a synchronize, the next launch). The traceback shows that later call, not the kernel that failed, and every CUDA call after the failure reports the same error.":
        "kernel launch 是异步的：launch 立即返回，kernel 内部的失败要到后面的某个 CUDA 调用（一次拷贝、.item()、.cpu()、一次同步、下一次 launch）才会被发现。traceback 显示的是这个后来的调用，而不是失败的 kernel，并且失败之后的每个 CUDA 调用都报告同样的错误。",
    "Kernel ran too long and was killed":
        "kernel 运行时间过长被终止",
    "Lane +":
        "Lane +",
    "Lane -":
        "Lane -",
    "Last error":
        "最后的错误",
    "Launch smaller blocks (256 threads instead of 1024) and compute the grid from that block size.":
        "launch 更小的 block（256 个线程而不是 1024），并根据这个 block 大小计算 grid。",
    "Leave":
        "离开",
    "Left":
        "向左",
    "lesson":
        "课程",
    "Lesson `{lesson}` walks through this bug on a bundled kernel.":
        "课程 `{lesson}` 用一个内置 kernel 逐步讲解这个缺陷。",
    "Lesson guide: {name} (h or escape: back to the debugger; tab: next section)":
        "课程指南：{name}（h 或 escape：回到调试器；tab：下一节）",
    "Lesson's sanitizer":
        "本课的 sanitizer",
    "Lesson: {lesson}":
        "课程：{lesson}",
    "Lessons":
        "课程",
    "Live debugging: NOT ready, missing: ":
        "实时调试：未就绪，缺少：",
    "Live debugging: ready":
        "实时调试：就绪",
    "live only":
        "仅实时",
    "live only: only the buggy run of the bundled kernel is recorded (cudatui demo {lesson} {flag} on a machine with cuda-gdb and a GPU)":
        "仅实时：只录制了内置 kernel 的有缺陷运行（在有 cuda-gdb 和 GPU 的机器上运行 cudatui demo {lesson} {flag}）",
    "load it (sudo modprobe nvidia) or reboot":
        "加载它（sudo modprobe nvidia）或重启",
    "Locals":
        "局部变量",
    "Locals: column == num_classes, one past the last column":
        "局部变量：column == num_classes，比最后一列多一",
    "Locals: idx against n (the arrays hold n = 1000 floats)":
        "局部变量：比较 idx 和 n（数组有 n = 1000 个 float）",
    "Locals: s and tid, which slot each thread reads":
        "局部变量：s 和 tid，每个线程读取哪个位置",
    "Log/details":
        "日志/详情",
    "Look at":
        "查看",
    "Look at the GPU memory pane (or `nvidia-smi`): who holds the memory?":
        "查看 GPU 内存窗格（或 `nvidia-smi`）：谁占用了内存？",
    "Make all ranks call the same collectives in the same order with the same sizes: none in code only some ranks run (rank-0 evaluation, logging, saving), the same number of batches everywhere (DistributedSampler(drop_last=True)). TORCH_DISTRIBUTED_DEBUG=DETAIL checks that the ranks' collectives match.":
        "让所有 rank 以相同的顺序、相同的大小调用相同的集合通信：不要放在只有部分 rank 运行的代码中（rank 0 的评估、日志、保存），并让每个 rank 的 batch 数相同（DistributedSampler(drop_last=True)）。TORCH_DISTRIBUTED_DEBUG=DETAIL 会检查各 rank 的集合通信是否一致。",
    "memcheck":
        "memcheck",
    "MI log":
        "MI 日志",
    "Misaligned memory access in a kernel":
        "kernel 中的未对齐内存访问",
    "Move the odd tensor with .to(device), taking the device from the model (next(model.parameters()).device) or from another input (x.device); create new tensors with device=x.device instead of on the CPU.":
        "用 .to(device) 移动那个位置不对的张量，设备取自模型（next(model.parameters()).device）或另一个输入（x.device）；新建张量时使用 device=x.device，而不是建在 CPU 上。",
    "n (next) from the branch and watch the active mask change in Warps":
        "从分支处按 n（next），在 Warps 中观察活跃掩码的变化",
    "NCCL":
        "NCCL",
    "NCCL connects the ranks at their first collective, so set-up failures surface there (or at init_process_group), not where the cause is. Each rank reports its own error; the first one in time is usually the cause.":
        "NCCL 在第一次集合通信时连接各个 rank，所以初始化失败会在那里（或 init_process_group 处）暴露出来，而不是在原因所在之处。每个 rank 报告自己的错误；时间上最早的那个通常就是原因。",
    "NCCL failed":
        "NCCL 失败",
    "NCCL, the library behind torch.distributed's GPU collectives, returned an error. A system error is the OS or the network (a socket that cannot connect, the wrong interface, too little /dev/shm in a container), a CUDA error a CUDA call inside NCCL (out of memory, or a GPU broken by an earlier kernel fault), invalid usage a set-up mistake such as two ranks on one GPU, an internal error a bug or corrupted memory. The line after 'Last error:' (or a NCCL WARN line) names the failing call.":
        "NCCL（torch.distributed 的 GPU 集合通信所用的库）返回了错误。system error 来自操作系统或网络（无法连接的 socket、错误的网卡、容器中 /dev/shm 太小），CUDA error 来自 NCCL 内部的 CUDA 调用（内存不足，或 GPU 已被更早的 kernel 故障破坏），invalid usage 是配置错误（例如两个 rank 用同一块 GPU），internal error 是 bug 或内存被破坏。'Last error:' 之后的那一行（或 NCCL WARN 行）给出了失败的调用。",
    "Next":
        "下一行",
    "Next block at the breakpoint":
        "断点处的下一个 block",
    "Next file":
        "下一个文件",
    "Next GPU":
        "下一块 GPU",
    "Next match":
        "下一个匹配",
    "Next pane":
        "下一个窗格",
    "Next section":
        "下一节",
    "Next steps":
        "下一步",
    "Next steps:":
        "下一步：",
    "Next: step over a line":
        "下一行：单步越过一行",
    "No kernel image for this GPU":
        "没有适用于这块 GPU 的 kernel 镜像",
    "no known CUDA error in the input":
        "输入中没有已知的 CUDA 错误",
    "no sanitizer tool reports divergence: it is a performance issue":
        "没有 sanitizer 工具会报告分歧：这是性能问题",
    "NVIDIA driver too old for this CUDA runtime":
        "NVIDIA 驱动对这个 CUDA 运行时来说太旧",
    "On/off":
        "开/关",
    "One block of this kernel needs more registers than the GPU gives a block: the registers per thread, fixed when the kernel was compiled, times the threads per block exceed the multiprocessor's register file (65536 32-bit registers on current GPUs). It fails the same way on every run until the kernel uses fewer registers or the blocks get smaller. (Rarely the kernel's arguments are the cause: too many bytes of them.)":
        "这个 kernel 的一个 block 需要的寄存器超过 GPU 能给一个 block 的数量：每线程寄存器数（编译时确定）乘以每 block 线程数超过了多处理器的寄存器文件（当前 GPU 上为 65536 个 32 位寄存器）。在 kernel 使用更少寄存器或 block 变小之前，每次运行都会这样失败。（少数情况下原因是 kernel 的参数：参数字节数太多。）",
    "One operation got tensors on two devices (the GPU and the CPU, or two GPUs), and PyTorch does not move them for you. Usually the model was moved with .to(device) and its input was not, or the reverse; or a tensor made inside forward() lands on the CPU; or a module keeps a tensor that .to() does not move (a plain attribute, not a registered buffer).":
        "一个操作拿到了位于两个设备上的张量（GPU 和 CPU，或两块 GPU），而 PyTorch 不会替你移动它们。通常是模型用 .to(device) 移动了而输入没有，或者反过来；或者 forward() 中新建的张量落在了 CPU 上；或者某个模块保存了 .to() 不会移动的张量（普通属性，而不是注册的 buffer）。",
    "Open":
        "打开",
    "Open a struct, array or pointer":
        "展开结构体、数组或指针",
    "Open file":
        "打开文件",
    "Open the full-screen guide":
        "打开全屏指南",
    "Or make the compiler fit the block: `__launch_bounds__(1024)` on the kernel (it spills registers to local memory if it must), or `-maxrregcount=N` for the whole file.":
        "或者让编译器适配这个 block：在 kernel 上加 `__launch_bounds__(1024)`（必要时它会把寄存器溢出到局部内存），或者对整个文件使用 `-maxrregcount=N`。",
    "other architectures":
        "其他架构",
    "Output":
        "输出",
    "Page +":
        "下一页",
    "Page -":
        "上一页",
    "Page down":
        "向下翻页",
    "Page up":
        "向上翻页",
    "Pane narrower":
        "窗格变窄",
    "Pane shorter":
        "窗格变矮",
    "Pane taller":
        "窗格变高",
    "Pane wider":
        "窗格变宽",
    "Paste the full error text, including the line starting with 'CUDA error:' or 'RuntimeError:'.":
        "粘贴完整的错误文本，包括以 'CUDA error:' 或 'RuntimeError:' 开头的那一行。",
    "pip install nvidia-ml-py":
        "pip install nvidia-ml-py",
    "pip install torch (CUDA build) to debug PyTorch programs":
        "pip install torch（CUDA 版本）以调试 PyTorch 程序",
    "Post-mortem":
        "事后分析",
    "Prev GPU":
        "上一块 GPU",
    "Previous":
        "上一个",
    "Previous file":
        "上一个文件",
    "Previous match":
        "上一个匹配",
    "Previous pane":
        "上一个窗格",
    "Previous section":
        "上一节",
    "Print the grid, block and dynamic shared-memory size just before the launch.":
        "在 launch 之前打印 grid、block 和动态共享内存大小。",
    "Print torch.cuda.memory_summary() just before the failing line: its 'Non-releasable memory' row is the fragmented part. Fewer distinct tensor sizes (pad or bucket variable-length batches), a smaller batch, or dropping long-lived tensors earlier avoids it.":
        "在失败的那一行之前打印 torch.cuda.memory_summary()：其中 'Non-releasable memory' 一行就是碎片部分。减少不同的张量大小（对变长 batch 做填充或分桶）、减小 batch，或者更早释放长期存活的张量，都可以避免它。",
    "Put a __syncthreads() between the write and the read of the shared data (in every loop iteration that reuses it).":
        "在共享数据的写和读之间放一个 __syncthreads()（在每次重用它的循环迭代中都要放）。",
    "PyTorch adds this note to every CUDA error: some earlier kernel failed and this is the first call that noticed. The error name on the line before it says what happened.":
        "PyTorch 会给每个 CUDA 错误加上这条说明：更早的某个 kernel 失败了，而这是第一个发现的调用。它前一行的错误名称说明了发生了什么。",
    "PyTorch built for one CUDA, another one found":
        "PyTorch 为某个 CUDA 版本构建，却找到了另一个版本",
    "PyTorch checks the devices before it launches anything, so the operation named in the message raises this at once: the last line of your code in the traceback is the call.":
        "PyTorch 在 launch 任何东西之前就会检查设备，所以消息中提到的操作会立即抛出这个错误：traceback 中你自己代码的最后一行就是这次调用。",
    "PyTorch's caching allocator keeps freed GPU memory for reuse. Here it held more free memory than the request, but in pieces too small for it, and the GPU had no room for a new block. Before raising, PyTorch already gave its wholly unused cached blocks back to the driver and retried.":
        "PyTorch 的缓存分配器会保留已释放的 GPU 内存以便重用。这里它持有的空闲内存比请求的多，但都是放不下这次请求的小块，而 GPU 上也没有空间再分配新块。在报错之前，PyTorch 已经把完全未使用的缓存块还给驱动并重试过了。",
    "Quit":
        "退出",
    "racecheck reports the two source lines involved; trust them.":
        "racecheck 报告涉及的两行源码；相信它们。",
    "Ranks":
        "Rank 数",
    "Re-run with CUDA_LAUNCH_BLOCKING=1":
        "以 CUDA_LAUNCH_BLOCKING=1 重新运行",
    "Re-run with CUDA_LAUNCH_BLOCKING=1 python {script} (in cudatui: `set cuda launch_blocking on`): each launch then waits for its kernel, so the error is raised at the launch that failed.":
        "用 CUDA_LAUNCH_BLOCKING=1 python {script} 重新运行（在 cudatui 中：`set cuda launch_blocking on`）：这样每次 launch 都会等待它的 kernel，错误就会在失败的那次 launch 处抛出。",
    "Re-run with CUDA_LAUNCH_BLOCKING=1 so the error is raised at the failing call.":
        "用 CUDA_LAUNCH_BLOCKING=1 重新运行，让错误在失败的调用处抛出。",
    "Re-run with launch blocking":
        "以 launch blocking 重新运行",
    "Re-run with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET or COLL to narrow it): each rank logs its set-up and the call that failed, with host, GPU and network interface.":
        "用 NCCL_DEBUG=INFO 重新运行（用 NCCL_DEBUG_SUBSYS=INIT,NET 或 COLL 缩小范围）：每个 rank 都会记录它的初始化过程和失败的调用，以及主机、GPU 和网卡。",
    "Read every rank's output, not only rank 0's, for the first error in time: a rank that crashed or sits at a breakpoint leaves the others waiting until this timeout.":
        "阅读每个 rank 的输出（不只是 rank 0 的），找出时间上最早的错误：一个崩溃了或停在断点上的 rank 会让其他 rank 一直等到超时。",
    "Read of uninitialised device memory":
        "读取未初始化的设备内存",
    "Read the assert's condition and the values it tests in the locals; `continue` lets the program go on (the kernel launch still reports an error).":
        "阅读 assert 的条件以及局部变量中它所检查的值；`continue` 让程序继续运行（这次 kernel launch 仍会报告错误）。",
    "Read the kernel's registers per thread: `cuobjdump --dump-resource-usage` on the binary or the extension's .so (REG:), or build with `nvcc -Xptxas -v` (extra_cuda_cflags=['-Xptxas', '-v'] for a torch extension). REG times the block size must stay within 65536.":
        "查看 kernel 的每线程寄存器数：对二进制文件或扩展的 .so 运行 `cuobjdump --dump-resource-usage`（看 REG:），或者用 `nvcc -Xptxas -v` 构建（torch 扩展用 extra_cuda_cflags=['-Xptxas', '-v']）。REG 乘以 block 大小必须不超过 65536。",
    "recorded":
        "已录制",
    "Recorded path: ":
        "录制路径：",
    "recoverable: ":
        "可恢复：",
    "Reduce the batch size (or use gradient accumulation), free tensors you keep in lists, and wrap inference in torch.no_grad().":
        "减小 batch 大小（或使用梯度累积），释放你保存在列表中的张量，并把推理放在 torch.no_grad() 中。",
    "Reduce the batch size / model size, free tensors you keep alive, or call torch.cuda.empty_cache() before the first matmul.":
        "减小 batch 大小 / 模型大小，释放你一直持有的张量，或者在第一次 matmul 之前调用 torch.cuda.empty_cache()。",
    "Regs":
        "寄存器",
    "reinstall the CUDA toolkit":
        "重新安装 CUDA toolkit",
    "replay":
        "回放",
    "Requested":
        "请求大小",
    "Right":
        "向右",
    "Run":
        "运行",
    "Run (restart the program, or a replay from its start)":
        "运行（重新启动程序，或从头回放）",
    "Run `cudatui doctor` to check the driver, the GPU and the debugging tools.":
        "运行 `cudatui doctor` 检查驱动、GPU 和调试工具。",
    "Run `cudatui doctor`: it compares the driver, PyTorch's CUDA build and the GPUs.":
        "运行 `cudatui doctor`：它会比较驱动、PyTorch 的 CUDA 构建和 GPU。",
    "Run `cudatui sanitize --tool memcheck --leak-check full {script}` to find device allocations that are never freed.":
        "运行 `cudatui sanitize --tool memcheck --leak-check full {script}`，找出从未释放的设备内存分配。",
    "Run `cudatui sanitize --tool memcheck script.py` to check every kernel's memory accesses.":
        "运行 `cudatui sanitize --tool memcheck script.py` 检查每个 kernel 的内存访问。",
    "Run `cudatui sanitize --tool synccheck {script}` for barriers in divergent code.":
        "运行 `cudatui sanitize --tool synccheck {script}` 检查分歧代码中的屏障。",
    "Run `cudatui sanitize --tool {tool} {script}`: it names the kernel, the source line, the block and thread, and the Python line that launched it.":
        "运行 `cudatui sanitize --tool {tool} {script}`：它会给出 kernel、源码行、block 和 thread，以及 launch 它的 Python 代码行。",
    "run `nvidia-smi` to check":
        "运行 `nvidia-smi` 检查",
    "run `nvidia-smi` to see the problem":
        "运行 `nvidia-smi` 查看问题",
    "Run it under the debugger (`cudatui {script}`): cuda-gdb stops on the faulting warp with the focus on the failing block and thread, so you can read its variables.":
        "在调试器下运行它（`cudatui {script}`）：cuda-gdb 会停在出错的 warp 上，焦点位于失败的 block 和 thread，你可以读取它的变量。",
    "Run memcheck to find the exact thread and access; the faulting thread is not precise here.":
        "运行 memcheck 找到确切的线程和访问；这里出错的线程并不精确。",
    "run python -m cudatui.kernels.build {lesson} to see nvcc's output":
        "运行 python -m cudatui.kernels.build {lesson} 查看 nvcc 的输出",
    "Run the lesson's sanitizer tool (Sanitize pane)":
        "运行本课的 sanitizer 工具（Sanitize 窗格）",
    "Run {tool}":
        "运行 {tool}",
    "S runs initcheck (Sanitize pane): every read of an unwritten slot names sum_all's line":
        "S 运行 initcheck（Sanitize 窗格）：每次读取未写入的位置都会指出 sum_all 中的那一行",
    "S runs memcheck (Sanitize pane): the first invalid read names the kernel line and the thread":
        "S 运行 memcheck（Sanitize 窗格）：第一次无效读取会给出 kernel 行和线程",
    "S runs memcheck --leak-check full (Sanitize pane): one leaked block per call":
        "S 运行 memcheck --leak-check full（Sanitize 窗格）：每次调用泄漏一块",
    "S runs racecheck (Sanitize pane): it reports the read and the write on the same line":
        "S 运行 racecheck（Sanitize 窗格）：它报告同一行上的读和写",
    "S runs racecheck (Sanitize pane): the store in load_tile races with the read in box3x3":
        "S 运行 racecheck（Sanitize 窗格）：load_tile 中的写与 box3x3 中的读发生竞争",
    "Sanitize":
        "Sanitize",
    "Sanitize, the leak report's host frame: the cudaMalloc line in the launcher":
        "Sanitize，泄漏报告的主机帧：launcher 中的 cudaMalloc 行",
    "Sanitizer tool: {tool}":
        "sanitizer 工具：{tool}",
    "SASS":
        "SASS",
    "SASS, at the exception: !> marks the load that faulted (errorpc), => the pc":
        "SASS，在异常处：!> 标出出错的加载指令（errorpc），=> 标出 pc",
    "Scroll down":
        "向下滚动",
    "Scroll up":
        "向上滚动",
    "Search":
        "搜索",
    "Set a breakpoint on the reported line with the reported thread's condition and inspect the index.":
        "在报告的行上设置断点，条件设为报告的线程，然后检查索引。",
    "set kernel.yama.ptrace_scope=1 in /etc/sysctl.d and reboot":
        "在 /etc/sysctl.d 中设置 kernel.yama.ptrace_scope=1 并重启",
    "Set torch.backends.cudnn.benchmark = False: benchmark mode tries every algorithm, some with large workspaces, and may keep one that fails on this input.":
        "设置 torch.backends.cudnn.benchmark = False：benchmark 模式会尝试每一种算法（有些需要很大的 workspace），并可能选中一个在这个输入上失败的算法。",
    "Shared":
        "共享内存",
    "Shared-memory data race":
        "共享内存数据竞争",
    "Shared-memory tree reduction missing a barrier: data race":
        "共享内存树形归约缺少屏障：数据竞争",
    "Shared: sdata before and after a step (n); t cycles the format":
        "共享内存：单步（n）前后的 sdata；t 切换格式",
    "Shared: tile as a 2-D grid (a, then tile[18][18] if it is not listed)":
        "共享内存：以二维网格查看 tile（如果没有列出，按 a，然后输入 tile[18][18]）",
    "Source":
        "源码",
    "Source, relu_buggy: which threads never store to y":
        "源码，relu_buggy：哪些线程从不写 y",
    "Source, the launcher below the kernel: a grid for 2^28 threads (a byte count used as a count), not n":
        "源码，kernel 下面的 launcher：grid 是为 2^28 个线程计算的（把字节数当成了个数），而不是 n",
    "Source, the launcher: the cudaMalloc without a matching cudaFree":
        "源码，launcher：没有对应 cudaFree 的 cudaMalloc",
    "Source, the loop body: no __syncthreads() between the steps":
        "源码，循环体：步骤之间没有 __syncthreads()",
    "Stack":
        "调用栈",
    "Stack, at the exception: frame 1 is the assert line in one_hot_buggy":
        "调用栈，在异常处：第 1 帧是 one_hot_buggy 中的 assert 行",
    "Stack: box3x3 called from blur_racy":
        "调用栈：box3x3 由 blur_racy 调用",
    "Stack: down to frame 1, enter (leaves __assert_fail); : print column may read stale there (an outer frame's register), : print labels[blockIdx.x * blockDim.x + threadIdx.x] reads the label from memory":
        "调用栈：向下到第 1 帧，回车（离开 __assert_fail）；那里 : print column 可能读到过时的值（外层帧的寄存器），: print labels[blockIdx.x * blockDim.x + threadIdx.x] 从内存读出标签",
    "Start the process with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: segments then grow and release memory in pages, so freed space serves other sizes. PyTorch 2.8+ also reads the newer name PYTORCH_ALLOC_CONF (both worked on 2.11; 2.9.1 ignored expandable_segments under the new name, pytorch/pytorch#183387). It cannot help when small live tensors are spread over all of the cache.":
        "用 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True 启动进程：这样 segment 会按页增长和释放内存，释放的空间可以服务其他大小的请求。PyTorch 2.8+ 也读取新的名字 PYTORCH_ALLOC_CONF（两者在 2.11 上都有效；2.9.1 在新名字下会忽略 expandable_segments，见 pytorch/pytorch#183387）。如果小的存活张量分散在整个缓存中，它也无能为力。",
    "Step":
        "单步进入",
    "Step into a call":
        "单步进入调用",
    "Stop at the failing thread: `break {breakpoint}` in cudatui, then run.":
        "停在出错的线程上：在 cudatui 中 `break {breakpoint}`，然后运行。",
    "Stop on API errors":
        "在 API 错误处停下",
    "sudo sysctl kernel.yama.ptrace_scope=1 (0 also allows attaching to a PID)":
        "sudo sysctl kernel.yama.ptrace_scope=1（设为 0 还允许附加到某个 PID）",
    "Symptom: ":
        "症状：",
    "System error: set NCCL_SOCKET_IFNAME to the interface the nodes reach each other on, check firewalls, and in containers give /dev/shm room (docker --ipc=host).":
        "system error：把 NCCL_SOCKET_IFNAME 设为节点之间互相连通的网卡，检查防火墙，在容器中给 /dev/shm 留出空间（docker --ipc=host）。",
    "Tensor":
        "张量",
    "Tensors on different devices":
        "张量位于不同的设备上",
    "The assert is inside PyTorch's own kernel ({source}, condition `{condition}`): an argument you passed is out of range - typically an index or label tensor with a value < 0 or >= the size of the dimension it indexes. Check it on the CPU just before the call.":
        "这个 assert 位于 PyTorch 自己的 kernel 中（{source}，条件 `{condition}`）：你传入的某个参数越界了——通常是索引或标签张量中有 < 0 或 >= 所索引维度大小的值。请在调用之前在 CPU 上检查它。",
    "The binary (PyTorch or your extension) holds no machine code for this GPU's compute capability and no PTX it could compile: it was built for other architectures.":
        "该二进制文件（PyTorch 或你的扩展）既没有这块 GPU 的计算能力对应的机器码，也没有可以编译的 PTX：它是为其他架构构建的。",
    "the CUDA context is lost and the program cannot continue; inspect it now.":
        "CUDA 上下文已丢失，程序无法继续；请现在检查它。",
    "The error comes from the watchdog thread, not from your code, and every waiting rank reports it. The rank that caused it is the one whose output says something else: an earlier exception, another collective (OpType, SeqNum), or no timeout.":
        "这个错误来自 watchdog 线程，而不是你的代码，每个在等待的 rank 都会报告它。引起它的 rank 是输出内容不同的那个：更早的异常、另一个集合通信（OpType、SeqNum），或者没有超时。",
    "the first thread whose label is the last class":
        "第一个标签是最后一个类别的线程",
    "The fix: ":
        "修复方法：",
    "the focus thread in the status bar: threadIdx.x even in one branch, odd in the other":
        "状态栏中的焦点线程：threadIdx.x 在一个分支中是偶数，在另一个中是奇数",
    "The full-screen lesson guide":
        "全屏课程指南",
    "the halo rows 0 and 17: loaded by threads other than the reader":
        "halo 行 0 和 17：由读取者以外的线程加载",
    "The hardware call stack overflowed (deep divergence with function calls).":
        "硬件调用栈溢出（带函数调用的深度分歧）。",
    "The host backtrace under each leak shows where it was allocated.":
        "每个泄漏下面的主机端 backtrace 显示了它是在哪里分配的。",
    "The host touched managed memory while the GPU was using it.":
        "主机在 GPU 使用 managed 内存时访问了它。",
    "The kernel exceeded the watchdog limit of a GPU that also drives a display, or it never finishes (an infinite loop, a __syncthreads() not reached by all threads).":
        "kernel 超过了同时驱动显示器的 GPU 的 watchdog 时限，或者它永远不会结束（无限循环，或者某个 __syncthreads() 没有被所有线程到达）。",
    "the kernel runs fine; the leak is on the host":
        "kernel 运行正常；泄漏在主机端",
    "The last line of your code in the traceback is {user_line}.":
        "traceback 中你自己代码的最后一行是 {user_line}。",
    "The launch is refused before anything runs, so the CUDA context stays usable. The error is raised where the launch is checked: at the launch itself when its code checks (PyTorch's kernels and C10_CUDA_KERNEL_LAUNCH_CHECK do), otherwise at the next call that checks, often the next PyTorch operation.":
        "launch 在任何东西运行之前就被拒绝了，所以 CUDA 上下文仍然可用。错误在检查 launch 的地方抛出：如果代码在 launch 处检查（PyTorch 的 kernel 和 C10_CUDA_KERNEL_LAUNCH_CHECK 会检查），就在 launch 处；否则在下一个做检查的调用处，通常是下一个 PyTorch 操作。",
    "The launch's grid or block is outside what CUDA accepts: more than 1024 threads per block, a grid dimension of 0 (an empty input makes (n + 255) / 256 zero), a grid y or z over 65535, or more shared memory than a block may use. Nothing ran. CUDA 13.0 reported the same mistakes as 'invalid argument'.":
        "launch 的 grid 或 block 超出了 CUDA 接受的范围：每个 block 超过 1024 个线程、grid 某一维为 0（空输入使 (n + 255) / 256 为零）、grid 的 y 或 z 维超过 65535，或者共享内存超过一个 block 可用的量。什么都没有运行。CUDA 13.0 把同样的错误报告为 'invalid argument'。",
    "The program's CUDA runtime (for PyTorch: torch.version.cuda) is newer than the newest CUDA version the installed driver supports.":
        "程序的 CUDA 运行时（对 PyTorch 来说：torch.version.cuda）比已安装驱动支持的最新 CUDA 版本还要新。",
    "the read of a slot nobody wrote":
        "读取了一个没有人写过的位置",
    "The whole value":
        "完整的值",
    "This error is returned by the call that caused it, so the traceback line is usually right; if it points at a kernel launch, re-run with launch blocking to be sure.":
        "这个错误由引起它的调用直接返回，所以 traceback 中的那一行通常是对的；如果它指向一次 kernel launch，请用 launch blocking 重新运行以确认。",
    "This GPU is {gpu_capability}; the build supports {supported_archs}.":
        "这块 GPU 是 {gpu_capability}；该构建支持 {supported_archs}。",
    "This is an installation problem, not a bug in a kernel: it appears at the first CUDA call (often CUDA initialisation or the first .cuda()), wherever that is.":
        "这是安装问题，不是 kernel 中的 bug：它出现在第一个 CUDA 调用处（通常是 CUDA 初始化或第一次 .cuda()），不管它在哪里。",
    "Thread":
        "Thread",
    "thread 0 has a negative input and writes nothing":
        "thread 0 的输入为负，什么也不写",
    "thread 0 of each block adds its partial sum":
        "每个 block 的 thread 0 累加它的部分和",
    "title / symptom":
        "标题 / 症状",
    "tool":
        "工具",
    "Top":
        "顶部",
    "torch.cuda.empty_cache() will not make this allocation fit: it only returns wholly unused cached blocks to the driver, which PyTorch already did; it helps other processes on the GPU.":
        "torch.cuda.empty_cache() 并不能让这次分配放得下：它只是把完全未使用的缓存块还给驱动，而 PyTorch 已经这样做过了；它只对这块 GPU 上的其他进程有帮助。",
    "TORCH_NCCL_BLOCKING_WAIT=1 makes the waiting call raise a Python traceback at your collective instead of the watchdog; TORCH_NCCL_ASYNC_ERROR_HANDLING sets what the watchdog does (0: nothing, the job hangs; 1: abort and exit).":
        "TORCH_NCCL_BLOCKING_WAIT=1 让等待的调用在你的集合通信处抛出 Python traceback，而不是由 watchdog 处理；TORCH_NCCL_ASYNC_ERROR_HANDLING 设置 watchdog 的行为（0：什么也不做，作业挂起；1：中止并退出）。",
    "Try next":
        "接下来试试",
    "Two CUDA versions are in play: PyTorch was compiled against one CUDA release while the toolkit (nvcc, CUDA_HOME) or the libraries found at run time belong to another.":
        "有两个 CUDA 版本在起作用：PyTorch 是针对某个 CUDA 版本编译的，而 toolkit（nvcc、CUDA_HOME）或运行时找到的库属于另一个版本。",
    "Two threads of a block accessed the same shared-memory location, at least one of them writing, with no __syncthreads() between them: the result depends on timing.":
        "一个 block 中的两个线程访问了同一个共享内存位置，其中至少一个在写，而它们之间没有 __syncthreads()：结果取决于执行时序。",
    "unset CUDA_VISIBLE_DEVICES":
        "unset CUDA_VISIBLE_DEVICES",
    "Unspecified launch failure":
        "未指明的 launch 失败",
    "Unwatch":
        "取消监视",
    "Up":
        "向上",
    "Up frame":
        "上一帧",
    "Upgrade the NVIDIA driver, or install a PyTorch/CUDA build no newer than what the driver supports.":
        "升级 NVIDIA 驱动，或者安装不比驱动所支持版本更新的 PyTorch/CUDA 构建。",
    "upgrade the NVIDIA driver, or {fix}":
        "升级 NVIDIA 驱动，或者{fix}",
    "use indexes from `nvidia-smi -L`":
        "使用 `nvidia-smi -L` 列出的编号",
    "w (Locals) watches labels[i]: the data set numbers its classes from 1":
        "w（局部变量）监视 labels[i]：数据集的类别从 1 开始编号",
    "w (Locals) watches x[i]: negative for the threads that skip the write":
        "w（局部变量）监视 x[i]：跳过写入的线程的值为负",
    "Warp watch":
        "Warp 监视",
    "Warps":
        "Warps",
    "Warps, left/right along the lanes: which lanes are active on each side":
        "Warps，用左右键沿着 lane 移动：每一侧有哪些 lane 处于活跃状态",
    "Warps: the active-lanes mask inside each branch":
        "Warps：每个分支内的活跃 lane 掩码",
    "Warps: the warps of one block are at different lines":
        "Warps：同一个 block 的各个 warp 停在不同的行",
    "Watch":
        "监视",
    "Watch the GPU memory pane while it runs to see where memory grows.":
        "运行时观察 GPU 内存窗格，看内存在哪里增长。",
    "What it means":
        "含义",
    "What it means:":
        "含义：",
    "Whole name":
        "完整名称",
    "Why the traceback may point at the wrong line:":
        "为什么 traceback 可能指向错误的行：",
    "Why the traceback may point elsewhere":
        "为什么 traceback 可能指向别处",
    "With nn.DataParallel, move the model to device_ids[0] (model.to('cuda:0')) before wrapping it; DataParallel moves the inputs itself. CUDA_VISIBLE_DEVICES renumbers the GPUs: cuda:0 is the first visible one.":
        "使用 nn.DataParallel 时，在包装之前把模型移到 device_ids[0]（model.to('cuda:0')）；DataParallel 会自己移动输入。CUDA_VISIBLE_DEVICES 会给 GPU 重新编号：cuda:0 是第一个可见的 GPU。",
    "Workspace cudaMalloc never freed: device memory leak":
        "workspace 的 cudaMalloc 从未释放：设备内存泄漏",
    "write every output slot: y[i] = x[i] > 0 ? x[i] : 0":
        "写入每个输出位置：y[i] = x[i] > 0 ? x[i] : 0",
    "Your line":
        "你的代码行",
    "Zeros":
        "零值",
    "Zoom pane":
        "放大窗格",
    "{hint}; compute-sanitizer is part of the toolkit":
        "{hint}；compute-sanitizer 是 toolkit 的一部分",
    "{hint}; cuda-gdb is part of the toolkit":
        "{hint}；cuda-gdb 是 toolkit 的一部分",
    "Lesson picker":
        "课程选择",
    "Move between lessons":
        "在课程之间移动",
    "A page up or down, the first or last lesson":
        "上一页或下一页，第一个或最后一个课程",
}
