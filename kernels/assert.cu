// Lesson "assert": a device-side assert fired by an index out of range.
//
// The kernel turns class labels into one-hot rows: out[i][label] = 1. The
// labels come from a data set that numbers its classes 1..C, while the
// output has columns 0..C-1. The buggy kernel uses the label as a column
// directly, so every sample of the last class asks for column C, one past
// the end. The assert catches it on the GPU: the kernel stops, and PyTorch
// later reports "device-side assert triggered" at some unrelated line.
// PyTorch's own indexing kernels (x[idx]) fail the same way.

#include <cassert>
#include <cuda_runtime.h>

// Buggy: treats 1-based labels as 0-based column numbers.
extern "C" __global__ void one_hot_buggy(const long long* labels, float* out, int n, int num_classes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int column = (int)labels[i];  // LESSON:column
    assert(column >= 0 && column < num_classes);  // LESSON:bug
    out[(long long)i * num_classes + column] = 1.0f;
}

// Fixed: converts the 1-based label to a 0-based column first.
extern "C" __global__ void one_hot_fixed(const long long* labels, float* out, int n, int num_classes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int column = (int)labels[i] - 1;  // LESSON:fix
    assert(column >= 0 && column < num_classes);
    out[(long long)i * num_classes + column] = 1.0f;
}

// Host launcher: out is n x num_classes, zeroed by the caller.
extern "C" int assert_one_hot(const long long* labels, float* out, int n, int num_classes, int fixed) {
    const int threads = 128;
    int blocks = (n + threads - 1) / threads;
    if (fixed) {
        one_hot_fixed<<<blocks, threads>>>(labels, out, n, num_classes);
    } else {
        one_hot_buggy<<<blocks, threads>>>(labels, out, n, num_classes);
    }
    return (int)cudaGetLastError();
}
