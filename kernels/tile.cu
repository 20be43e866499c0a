// Lesson "tile": a 3x3 box blur through a 2-D shared-memory tile.
//
// Each 16x16 block of threads computes a 16x16 patch of the output. Every
// output pixel needs its 8 neighbours, so the block first copies an 18x18
// tile (its patch plus a one-pixel halo, zero outside the image) into
// shared memory, then each thread averages its 3x3 window from the tile.
//
// The copy is spread over all 256 threads, so a thread's window holds values
// that OTHER threads loaded. The buggy kernel starts averaging without
// waiting for them (no __syncthreads between the copy and the reads): racecheck
// reports the hazard between the tile store and the window read.

#include <cuda_runtime.h>

#define TILE 16
#define HALO 1
#define SPAN (TILE + 2 * HALO)

// Copies the block's 18x18 tile (zero outside the image) into shared memory.
__device__ void load_tile(float tile[SPAN][SPAN], const float* in, int height, int width) {
    int first = threadIdx.y * TILE + threadIdx.x;
    for (int k = first; k < SPAN * SPAN; k += TILE * TILE) {
        int ty = k / SPAN;
        int tx = k % SPAN;
        int gy = blockIdx.y * TILE + ty - HALO;
        int gx = blockIdx.x * TILE + tx - HALO;
        bool inside = gy >= 0 && gy < height && gx >= 0 && gx < width;
        tile[ty][tx] = inside ? in[gy * width + gx] : 0.0f;  // LESSON:store
    }
}

// Mean of the 3x3 window centred on tile[cy][cx].
__device__ float box3x3(float tile[SPAN][SPAN], int cy, int cx) {
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            sum += tile[cy + dy][cx + dx];  // LESSON:bug
        }
    }
    return sum / 9.0f;
}

// Buggy: reads the tile while other threads may still be filling it.
extern "C" __global__ void blur_racy(const float* in, float* out, int height, int width) {
    __shared__ float tile[SPAN][SPAN];
    load_tile(tile, in, height, width);
    // missing __syncthreads(): neighbours' halo values may not be there yet
    int y = blockIdx.y * TILE + threadIdx.y;
    int x = blockIdx.x * TILE + threadIdx.x;
    if (y < height && x < width) {
        out[y * width + x] = box3x3(tile, threadIdx.y + HALO, threadIdx.x + HALO);  // LESSON:window
    }
}

// Fixed: the whole block waits until the tile is complete.
extern "C" __global__ void blur_fixed(const float* in, float* out, int height, int width) {
    __shared__ float tile[SPAN][SPAN];
    load_tile(tile, in, height, width);
    __syncthreads();  // LESSON:fix
    int y = blockIdx.y * TILE + threadIdx.y;
    int x = blockIdx.x * TILE + threadIdx.x;
    if (y < height && x < width) {
        out[y * width + x] = box3x3(tile, threadIdx.y + HALO, threadIdx.x + HALO);
    }
}

// Host launcher: out = 3x3 mean of in (height x width, row-major, zero padded).
extern "C" int tile_blur(const float* in, float* out, int height, int width, int fixed) {
    dim3 threads(TILE, TILE);
    dim3 blocks((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    if (fixed) {
        blur_fixed<<<blocks, threads>>>(in, out, height, width);
    } else {
        blur_racy<<<blocks, threads>>>(in, out, height, width);
    }
    return (int)cudaGetLastError();
}
