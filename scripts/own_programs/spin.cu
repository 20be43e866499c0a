// Spins until the host (or a debugger) sets *flag: a stand-in for a hung training job.
#include <cstdio>
#include <unistd.h>
__global__ void spin(volatile int *flag, int *count) {
    int i = 0;
    while (*flag == 0) {
        i++;
    }
    atomicAdd(count, i > 0);
}
int main() {
    int *flag, *count;
    cudaMallocManaged(&flag, sizeof(int));
    cudaMallocManaged(&count, sizeof(int));
    *flag = 0; *count = 0;
    printf("spinning pid %d\n", getpid());
    fflush(stdout);
    spin<<<2, 64>>>(flag, count);
    cudaDeviceSynchronize();
    printf("count %d\n", *count);
    return 0;
}
