"""A CuPy RawKernel (NVRTC) whose lane 24 reads far out of range: no -G in its options, cudatui's
CUPY_CUDA_COMPILE_WITH_DEBUG=1 gives it source lines and locals, CUPY_CACHE_SAVE_CUDA_SOURCE=1 its source."""
import cupy as cp

SOURCE = r"""
extern "C" __global__ void gather(const float *x, float *out, const long long *idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long j = idx[i];
        out[i] = x[j];
    }
}
"""
kernel = cp.RawKernel(SOURCE, "gather")
x = cp.ones(1000, dtype=cp.float32)
idx = cp.arange(64, dtype=cp.int64)
idx[24] = 1 << 34
out = cp.empty(64, dtype=cp.float32)
kernel((1,), (64,), (x, out, idx, cp.int32(64)))
cp.cuda.Device().synchronize()
print("sum", float(out.sum()))
