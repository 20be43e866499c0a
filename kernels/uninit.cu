// Lesson "uninit": a kernel forgets to write part of its output, and the next
// kernel reads that uninitialised GLOBAL memory.
//
// Step 1 (relu) should write max(x, 0) for every element. The buggy version
// only writes the positive ones and forgets the `else`, so the slots for
// negative inputs keep whatever the fresh cudaMalloc left there. Step 2 sums
// the buffer. Fresh device memory often happens to be zero, so the total may
// even look right: only compute-sanitizer's initcheck tool tells. Note that
// initcheck tracks global memory only; an uninitialised __shared__ read is
// not reported by any tool.

#include <cuda_runtime.h>

// Buggy: negative inputs leave their output slot unwritten.
extern "C" __global__ void relu_buggy(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.0f) {  // LESSON:cause
        y[i] = x[i];
    }
}

// Fixed: every slot is written, negative inputs become 0.
extern "C" __global__ void relu_fixed(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = x[i] > 0.0f ? x[i] : 0.0f;  // LESSON:fix
    }
}

// Step 2: adds the whole buffer into *total; this is where the read happens.
extern "C" __global__ void sum_all(const float* y, float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(total, y[i]);  // LESSON:bug
    }
}

// Host launcher: *total (zeroed by the caller) receives sum(relu(x)).
// The intermediate buffer is a fresh cudaMalloc, freed before returning.
extern "C" int uninit_relu_sum(const float* x, float* total, int n, int fixed) {
    const int threads = 128;
    int blocks = (n + threads - 1) / threads;
    float* y = nullptr;
    cudaError_t err = cudaMalloc(&y, n * sizeof(float));
    if (err != cudaSuccess) {
        return (int)err;
    }
    if (fixed) {
        relu_fixed<<<blocks, threads>>>(x, y, n);
    } else {
        relu_buggy<<<blocks, threads>>>(x, y, n);
    }
    sum_all<<<blocks, threads>>>(y, total, n);
    err = cudaGetLastError();
    cudaFree(y);
    return (int)err;
}
