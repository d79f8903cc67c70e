// tests/run/header_gaps.cu - what nvcc gives a .cu file that the shim must give too (survey 5):
// min/max of mixed signed and unsigned, long and float/double arguments, the C++
// cudaEventCreate(&e, flags), <limits.h>'s macros without an include, and __CUDACC__ and
// __NVCC__ defined (a header's host fallbacks, as the CUDA samples' helper_math.h has, stay out),
// CUDA_VERSION from <cuda.h>; __nanosleep in a spin loop;
// a `__constant__ const` table beside a writable `__constant__` array (g++ refused the pair);
// isfinite, isnan and isinf unqualified, in host and device code (nvcc's math_functions.h includes
// <math.h>, whose C++ form puts std's into the global namespace; survey 9: llm.c's common.h);
// the toolkit's intrinsic headers by name (<sm_61_intrinsics.h> is __dp4a's documented one; the
// toolkit's own, found on the include path, gave hundreds of errors: survey 17).
#include <cstdio>
#include <cuda.h>
#include <device_double_functions.h>
#include <math_functions.h>
#include <sm_20_intrinsics.h>
#include <sm_30_intrinsics.h>
#include <sm_32_atomic_functions.h>
#include <sm_32_intrinsics.h>
#include <sm_35_atomic_functions.h>
#include <sm_35_intrinsics.h>
#include <sm_61_intrinsics.h>

__global__ void dp4a(int *o) { o[threadIdx.x] = __dp4a(0x01010101, 0x02020202, (int)threadIdx.x); }

#if !defined(__CUDACC__) || !defined(__NVCC__)
#error "nvcc defines __CUDACC__ and __NVCC__ for all of a .cu file"
#endif
#if !defined(CUDA_VERSION) || CUDA_VERSION < 9000
#error "<cuda.h> defines CUDA_VERSION (programs test it to take the _sync intrinsics; survey 7's D14)"
#endif
#ifndef __CUDACC__
inline int max(int a, int b) { return a > b ? a : b; } /* a host header's fallback: it would clash */
#endif

__constant__ float weights[2];
__constant__ const int offsets[2] = {10, 20};
const __constant__ float bias = 0.5f;

__global__ void consts(float *out) { out[threadIdx.x] = weights[threadIdx.x] * offsets[threadIdx.x] + bias; }

// __nanosleep as a spin loop's back-off (survey 7's D11): it builds, and the loop completes (the
// last thread sets the flag; the atomic poll would yield to it even without the sleep's yield)
__global__ void backoff(int *flag, int *out)
{
    if (threadIdx.x == blockDim.x - 1) {
        __nanosleep(1000);
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0)
            __nanosleep(100);
    }
    out[threadIdx.x] = 1;
}

__global__ void k(long long *out, int n, float f)
{
    unsigned end = min((blockIdx.x + 1) * blockDim.x, n); // min(unsigned, int)
    unsigned beg = max(n, threadIdx.x);                  // max(int, unsigned)
    double d = max(f, 0.5);                              // max(float, double)
    unsigned long long l = min(3ll, 7ull);               // min(long long, unsigned long long)
    long m = max(5l, 9ul);                               // max(long, unsigned long)
    if (threadIdx.x == 0) {
        out[0] = end, out[1] = beg, out[2] = (long long)(d * 10), out[3] = (long long)l, out[4] = m;
        out[5] = INT_MAX == 2147483647 && UINT_MAX == 4294967295u && isfinite(f) && !isnan(f) && !isinf(d);
    }
}

int main()
{
    long long *d, h[6];
    cudaEvent_t e;
    if (cudaEventCreate(&e, cudaEventDisableTiming) != cudaSuccess) {
        printf("header_gaps: cudaEventCreate(&e, flags) failed\n");
        return 1;
    }
    cudaMalloc(&d, sizeof h);
    k<<<1, 32>>>(d, 20, 0.25f);
    cudaEventRecord(e);
    cudaEventSynchronize(e);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    const float w[2] = {2.0f, 3.0f};
    float *fd, fh[2] = {0, 0};
    cudaMemcpyToSymbol(weights, w, sizeof w);
    cudaMalloc(&fd, sizeof fh);
    consts<<<1, 2>>>(fd);
    cudaMemcpy(fh, fd, sizeof fh, cudaMemcpyDeviceToHost);
    cudaFree(fd);
    int *flag, *bo, bh[32];
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&bo, sizeof bh);
    cudaMemset(flag, 0, sizeof(int));
    backoff<<<1, 32>>>(flag, bo);
    cudaMemcpy(bh, bo, sizeof bh, cudaMemcpyDeviceToHost);
    int all = 1;
    for (int i = 0; i < 32; i++)
        all &= bh[i] == 1;
    int *dd, dh[2];
    cudaMalloc(&dd, sizeof dh);
    dp4a<<<1, 2>>>(dd);
    cudaMemcpy(dh, dd, sizeof dh, cudaMemcpyDeviceToHost);
    all &= dh[0] == 8 && dh[1] == 9; /* four products of 1 and 2, plus the lane */
    float inf = 1.0f / (fh[0] - fh[0]); // fh[0] is 20.5: 1/0 is inf, which isfinite and isinf tell
    int ok = !isfinite(inf) && isinf(inf) && !isnan(inf) && h[0] == 20 && h[1] == 20 && h[2] == 5 && h[3] == 3 && h[4] == 9 && h[5] == 1 && fh[0] == 20.5f &&
             fh[1] == 60.5f && all;
    printf("header_gaps: %s (%lld %lld %lld %lld %lld %lld; %g %g)\n", ok ? "correct" : "WRONG", h[0], h[1], h[2], h[3],
           h[4], h[5], fh[0], fh[1]);
    cudaEventDestroy(e);
    cudaFree(d);
    return !ok;
}
