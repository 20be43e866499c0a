"""Two ranks (gloo, one GPU): rank 1's kernel reads past the end of its tensor; rank 0 is fine."""
import torch
import torch.distributed as dist
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
__global__ void gather(const float *x, const long *idx, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = x[idx[i]];
    }
}
void run(torch::Tensor x, torch::Tensor idx, torch::Tensor out) {
    int n = out.numel();
    gather<<<(n + 127) / 128, 128>>>(x.data_ptr<float>(), idx.data_ptr<long>(), out.data_ptr<float>(), n);
}
"""
ext = load_inline("ddp_gather", "void run(torch::Tensor x, torch::Tensor idx, torch::Tensor out);",
                  cuda_sources=cuda_src, functions=["run"], extra_cuda_cflags=["-G", "-g"], verbose=False)
dist.init_process_group("gloo")
rank = dist.get_rank()
x = torch.ones(256, device="cuda")
idx = torch.arange(256, device="cuda") + (1 << 28) * rank  # rank 1 reads far past the end
out = torch.empty(256, device="cuda")
ext.run(x, idx, out)
print(f"rank {rank}: sum {out.sum().item()}", flush=True)
dist.destroy_process_group()
