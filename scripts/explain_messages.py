"""Real error texts for `cudatui explain`, made on the GPU box (PyTorch 2.x, one GPU).

``python3 scripts/explain_messages.py [LABEL...]`` (all runs without labels) writes
``$OUT/messages.txt``: one ``==== LABEL`` block per run with what its script printed (a launch over
the register file, bad launch configurations, OOMs from a fragmented cache with and without
expandable segments, tensors on two devices, two NCCL ranks on one GPU), and ``$OUT/build.txt``:
the extension's ptxas and cuobjdump resource usage, and the versions.
tests/fixtures/explain/more/SOURCES.md says which fixture came from which block.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

OUT = Path(os.environ.get("OUT", "/tmp/out"))
WORK = Path("/tmp/explain")
EXT_DIR = WORK / "ext"

KERNELS = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>

__global__ void fill(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 1.0f;
}

// 128 values in a chain, used in another order: they all stay in registers.
#define HEAVY_BODY                                                        \
    float r[128];                                                         \
    r[0] = in[threadIdx.x % n];                                           \
    _Pragma("unroll") for (int k = 1; k < 128; ++k)                       \
        r[k] = r[k - 1] * in[(threadIdx.x * 131 + k * 7) % n] + 1.0f;     \
    float s = 0.0f;                                                       \
    _Pragma("unroll") for (int a = 0; a < 128; ++a)                       \
        s += r[a] * r[127 - a] * r[(a * 5) % 128];                        \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (i < n) out[i] = s;

__global__ void heavy(float *out, const float *in, int n) { HEAVY_BODY }
__global__ void __launch_bounds__(1024) heavy_bounded(float *out, const float *in, int n) { HEAVY_BODY }

void launch_fill(torch::Tensor x, int64_t threads, int64_t shared) {
    int n = x.numel();
    int blocks = (n + threads - 1) / threads;
    fill<<<blocks, threads, shared>>>(x.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void launch_heavy(torch::Tensor out, torch::Tensor in, int64_t threads, bool bounded) {
    int n = in.numel();
    int blocks = (n + threads - 1) / threads;
    if (bounded)
        heavy_bounded<<<blocks, threads>>>(out.data_ptr<float>(), in.data_ptr<float>(), n);
    else
        heavy<<<blocks, threads>>>(out.data_ptr<float>(), in.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}
"""

PROLOGUE = f"""import os, sys, torch
from torch.utils.cpp_extension import load_inline
def kernels():
    return load_inline("launchcfg", "void launch_fill(torch::Tensor x, int64_t threads, int64_t shared);"
                       "void launch_heavy(torch::Tensor out, torch::Tensor in, int64_t threads, bool bounded);",
                       cuda_sources=open({str(WORK / "kernels.cu")!r}).read(),
                       functions=["launch_fill", "launch_heavy"], build_directory={str(EXT_DIR)!r},
                       extra_cuda_cflags=["-Xptxas", "-v"], verbose=bool(os.environ.get("VERBOSE")))
"""

SCENARIOS: dict[str, str] = {
    "build": "kernels()\nprint('built')\n",
    "out_of_resources": """ext = kernels()
x = torch.randn(1 << 20, device="cuda")
out = torch.empty_like(x)
ext.launch_heavy(out, x, 256, False)
torch.cuda.synchronize()
print("256 threads: ok", file=sys.stderr)
ext.launch_heavy(out, x, 1024, True)
torch.cuda.synchronize()
print("1024 threads with __launch_bounds__(1024): ok", file=sys.stderr)
ext.launch_heavy(out, x, 1024, False)
""",
    "block_too_big": """ext = kernels()
x = torch.zeros(4096, device="cuda")
ext.launch_fill(x, 2048, 0)
""",
    "empty_grid": """ext = kernels()
boxes = torch.zeros(0, device="cuda")
ext.launch_fill(boxes, 256, 0)
""",
    "shared_too_big": """ext = kernels()
x = torch.zeros(4096, device="cuda")
ext.launch_fill(x, 256, 100 * 1024)
""",
    "oom_fragmented": """import gc
small = []
try:
    while True:
        small.append(torch.empty(5 << 18, device="cuda"))  # 5 MiB each, four to a 20 MiB segment
except torch.OutOfMemoryError:
    pass
keep = small[::4]
del small
gc.collect()
torch.cuda.empty_cache()
try:
    big = torch.empty(2 << 28, device="cuda")  # 2 GiB
    print("2 GiB after empty_cache: ok", file=sys.stderr)
except torch.OutOfMemoryError as exc:
    print("2 GiB after empty_cache: still OOM", file=sys.stderr)
print(torch.cuda.memory_summary(abbreviated=True), file=sys.stderr)
big = torch.empty(2 << 28, device="cuda")
print("2 GiB: ok", file=sys.stderr)
""",
    "oom_split": """import gc
big = []
try:
    while True:
        big.append(torch.empty(1 << 28, device="cuda"))  # 1 GiB each, one segment each
except torch.OutOfMemoryError:
    pass
count = len(big)
del big
gc.collect()
smaller = [torch.empty(600 << 18, device="cuda") for _ in range(count)]  # each splits a 1 GiB block
print(f"{count} x 600 MiB in {count} x 1 GiB blocks", file=sys.stderr)
batch = torch.empty(2 << 28, device="cuda")  # 2 GiB
print("2 GiB: ok", file=sys.stderr)
""",
    "device_mm": """a = torch.randn(4, 4, device="cuda")
b = torch.randn(4, 4)
c = a @ b
""",
    "device_linear": """model = torch.nn.Linear(16, 4).cuda()
batch = torch.randn(8, 16)
print(model(batch))
""",
    "device_embedding": """emb = torch.nn.Embedding(100, 8)
ids = torch.tensor([1, 2, 3], device="cuda")
print(emb(ids))
""",
    "device_conv": """conv = torch.nn.Conv2d(3, 8, 3).cuda()
image = torch.randn(1, 3, 32, 32)
print(conv(image))
""",
    "device_data_parallel": """model = torch.nn.DataParallel(torch.nn.Linear(16, 4))
batch = torch.randn(8, 16, device="cuda")
print(model(batch))
""",
    "nccl_same_gpu": """import torch.distributed as dist
dist.init_process_group("nccl")
torch.cuda.set_device(0)
x = torch.ones(4, device="cuda:0")
dist.all_reduce(x)
print(x)
""",
}

