// tests/run/anon.cu - a __device__ function in an anonymous namespace: the
// host pass's weak mark cannot go there (internal linkage), so `simtlab run`
// falls back to one instrumented pass and says so; the result is the same.
#include <cstdio>
#include <cuda_runtime.h>

namespace {
__device__ float twice(float x) { return 2 * x; }
}

__global__ void k(float *p) { p[threadIdx.x] = twice((float)threadIdx.x); }

int main()
{
    float *p, h[32];
    cudaMalloc(&p, sizeof h);
    k<<<1, 32>>>(p);
    cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
    printf("anon: %s\n", h[31] == 62 ? "correct" : "WRONG");
    return h[31] != 62;
}
