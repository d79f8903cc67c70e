/* lessons/07_backward/backward.cu - attention's backward pass: standard
 * (the paper's Algorithm 3) against FlashAttention's (Algorithm 4, and
 * FlashAttention-2's loop order).
 *
 * Shapes, row-major, one (batch, head) slab after another (bh = b H + h):
 *   q, k, v, o, dout, dq, dk, dv : (B, H, N, d)    p, dp, ds : (B, H, N, N)
 *   l, m, lse, D : (B, H, N)
 * scale = 1/sqrt(d); with causal, query i sees keys j <= i.
 *
 * Order: the CPU reference, the kernels (standard, flash v1, flash v2), the
 * launchers. The same file is compiled by nvcc for the GPU and by gcc for
 * the simulator. README.md derives the exact HBM bytes of every kernel;
 * traffic.c writes them down and tests/test_backward.c asserts them.
 */
#include <stdlib.h>

#include "kernel.h"
#include "backward.h"

#ifndef __CUDACC__ /* host code: compiled once, in the simulator build */
/* ---- CPU reference, double precision ------------------------------------------ */
/* One head. The forward row by row (P_i, O_i, l_i, m_i), then the
 * backward of that row: D_i = dO_i . O_i, dS_ij = P_ij (dO_i . V_j - D_i),
 * dQ_i = scale sum_j dS_ij K_j, and row i's share of dK and dV. */
__host__ int attn_bwd_cpu_head(double *dq, double *dk, double *dv, double *o, double *l, double *m, float *pout,
                                const float *q, const float *k, const float *v, const float *dout, int N, int d,
                                int causal)
{
    const double scale = 1.0 / sqrt((double)d);
    double *p = (double *)malloc((size_t)N * sizeof *p);
    if (!p)
        return -1;
    for (size_t e = 0; dq && e < (size_t)N * d; e++)
        dk[e] = dv[e] = 0.0;
    for (int i = 0; i < N; i++) {
        const int len = causal ? i + 1 : N;
        const float *qi = q + (size_t)i * d, *doi = dout + (size_t)i * d;
        double mx = -INFINITY, sum = 0, D = 0;
        for (int j = 0; j < len; j++) {
            double acc = 0;
            for (int c = 0; c < d; c++)
                acc += (double)qi[c] * k[(size_t)j * d + c];
            p[j] = acc * scale;
            mx = p[j] > mx ? p[j] : mx;
        }
        for (int j = 0; j < len; j++)
            sum += (p[j] = exp(p[j] - mx));
        for (int j = 0; j < len; j++)
            p[j] /= sum;
        for (int j = 0; pout && j < N; j++)
            pout[(size_t)i * N + j] = j < len ? (float)p[j] : 0.0f;
        if (l)
            l[i] = sum;
        if (m)
            m[i] = mx;
        if (!o && !dq)
            continue;
        for (int c = 0; c < d; c++) {
            double acc = 0;
            for (int j = 0; j < len; j++)
                acc += p[j] * v[(size_t)j * d + c];
            D += (double)doi[c] * acc;
            if (o)
                o[(size_t)i * d + c] = acc;
        }
        if (!dq)
            continue;
        for (int c = 0; c < d; c++)
            dq[(size_t)i * d + c] = 0.0;
        for (int j = 0; j < len; j++) {
            double dp = 0;
            for (int c = 0; c < d; c++)
                dp += (double)doi[c] * v[(size_t)j * d + c];
            const double ds = p[j] * (dp - D);
            for (int c = 0; c < d; c++) {
                dq[(size_t)i * d + c] += scale * ds * k[(size_t)j * d + c];
                dk[(size_t)j * d + c] += scale * ds * qi[c];
                dv[(size_t)j * d + c] += p[j] * doi[c];
            }
        }
    }
    free(p);
    return 0;
}
#endif

/* ================================================================================
 * Standard backward (Algorithm 3): P, dP and dS are N x N matrices in HBM.
 *   dV = P^T dO    dP = dO V^T    dS = P * (dP - rowsum(P * dP))    dQ = scale dS K    dK = scale dS^T Q
 * ================================================================================ */

/* One tiled matrix product serves all four: C (M x Nc) = alpha op(A) op(B),
 * the reduction over K. A 64 x 64 tile of C per block of 16 x 16 threads,
 * each thread a 4 x 4 register tile (rows ty + 16 r, columns tx + 16 c),
 * the reduction staged through shared memory 16 at a time as [k][row] tiles
 * (rows padded to 66 floats: a warp's transposing store hits 32 banks).
 * ta: A is read transposed, element (i, k) at A[k lda + i] (P^T, dS^T);
 * tb: B is, element (k, j) at B[j ldb + k] (V^T). Every load is coalesced:
 * a warp reads consecutive floats of a row of whichever layout is stored.
 * causal: the mask zeroes part of the reduction (P_ij = dS_ij = 0 for j > i):
 *   BWD_MM_K_FROM_ROW   C's rows are keys, the reduction runs over queries >= the tile's first key (dV, dK)
 *   BWD_MM_K_TO_ROW     C's rows are queries, the reduction over keys <= the tile's last query (dQ)
 *   BWD_MM_SKIP_UPPER   C is dP: tiles wholly above the diagonal are never read, so not computed
 * grid (ceil(Nc / 64), ceil(M / 64), B*H); stride*: the floats between heads. */