RUNS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("build", "build", {"VERBOSE": "1"}),
    ("out_of_resources", "out_of_resources", {}),
    ("block_too_big", "block_too_big", {}),
    ("empty_grid", "empty_grid", {}),
    ("shared_too_big", "shared_too_big", {}),
    ("oom_fragmented", "oom_fragmented", {}),
    ("oom_expandable_old_name", "oom_fragmented", {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}),
    ("oom_expandable_new_name", "oom_fragmented", {"PYTORCH_ALLOC_CONF": "expandable_segments:True"}),
    ("oom_split", "oom_split", {}),
    ("oom_split_expandable_old_name", "oom_split", {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}),
    ("oom_split_expandable_new_name", "oom_split", {"PYTORCH_ALLOC_CONF": "expandable_segments:True"}),
    ("device_mm", "device_mm", {}),
    ("device_linear", "device_linear", {}),
    ("device_embedding", "device_embedding", {}),
    ("device_conv", "device_conv", {}),
    ("device_data_parallel", "device_data_parallel", {}),
    ("nccl_same_gpu", "nccl_same_gpu", {"TORCHRUN": "1"}),
    ("nccl_same_gpu_warn", "nccl_same_gpu", {"TORCHRUN": "1", "NCCL_DEBUG": "WARN"}),
)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    WORK.mkdir(parents=True, exist_ok=True)
    EXT_DIR.mkdir(parents=True, exist_ok=True)
    (WORK / "kernels.cu").write_text(KERNELS)
    for name, body in SCENARIOS.items():
        (WORK / f"{name}.py").write_text(PROLOGUE + body)
    wanted = set(sys.argv[1:])
    blocks = []
    for label, script, env in RUNS:
        if wanted and label not in wanted:
            continue
        path = str(WORK / f"{script}.py")
        argv = [sys.executable, path]
        if env.get("TORCHRUN"):
            argv = [shutil.which("torchrun") or "torchrun", "--nproc-per-node", "2", path]
        try:
            done = subprocess.run(argv, cwd=WORK, capture_output=True, text=True, timeout=240,
                                  env={**os.environ, **env})
            text = f"rc={done.returncode}\n--- stdout\n{done.stdout[-6000:]}\n--- stderr\n{done.stderr[-20000:]}"
        except subprocess.TimeoutExpired as exc:
            text = f"timed out after {exc.timeout} s"
        blocks.append(f"==== {label} {env}\n{text}\n")
        (OUT / "messages.txt").write_text("".join(blocks))
    so = next(EXT_DIR.glob("*.so"), None)
    usage = subprocess.run(["cuobjdump", "--dump-resource-usage", str(so)], capture_output=True,
                           text=True) if so else None
    versions = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__, torch.version.cuda, "
                               "torch.backends.cudnn.version(), torch.cuda.nccl.version(), "
                               "torch.cuda.get_device_name())"], capture_output=True, text=True)
    build = next((block for block in blocks if block.startswith("==== build ")), "no build run\n")
    (OUT / "build.txt").write_text(f"{build}\n==== cuobjdump --dump-resource-usage\n"
                                   f"{usage.stdout + usage.stderr if usage else 'no .so'}\n"
                                   f"==== versions\n{versions.stdout}{versions.stderr}")


if __name__ == "__main__":
    main()
