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

/* Tuning knobs of v2's loops, for nvcc only (the simulator's counts do not
 * depend on them): unroll factors of the score loop over d (0: nvcc's own
 * choice), of the dV/dK loop over the tile's rows and of the dQ loop over
 * keys. Their values are the ones measured fastest on the H200
 * (scripts/gpu/bwd_tune.sh, docs/parity-h200.md "Lesson 7"). */
#ifndef BWD_V2_X_UNROLL
#define BWD_V2_X_UNROLL 0
#endif
#ifndef BWD_V2_ROW_UNROLL
#define BWD_V2_ROW_UNROLL 1
#endif
#ifndef BWD_V2_KEY_UNROLL
#define BWD_V2_KEY_UNROLL 2 /* 20.62 ms against 20.80 unrolled by nvcc's choice (bwd-tune2) */
#endif
/* BWD_V2_FAST_EXP: P by __expf (ex2.approx) instead of expf. BWD_V2_DQ_VEC:
 * each thread adds its 4 x 4 share of dQ_i by four float4 atomicAdds
 * (sm_90's vector atomics; nvcc only) instead of staging it through shared
 * memory for scalar atomics. */
/* BWD_V2_MIN_BLOCKS: __launch_bounds__' blocks an SM at d <= 64 (2 caps registers
 * at 128; at d = 128 one block fills the shared memory); 0: not given (ptxas
 * then chose 128 registers at d = 64, and 168 with an explicit 1). */
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
#ifndef BWD_V2_DQ_VEC
#define BWD_V2_DQ_VEC 0
#endif
#if BWD_V2_FAST_EXP
#define BWD_V2_EXP __expf
#else
#define BWD_V2_EXP expf
#endif
#ifdef __CUDACC__
#define BWD_PRAGMA_(x) _Pragma(#x)
#define BWD_UNROLL_N(n) BWD_PRAGMA_(unroll n)
#else
#define BWD_UNROLL_N(n)
#endif

/* The shared tiles of both v2 kernels (bwd_v2_shared_bytes): rows of
 * BWD_V2_LD(d) = d + 4 floats, so that a row starts 16-byte aligned (every
 * read is a float4: one 16-byte LDS moves 4 floats where a float moves 1)
 * and rows r and r + 1 start 4 banks apart: a warp's float4s from 8
 * consecutive rows, or from 16 consecutive columns, fill 32 banks once. */
#define LD(D) BWD_V2_LD(D)
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

/* A 16-byte store to global memory. nvcc split store_float4 of the main
 * kernel's dK, dV registers into four 4-byte stores (4x the L1 sectors: the
 * H200 counted them); the PTX instruction keeps it one. */
#ifdef __CUDACC__
__device__ __forceinline__ void st_global_v4(float *p, float a, float b, float c, float d)
{
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(__cvta_generic_to_global(p)), "f"(a), "f"(b),
                 "f"(c), "f"(d)
                 : "memory");
}
#else
#define st_global_v4(p, a, b, c, d) store_float4((p), make_float4((a), (b), (c), (d)))
#endif

/* LESSON: the tiles below are shaped for shared memory's wavefronts. A warp's
 * 16-byte reads (LDS.128) go in two passes of 16 lanes when every quad of
 * lanes (0-3, 4-7, ...) asks for at most 2 distinct 16-byte chunks, else in
 * four passes of 8; a pass costs one wavefront (128 bytes, one cycle) when
 * its chunks fall in different banks (docs/NOTES.md, the measured rule). So
 * the lanes of a quad are a 2 x 2 square of the tile: rows (or keys) a, and
 * columns (or keys) b, with
 *   a = 2 (quad % 2) + lane % 2        (0..3)
 *   b = 2 (quad / 2) + (lane / 2) % 2  (0..7),   quad = lane / 4,
 * and every operand read costs 2 wavefronts for 16 lanes' worth of data:
 * 128 FMAs a wavefront, what the FP32 units need (the 4 x 4 tiles of the
 * first version, quads of 4 keys, cost 1.5x as many wavefronts). */
#define QUAD_A(l) (2 * ((l) / 4 % 2) + (l) % 2)
#define QUAD_B(l) (2 * ((l) / 8) + (l) / 2 % 2)

/* The 64 x 64 tile of (rows i0.., keys j0..): warp w computes rows
 * 16 (w % 4) + a + 4 i and keys 32 (w / 4) + b + 8 j (i, j < 4). It
 * recomputes P = exp(scale Q K^T - L) and dP = dO V^T from the shared tiles,
 * 4 columns of d at a time, and writes P (when Ps is not NULL) and
 * dS = P * (dP - D) to shared memory. Masked and out-of-range entries are 0. */
