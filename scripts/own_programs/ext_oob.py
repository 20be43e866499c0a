"""torch.utils.cpp_extension.load_inline with -G: lane 24 reads far out of range, lane 0 does not."""
import torch
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
__global__ void gather(const float *x, float *out, const long *idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long j = idx[i];
        out[i] = x[j];
    }
}
torch::Tensor run(torch::Tensor x, torch::Tensor idx) {
    auto out = torch::empty_like(idx, x.options());
    int n = idx.numel();
    gather<<<(n + 127) / 128, 128>>>(x.data_ptr<float>(), out.data_ptr<float>(), idx.data_ptr<long>(), n);
    return out;
}
"""
cpp_src = "torch::Tensor run(torch::Tensor x, torch::Tensor idx);"
ext = load_inline("ext_oob", cpp_src, cuda_sources=cuda_src, functions=["run"],
                  extra_cuda_cflags=["-G", "-g"], verbose=False)
x = torch.ones(1000, device="cuda")
idx = torch.arange(64, device="cuda")
idx[24] = 1 << 34
print(ext.run(x, idx).sum().item())