#define MM_TILE 64
#define MM_BK 16
#define MM_PAD (MM_TILE + 2)

__global__ void attn_bwd_std_mm(float *C, const float *A, const float *B, int M, int Nc, int K, int lda, int ldb,
                                int ta, int tb, long long strideA, long long strideB, long long strideC, float alpha,
                                int causal)
{
    __shared__ float As[MM_BK][MM_PAD]; /* [k][row of C] */
    __shared__ float Bs[MM_BK][MM_PAD]; /* [k][column of C] */
    const int i0 = blockIdx.y * MM_TILE, j0 = blockIdx.x * MM_TILE;
    if (causal == BWD_MM_SKIP_UPPER && j0 > i0 + MM_TILE - 1)
        return; /* the whole block leaves: no barrier is skipped by part of it */
    const float *a = A + blockIdx.z * strideA, *b = B + blockIdx.z * strideB;
    const int kbeg = causal == BWD_MM_K_FROM_ROW ? i0 : 0;
    const int kend = causal == BWD_MM_K_TO_ROW ? min(K, i0 + MM_TILE) : K;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    float acc[4][4];
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 4; c++)
            acc[r][c] = 0.0f;
    for (int k0 = kbeg; k0 < kend; k0 += MM_BK) {
        UNROLL
        for (int p = 0; p < 4; p++) {
            /* row-major operand: 16 consecutive k of a row; transposed: 64 consecutive rows of a k */
            const int r1 = t / 16 + 16 * p, k1 = t % 16;
            const int e = t + 256 * p, k2 = e / MM_TILE, r2 = e % MM_TILE;
            if (!ta)
                As[k1][r1] = i0 + r1 < M && k0 + k1 < kend ? a[(size_t)(i0 + r1) * lda + k0 + k1] : 0.0f;
            else
                As[k2][r2] = i0 + r2 < M && k0 + k2 < kend ? a[(size_t)(k0 + k2) * lda + i0 + r2] : 0.0f;
            if (!tb)
                Bs[k2][r2] = j0 + r2 < Nc && k0 + k2 < kend ? b[(size_t)(k0 + k2) * ldb + j0 + r2] : 0.0f;
            else
                Bs[k1][r1] = j0 + r1 < Nc && k0 + k1 < kend ? b[(size_t)(j0 + r1) * ldb + k0 + k1] : 0.0f;
        }
        __syncthreads();
        for (int kk = 0; kk < MM_BK; kk++) {
            float x[4], y[4];
            UNROLL
            for (int r = 0; r < 4; r++)
                x[r] = As[kk][ty + 16 * r];
            UNROLL
            for (int c = 0; c < 4; c++)
                y[c] = Bs[kk][tx + 16 * c];
            UNROLL
            for (int r = 0; r < 4; r++)
                UNROLL
                for (int c = 0; c < 4; c++)
                    acc[r][c] += x[r] * y[c];
        }
        __syncthreads();
    }
    float *out = C + blockIdx.z * strideC;
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 4; c++) {
            const int i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;
            if (i < M && j < Nc)
                out[(size_t)i * Nc + j] = alpha * acc[r][c];
        }
}

/* dS = P * (dP - D), D_i = sum_j P_ij dP_ij (Algorithm 3, line 4), one block
 * per row: pass 1 reads the row of P and of dP for D_i, pass 2 reads them
 * again and writes dS. With causal, row i reads columns 0..i only and
 * writes zeros after them (the dQ and dK products read them). */
__global__ void attn_bwd_std_ds(float *dS, const float *P, const float *dP, int N, int causal)
{
    __shared__ float partials[32];
    const size_t row = blockIdx.x; /* over B*H*N rows */
    const int i = (int)(row % (size_t)N), len = causal ? i + 1 : N;
    const float *p = P + row * N, *dp = dP + row * N;
    float *ds = dS + row * N;
    float acc = 0.0f;
    for (int j = threadIdx.x; j < len; j += blockDim.x)
        acc += p[j] * dp[j];
    /* block sum: warp shuffles, then one partial per warp, summed by every warp */
    UNROLL
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, off);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    if (lane == 0)
        partials[warp] = acc;
    __syncthreads();
    float D = lane < nwarps ? partials[lane] : 0.0f;
    UNROLL
    for (int off = 16; off > 0; off /= 2)
        D += __shfl_xor_sync(0xffffffffu, D, off);
    for (int j = threadIdx.x; j < N; j += blockDim.x)
        ds[j] = j < len ? p[j] * (dp[j] - D) : 0.0f;
}

/* ================================================================================
 * Flash backward v1: the paper's Algorithm 4, loop for loop (no dropout).
 * ================================================================================ */

/* Algorithm 4, line 5: dQ = 0 in HBM (dK and dV are written whole, line 24). Grid-stride loop. */
__global__ void attn_bwd_v1_init(float *dQ, long long n)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride)
        dQ[e] = 0.0f;
}

