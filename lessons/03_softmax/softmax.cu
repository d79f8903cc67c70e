/* lessons/03_softmax/softmax.cu - softmax over the rows of a matrix, three ways.
 *
 * y[r, :] = exp(x[r, :]) / sum_j exp(x[r, j]) for each row r of an (R, C)
 * fp32 matrix. One block per row; the threads of the block read the row with
 * a block-stride loop (thread t reads columns t, t + blockDim.x, ...: each
 * warp touches 32 consecutive floats, so the loads are coalesced) and combine
 * their partial results with a block reduction: warp shuffles inside each
 * warp, then shared memory across the warps.
 *
 * The versions differ only in how many times they read the row from HBM
 * (Milakov & Gimelshein 2018, "Online normalizer calculation for softmax"):
 *   softmax_naive   2 passes: 2 loads + 1 store per element (overflows)
 *   softmax_safe    3 passes: 3 loads + 1 store per element
 *   softmax_online  2 passes: 2 loads + 1 store per element (safe)
 *
 * Order (as in every kernel file): CPU reference, kernels, launchers.
 * This file is compiled unchanged by nvcc (--mode cuda) and by gcc as C
 * (--mode sim). Requirements of every kernel here: blockDim.x is a multiple
 * of 32 and at most 1024 (whole warps, at most 32 of them); gridDim.x = R.
 * It is not a fast softmax: no vector loads, no caching of the row in
 * registers or shared memory, so that each pass is one read of the row.
 */
#include <math.h>

#include "kernel.h"
#include "softmax.h"

#ifndef __CUDACC__ /* host code: compiled once, in the simulator build */
/* x and y are (R, C), row-major. The safe formula in double precision:
 * the reference for all three versions. */
__host__ void softmax_cpu(double *y, const float *x, int R, int C)
{
    for (int r = 0; r < R; r++) {
        const float *xr = x + (size_t)r * C;
        double *yr = y + (size_t)r * C;
        double m = -INFINITY, s = 0;
        for (int j = 0; j < C; j++)
            m = xr[j] > m ? xr[j] : m;
        for (int j = 0; j < C; j++)
            s += exp((double)xr[j] - m);
        for (int j = 0; j < C; j++)
            yr[j] = exp((double)xr[j] - m) / s;
    }
}
#endif

/* ---- block reductions ------------------------------------------------------------- */
/* Every lane of the warp ends with the result: five butterfly steps
 * (lane i exchanges with lane i ^ 16, i ^ 8, ..., i ^ 1). */
__device__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* Every thread of the block ends with the result. Lane 0 of each warp
 * writes its warp's value to shared memory; then each warp reads all the
 * warps' values and reduces them again with shuffles (no broadcast step).
 * Shared traffic per call: nw floats written, nw * nw read (nw = warps).
 * LESSON: the second barrier lets the next reduction reuse part[]. */
