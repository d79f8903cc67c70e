// tests/run/internal_kernel.cu - kernels with internal linkage (static, or in an
// anonymous namespace): the host pass's copy of such a kernel is its own, not
// replaced by the device pass's, so `simtlab run` builds this file in one
// instrumented pass and says so. Each kernel is checked and counted like any
// other: the in-bounds ones write 4 sectors each, the out-of-bounds one (the
// argument picks which) is reported.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static __global__ void fill_static(float *p) { p[threadIdx.x] = (float)threadIdx.x; }

namespace {
__global__ void fill_anon(float *p) { p[threadIdx.x] = 2.0f * threadIdx.x; }
template <typename T> __global__ void fill_anon_t(T *p) { p[threadIdx.x] = (T)3 * threadIdx.x; }
__global__ void past_end_anon(int *a, int n) { a[threadIdx.x + n] = 1; } // MARK:anon
}

static __global__ void past_end_static(int *a, int n) { a[threadIdx.x + n] = 1; } // MARK:static

int main(int argc, char **argv)
{
    float *p, h[32];
    cudaMalloc(&p, sizeof h);
    fill_static<<<1, 32>>>(p);
    fill_anon<<<1, 32>>>(p);
    fill_anon_t<<<1, 32>>>(p);
    cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
    printf("internal_kernel: %s\n", h[31] == 93 ? "correct" : "WRONG");
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    if (argc > 1 && !strcmp(argv[1], "anon"))
        past_end_anon<<<1, 64>>>(d, 64);
    else
        past_end_static<<<1, 64>>>(d, 64);
    printf("internal_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