/* One block per (b, h) runs the paper's double loop: the outer loop over
 * K_j, V_j (Bc keys, read once; dK_j, dV_j accumulate in SRAM), the inner
 * loop over the query tiles (Br rows): Q_i, O_i, dO_i, dQ_i, l_i, m_i come
 * from HBM every inner step and dQ_i goes back (line 21). P_ij is
 * recomputed from Q_i K_j^T and the forward's l and m. Dynamic shared memory:
 *   Ks, Vs, dKs, dVs [Bc][d]   Qs, Os, dOs, dQs [Br][d]   Ps, dSs [Br][Bc]   ls, ms, Ds [Br]
 * The outer loop is sequential inside one block: FlashAttention-2 makes
 * each K_j tile a block of its own (v2 below). */
__global__ void attn_bwd_v1(float *dQ, float *dK, float *dV, const float *Q, const float *K, const float *V,
                            const float *O, const float *dO, const float *l, const float *m, int N, int d, int Br,
                            int Bc, float scale, int causal)
{
    EXTERN_SHARED(float, smem);
    float *Ks = smem, *Vs = Ks + Bc * d, *dKs = Vs + Bc * d, *dVs = dKs + Bc * d;
    float *Qs = dVs + Bc * d, *Os = Qs + Br * d, *dOs = Os + Br * d, *dQs = dOs + Br * d;
    float *Ps = dQs + Br * d, *dSs = Ps + Br * Bc, *ls = dSs + Br * Bc, *ms = ls + Br, *Ds = ms + Br;
    const size_t bh = blockIdx.x;
    const float *q = Q + bh * N * d, *k = K + bh * N * d, *v = V + bh * N * d, *o = O + bh * N * d,
                *dout = dO + bh * N * d, *lg = l + bh * N, *mg = m + bh * N;
    float *dq = dQ + bh * N * d, *dk = dK + bh * N * d, *dv = dV + bh * N * d;
    const int t = threadIdx.x, T = blockDim.x;

    for (int j0 = 0; j0 < N; j0 += Bc) { /* line 6 */
        const int bc = min(Bc, N - j0);
        for (int e = t; e < bc * d; e += T) { /* lines 7-8: K_j, V_j to SRAM; dK_j = dV_j = 0 */
            Ks[e] = k[(size_t)j0 * d + e];
            Vs[e] = v[(size_t)j0 * d + e];
            dKs[e] = 0.0f;
            dVs[e] = 0.0f;
        }
        __syncthreads();
        /* line 9; with causal, query tiles whose last row is before j0 see none of K_j */
        for (int i0 = causal ? (j0 / Br) * Br : 0; i0 < N; i0 += Br) {
            const int br = min(Br, N - i0);
            for (int e = t; e < br * d; e += T) { /* line 10: Q_i, O_i, dO_i, dQ_i, l_i, m_i to SRAM */
                Qs[e] = q[(size_t)i0 * d + e];
                Os[e] = o[(size_t)i0 * d + e];
                dOs[e] = dout[(size_t)i0 * d + e];
                dQs[e] = dq[(size_t)i0 * d + e];
            }
            for (int r = t; r < br; r += T) {
                ls[r] = lg[i0 + r];
                ms[r] = mg[i0 + r];
            }
            __syncthreads();
            for (int e = t; e < br * bc; e += T) {
                const int r = e / bc, c = e % bc;
                float s = 0.0f, dp = 0.0f;
                for (int x = 0; x < d; x++) {
                    s += Qs[r * d + x] * Ks[c * d + x];   /* line 11: S_ij = scale Q_i K_j^T */
                    dp += dOs[r * d + x] * Vs[c * d + x]; /* line 16: dP_ij = dO_i V_j^T */
                }
                /* lines 12-13: mask, P_ij = exp(S_ij - m_i) / l_i */
                Ps[e] = causal && j0 + c > i0 + r ? 0.0f : expf(scale * s - ms[r]) / ls[r];
                dSs[e] = dp;
            }
            for (int r = t; r < br; r += T) { /* line 18: D_i = rowsum(dO_i * O_i) */
                float acc = 0.0f;
                for (int x = 0; x < d; x++)
                    acc += dOs[r * d + x] * Os[r * d + x];
                Ds[r] = acc;
            }
            __syncthreads();
            for (int e = t; e < bc * d; e += T) { /* line 15: dV_j += P_ij^T dO_i */
                const int c = e / d, x = e % d;
                float acc = 0.0f;
                for (int r = 0; r < br; r++)
                    acc += Ps[r * bc + c] * dOs[r * d + x];
                dVs[e] += acc;
            }
            for (int e = t; e < br * bc; e += T) /* line 19: dS_ij = P_ij * (dP_ij - D_i) */
                dSs[e] = Ps[e] * (dSs[e] - Ds[e / bc]);
            __syncthreads();
            for (int e = t; e < br * d; e += T) { /* line 20: dQ_i += scale dS_ij K_j, back to HBM */
                const int r = e / d, x = e % d;
                float acc = 0.0f;
                for (int c = 0; c < bc; c++)
                    acc += dSs[r * bc + c] * Ks[c * d + x];
                dq[(size_t)i0 * d + e] = dQs[e] + scale * acc;
            }
            for (int e = t; e < bc * d; e += T) { /* line 21: dK_j += scale dS_ij^T Q_i */
                const int c = e / d, x = e % d;
                float acc = 0.0f;
                for (int r = 0; r < br; r++)
                    acc += dSs[r * bc + c] * Qs[r * d + x];
                dKs[e] += scale * acc;
            }
            __syncthreads();
        }
        for (int e = t; e < bc * d; e += T) { /* line 24: dK_j, dV_j to HBM */
            dk[(size_t)j0 * d + e] = dKs[e];
            dv[(size_t)j0 * d + e] = dVs[e];
        }
        __syncthreads();
    }
}

