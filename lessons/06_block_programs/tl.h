/* lessons/06_block_programs/tl.h - block programs in the style of Triton, as CUDA C.
 *
 * A Triton kernel is written for one *program* that works on whole tiles
 * (tl.arange, masked tl.load / tl.store, tile arithmetic, tl.max / tl.sum);
 * the compiler spreads each tile over the threads of one CUDA block. This
 * header does that spreading by hand, so the same kind of program runs on the
 * simulator (gcc) and on a GPU (nvcc), counted like every other kernel:
 *
 *   one program        = one CUDA block; tl_program_id(0) = blockIdx.x
 *   a tile of n values = element i held by thread i % blockDim.x, in slot
 *                        i / blockDim.x of that thread's tl_tile
 *   tl_load / tl_store = one scalar access per element whose mask is on; a
 *                        masked-off element touches no memory at all (its
 *                        value is `other`), so the HBM bytes are exactly the
 *                        valid elements
 *   tl_max / tl_sum    = warp shuffles, then shared memory across the warps;
 *                        every thread gets the result
 *
 * Because thread t holds elements t, t + blockDim.x, ..., one slot of one
 * warp is 32 consecutive elements: every tl_load / tl_store is coalesced.
 *
 * Contract (the callers check it on the host, block_programs.h):
 *   - blockDim.x is a multiple of 32, at most 1024 (whole warps: the
 *     reductions shuffle with a full mask);
 *   - a tile has n <= TL_PER_THREAD * blockDim.x elements (tl_fits);
 *   - every thread of the program calls tl_max / tl_sum (they hold barriers).
 * What it is not: Triton. There is no compiler here: no automatic choice of
 * layout, no vector loads (each access is one float, so that each source
 * access is one counted access), no 2-D tiles, no tl.dot.
 *
 * Include after kernel.h. Every function is __device__ (file-local under gcc,
 * inlined, so the tiles stay in registers on both compilers).
 */
#ifndef LESSON06_TL_H
#define LESSON06_TL_H

#include <math.h>

#include "kernel.h"

/* Slots a thread holds: a tile has at most TL_PER_THREAD * blockDim.x
 * elements (16 x 1024 = 16384). 16 matches UNROLL's full unrolling under gcc,
 * which keeps the arrays in registers (else they would be local memory). */
#ifndef TL_PER_THREAD
#define TL_PER_THREAD 16
#endif

/* A tile of n floats (or ints: offsets and masks), this thread's share:
 * v[s] is element s * blockDim.x + threadIdx.x, part of the tile if < n. */
typedef struct tl_tile {
    float v[TL_PER_THREAD];
    int n;
} tl_tile;

typedef struct tl_itile {
    int v[TL_PER_THREAD];
    int n;
} tl_itile;

/* Is slot s of this thread an element of a tile of n? */
#define TL_IN(n, s) ((s) * (int)blockDim.x + (int)threadIdx.x < (n))
#define TL_FOR(s) UNROLL for (int s = 0; s < TL_PER_THREAD; s++)

/* ---- programs -------------------------------------------------------------------- */
/* tl.program_id(axis): which program this is (axis 0, 1, 2). */
__device__ __forceinline__ int tl_program_id(int axis)
{
    return axis == 0 ? (int)blockIdx.x : axis == 1 ? (int)blockIdx.y : (int)blockIdx.z;
}

/* tl.num_programs(axis): how many programs the grid has. */
__device__ __forceinline__ int tl_num_programs(int axis)
{
    return axis == 0 ? (int)gridDim.x : axis == 1 ? (int)gridDim.y : (int)gridDim.z;
}

/* Does a tile of n elements fit this program's threads? */
__device__ __forceinline__ int tl_fits(int n) { return n >= 0 && n <= TL_PER_THREAD * (int)blockDim.x; }

/* ---- integer tiles: offsets and masks ---------------------------------------------- */
/* tl.arange(0, n): the tile 0, 1, ..., n - 1. Slots past n hold their index too
 * (every slot is defined), but are no element of the tile. */
__device__ __forceinline__ tl_itile tl_arange(int n)
{
    tl_itile r;
    r.n = n;
    TL_FOR(s) r.v[s] = s * (int)blockDim.x + (int)threadIdx.x;
    return r;
}

/* a + k: a tile of offsets moved by a scalar (block_start + tl.arange). */
__device__ __forceinline__ tl_itile tl_add_i(tl_itile a, int k)
{
    TL_FOR(s) a.v[s] += k;
    return a;
}

/* a < k: a mask (1 = on). */
__device__ __forceinline__ tl_itile tl_lt_i(tl_itile a, int k)
{
    TL_FOR(s) a.v[s] = a.v[s] < k;
    return a;
}

