// tests/run/assert.cu - assert() in a kernel: the simulator reports the
// expression, file and line; the launch fails with cudaErrorAssert, as on a
// GPU; an assert in host code still aborts as usual (not tested here).
#include <cassert>
#include <cstdio>

__global__ void check_positive(const int *x)
{
    assert(x[threadIdx.x] > 0); // MARK:assert
}

int main()
{
    int h[32], *d;
    for (int i = 0; i < 32; i++)
        h[i] = i == 7 ? -1 : 1;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check_positive<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("assert: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return e == cudaErrorAssert ? 0 : 1;
}