/* ================================================================================
 * Flash backward v2: FlashAttention-2's order. A pre-pass writes each row's
 * logsumexp L = m + ln l and D = rowsum(dO * O); then one block per K_j, V_j
 * tile walks every query tile that sees it, dK_j and dV_j in registers, and
 * hands its share of dQ_i to HBM by atomicAdd (or leaves dQ to a second
 * kernel that walks the keys for each query tile instead).
 * ================================================================================ */

/* One warp per row: D = dO . O (lanes stride the row, then a shuffle sum). */
__global__ void attn_bwd_v2_pre(float *L, float *D, const float *O, const float *dO, const float *l, const float *m,
                                long long rows, int d)
{
    const long long row = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows)
        return; /* a whole warp leaves: there is no barrier */
    float acc = 0.0f;
    for (int x = lane; x < d; x += 32)
        acc += O[row * d + x] * dO[row * d + x];
    UNROLL
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) {
        D[row] = acc;
        L[row] = m[row] + logf(l[row]);
    }
}

/* Tuning knobs of v2, for nvcc (the simulator's sectors, wavefronts and
 * conflicts do not depend on them; a non-zero BWD_V2_MIN_BLOCKS does set its
 * blocks an SM, and so its L2 window and time model: sim/kernel.h).
 * BWD_V2_MIN_BLOCKS: __launch_bounds__' blocks an SM at d <= 64; 0: not
 * given (ptxas's own choice). BWD_V2_FAST_EXP: P by __expf (ex2.approx)
 * instead of expf. Their values are the ones measured fastest on the H200
 * (scripts/gpu/bwd_tune.sh, docs/parity-h200.md "Lesson 7"). */
#ifndef BWD_V2_MIN_BLOCKS
#define BWD_V2_MIN_BLOCKS 0
#endif
#if BWD_V2_MIN_BLOCKS
#define BWD_V2_BOUNDS(dd) __launch_bounds__(BWD_V2_THREADS, (dd) <= 64 ? BWD_V2_MIN_BLOCKS : 1)
#else
#define BWD_V2_BOUNDS(dd) __launch_bounds__(BWD_V2_THREADS)
#endif
#ifndef BWD_V2_FAST_EXP
#define BWD_V2_FAST_EXP 0
#endif
#if BWD_V2_FAST_EXP
#define BWD_V2_EXP __expf
#else
#define BWD_V2_EXP expf
#endif

/* LESSON: v2's five products run on the tensor cores. One mma.sync
 * instruction multiplies a 16 x 8 tile of A by an 8 x 8 tile of B for the
 * whole warp (1024 multiply-adds, where an FFMA does 32); each lane holds a
 * few elements of each tile, its "fragments" (sim/kernel.h, mma_tf32). The
 * tensor cores read fp32 operands as TF32 (10 mantissa bits): to keep fp32's
 * accuracy each operand x is split into big = tf32_round(x) and small = x -
 * big, and three products are added, small big + big small + big big
 * (mma_tf32x3; CUTLASS's "fast fp32", what PyTorch's fp32 attention does).
 *
 * Shared tiles (bwd_v2_shared_bytes) have rows of BWD_V2_LD(d) = d + 8
 * floats, as many banks apart (mod 32) as P's and dS's rows (BWD_V2_LDP = 72):
 *   - a fragment read along a row (the lane's 2 elements adjacent: the k
 *     index of Q K^T is d, and the order of k inside 8 is free as long as A
 *     and B agree) is one 8-byte LDS.64 per lane, 16 lanes (rows g = 0..3,
 *     columns 2t) on 8 g + 2t: 32 distinct banks;
 *   - a fragment read down a column (P^T and dS^T for dV and dK, dO and Q
 *     as B, K for dQ) puts lane (g, t) on row t, column g: banks 8 t + g,
 *     32 distinct. dS read along its rows for dQ (row g, column t: 8 g + t)
 *     is the one 2-way conflict left. */
#define LD(D) BWD_V2_LD(D)
#define BWD_V2_NT_MAX (128 / 16) /* mma tiles of 8 columns a warp holds: D / 16, D <= 128 */
#define KS(c, x) Ks[(c) * LD(D) + (x)]
#define VS(c, x) Vs[(c) * LD(D) + (x)]
#define QS(r, x) Qs[(r) * LD(D) + (x)]
#define DOS(r, x) dOs[(r) * LD(D) + (x)]
#define PS(r, c) Ps[(r) * BWD_V2_LDP + (c)]
#define DSS(r, c) dSs[(r) * BWD_V2_LDP + (c)]

/* 64 rows of A (rows a0.., n of them, D floats each) to shared memory, float4
 * by float4 (d is a multiple of 16, rows are 16-byte aligned); rows past n
 * are zeros, so the products below need no bounds. */
__device__ __forceinline__ void bwd_v2_load(float *S, const float *A, int a0, int n, const int D)
{
    for (int e = 4 * threadIdx.x; e < 64 * D; e += 4 * BWD_V2_THREADS) {
        const int r = e / D, x = e % D;
        store_float4(S + r * LD(D) + x, r < n ? load_float4(A + (size_t)(a0 + r) * D + x)
                                              : make_float4(0.0f, 0.0f, 0.0f, 0.0f));
    }
}