__device__ float block_max(float v)
{
    __shared__ float part[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nw = blockDim.x / 32;
    v = warp_max(v);
    if (lane == 0)
        part[warp] = v;
    __syncthreads();
    v = warp_max(lane < nw ? part[lane] : -INFINITY);
    __syncthreads();
    return v;
}

__device__ float block_sum(float v)
{
    __shared__ float part[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nw = blockDim.x / 32;
    v = warp_sum(v);
    if (lane == 0)
        part[warp] = v;
    __syncthreads();
    v = warp_sum(lane < nw ? part[lane] : 0.0f);
    __syncthreads();
    return v;
}

/* naive: softmax exactly as written, y = exp(x) / sum exp(x). Pass 1 sums
 * exp(x) over the row, pass 2 reads x again and writes y: per element
 * 2 loads + 1 store, so HBM read 8RC bytes and write 4RC bytes. It is wrong
 * for inputs above about 88.7: exp(x) overflows float (FLT_MAX = 3.4e38),
 * the sum becomes inf, and inf / inf is NaN.
 * LESSON: the block-stride loop; thread t reads x[t], x[t + blockDim.x], ... */
__global__ void softmax_naive(float *y, const float *x, int R, int C)
{
    const float *xr = x + (size_t)blockIdx.x * C; /* this block's row */
    float *yr = y + (size_t)blockIdx.x * C;
    int tid = threadIdx.x, nt = blockDim.x;
    if ((int)blockIdx.x >= R) /* a grid larger than R: nothing to do */
        return;
    float s = 0.0f;
    for (int i = tid; i < C; i += nt)
        s += expf(xr[i]);
    s = block_sum(s);
    for (int i = tid; i < C; i += nt)
        yr[i] = expf(xr[i]) / s;
}

/* safe: softmax is unchanged by subtracting any constant from a row, and
 * subtracting the row's maximum m makes every exponent <= 0, so exp cannot
 * overflow (and the largest term is exactly 1, so the sum cannot be 0). The
 * price is one more pass over HBM to find m first: max, sum of exp(x - m),
 * write: 3 loads + 1 store per element, HBM read 12RC and write 4RC bytes. */
__global__ void softmax_safe(float *y, const float *x, int R, int C)
{
    const float *xr = x + (size_t)blockIdx.x * C;
    float *yr = y + (size_t)blockIdx.x * C;
    int tid = threadIdx.x, nt = blockDim.x;
    if ((int)blockIdx.x >= R)
        return;
    float m = -INFINITY;
    for (int i = tid; i < C; i += nt)
        m = fmaxf(m, xr[i]);
    m = block_max(m);
    float s = 0.0f;
    for (int i = tid; i < C; i += nt)
        s += expf(xr[i] - m);
    s = block_sum(s);
    for (int i = tid; i < C; i += nt)
        yr[i] = expf(xr[i] - m) / s;
}

/* A running (max, sum) pair: l = sum of exp(x_j - m) over the elements seen. */
typedef struct softmax_ml {
    float m, l;
} softmax_ml;

/* The online merge rule: two partial results over disjoint elements become
 * one by rescaling each sum to the larger maximum. A side that has seen no
 * elements is (-inf, 0); two of them stay (-inf, 0) (and -inf - -inf would
 * be NaN, so that case is answered first). */
__device__ softmax_ml ml_merge(softmax_ml a, softmax_ml b)
{
    softmax_ml r;
    r.m = fmaxf(a.m, b.m);
    if (r.m == -INFINITY) {
        r.l = 0.0f;
        return r;
    }
    r.l = a.l * expf(a.m - r.m) + b.l * expf(b.m - r.m);
    return r;
}

__device__ softmax_ml warp_ml(softmax_ml v)
{
    for (int o = 16; o > 0; o >>= 1) {
        softmax_ml u;
        u.m = __shfl_xor_sync(0xffffffffu, v.m, o);
        u.l = __shfl_xor_sync(0xffffffffu, v.l, o);
        v = ml_merge(v, u);
    }
    return v;
}

/* block_max and block_sum at once, with the merge rule as the operator. */
__device__ softmax_ml block_ml(softmax_ml v)
{
    __shared__ float part_m[32];
    __shared__ float part_l[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nw = blockDim.x / 32;
    v = warp_ml(v);
    if (lane == 0) {
        part_m[warp] = v.m;
        part_l[warp] = v.l;
    }
    __syncthreads();
    if (lane < nw) {
        v.m = part_m[lane];
        v.l = part_l[lane];
    } else {
        v.m = -INFINITY;
        v.l = 0.0f;
    }
    v = warp_ml(v);
    __syncthreads();
    return v;
}

/* online (Milakov & Gimelshein 2018, algorithm 3): the maximum and the sum
 * in one pass. Each thread keeps (m, l) over its elements; when a new
 * element raises the maximum, the sum so far is rescaled by exp(m_old - m_new)
 * so it stays a sum of exp(x_j - m) for the current m. The threads' pairs
 * are combined with the same rule (ml_merge), and pass 2 writes
 * exp(x - m) / l. As safe as softmax_safe with the passes of softmax_naive:
 * 2 loads + 1 store per element, HBM read 8RC and write 4RC bytes; it pays
 * with a second exp per element in pass 1, which is cheap next to HBM.
 * LESSON: this rescaling is the step FlashAttention applies to whole tiles. */
__global__ void softmax_online(float *y, const float *x, int R, int C)
{
    const float *xr = x + (size_t)blockIdx.x * C;
    float *yr = y + (size_t)blockIdx.x * C;
    int tid = threadIdx.x, nt = blockDim.x;
    if ((int)blockIdx.x >= R)
        return;
    softmax_ml ml;
    ml.m = -INFINITY;
    ml.l = 0.0f;
    for (int i = tid; i < C; i += nt) {
        float xi = xr[i];
        float m_new = fmaxf(ml.m, xi);
        ml.l = ml.l * expf(ml.m - m_new) + expf(xi - m_new);
        ml.m = m_new;
    }
    ml = block_ml(ml);
    for (int i = tid; i < C; i += nt)
        yr[i] = expf(xr[i] - ml.m) / ml.l;
}

LAUNCHER(softmax_naive, (float *, y), (const float *, x), (int, R), (int, C))
LAUNCHER(softmax_safe, (float *, y), (const float *, x), (int, R), (int, C))
LAUNCHER(softmax_online, (float *, y), (const float *, x), (int, R), (int, C))