/* a & b: both masks on. */
__device__ __forceinline__ tl_itile tl_and(tl_itile a, tl_itile b)
{
    TL_FOR(s) a.v[s] = a.v[s] && b.v[s];
    return a;
}

/* ---- memory -------------------------------------------------------------------------- */
/* tl.load(p + off, mask=mask, other=other): element e is p[off[e]] where
 * mask[e] is on, else `other`, which is a register value: a masked-off
 * element reads nothing. */
__device__ __forceinline__ tl_tile tl_load(const float *p, tl_itile off, tl_itile mask, float other)
{
    tl_tile r;
    r.n = off.n;
    TL_FOR(s)
    {
        r.v[s] = other;
        if (TL_IN(off.n, s) && mask.v[s])
            r.v[s] = p[off.v[s]];
    }
    return r;
}

/* tl.store(p + off, v, mask=mask): writes p[off[e]] = v[e] where mask[e] is
 * on; a masked-off element writes nothing. */
__device__ __forceinline__ void tl_store(float *p, tl_itile off, tl_tile v, tl_itile mask)
{
    TL_FOR(s)
    {
        if (TL_IN(off.n, s) && mask.v[s])
            p[off.v[s]] = v.v[s];
    }
}

/* ---- elementwise arithmetic (registers only) ----------------------------------------- */
#define TL_BINARY(name, op)                                                                \
    __device__ __forceinline__ tl_tile name(tl_tile a, tl_tile b)                          \
    {                                                                                      \
        TL_FOR(s) a.v[s] = a.v[s] op b.v[s];                                               \
        return a;                                                                          \
    }                                                                                      \
    /* the scalar broadcast: every element op k */                                         \
    __device__ __forceinline__ tl_tile name##_s(tl_tile a, float k)                        \
    {                                                                                      \
        TL_FOR(s) a.v[s] = a.v[s] op k;                                                    \
        return a;                                                                          \
    }
TL_BINARY(tl_add, +) /* a + b, a + k */
TL_BINARY(tl_sub, -) /* a - b, a - k */
TL_BINARY(tl_mul, *) /* a * b, a * k */
TL_BINARY(tl_div, /) /* a / b, a / k */
#undef TL_BINARY

/* tl.exp(a), with expf (the simulator's is glibc's; nvcc's is within 2 ulp). */
__device__ __forceinline__ tl_tile tl_exp(tl_tile a)
{
    TL_FOR(s) a.v[s] = expf(a.v[s]);
    return a;
}

/* ---- reductions over the whole tile -------------------------------------------------- */
/* Each thread reduces its own slots, the warp reduces with five butterfly
 * shuffles (lane i with lane i ^ 16, ^ 8, ..., ^ 1), lane 0 of each warp
 * puts its warp's value in shared memory, and after a barrier every warp
 * reduces those again: every thread ends with the result. Shared traffic per
 * call: nw floats written, nw * nw read (nw = blockDim.x / 32 warps).
 * Slots outside the tile count as the identity (-inf, 0); masked-off
 * elements count as whatever tl_load gave them (`other`).
 * LESSON: the second barrier lets the next call reuse part[]. */
__device__ __forceinline__ float tl_warp_max_(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float tl_warp_sum_(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* tl.max(a, axis=0): the largest element; -inf for an empty tile. */
__device__ __forceinline__ float tl_max(tl_tile a)
{
    __shared__ float part[32];
    int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32, nw = (int)blockDim.x / 32;
    float v = -INFINITY;
    TL_FOR(s)
    {
        if (TL_IN(a.n, s))
            v = fmaxf(v, a.v[s]);
    }
    v = tl_warp_max_(v);
    if (lane == 0)
        part[warp] = v;
    __syncthreads();
    v = tl_warp_max_(lane < nw ? part[lane] : -INFINITY);
    __syncthreads();
    return v;
}

/* tl.sum(a, axis=0): the sum of the elements; 0 for an empty tile. */
__device__ __forceinline__ float tl_sum(tl_tile a)
{
    __shared__ float part[32];
    int lane = (int)threadIdx.x % 32, warp = (int)threadIdx.x / 32, nw = (int)blockDim.x / 32;
    float v = 0.0f;
    TL_FOR(s)
    {
        if (TL_IN(a.n, s))
            v += a.v[s];
    }
    v = tl_warp_sum_(v);
    if (lane == 0)
        part[warp] = v;
    __syncthreads();
    v = tl_warp_sum_(lane < nw ? part[lane] : 0.0f);
    __syncthreads();
    return v;
}

#endif /* LESSON06_TL_H */