__device__ __forceinline__ void bwd_v2_scores(float *Ps, float *dSs, const float *Qs, const float *dOs,
                                              const float *Ks, const float *Vs, const float *Ls, const float *Ds,
                                              int i0, int br, int j0, int bc, float scale, int causal, const int D)
{
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int r0 = 16 * (w % 4) + QUAD_A(lane), k0 = 32 * (w / 4) + QUAD_B(lane);
    float s[4][4], dp[4][4];
    UNROLL
    for (int i = 0; i < 4; i++)
        UNROLL
        for (int j = 0; j < 4; j++)
            s[i][j] = dp[i][j] = 0.0f;
#if BWD_V2_X_UNROLL
    BWD_UNROLL_N(BWD_V2_X_UNROLL)
#endif
    for (int x = 0; x < D; x += 4) {
        float4 qa[4], oa[4], kb[4], vb[4];
        UNROLL
        for (int i = 0; i < 4; i++) {
            qa[i] = load_float4(&QS(r0 + 4 * i, x));
            oa[i] = load_float4(&DOS(r0 + 4 * i, x));
        }
        UNROLL
        for (int j = 0; j < 4; j++) {
            kb[j] = load_float4(&KS(k0 + 8 * j, x));
            vb[j] = load_float4(&VS(k0 + 8 * j, x));
        }
        UNROLL
        for (int i = 0; i < 4; i++)
            UNROLL
            for (int j = 0; j < 4; j++) {
                /* one accumulation a product: nvcc makes each an FFMA. Written as
                 * s += a.x b.x + a.y b.y + ..., it made FMUL, 3 FFMA and FADD of every
                 * 4 products, 10 % more instructions in a kernel whose issue slots
                 * were 74 % busy (the H200's profile, docs/gpu/bwd-run6) */
                s[i][j] += qa[i].x * kb[j].x;
                s[i][j] += qa[i].y * kb[j].y;
                s[i][j] += qa[i].z * kb[j].z;
                s[i][j] += qa[i].w * kb[j].w;
                dp[i][j] += oa[i].x * vb[j].x;
                dp[i][j] += oa[i].y * vb[j].y;
                dp[i][j] += oa[i].z * vb[j].z;
                dp[i][j] += oa[i].w * vb[j].w;
            }
    }
    UNROLL
    for (int i = 0; i < 4; i++)
        UNROLL
        for (int j = 0; j < 4; j++) {
            const int row = r0 + 4 * i, key = k0 + 8 * j;
            const int live = row < br && key < bc && !(causal && j0 + key > i0 + row);
            const float p = live ? BWD_V2_EXP(scale * s[i][j] - Ls[row]) : 0.0f;
            if (Ps)
                PS(row, key) = p;
            DSS(row, key) = p * (dp[i][j] - Ds[row]);
        }
}

/* acc (rows 16 (w % 4) + a + 4 i, columns 32 (w / 4) + 4 b + 64 g ..+3) +=
 * dS K_j over the tile's keys, 4 at a time. Keys past bc have dS = 0 and
 * K = 0 (zero-filled). Returns at once for a thread without columns (d < 64). */
__device__ __forceinline__ void bwd_v2_dq_acc(float acc[4][8], const float *dSs, const float *Ks, int bc,
                                              const int D)
{
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32, G = (D + 63) / 64;
    const int r0 = 16 * (w % 4) + QUAD_A(lane), c0 = 32 * (w / 4) + 4 * QUAD_B(lane);
    if (c0 >= D)
        return;
    BWD_UNROLL_N(BWD_V2_KEY_UNROLL)
    for (int key = 0; key < bc; key += 4) {
        float4 sa[4];
        UNROLL
        for (int i = 0; i < 4; i++)
            sa[i] = load_float4(&DSS(r0 + 4 * i, key));
        UNROLL
        for (int g = 0; g < G; g++) {
            const float4 k0 = load_float4(&KS(key, c0 + 64 * g)), k1 = load_float4(&KS(key + 1, c0 + 64 * g));
            const float4 k2 = load_float4(&KS(key + 2, c0 + 64 * g)), k3 = load_float4(&KS(key + 3, c0 + 64 * g));
            UNROLL
            for (int i = 0; i < 4; i++) { /* one FFMA a product, as in bwd_v2_scores */
                acc[i][4 * g + 0] += sa[i].x * k0.x;
                acc[i][4 * g + 1] += sa[i].x * k0.y;
                acc[i][4 * g + 2] += sa[i].x * k0.z;
                acc[i][4 * g + 3] += sa[i].x * k0.w;
                acc[i][4 * g + 0] += sa[i].y * k1.x;
                acc[i][4 * g + 1] += sa[i].y * k1.y;
                acc[i][4 * g + 2] += sa[i].y * k1.z;
                acc[i][4 * g + 3] += sa[i].y * k1.w;
                acc[i][4 * g + 0] += sa[i].z * k2.x;
                acc[i][4 * g + 1] += sa[i].z * k2.y;
                acc[i][4 * g + 2] += sa[i].z * k2.z;
                acc[i][4 * g + 3] += sa[i].z * k2.w;
                acc[i][4 * g + 0] += sa[i].w * k3.x;
                acc[i][4 * g + 1] += sa[i].w * k3.y;
                acc[i][4 * g + 2] += sa[i].w * k3.z;
                acc[i][4 * g + 3] += sa[i].w * k3.w;
            }
        }
    }
}

