/* tests/kernels/launch_kernels.cu - kernels for tests/test_launch.c.
 *
 * What they are: the smallest kernels that show a launch's geometry (which
 * blockIdx/threadIdx/blockDim/gridDim every thread sees) and that dynamic
 * shared memory of the requested size exists. Not lesson material.
 * Compiled unchanged by gcc (simulator, via sim/kernel.h) and by nvcc.
 */
#include "kernel.h"
#include "launch_kernels.h"

/* ids: every thread writes its built-in variables to its own record.
 * rec is (total threads, IDS_FIELDS): the record of a thread is at the
 * global linear index block_linear * threads_per_block + thread_linear, with
 * block_linear = x + gridDim.x * (y + gridDim.y * z) and the thread linear
 * index likewise over blockDim (CUDA's order: x fastest). */
__global__ void ids(unsigned *rec)
{
    unsigned nt = blockDim.x * blockDim.y * blockDim.z;
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned *r = rec + ((size_t)b * nt + t) * IDS_FIELDS;
    r[0] = blockIdx.x;
    r[1] = blockIdx.y;
    r[2] = blockIdx.z;
    r[3] = threadIdx.x;
    r[4] = threadIdx.y;
    r[5] = threadIdx.z;
    r[6] = blockDim.x;
    r[7] = blockDim.y;
    r[8] = blockDim.z;
    r[9] = gridDim.x;
    r[10] = gridDim.y;
    r[11] = gridDim.z;
}

/* touch_dyn_shared: thread 0 writes the first and the last word of the
 * block's dynamic shared memory (nwords 4-byte words) and copies them out,
 * so a launch that asked for N bytes shows that all N exist. */
__global__ void touch_dyn_shared(int *out, int nwords)
{
    EXTERN_SHARED(int, s);
    if (threadIdx.x == 0) {
        s[0] = 11;
        s[nwords - 1] = 22;
        out[2 * blockIdx.x] = s[0];
        out[2 * blockIdx.x + 1] = s[nwords - 1];
    }
}

/* nothing: for configurations that must be refused before anything runs. */
__global__ void nothing(int *out)
{
    if (out)
        out[0] = 1;
}

LAUNCHER(ids, (unsigned *, rec))
LAUNCHER(touch_dyn_shared, (int *, out), (int, nwords))
LAUNCHER(nothing, (int *, out))