/* Rows i0.. (br of them) of Q and dO, and their L and D, to shared memory. */
__device__ __forceinline__ void bwd_v2_load_rows(float *Qs, float *dOs, float *Ls, float *Ds, const float *q,
                                                 const float *dout, const float *L, const float *Dg, int i0, int br,
                                                 const int D)
{
    bwd_v2_load(Qs, q, i0, br, D);
    bwd_v2_load(dOs, dout, i0, br, D);
    if (threadIdx.x < BWD_V2_BR) {
        Ls[threadIdx.x] = (int)threadIdx.x < br ? L[i0 + threadIdx.x] : 0.0f;
        Ds[threadIdx.x] = (int)threadIdx.x < br ? Dg[i0 + threadIdx.x] : 0.0f;
    }
}

/* An 8-byte store to global memory, kept one instruction (see st_global_v4
 * in git history: nvcc once split a 16-byte store of registers in four). */
#ifdef __CUDACC__
__device__ __forceinline__ void st_global_v2(float *p, float a, float b)
{
    asm volatile("st.global.v2.f32 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(p)), "f"(a), "f"(b) : "memory");
}
#else
#define st_global_v2(p, a, b) store_float2((p), make_float2((a), (b)))
#endif

/* The split of n operands: big = tf32_round(x), small = x - big. */
__device__ __forceinline__ void bwd_v2_split(float *big, float *small, const float *x, const int n)
{
    UNROLL
    for (int i = 0; i < n; i++) {
        big[i] = tf32_round(x[i]);
        small[i] = x[i] - big[i];
    }
}

/* The 64 x 64 tile of (rows i0.., keys j0..): warp w computes rows
 * 16 (w % 4) .. +15 and keys 32 (w / 4) .. +31 (4 mma tiles of 8 keys). It
 * recomputes S = Q K^T and dP = dO V^T from the shared tiles, P = exp(scale S
 * - L), and writes P (when Ps is not NULL) and dS = P * (dP - D) to shared
 * memory. Masked and out-of-range entries are 0. */
__device__ __forceinline__ void bwd_v2_scores(float *Ps, float *dSs, const float *Qs, const float *dOs,
                                              const float *Ks, const float *Vs, const float *Ls, const float *Ds,
                                              int i0, int br, int j0, int bc, float scale, int causal, const int D)
{
    const int w = threadIdx.x / 32, g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
    const int m0 = 16 * (w % 4), n0 = 32 * (w / 4);
    float s[4][4], dp[4][4];
    UNROLL
    for (int j = 0; j < 4; j++)
        UNROLL
        for (int e = 0; e < 4; e++)
            s[j][e] = dp[j][e] = 0.0f;
    for (int x = 0; x < D; x += 8) {
        /* k = x + 2t and x + 2t + 1: the A fragment's columns t and t + 4 */
        float qa[4], oa[4], qb[4], qs[4], ob[4], os[4];
        float2 u = load_float2(&QS(m0 + g, x + 2 * t)), v = load_float2(&QS(m0 + g + 8, x + 2 * t));
        qa[0] = u.x, qa[2] = u.y, qa[1] = v.x, qa[3] = v.y;
        u = load_float2(&DOS(m0 + g, x + 2 * t)), v = load_float2(&DOS(m0 + g + 8, x + 2 * t));
        oa[0] = u.x, oa[2] = u.y, oa[1] = v.x, oa[3] = v.y;
        bwd_v2_split(qb, qs, qa, 4);
        bwd_v2_split(ob, os, oa, 4);
        UNROLL
        for (int j = 0; j < 4; j++) {
            float kf[2], kb[2], ks[2], vf[2], vb[2], vs[2];
            const float2 k2 = load_float2(&KS(n0 + 8 * j + g, x + 2 * t)), v2 = load_float2(&VS(n0 + 8 * j + g, x + 2 * t));
            kf[0] = k2.x, kf[1] = k2.y, vf[0] = v2.x, vf[1] = v2.y;
            bwd_v2_split(kb, ks, kf, 2);
            bwd_v2_split(vb, vs, vf, 2);
            mma_tf32x3(s[j], qb, qs, kb, ks);
            mma_tf32x3(dp[j], ob, os, vb, vs);
        }
    }
    UNROLL
    for (int j = 0; j < 4; j++)
        UNROLL
        for (int h = 0; h < 2; h++) { /* rows g and g + 8, keys 2t and 2t + 1 */
            const int row = m0 + g + 8 * h, key = n0 + 8 * j + 2 * t;
            float p[2], ds[2];
            UNROLL
            for (int e = 0; e < 2; e++) {
                const int live = row < br && key + e < bc && !(causal && j0 + key + e > i0 + row);
                p[e] = live ? BWD_V2_EXP(scale * s[j][2 * h + e] - Ls[row]) : 0.0f;
                ds[e] = p[e] * (dp[j][2 * h + e] - Ds[row]);
            }
            if (Ps)
                store_float2(&PS(row, key), make_float2(p[0], p[1]));
            store_float2(&DSS(row, key), make_float2(ds[0], ds[1]));
        }
}

/* acc += dS K_j over the tile's keys, 8 at a time: warp w's rows 16 (w % 4)
 * .. +15 and columns (w / 4) D/2 .. +D/2-1, D/16 mma tiles of 8 columns.
 * Keys past bc have dS = 0 and K = 0 (zero-filled). */
__device__ __forceinline__ void bwd_v2_dq_acc(float acc[][4], const float *dSs, const float *Ks, const int D)
{
    const int w = threadIdx.x / 32, g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
    const int m0 = 16 * (w % 4), c0 = (w / 4) * (D / 2);
    for (int key = 0; key < BWD_V2_BC; key += 8) {
        float sf[4], sb[4], ss[4];
        sf[0] = DSS(m0 + g, key + t), sf[1] = DSS(m0 + g + 8, key + t);
        sf[2] = DSS(m0 + g, key + t + 4), sf[3] = DSS(m0 + g + 8, key + t + 4);
        bwd_v2_split(sb, ss, sf, 4);
        UNROLL
        for (int j = 0; j < D / 16; j++) {
            float kf[2], kb[2], ks[2];
            kf[0] = KS(key + t, c0 + 8 * j + g), kf[1] = KS(key + t + 4, c0 + 8 * j + g);
            bwd_v2_split(kb, ks, kf, 2);
            mma_tf32x3(acc[j], sb, ss, kb, ks);
        }
    }
}

/* The main kernel: block (K_j tile, head), 256 threads. dK_j and dV_j (64 keys
 * x D) stay in registers as mma accumulators: warp w holds keys 16 (w % 4)
 * .. +15 and columns (w / 4) D/2 .. +D/2-1. */
__device__ __forceinline__ void bwd_v2_main(float *dQ, float *dK, float *dV, const float *Q, const float *K,
                                            const float *V, const float *dO, const float *L, const float *Dg, int N,
                                            float scale, int causal, int dq_atomic, const int D)
{
    EXTERN_SHARED(float, smem);
    float *Ks = smem, *Vs = Ks + BWD_V2_BC * LD(D), *Qs = Vs + BWD_V2_BC * LD(D), *dOs = Qs + BWD_V2_BR * LD(D);
    float *Ps = dOs + BWD_V2_BR * LD(D), *dSs = Ps + BWD_V2_BR * BWD_V2_LDP, *Ls = dSs + BWD_V2_BR * BWD_V2_LDP;
    float *Ds = Ls + BWD_V2_BR;
    const size_t bh = blockIdx.y;
    const float *q = Q + bh * N * D, *k = K + bh * N * D, *v = V + bh * N * D, *dout = dO + bh * N * D;
    const float *Lh = L + bh * N, *Dh = Dg + bh * N;
    float *dq = dQ + bh * N * D;
    const int j0 = blockIdx.x * BWD_V2_BC, bc = min(BWD_V2_BC, N - j0);
    const int w = threadIdx.x / 32, g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
    const int m0 = 16 * (w % 4), c0 = (w / 4) * (D / 2);
    float dk[BWD_V2_NT_MAX][4], dv[BWD_V2_NT_MAX][4];
    UNROLL
    for (int j = 0; j < D / 16; j++)
        UNROLL
        for (int e = 0; e < 4; e++)
            dk[j][e] = dv[j][e] = 0.0f;
    bwd_v2_load(Ks, k, j0, bc, D);
    bwd_v2_load(Vs, v, j0, bc, D);
    /* with causal, the first query tile that sees key j0 is the one holding row j0 */
    for (int i0 = causal ? j0 / BWD_V2_BR * BWD_V2_BR : 0; i0 < N; i0 += BWD_V2_BR) {
        const int br = min(BWD_V2_BR, N - i0);
        __syncthreads(); /* the previous step's readers of Qs, dOs, Ps, dSs are done */
        bwd_v2_load_rows(Qs, dOs, Ls, Ds, q, dout, Lh, Dh, i0, br, D);
        __syncthreads();
        bwd_v2_scores(Ps, dSs, Qs, dOs, Ks, Vs, Ls, Ds, i0, br, j0, bc, scale, causal, D);
        __syncthreads();
        /* dV_j += P^T dO_i, dK_j += dS^T Q_i (scaled at the end), 8 rows at a
         * time: P^T's fragment is P read down its columns (keys m0 + g). This
         * tile's share is summed by the tensor cores in fresh accumulators (pv,
         * pk: S's and dP's registers, free again) and added to dV_j, dK_j by
         * FADD. LESSON: the tensor cores' own sums truncate (round toward zero);
         * chained over every query tile (1536 mma at N = 4096), the error grew
         * with N to 1.4e-4 of max|dK| on the H200, 25x PyTorch's (docs/NOTES.md). */
        float pv[BWD_V2_NT_MAX][4], pk[BWD_V2_NT_MAX][4];
        UNROLL
        for (int j = 0; j < D / 16; j++)
            UNROLL
            for (int e = 0; e < 4; e++)
                pv[j][e] = pk[j][e] = 0.0f;
        for (int row = 0; row < BWD_V2_BR; row += 8) {
            float pf[4], pb[4], ps[4], sf[4], sb[4], ss[4];
            pf[0] = PS(row + t, m0 + g), pf[1] = PS(row + t, m0 + g + 8);
            pf[2] = PS(row + t + 4, m0 + g), pf[3] = PS(row + t + 4, m0 + g + 8);
            sf[0] = DSS(row + t, m0 + g), sf[1] = DSS(row + t, m0 + g + 8);
            sf[2] = DSS(row + t + 4, m0 + g), sf[3] = DSS(row + t + 4, m0 + g + 8);
            bwd_v2_split(pb, ps, pf, 4);
            bwd_v2_split(sb, ss, sf, 4);
            UNROLL
            for (int j = 0; j < D / 16; j++) {
                const int c = c0 + 8 * j + g;
                float of[2], ob[2], os[2], qf[2], qb[2], qs[2];
                of[0] = DOS(row + t, c), of[1] = DOS(row + t + 4, c);
                qf[0] = QS(row + t, c), qf[1] = QS(row + t + 4, c);
                bwd_v2_split(ob, os, of, 2);
                bwd_v2_split(qb, qs, qf, 2);
                mma_tf32x3(pv[j], pb, ps, ob, os);
                mma_tf32x3(pk[j], sb, ss, qb, qs);
            }
        }
        UNROLL
        for (int j = 0; j < D / 16; j++)
            UNROLL
            for (int e = 0; e < 4; e++) {
                dv[j][e] += pv[j][e];
                dk[j][e] += pk[j][e];
            }
        if (!dq_atomic)
            continue;
        /* LESSON: dQ_i = scale dS K_j summed over every K_j tile, i.e. over
         * blocks: each block adds its share to HBM with atomicAdd (dQ was
         * zeroed), one read-modify-write of dQ_i per (i, j) tile pair. */
        float acc[BWD_V2_NT_MAX][4];
        UNROLL
        for (int j = 0; j < D / 16; j++)
            UNROLL
            for (int e = 0; e < 4; e++)
                acc[j][e] = 0.0f;
        bwd_v2_dq_acc(acc, dSs, Ks, D);
        /* the share goes through shared memory (the P and dS tiles, read by now) so that a
         * warp's atomicAdd covers 32 consecutive floats of one row: 4 sectors a request. Each
         * thread adding its own elements directly (16 sectors a request, with the SIMT tiles
         * of then) took 23.66 ms against 22.74 at B = 4, H = 16, N = 4096, d = 64 on the
         * H200 (docs/gpu/bwd-run5) */
        float *T = Ps; /* 64 rows of LD(D) floats: fits in Ps and dSs (2 x 64 x BWD_V2_LDP) */
        __syncthreads(); /* every warp is done reading Ps and dSs */
        UNROLL
        for (int j = 0; j < D / 16; j++) {
            store_float2(T + (m0 + g) * LD(D) + c0 + 8 * j + 2 * t, make_float2(scale * acc[j][0], scale * acc[j][1]));
            store_float2(T + (m0 + g + 8) * LD(D) + c0 + 8 * j + 2 * t,
                         make_float2(scale * acc[j][2], scale * acc[j][3]));
        }
        __syncthreads();
        for (int e = threadIdx.x; e < br * D; e += BWD_V2_THREADS)
            atomicAdd(&dq[(size_t)i0 * D + e], T[e / D * LD(D) + e % D]);
    }
    float *dkh = dK + bh * N * D + (size_t)j0 * D, *dvh = dV + bh * N * D + (size_t)j0 * D;
    UNROLL
    for (int j = 0; j < D / 16; j++)
        UNROLL
        for (int h = 0; h < 2; h++) /* keys m0 + g and m0 + g + 8, columns 2t and 2t + 1 */
            if (m0 + g + 8 * h < bc)
                st_global_v2(dkh + (m0 + g + 8 * h) * D + c0 + 8 * j + 2 * t, scale * dk[j][2 * h],
                             scale * dk[j][2 * h + 1]);
    UNROLL
    for (int j = 0; j < D / 16; j++)
        UNROLL
        for (int h = 0; h < 2; h++)
            if (m0 + g + 8 * h < bc)
                st_global_v2(dvh + (m0 + g + 8 * h) * D + c0 + 8 * j + 2 * t, dv[j][2 * h], dv[j][2 * h + 1]);
}

/* The separate dQ pass: block (query tile, head) walks the K_j, V_j tiles
 * its rows see, recomputing P and dS (the main kernel's work a second
 * time), and writes dQ_i once: no atomics, 40 % more FLOPs. */
__device__ __forceinline__ void bwd_v2_dq(float *dQ, const float *Q, const float *K, const float *V, const float *dO,
                                          const float *L, const float *Dg, int N, float scale, int causal, const int D)
{
    EXTERN_SHARED(float, smem);
    float *Ks = smem, *Vs = Ks + BWD_V2_BC * LD(D), *Qs = Vs + BWD_V2_BC * LD(D), *dOs = Qs + BWD_V2_BR * LD(D);
    float *dSs = dOs + BWD_V2_BR * LD(D) + BWD_V2_BR * BWD_V2_LDP;
    float *Ls = dSs + BWD_V2_BR * BWD_V2_LDP, *Ds = Ls + BWD_V2_BR;
    const size_t bh = blockIdx.y;
    const float *q = Q + bh * N * D, *k = K + bh * N * D, *v = V + bh * N * D, *dout = dO + bh * N * D;
    const int i0 = blockIdx.x * BWD_V2_BR, br = min(BWD_V2_BR, N - i0);
    const int jend = causal ? min(N, i0 + BWD_V2_BR) : N;
    const int w = threadIdx.x / 32, g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
    const int m0 = 16 * (w % 4), c0 = (w / 4) * (D / 2);
    float acc[BWD_V2_NT_MAX][4];
    UNROLL
    for (int j = 0; j < D / 16; j++)
        UNROLL
        for (int e = 0; e < 4; e++)
            acc[j][e] = 0.0f;
    bwd_v2_load_rows(Qs, dOs, Ls, Ds, q, dout, L + bh * N, Dg + bh * N, i0, br, D);
    for (int j0 = 0; j0 < jend; j0 += BWD_V2_BC) {
        const int bc = min(BWD_V2_BC, N - j0);
        __syncthreads(); /* the previous step's readers of Ks, Vs, dSs are done */
        bwd_v2_load(Ks, k, j0, bc, D);
        bwd_v2_load(Vs, v, j0, bc, D);
        __syncthreads();
        bwd_v2_scores(NULL, dSs, Qs, dOs, Ks, Vs, Ls, Ds, i0, br, j0, bc, scale, causal, D);
        __syncthreads();
        float part[BWD_V2_NT_MAX][4]; /* this key tile's share, added by FADD (see bwd_v2_main) */
        UNROLL
        for (int j = 0; j < D / 16; j++)
            UNROLL
            for (int e = 0; e < 4; e++)
                part[j][e] = 0.0f;
        bwd_v2_dq_acc(part, dSs, Ks, D);
        UNROLL
        for (int j = 0; j < D / 16; j++)
            UNROLL
            for (int e = 0; e < 4; e++)
                acc[j][e] += part[j][e];
    }
    float *dq = dQ + bh * N * D;
    UNROLL
    for (int j = 0; j < D / 16; j++)
        UNROLL
        for (int h = 0; h < 2; h++)
            if (m0 + g + 8 * h < br)
                store_float2(dq + (size_t)(i0 + m0 + g + 8 * h) * D + c0 + 8 * j + 2 * t,
                             make_float2(scale * acc[j][2 * h], scale * acc[j][2 * h + 1]));
}
#undef LD
#undef BWD_V2_NT_MAX
#undef KS
#undef VS
#undef QS
#undef DOS
#undef PS
#undef DSS

/* d is a compile-time constant of the register tiles: one kernel per d. */
#define BWD_V2_ENTRY(dd)                                                                                          \
    __global__ void BWD_V2_BOUNDS(dd)                                                                             \
        attn_bwd_v2_d##dd(float *dQ, float *dK, float *dV, const float *Q, const float *K, const float *V,        \
                          const float *dO, const float *L, const float *D, int N, float scale, int causal,        \
                          int dq_atomic)                                                                          \
    {                                                                                                             \
        bwd_v2_main(dQ, dK, dV, Q, K, V, dO, L, D, N, scale, causal, dq_atomic, dd);                              \
    }                                                                                                             \
    __global__ void BWD_V2_BOUNDS(dd)                                                                             \
        attn_bwd_v2_dq_d##dd(float *dQ, const float *Q, const float *K, const float *V, const float *dO,          \
                             const float *L, const float *D, int N, float scale, int causal)                      \
    {                                                                                                             \
        bwd_v2_dq(dQ, Q, K, V, dO, L, D, N, scale, causal, dd);                                                   \
    }
