// tests/run/builtin_names.cu - host variables and members named like CUDA's built-ins, as course
// code writes them (`dim3 blockDim(32); k<<<gridDim, blockDim>>>(d);`): host code cannot read the
// built-ins, so there the names are the program's own; kernels, a __host__ __device__ function,
// a function that a macro of the program's header makes device code and a #define keep the built-ins.
#include <cstdio>

#include "builtin_names.cuh" // DEVICE

#define GLOBAL_ID (blockIdx.x * blockDim.x + threadIdx.x)

struct Launch {
    dim3 gridDim, blockDim; // members named like the built-ins
    int n;
};

__host__ __device__ unsigned block_width() // the built-in (nvcc's host code has none: 0 there)
{
#ifdef __CUDA_ARCH__
    return blockDim.x;
#else
    return 0;
#endif
}
DEVICE unsigned lane() { return threadIdx.x % 32; }

// out[i] = blockDim.x * 1000 + gridDim.x * 100 + lane, and cfg's own members read in a kernel
__global__ void fill(int *out, Launch cfg, const Launch *pc)
{
    unsigned i = GLOBAL_ID;
    if (i < (unsigned)cfg.n)
        out[i] = (int)(block_width() * 1000 + gridDim.x * 100 + lane()) + (int)(cfg.blockDim.x - pc->blockDim.x);
}

int main()
{
    const int n = 100;
    dim3 blockDim(32), gridDim(1); // host variables named like the built-ins
    gridDim.x = (n + blockDim.x - 1) / blockDim.x;
    Launch cfg{gridDim, blockDim, n}, *dcfg;
    int *d, h[n], bad = 0;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&dcfg, sizeof cfg);
    cudaMemcpy(dcfg, &cfg, sizeof cfg, cudaMemcpyHostToDevice);
    const Launch *pc = &cfg;
    fill<<<(n + blockDim.x - 1) / blockDim.x, blockDim>>>(d, cfg, dcfg); // a host variable and arithmetic
    fill<<<pc->gridDim, cfg.blockDim>>>(d, cfg, dcfg);                   // members
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (unsigned blockIdx = 0; blockIdx < gridDim.x; blockIdx++) // the host's check, in "blocks"
        for (unsigned threadIdx = 0; threadIdx < blockDim.x; threadIdx++) {
            unsigned i = blockIdx * blockDim.x + threadIdx;
            if (i < (unsigned)n && h[i] != (int)(32 * 1000 + 4 * 100 + threadIdx % 32))
                bad++;
        }
    printf("builtin_names: grid %u, block %u, %s\n", gridDim.x, blockDim.x, bad ? "WRONG" : "correct");
    return bad != 0;
}
