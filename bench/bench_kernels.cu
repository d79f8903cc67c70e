/* bench/bench_kernels.cu - kernels that isolate one cost of the simulator. */
#include "kernel.h"
#include "bench_kernels.h"

/* `iters` barriers per thread, nothing else: the cost of a barrier. */
__global__ void bench_barriers(int *out, int iters)
{
    int acc = 0;
    for (int i = 0; i < iters; i++) {
        acc += i;
        __syncthreads();
    }
    if (threadIdx.x == 0 && acc == -1)
        out[0] = acc; /* never true: keeps the loop */
}

/* shared_over_global: the same kernel twice, once over a __shared__ window
 * and once over a global one (the block's own BENCH_WINDOW floats of x):
 * each thread fills its part of the window, a barrier, then `iters` loads
 * of it, and one store of the sum. */
__global__ void bench_shared_loads(float *out, float *x, int iters)
{
    __shared__ float w[BENCH_WINDOW];
    (void)x;
    int t = threadIdx.x;
    for (int k = t; k < BENCH_WINDOW; k += blockDim.x)
        w[k] = (float)k;
    __syncthreads();
    float acc = 0.0f;
    for (int i = 0; i < iters; i++)
        acc += w[(t + i) & (BENCH_WINDOW - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void bench_global_loads(float *out, float *x, int iters)
{
    float *w = x + (size_t)blockIdx.x * BENCH_WINDOW;
    int t = threadIdx.x;
    for (int k = t; k < BENCH_WINDOW; k += blockDim.x)
        w[k] = (float)k;
    __syncthreads();
    float acc = 0.0f;
    for (int i = 0; i < iters; i++)
        acc += w[(t + i) & (BENCH_WINDOW - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* `iters` full-warp shuffles per thread, nothing else: the cost of a warp
 * rendezvous (every lane's value is needed before any lane goes on). */
__global__ void bench_shuffles(float *out, int iters)
{
    float v = (float)threadIdx.x;
    for (int i = 0; i < iters; i++)
        v += __shfl_xor_sync(0xffffffffu, v, 1 + (i & 15));
    if (v == -1.0f)
        out[0] = v; /* never true: keeps the loop */
}

LAUNCHER(bench_barriers, (int *, out), (int, iters))
LAUNCHER(bench_shuffles, (float *, out), (int, iters))
LAUNCHER(bench_shared_loads, (float *, out), (float *, x), (int, iters))
LAUNCHER(bench_global_loads, (float *, out), (float *, x), (int, iters))
