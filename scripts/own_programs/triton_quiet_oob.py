"""A Triton kernel that stores 12 KB past its 16 KB output (no mask): the writes land in memory
PyTorch's caching allocator has mapped, so nothing faults and the program exits 0 (memcheck sees it)."""
import torch
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs + 3072, x * 2)


x = torch.ones(4096, device="cuda")
out = torch.empty_like(x)
scale[(4,)](x, out, x.numel(), BLOCK=1024)
torch.cuda.synchronize()
print("done", out[:4].tolist())
