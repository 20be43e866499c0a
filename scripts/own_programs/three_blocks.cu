// Four resident blocks of 64 threads reach one line together; a breakpoint there with the condition
// `threadIdx.x == 5 && blockIdx.x < 3` is true in three blocks at once. Bare cuda-gdb reports one hit
// (measured on an H200); `info cuda threads breakpoint N` lists the threads sitting at it.
#include <cstdio>
__global__ void three_blocks(int *out) {
    int depth = blockIdx.x * 100 + threadIdx.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = depth * 2; /* BP */
}
int main() {
    int *out;
    cudaMallocManaged(&out, 4 * 64 * sizeof(int));
    three_blocks<<<4, 64>>>(out);
    cudaDeviceSynchronize();
    printf("out[5]=%d out[69]=%d out[133]=%d\n", out[5], out[69], out[133]);
    return 0;
}
