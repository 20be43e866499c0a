// Lesson "oob": an element-wise add without a bounds check.
//
// Every thread computes one global index and touches a[idx], b[idx], c[idx].
// The grid is rounded up to whole blocks, so some threads always get an index
// past the end of the arrays. Without `if (idx < n)` those threads read and
// write memory that does not belong to the tensors.
//
// To make the mistake visible the buggy launcher also sizes the grid from a
// wrong count (a 1 GiB byte count used as an element count): threads then run
// up to a gigabyte past the allocation, into unmapped memory. Small overruns
// (a few elements, or even megabytes: measured on an H200, 16 MB past a tensor
// still landed in memory PyTorch's caching allocator had mapped) are NOT
// reported by anything, which is exactly why this bug hides.

#include <cuda_runtime.h>

// Buggy: no bounds check, so threads with idx >= n still access memory.
extern "C" __global__ void add_buggy(const float* a, const float* b, float* c, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;  // LESSON:index
    c[idx] = a[idx] + b[idx];  // LESSON:bug
}

// Fixed: threads past the end of the arrays do nothing.
extern "C" __global__ void add_fixed(const float* a, const float* b, float* c, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {  // LESSON:fix
        c[idx] = a[idx] + b[idx];
    }
}

// Host launcher called from Python through ctypes. Returns the launch status
// (a cudaError_t as int); errors inside the kernel surface later, at the next
// synchronising call, which is the asynchronous error users see in PyTorch.
extern "C" int oob_add(const float* a, const float* b, float* c, int n, int fixed) {
    const int threads = 256;
    if (fixed) {
        int blocks = (n + threads - 1) / threads;
        add_fixed<<<blocks, threads>>>(a, b, c, n);
    } else {
        long long wrong_count = 1LL << 28;  // LESSON:grid
        int blocks = (int)((wrong_count + threads - 1) / threads);
        add_buggy<<<blocks, threads>>>(a, b, c, n);
    }
    return (int)cudaGetLastError();
}