BWD_V2_ENTRY(16)
BWD_V2_ENTRY(32)
BWD_V2_ENTRY(64)
BWD_V2_ENTRY(128)

/* ---- launchers ------------------------------------------------------------------ */
LAUNCHER(attn_bwd_std_mm, (float *, C), (const float *, A), (const float *, B), (int, M), (int, Nc), (int, K),
         (int, lda), (int, ldb), (int, ta), (int, tb), (long long, strideA), (long long, strideB),
         (long long, strideC), (float, alpha), (int, causal))
LAUNCHER(attn_bwd_std_ds, (float *, dS), (const float *, P), (const float *, dP), (int, N), (int, causal))
LAUNCHER(attn_bwd_v1_init, (float *, dQ), (long long, n))
LAUNCHER(attn_bwd_v1, (float *, dQ), (float *, dK), (float *, dV), (const float *, Q), (const float *, K),
         (const float *, V), (const float *, O), (const float *, dO), (const float *, l), (const float *, m),
         (int, N), (int, d), (int, Br), (int, Bc), (float, scale), (int, causal))
LAUNCHER(attn_bwd_v2_pre, (float *, L), (float *, D), (const float *, O), (const float *, dO), (const float *, l),
         (const float *, m), (long long, rows), (int, d))
#define BWD_V2_LAUNCHERS(dd)                                                                                      \
    LAUNCHER(attn_bwd_v2_d##dd, (float *, dQ), (float *, dK), (float *, dV), (const float *, Q),                  \
             (const float *, K), (const float *, V), (const float *, dO), (const float *, L), (const float *, D), \
             (int, N), (float, scale), (int, causal), (int, dq_atomic))                                           \
    LAUNCHER(attn_bwd_v2_dq_d##dd, (float *, dQ), (const float *, Q), (const float *, K), (const float *, V),     \
             (const float *, dO), (const float *, L), (const float *, D), (int, N), (float, scale), (int, causal))
BWD_V2_LAUNCHERS(16)
BWD_V2_LAUNCHERS(32)
BWD_V2_LAUNCHERS(64)
BWD_V2_LAUNCHERS(128)
