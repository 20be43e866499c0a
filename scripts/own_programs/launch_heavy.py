"""A long job in miniature: 20,000 small PyTorch launches, then an index out of range in PyTorch's
own kernel (DESIGN.md: under cuda-gdb each launch costs about 8x)."""
import time

import torch

x = torch.arange(1000, device="cuda", dtype=torch.float32)
y = torch.zeros(1000, device="cuda")
torch.cuda.synchronize()
started = time.perf_counter()
for _ in range(20000):
    y.add_(x)
torch.cuda.synchronize()
print(f"loop {time.perf_counter() - started:.3f} s", flush=True)
idx = torch.tensor([3, 7, 1500, 9], device="cuda")
z = x[idx]
print("sum", z.sum().item())