/* The main kernel: block (K_j tile, head), 256 threads. dK_j and dV_j (64 keys
 * x D) stay in registers: warp w holds keys 16 (w % 4) + 4 a .. +3 and
 * columns 32 (w / 4) + 4 b + 64 g .. +3 (at d = 16, 32 some threads have none). */
__device__ __forceinline__ void bwd_v2_main(float *dQ, float *dK, float *dV, const float *Q, const float *K,
                                            const float *V, const float *dO, const float *L, const float *Dg, int N,
                                            float scale, int causal, int dq_atomic, const int D)
{
    EXTERN_SHARED(float, smem);
    float *Ks = smem, *Vs = Ks + BWD_V2_BC * LD(D), *Qs = Vs + BWD_V2_BC * LD(D), *dOs = Qs + BWD_V2_BR * LD(D);
    float *Ps = dOs + BWD_V2_BR * LD(D), *dSs = Ps + BWD_V2_BR * BWD_V2_LDP, *Ls = dSs + BWD_V2_BR * BWD_V2_LDP;
    float *Ds = Ls + BWD_V2_BR;
    const int G = (D + 63) / 64; /* float4 column groups per thread */
    const size_t bh = blockIdx.y;
    const float *q = Q + bh * N * D, *k = K + bh * N * D, *v = V + bh * N * D, *dout = dO + bh * N * D;
    const float *Lh = L + bh * N, *Dh = Dg + bh * N;
    float *dq = dQ + bh * N * D;
    const int j0 = blockIdx.x * BWD_V2_BC, bc = min(BWD_V2_BC, N - j0);
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int kq = 16 * (w % 4) + 4 * QUAD_A(lane), c0 = 32 * (w / 4) + 4 * QUAD_B(lane), has_cols = c0 < D;
    float dk[4][8], dv[4][8];
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 8; c++)
            dk[r][c] = dv[r][c] = 0.0f;
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
        /* dV_j += P^T dO_i, dK_j += dS^T Q_i (scaled at the end), row by row */
        BWD_UNROLL_N(BWD_V2_ROW_UNROLL)
        for (int row = 0; has_cols && row < br; row++) {
            const float4 pa = load_float4(&PS(row, kq)), sa = load_float4(&DSS(row, kq));
            const float pr[4] = {pa.x, pa.y, pa.z, pa.w}, sr[4] = {sa.x, sa.y, sa.z, sa.w};
            UNROLL
            for (int g = 0; g < G; g++) {
                const float4 o4 = load_float4(&DOS(row, c0 + 64 * g)), q4 = load_float4(&QS(row, c0 + 64 * g));
                UNROLL
                for (int r = 0; r < 4; r++) {
                    dv[r][4 * g + 0] += pr[r] * o4.x;
                    dv[r][4 * g + 1] += pr[r] * o4.y;
                    dv[r][4 * g + 2] += pr[r] * o4.z;
                    dv[r][4 * g + 3] += pr[r] * o4.w;
                    dk[r][4 * g + 0] += sr[r] * q4.x;
                    dk[r][4 * g + 1] += sr[r] * q4.y;
                    dk[r][4 * g + 2] += sr[r] * q4.z;
                    dk[r][4 * g + 3] += sr[r] * q4.w;
                }
            }
        }
        if (!dq_atomic)
            continue;
        /* LESSON: dQ_i = scale dS K_j summed over every K_j tile, i.e. over
         * blocks: each block adds its share to HBM with atomicAdd (dQ was
         * zeroed), one read-modify-write of dQ_i per (i, j) tile pair. */
        float acc[4][8];
        UNROLL
        for (int r = 0; r < 4; r++)
            UNROLL
            for (int c = 0; c < 8; c++)
                acc[r][c] = 0.0f;
        bwd_v2_dq_acc(acc, dSs, Ks, bc, D);
        const int r0 = 16 * (w % 4) + QUAD_A(lane);
