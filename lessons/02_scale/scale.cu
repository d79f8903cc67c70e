/* lessons/02_scale/scale.cu - the course's custom op: y = 2x, one thread per element.
 *
 * Order (as in every kernel file): CPU reference, kernels, launchers.
 * This file is compiled unchanged by nvcc (--mode cuda) and by gcc as C
 * (--mode sim); see sim/kernel.h for the two macros it uses.
 */
#include "kernel.h"
#include "scale.h"

#ifndef __CUDACC__ /* host code: compiled once, in the simulator build */
/* x and y are (n,) float arrays. */
__host__ void scale_cpu(double *y, const float *x, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * (double)x[i];
}
#endif

/* v1: one thread per element. The grid is rounded up to whole blocks, so
 * the last block has threads past the end of the arrays: the guard keeps
 * them from reading and writing out of bounds.
 * LESSON: idx is this thread's global index; blockDim.x threads per block. */
__global__ void scale_v1(float *y, const float *x, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        y[idx] = 2.0f * x[idx];
}

/* v1 in double: the same body, for the PyTorch op's float64 path
 * (lessons/05_torch_stack/simtlab_torch: AT_DISPATCH_FLOATING_TYPES picks the
 * kernel by dtype, and torch.autograd.gradcheck needs float64). */
__global__ void scale_v1_f64(double *y, const double *x, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        y[idx] = 2.0 * x[idx];
}

/* unguarded: the same kernel without `if (idx < n)`. It is wrong whenever n
 * is not a multiple of the block size; on a GPU it silently reads and writes
 * past the arrays (or faults), here it is reported. Only --no-guard runs it. */
__global__ void scale_unguarded(float *y, const float *x, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    (void)n;
    y[idx] = 2.0f * x[idx];
}

LAUNCHER(scale_v1, (float *, y), (const float *, x), (int, n))
LAUNCHER(scale_unguarded, (float *, y), (const float *, x), (int, n))
LAUNCHER(scale_v1_f64, (double *, y), (const double *, x), (int, n))
