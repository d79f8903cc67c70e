// tests/run/legacy_warp.cu - code written for CUDA 8 and later both: the mask-less `__shfl_xor`
// in an `#if CUDART_VERSION < 9000` branch that is never compiled, and a program's own macro
// named like a mask-less intrinsic. Both build and run (the shim declares the mask-less names
// only to fail where one is really called: run_case's second program).
#include <cstdio>

#define __shfl_down(v, d) __shfl_down_sync(0xffffffffu, v, d) // the program's own

__device__ int warp_sum(int v)
{
    for (int m = 16; m; m >>= 1)
#if defined(CUDART_VERSION) && CUDART_VERSION >= 9000
        v += __shfl_xor_sync(0xffffffffu, v, m);
#else
        v += __shfl_xor(v, m);
#endif
    return v;
}

__global__ void sums(int *o)
{
    int v = 1;
    for (int d = 16; d; d >>= 1)
        v += __shfl_down(v, d);
    o[threadIdx.x] = warp_sum(1) + (threadIdx.x == 0 ? v : 32);
}

int main()
{
    int *o, h[32];
    cudaMalloc(&o, sizeof h);
    sums<<<1, 32>>>(o);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    printf("legacy_warp: %s\n", h[0] == 64 && h[5] == 64 ? "correct" : "WRONG");
    return h[0] != 64;
}
