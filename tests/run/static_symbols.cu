// tests/run/static_symbols.cu - `static __constant__` and `static __device__` variables (internal
// linkage, as in many of NVIDIA's samples) filled and read by cudaMemcpyTo/FromSymbol from host
// code and used by a kernel: host code and kernels must see the same variable (survey 5: the
// two-pass build gave each its own copy, and the kernel read zeros).
#include <cstdio>

static __constant__ float scale[4];
static __device__ float result[4];
__device__ static int calls; // the qualifiers in the other order
static __device__ float twice(float x) { return 2.0f * x; } // a function: no copy to share

__global__ void k()
{
    result[threadIdx.x] = twice(scale[threadIdx.x]);
    atomicAdd(&calls, 1);
}

int main()
{
    const float h[4] = {1, 2, 3, 4};
    float out[4] = {0};
    int n = 0;
    cudaMemcpyToSymbol(scale, h, sizeof h);
    k<<<1, 4>>>();
    cudaMemcpyFromSymbol(out, result, sizeof out);
    cudaMemcpyFromSymbol(&n, calls, sizeof n);
    const int ok = out[0] == 2 && out[1] == 4 && out[2] == 6 && out[3] == 8 && n == 4;
    printf("static_symbols: %s (%g %g %g %g, %d calls)\n", ok ? "correct" : "WRONG", out[0], out[1], out[2], out[3], n);
    return !ok;
}
