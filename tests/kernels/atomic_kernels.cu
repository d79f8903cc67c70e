/* tests/kernels/atomic_kernels.cu - kernels for tests/test_atomic.c.
 *
 * What they are: every thread of the grid applies one atomic operation to
 * one word (in global memory, or in its block's shared memory) and records
 * the old value the atomic returned, so the test can check both the result
 * word and that the old values form a valid serialisation (e.g. atomicAdd of
 * 1 by N threads returns each of 0..N-1 exactly once).
 * CUDA has atomicAdd and atomicExch for float but no float atomicSub, Min,
 * Max or CAS (on the architectures we teach), so the float kernels offer
 * only ATOM_ADD and ATOM_EXCH.
 */
#include "kernel.h"
#include "atomic_kernels.h"

/* The operation `op` on *p with operand v; returns the old value.
 * ATOM_CAS_ONCE: one atomicCAS(p, 0, v) (only the first thread wins).
 * ATOM_CAS_LOOP: *p += v by the classic read / atomicCAS retry loop. */
__device__ int apply_int(int *p, int v, int op)
{
    switch (op) {
    case ATOM_ADD: return atomicAdd(p, v);
    case ATOM_SUB: return atomicSub(p, v);
    case ATOM_MIN: return atomicMin(p, v);
    case ATOM_MAX: return atomicMax(p, v);
    case ATOM_EXCH: return atomicExch(p, v);
    case ATOM_CAS_ONCE: return atomicCAS(p, 0, v);
    default: {
        int cur = *(volatile int *)p, prev;
        do {
            prev = cur;
            cur = atomicCAS(p, prev, prev + v);
        } while (cur != prev);
        return prev;
    }
    }
}

__device__ unsigned apply_uint(unsigned *p, unsigned v, int op)
{
    switch (op) {
    case ATOM_ADD: return atomicAdd(p, v);
    case ATOM_SUB: return atomicSub(p, v);
    case ATOM_MIN: return atomicMin(p, v);
    case ATOM_MAX: return atomicMax(p, v);
    case ATOM_EXCH: return atomicExch(p, v);
    case ATOM_CAS_ONCE: return atomicCAS(p, 0u, v);
    default: {
        unsigned cur = *(volatile unsigned *)p, prev;
        do {
            prev = cur;
            cur = atomicCAS(p, prev, prev + v);
        } while (cur != prev);
        return prev;
    }
    }
}

__device__ float apply_float(float *p, float v, int op)
{
    return op == ATOM_EXCH ? atomicExch(p, v) : atomicAdd(p, v);
}

/* atom_*_global: every thread i: old[i] = op(word, val[i]); val and old are
 * (total threads,). */
__global__ void atom_int_global(int *word, int *old, const int *val, int op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    old[i] = apply_int(word, val[i], op);
}

__global__ void atom_uint_global(unsigned *word, unsigned *old, const unsigned *val, int op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    old[i] = apply_uint(word, val[i], op);
}

__global__ void atom_float_global(float *word, float *old, const float *val, int op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    old[i] = apply_float(word, val[i], op);
}

/* atom_*_shared: the same on one __shared__ word per block, which thread 0
 * sets to init[b] first; result[b] is the word after every thread of block b
 * has applied its operation. */
__global__ void atom_int_shared(int *result, int *old, const int *val, const int *init, int op)
{
    __shared__ int word;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        word = init[blockIdx.x];
    __syncthreads();
    old[i] = apply_int(&word, val[i], op);
    __syncthreads();
    if (threadIdx.x == 0)
        result[blockIdx.x] = word;
}

__global__ void atom_uint_shared(unsigned *result, unsigned *old, const unsigned *val, const unsigned *init, int op)
{
    __shared__ unsigned word;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        word = init[blockIdx.x];
    __syncthreads();
    old[i] = apply_uint(&word, val[i], op);
    __syncthreads();
    if (threadIdx.x == 0)
        result[blockIdx.x] = word;
}

__global__ void atom_float_shared(float *result, float *old, const float *val, const float *init, int op)
{
    __shared__ float word;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        word = init[blockIdx.x];
    __syncthreads();
    old[i] = apply_float(&word, val[i], op);
    __syncthreads();
    if (threadIdx.x == 0)
        result[blockIdx.x] = word;
}

/* histogram: bins[in[i] % nbins] += 1 for every element, one atomicAdd each:
 * many threads to few addresses, on global memory. */
__global__ void histogram(unsigned *bins, const int *in, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] % nbins], 1u);
}

LAUNCHER(atom_int_global, (int *, word), (int *, old), (const int *, val), (int, op))
LAUNCHER(atom_uint_global, (unsigned *, word), (unsigned *, old), (const unsigned *, val), (int, op))
LAUNCHER(atom_float_global, (float *, word), (float *, old), (const float *, val), (int, op))
LAUNCHER(atom_int_shared, (int *, result), (int *, old), (const int *, val), (const int *, init), (int, op))
LAUNCHER(atom_uint_shared, (unsigned *, result), (unsigned *, old), (const unsigned *, val), (const unsigned *, init), (int, op))
LAUNCHER(atom_float_shared, (float *, result), (float *, old), (const float *, val), (const float *, init), (int, op))
LAUNCHER(histogram, (unsigned *, bins), (const int *, in), (int, n), (int, nbins))
