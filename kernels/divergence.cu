// Lesson "divergence": an even/odd branch splits every warp in two.
//
// A warp is 32 threads (lanes) that execute one instruction at a time. When
// lanes of one warp take different sides of a branch, the warp runs both
// sides one after the other, each time with the other lanes masked off. Here
// even and odd threads take different branches, so every warp does both
// halves. The results are right; no tool reports anything. Step through it
// in the debugger and watch the active-lanes mask in the warps pane.
//
// The fixed version computes the same values without a branch: each lane
// picks its factor arithmetically, and all 32 lanes stay active.

#include <cuda_runtime.h>

// Divergent: even lanes run one branch while odd lanes wait, then vice versa.
extern "C" __global__ void scale_branchy(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int v = in[i];
    if (i % 2 == 0) {  // LESSON:bug
        v = v * 2;  // LESSON:even
    } else {
        v = v * 3;  // LESSON:odd
    }
    out[i] = v;  // LESSON:join
}

// Branch-free: the factor is 2 for even and 3 for odd threads, no branch.
extern "C" __global__ void scale_branchless(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int factor = 2 + (i & 1);  // LESSON:fix
    out[i] = in[i] * factor;
}

// Host launcher: out[i] = in[i] * (2 if i is even else 3).
extern "C" int divergence_scale(const int* in, int* out, int n, int fixed) {
    const int threads = 64;
    int blocks = (n + threads - 1) / threads;
    if (fixed) {
        scale_branchless<<<blocks, threads>>>(in, out, n);
    } else {
        scale_branchy<<<blocks, threads>>>(in, out, n);
    }
    return (int)cudaGetLastError();
}
