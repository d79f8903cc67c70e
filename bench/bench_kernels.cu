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

/* `iters` global loads per thread over a small window (stays in cache), so
 * the time is the instrumentation's, not the memory's. */
__global__ void bench_loads(float *out, const float *x, int iters, int window)
{
    float acc = 0.0f;
    int t = threadIdx.x;
    for (int i = 0; i < iters; i++)
        acc += x[(t + i) & (window - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

LAUNCHER(bench_barriers, (int *, out), (int, iters))
LAUNCHER(bench_loads, (float *, out), (const float *, x), (int, iters), (int, window))
