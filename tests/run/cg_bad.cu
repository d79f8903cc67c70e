// tests/run/cg_bad.cu - a dynamic tiled_partition whose size is not a power of two
// from 1 to 32 (a GPU traps): the simulator's report names the call's line, the
// launch fails with cudaErrorLaunchFailure, and the program goes on (no crash, no hang).
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void split(int *out, unsigned n)
{
    cg::thread_group t = cg::tiled_partition(cg::this_thread_block(), n); // MARK:bad
    out[threadIdx.x] = (int)t.size();
}

int main()
{
    int *out, h[64];
    cudaMalloc(&out, sizeof h);
    split<<<1, 64>>>(out, 16);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess || h[63] != 16) {
        printf("cg_bad: n = 16 failed (%s, size %d)\n", cudaGetErrorName(e), h[63]);
        return 1;
    }
    split<<<1, 64>>>(out, 12);
    e = cudaDeviceSynchronize();
    printf("cg_bad: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess;
}
