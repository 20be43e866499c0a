// Lesson "race": a shared-memory tree reduction and its racy twin.
//
// Each block copies its slice of the input into shared memory, then halves the
// number of active threads on every step: thread t adds sdata[t + s] into
// sdata[t]. Thread 0 finally adds the block's partial sum to the global total
// with atomicAdd, because many blocks write the same output.
//
// Every step reads values that OTHER threads wrote on the previous step, so
// all threads must wait at a barrier (__syncthreads) between steps. The racy
// version leaves that barrier out of the loop: a thread may read sdata[t + s]
// before its owner has stored the new partial sum. The answer is then wrong
// only sometimes, which is why racecheck is the tool to reach for.

#include <cuda_runtime.h>

// Buggy: no barrier between the reduction steps.
extern "C" __global__ void reduce_racy(const float* in, float* out, int n) {
    extern __shared__ float sdata[];
    int tid = threadIdx.x;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (idx < n) ? in[idx] : 0.0f;  // LESSON:load
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];  // LESSON:bug
        }
        // missing __syncthreads(): the next step may read stale partial sums
    }
    if (tid == 0) {
        atomicAdd(out, sdata[0]);  // LESSON:total
    }
}

// Fixed: every step ends with a barrier that all threads of the block reach.
extern "C" __global__ void reduce_sum(const float* in, float* out, int n) {
    extern __shared__ float sdata[];
    int tid = threadIdx.x;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (idx < n) ? in[idx] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();  // LESSON:fix
    }
    if (tid == 0) {
        atomicAdd(out, sdata[0]);
    }
}

// Host launcher: `threads` must be a power of two (the tree halves it).
// *out must be zeroed by the caller; the kernels accumulate into it.
extern "C" int race_reduce(const float* in, float* out, int n, int threads, int fixed) {
    int blocks = (n + threads - 1) / threads;
    size_t shared_bytes = threads * sizeof(float);
    if (fixed) {
        reduce_sum<<<blocks, threads, shared_bytes>>>(in, out, n);
    } else {
        reduce_racy<<<blocks, threads, shared_bytes>>>(in, out, n);
    }
    return (int)cudaGetLastError();
}
