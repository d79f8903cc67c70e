/* lessons/05_torch_stack/stream_kernels.cu - the work each chunk of lesson 5's
 * stream pipeline does: y = f(x) with `iters` dependent fused multiply-adds
 * per element. One element reads 4 bytes and writes 4 (8 bytes of HBM) and
 * does 2 * iters flops, so `iters` moves the kernel along the roofline from
 * memory-bound (iters small) to compute-bound (iters large).
 *
 * Order (as in every kernel file): CPU reference, kernels, launchers.
 * Compiled unchanged by nvcc (--mode cuda) and by gcc as C (--mode sim).
 */
#include "kernel.h"
#include "stream_kernels.h"

#ifndef __CUDACC__ /* host code: compiled once, in the simulator build */
/* The reference of one element, in double, with the kernel's float constants. */
__host__ double stream_fma_cpu(float x, int iters)
{
    double v = x;
    for (int k = 0; k < iters; k++)
        v = v * (double)STREAM_FMA_A + (double)STREAM_FMA_B;
    return v;
}
#endif

/* v1: one thread per element, a chain of fmaf the compiler cannot shorten
 * (each step needs the last). v = a v + b with a = 0.999 contracts towards
 * b / (1 - a) = 1, so rounding errors do not grow with iters.
 * LESSON: x and y are (n,) float arrays; the loop is the kernel's flops. */
__global__ void stream_fma_v1(float *y, const float *x, int n, int iters)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        for (int k = 0; k < iters; k++)
            v = fmaf(v, STREAM_FMA_A, STREAM_FMA_B);
        y[idx] = v;
    }
}

LAUNCHER(stream_fma_v1, (float *, y), (const float *, x), (int, n), (int, iters))
