// tests/run/bad_config.cu - a launch with too many threads a block fails before it runs, with
// cudaErrorInvalidConfiguration from cudaGetLastError, and simtlab's note names the limit once.
#include <cstdio>

__global__ void k(int *o) { o[threadIdx.x] = 1; }

int main()
{
    int *d;
    if (cudaMalloc(&d, 1024 * sizeof(int)) != cudaSuccess)
        return 1;
    k<<<1, dim3(32, 32, 32)>>>(d);
    cudaError_t e = cudaGetLastError();
    printf("bad_config: %s\n", cudaGetErrorName(e));
    cudaFree(d);
    return e == cudaErrorInvalidConfiguration ? 0 : 1;
}