#if defined(__CUDACC__) && BWD_V2_DQ_VEC
        UNROLL
        for (int i = 0; i < 4; i++)
            UNROLL
            for (int g = 0; g < G; g++)
                if (has_cols && r0 + 4 * i < br)
                    atomicAdd((float4 *)(dq + (size_t)(i0 + r0 + 4 * i) * D + c0 + 64 * g),
                              make_float4(scale * acc[i][4 * g], scale * acc[i][4 * g + 1], scale * acc[i][4 * g + 2],
                                          scale * acc[i][4 * g + 3]));
        continue;
#endif
        /* the share goes through shared memory (the P and dS tiles, read by now) so that a
         * warp's atomicAdd covers 32 consecutive floats of one row: 4 sectors a request. Each
         * thread adding its own 4 x 4 directly (16 sectors a request) took 23.66 ms against
         * 22.74 at B = 4, H = 16, N = 4096, d = 64 on the H200 (docs/gpu/bwd-run5) */
        float *T = Ps; /* 64 rows of LD(D) floats: fits in Ps and dSs (2 x 64 x BWD_V2_LDP) */
        __syncthreads(); /* every warp is done reading Ps and dSs */
        UNROLL
        for (int i = 0; i < 4; i++)
            UNROLL
            for (int g = 0; g < G; g++)
                if (has_cols)
                    store_float4(T + (r0 + 4 * i) * LD(D) + c0 + 64 * g,
                                 make_float4(scale * acc[i][4 * g], scale * acc[i][4 * g + 1],
                                             scale * acc[i][4 * g + 2], scale * acc[i][4 * g + 3]));
        __syncthreads();
        for (int e = threadIdx.x; e < br * D; e += BWD_V2_THREADS)
            atomicAdd(&dq[(size_t)i0 * D + e], T[e / D * LD(D) + e % D]);
    }
    float *dkh = dK + bh * N * D + (size_t)j0 * D, *dvh = dV + bh * N * D + (size_t)j0 * D;
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int g = 0; g < G; g++)
            if (has_cols && kq + r < bc)
                st_global_v4(dkh + (kq + r) * D + c0 + 64 * g, scale * dk[r][4 * g], scale * dk[r][4 * g + 1],
                             scale * dk[r][4 * g + 2], scale * dk[r][4 * g + 3]);
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int g = 0; g < G; g++)
            if (has_cols && kq + r < bc)
                st_global_v4(dvh + (kq + r) * D + c0 + 64 * g, dv[r][4 * g], dv[r][4 * g + 1], dv[r][4 * g + 2],
                             dv[r][4 * g + 3]);
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
    const int G = (D + 63) / 64;
    const size_t bh = blockIdx.y;
    const float *q = Q + bh * N * D, *k = K + bh * N * D, *v = V + bh * N * D, *dout = dO + bh * N * D;
    const int i0 = blockIdx.x * BWD_V2_BR, br = min(BWD_V2_BR, N - i0);
    const int jend = causal ? min(N, i0 + BWD_V2_BR) : N;
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int r0 = 16 * (w % 4) + QUAD_A(lane), c0 = 32 * (w / 4) + 4 * QUAD_B(lane);
    float acc[4][8];
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 8; c++)
            acc[r][c] = 0.0f;
    bwd_v2_load_rows(Qs, dOs, Ls, Ds, q, dout, L + bh * N, Dg + bh * N, i0, br, D);
    for (int j0 = 0; j0 < jend; j0 += BWD_V2_BC) {
        const int bc = min(BWD_V2_BC, N - j0);
        __syncthreads(); /* the previous step's readers of Ks, Vs, dSs are done */
        bwd_v2_load(Ks, k, j0, bc, D);
        bwd_v2_load(Vs, v, j0, bc, D);
        __syncthreads();
        bwd_v2_scores(NULL, dSs, Qs, dOs, Ks, Vs, Ls, Ds, i0, br, j0, bc, scale, causal, D);
        __syncthreads();
        bwd_v2_dq_acc(acc, dSs, Ks, bc, D);
    }
    float *dq = dQ + bh * N * D;
    UNROLL
    for (int i = 0; i < 4; i++)
        UNROLL
        for (int g = 0; g < G; g++)
            if (c0 < D && r0 + 4 * i < br)
                store_float4(dq + (size_t)(i0 + r0 + 4 * i) * D + c0 + 64 * g,
                             make_float4(scale * acc[i][4 * g], scale * acc[i][4 * g + 1], scale * acc[i][4 * g + 2],
                                         scale * acc[i][4 * g + 3]));
}
#undef QUAD_A
#undef QUAD_B
#undef LD
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
