"""A PyTorch program nobody wrote for cudatui: an index out of range in PyTorch's own kernel."""
import torch

x = torch.arange(1000, device="cuda", dtype=torch.float32)
idx = torch.tensor([3, 7, 1500, 9], device="cuda")
y = x[idx]
print("sum", y.sum().item())
