// Lesson "leak": device memory allocated on every call and never freed.
//
// The launcher needs a temporary workspace, allocates it with cudaMalloc,
// and returns without cudaFree. Nothing fails at first; the process just
// holds more device memory after every call until, much later, some
// unrelated allocation reports "CUDA error: out of memory". Run the demo
// under `compute-sanitizer --tool memcheck --leak-check full`: each leaked
// block is listed with the host line that allocated it.

#include <cuda_runtime.h>

// Step 1: workspace[i] = x[i] * x[i].
extern "C" __global__ void square_into(const float* x, float* workspace, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        workspace[i] = x[i] * x[i];  // LESSON:square
    }
}

// Step 2: out[i] = workspace[i] + x[i].
extern "C" __global__ void add_back(const float* x, const float* workspace, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = workspace[i] + x[i];
    }
}

// Buggy host function: the workspace is never freed.
extern "C" int leak_square_plus_buggy(const float* x, float* out, int n) {
    const int threads = 128;
    int blocks = (n + threads - 1) / threads;
    float* workspace = nullptr;
    cudaError_t err = cudaMalloc(&workspace, n * sizeof(float));  // LESSON:bug
    if (err != cudaSuccess) {
        return (int)err;
    }
    square_into<<<blocks, threads>>>(x, workspace, n);
    add_back<<<blocks, threads>>>(x, workspace, out, n);
    return (int)cudaGetLastError();  // workspace leaks here
}

// Fixed host function: the workspace is released once the kernels are done.
extern "C" int leak_square_plus_fixed(const float* x, float* out, int n) {
    const int threads = 128;
    int blocks = (n + threads - 1) / threads;
    float* workspace = nullptr;
    cudaError_t err = cudaMalloc(&workspace, n * sizeof(float));
    if (err != cudaSuccess) {
        return (int)err;
    }
    square_into<<<blocks, threads>>>(x, workspace, n);
    add_back<<<blocks, threads>>>(x, workspace, out, n);
    err = cudaGetLastError();
    cudaFree(workspace);  // LESSON:fix
    return (int)err;
}

// Host launcher used from Python: out[i] = x[i] * x[i] + x[i].
extern "C" int leak_square_plus(const float* x, float* out, int n, int fixed) {
    return fixed ? leak_square_plus_fixed(x, out, n) : leak_square_plus_buggy(x, out, n);
}
