/* lessons/04_attention/attention.cu - standard attention against FlashAttention.
 *
 * O = softmax(scale * Q K^T) V for every (batch, head), fp32, scale = 1/sqrt(d),
 * optionally causal (query i sees keys j <= i). Shapes, row-major:
 *   q, k, v, o : (B, H, N, d)    s, p : (B, H, N, N)    l, m : (B, H, N)
 * A kernel sees one (b, h) slab at a time: bh = b * H + h.
 *
 * Order: the CPU reference, the kernels (standard, flash v1, flash v2), the
 * launchers. The same file is compiled by nvcc for the GPU and by gcc for
 * the simulator. lessons/04_attention/README.md derives the exact HBM bytes
 * of every kernel; tests/test_attention.c asserts them.
 */
#include <stdlib.h>

#include "kernel.h"
#include "attention.h"

#ifndef __CUDACC__ /* host code: compiled once, in the simulator build */
/* ---- CPU reference, double precision ------------------------------------------ */
/* One head (q, k, v, o are its (N, d) slabs), the rows i = 0, step, 2 step, ... only;
 * l and m (N each, may be NULL) get each row's softmax sum and maximum. Each score
 * q_i . k_j is summed over c in order; K is read transposed (kt[c][j]), so that the
 * sums of a row's keys run side by side, in the CPU's vector registers (the kernel
 * units are compiled without auto-vectorisation: one source access is one counted
 * access; host code like this has no counts, so it asks for it). NULL-free: on no
 * memory o gets NaN, which the check reports. */
__host__ __attribute__((optimize("tree-vectorize"))) void attention_cpu_rows(double *o, double *l, double *m,
                                                                              const float *q, const float *k,
                                                                              const float *v, int N, int d,
                                                                              int causal, int step)
{
    const double scale = 1.0 / sqrt((double)d);
    double *s = (double *)malloc((size_t)(N + d) * sizeof *s), *acc = s ? s + N : NULL;
    float *kt = (float *)malloc((size_t)N * d * sizeof *kt);
    if (!s || !kt) {
        for (int i = 0; i < N; i += step)
            for (int c = 0; c < d; c++)
                o[(size_t)i * d + c] = NAN;
        free(s);
        free(kt);
        return;
    }
    for (int j = 0; j < N; j++)
        for (int c = 0; c < d; c++)
            kt[(size_t)c * N + j] = k[(size_t)j * d + c];
    for (int i = 0; i < N; i += step) {
        int len = causal ? i + 1 : N;
        double mx = -INFINITY, sum = 0;
        const float *qi = q + (size_t)i * d;
        int j;
        for (j = 0; j < len; j++)
            s[j] = 0;
        for (int c = 0; c < d; c++) { /* every key's sum gets its term c: each sum still in order */
            const double x = qi[c];
            const float *ktc = kt + (size_t)c * N;
            for (j = 0; j < len; j++)
                s[j] += x * ktc[j];
        }
        for (j = 0; j < len; j++)
            s[j] *= scale;
        for (j = 0; j < len; j++)
            mx = s[j] > mx ? s[j] : mx;
        for (j = 0; j < len; j++) {
            s[j] = exp(s[j] - mx);
            sum += s[j];
        }
        if (l)
            l[i] = sum;
        if (m)
            m[i] = mx;
        /* O_i = P_i V / l_i, row of V after row (each column's sum still runs over j
         * in order: the same result as column by column, without the stride) */
        for (int c = 0; c < d; c++)
            acc[c] = 0;
        for (j = 0; j < len; j++)
            for (int c = 0; c < d; c++)
                acc[c] += s[j] * v[(size_t)j * d + c];
        for (int c = 0; c < d; c++)
            o[(size_t)i * d + c] = acc[c] / sum;
    }
    free(s);
    free(kt);
}

/* Every row of BH heads. */
__host__ void attention_cpu(double *o, const float *q, const float *k, const float *v, int BH, int N, int d,
                            int causal)
{
    for (int bh = 0; bh < BH; bh++) {
        size_t off = (size_t)bh * N * d;
        attention_cpu_rows(o + off, NULL, NULL, q + off, k + off, v + off, N, d, causal, 1);
    }
}
#endif

/* ================================================================================
 * Standard attention: three kernels, S and P written to HBM.
 * ================================================================================ */

/* A 64x64 tile of the output per block of 16x16 threads; each thread owns a
 * 4x4 register tile (rows ty + 16r, columns tx + 16c, so a warp's accesses to
 * shared memory and to the output are consecutive). The reduction dimension
 * is staged through shared memory 16 at a time. Shared tiles are stored
 * transposed, [k][row], with rows padded to 66 floats: the transposing store
 * of a warp (2 rows x 16 columns) then hits 32 different banks. */
#define STD_TILE 64
#define STD_BK 16
#define STD_PAD (STD_TILE + 2)

/* The inner product of both matmuls: acc[r][c] += A[k][ty + 16 r] * B[k][tx + 16 c]
 * over the STD_BK staged values of k; A and B are [k][.] tiles in shared memory
 * with rows of lda and ldb floats. 8 shared loads feed 16 FMAs. */
__device__ __forceinline__ void tile_fma(float acc[4][4], const float *A, int lda, const float *B, int ldb, int ty,
                                         int tx)
{
    for (int kk = 0; kk < STD_BK; kk++) {
        float a[4], b[4];
        UNROLL
        for (int r = 0; r < 4; r++)
            a[r] = A[kk * lda + ty + 16 * r];
        UNROLL
        for (int c = 0; c < 4; c++)
            b[c] = B[kk * ldb + tx + 16 * c];
        UNROLL
        for (int r = 0; r < 4; r++)
            UNROLL
            for (int c = 0; c < 4; c++)
                acc[r][c] += a[r] * b[c];
    }
}

/* standard, kernel 1: S = scale * Q K^T, a tiled matmul.
 * grid (ceil(N/64), ceil(N/64), B*H), block (16, 16). With causal, tiles
 * wholly above the diagonal are never read by the softmax and are skipped. */
__global__ void attn_std_scores(float *S, const float *Q, const float *K, int N, int d, float scale, int causal)
{
    __shared__ float Qs[STD_BK][STD_PAD];
    __shared__ float Ks[STD_BK][STD_PAD];
    const int i0 = blockIdx.y * STD_TILE, j0 = blockIdx.x * STD_TILE;
    if (causal && j0 > i0 + STD_TILE - 1)
        return; /* the whole block leaves: no barrier is skipped by part of it */
    const size_t bh = blockIdx.z;
    const float *q = Q + bh * N * d, *k = K + bh * N * d;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    float acc[4][4];
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 4; c++)
            acc[r][c] = 0.0f;
    for (int c0 = 0; c0 < d; c0 += STD_BK) {
        /* LESSON: each thread stages 4 elements of each input tile: coalesced
         * reads of 16 consecutive floats of a row, stored transposed. */
        UNROLL
        for (int p = 0; p < 4; p++) {
            int r = t / 16 + 16 * p, c = c0 + t % 16;
            Qs[t % 16][r] = (i0 + r < N && c < d) ? q[(size_t)(i0 + r) * d + c] : 0.0f;
            Ks[t % 16][r] = (j0 + r < N && c < d) ? k[(size_t)(j0 + r) * d + c] : 0.0f;
        }
        __syncthreads();
        tile_fma(acc, &Qs[0][0], STD_PAD, &Ks[0][0], STD_PAD, ty, tx);
        __syncthreads();
    }
    float *s = S + bh * N * N;
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 4; c++) {
            int i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;
            if (i < N && j < N)
                s[(size_t)i * N + j] = scale * acc[r][c];
        }
}

/* Block-wide reduction (max or sum) of one float per thread: warp shuffles,
 * then one partial per warp through shared memory, which every warp then
 * reduces itself (so no third barrier is needed). blockDim.x % 32 == 0. */
__device__ float block_reduce(float v, float *partials, int is_max)
{
    UNROLL
    for (int off = 16; off > 0; off /= 2) {
        float w = __shfl_xor_sync(0xffffffffu, v, off);
        v = is_max ? fmaxf(v, w) : v + w;
    }
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    __syncthreads(); /* partials may still be read by the previous reduction */
    if (lane == 0)
        partials[warp] = v;
    __syncthreads();
    v = lane < nwarps ? partials[lane] : (is_max ? -INFINITY : 0.0f);
    UNROLL
    for (int off = 16; off > 0; off /= 2) {
        float w = __shfl_xor_sync(0xffffffffu, v, off);
        v = is_max ? fmaxf(v, w) : v + w;
    }
    return v;
}

/* standard, kernel 2: P = softmax(S), row by row, the safe way (lesson 3):
 * pass 1 the row max, pass 2 the sum of exp(s - max), pass 3 the write; each
 * pass reads the row from HBM. One block per row. With causal, row i reads
 * only s[0..i] and writes zeros after it (the PV kernel reads them). */
__global__ void attn_std_softmax(float *P, const float *S, int N, int causal)
{
    __shared__ float partials[32];
    const size_t row = blockIdx.x; /* over B*H*N rows */
    const int i = (int)(row % (size_t)N), len = causal ? i + 1 : N;
    const float *s = S + row * N;
    float *p = P + row * N;
    float mx = -INFINITY;
    for (int j = threadIdx.x; j < len; j += blockDim.x)
        mx = fmaxf(mx, s[j]);
    mx = block_reduce(mx, partials, 1);
    float sum = 0.0f;
    for (int j = threadIdx.x; j < len; j += blockDim.x)
        sum += expf(s[j] - mx);
    sum = block_reduce(sum, partials, 0);
    const float inv = 1.0f / sum;
    for (int j = threadIdx.x; j < N; j += blockDim.x)
        p[j] = j < len ? expf(s[j] - mx) * inv : 0.0f;
}

/* standard, kernel 3: O = P V, the same tiled matmul as kernel 1 with keys as
 * the reduction dimension. grid (ceil(d/64), ceil(N/64), B*H), block (16, 16).
 * With causal, a row tile stops at its last row's key. */
__global__ void attn_std_pv(float *O, const float *P, const float *V, int N, int d, int causal)
{
    __shared__ float Ps[STD_BK][STD_PAD]; /* [key][row] */
    __shared__ float Vs[STD_BK][STD_TILE]; /* [key][column] */
    const size_t bh = blockIdx.z;
    const int i0 = blockIdx.y * STD_TILE, c0 = blockIdx.x * STD_TILE;
    const int kend = causal ? min(N, i0 + STD_TILE) : N;
    const float *p = P + bh * N * N, *v = V + bh * N * d;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    float acc[4][4];
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 4; c++)
            acc[r][c] = 0.0f;
    for (int k0 = 0; k0 < kend; k0 += STD_BK) {
        UNROLL
        for (int e4 = 0; e4 < 4; e4++) {
            int r = t / 16 + 16 * e4, kk = t % 16;
            Ps[kk][r] = (i0 + r < N && k0 + kk < kend) ? p[(size_t)(i0 + r) * N + k0 + kk] : 0.0f;
            int e = t + 256 * e4, key = e / STD_TILE, col = e % STD_TILE;
            Vs[key][col] = (k0 + key < kend && c0 + col < d) ? v[(size_t)(k0 + key) * d + c0 + col] : 0.0f;
        }
        __syncthreads();
        tile_fma(acc, &Ps[0][0], STD_PAD, &Vs[0][0], STD_TILE, ty, tx);
        __syncthreads();
    }
    float *o = O + bh * N * d;
    UNROLL
    for (int r = 0; r < 4; r++)
        UNROLL
        for (int c = 0; c < 4; c++) {
            int i = i0 + ty + 16 * r, col = c0 + tx + 16 * c;
            if (i < N && col < d)
                o[(size_t)i * d + col] = acc[r][c];
        }
}

/* ================================================================================
 * FlashAttention v1: the paper's Algorithm 1, loop for loop.
 * ================================================================================ */

/* Algorithm 1, line 2: O = 0, l = 0, m = -inf, in HBM. Grid-stride loop. */
__global__ void attn_flash_v1_init(float *O, float *l, float *m, long long rows, int d)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < rows * d; e += stride)
        O[e] = 0.0f;
    for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride) {
        l[r] = 0.0f;
        m[r] = -INFINITY;
    }
}

/* v1: one block per (b, h) runs the paper's double loop: the outer loop over
 * K_j, V_j tiles (Bc keys, loaded once), the inner loop over Q_i tiles (Br
 * rows), and O_i, l_i, m_i go back to HBM after every inner step (lines
 * 8 and 13). All tiles live in dynamic shared memory:
 *   Ks, Vs [Bc][d]  Qs, Os [Br][d]  Ss [Br][Bc]  ls, ms, fa, fb [Br]
 * This is the loop order FlashAttention-2 later inverted: the outer loop is
 * sequential, so a block can only parallelise over one Q tile at a time. */
__global__ void attn_flash_v1(float *O, float *l, float *m, const float *Q, const float *K, const float *V, int N,
                              int d, int Br, int Bc, float scale, int causal)
{
    EXTERN_SHARED(float, smem);
    float *Ks = smem, *Vs = Ks + Bc * d, *Qs = Vs + Bc * d, *Os = Qs + Br * d, *Ss = Os + Br * d;
    float *ls = Ss + Br * Bc, *ms = ls + Br, *fa = ms + Br, *fb = fa + Br;
    const size_t bh = blockIdx.x;
    const float *q = Q + bh * N * d, *k = K + bh * N * d, *v = V + bh * N * d;
    float *o = O + bh * N * d, *lg = l + bh * N, *mg = m + bh * N;
    const int t = threadIdx.x, T = blockDim.x, lane = t % 32, warp = t / 32, nwarps = T / 32;

    for (int j0 = 0; j0 < N; j0 += Bc) { /* line 5 */
        const int bc = min(Bc, N - j0);
        for (int e = t; e < bc * d; e += T) { /* line 6: K_j, V_j to SRAM */
            Ks[e] = k[(size_t)j0 * d + e];
            Vs[e] = v[(size_t)j0 * d + e];
        }
        __syncthreads();
        /* line 7; with causal, Q tiles whose last row is before j0 see none of K_j */
        for (int i0 = causal ? (j0 / Br) * Br : 0; i0 < N; i0 += Br) {
            const int br = min(Br, N - i0);
            for (int e = t; e < br * d; e += T) { /* line 8: Q_i, O_i, l_i, m_i to SRAM */
                Qs[e] = q[(size_t)i0 * d + e];
                Os[e] = o[(size_t)i0 * d + e];
            }
            for (int r = t; r < br; r += T) {
                ls[r] = lg[i0 + r];
                ms[r] = mg[i0 + r];
            }
            __syncthreads();
            for (int e = t; e < br * bc; e += T) { /* line 9: S_ij = scale Q_i K_j^T */
                const int r = e / bc, c = e % bc;
                float acc = 0.0f;
                for (int x = 0; x < d; x++)
                    acc += Qs[r * d + x] * Ks[c * d + x];
                Ss[e] = causal && j0 + c > i0 + r ? -INFINITY : acc * scale;
            }
            __syncthreads();
            for (int r = warp; r < br; r += nwarps) { /* lines 10-11, one warp per row */
                float mt = -INFINITY;
                for (int c = lane; c < bc; c += 32)
                    mt = fmaxf(mt, Ss[r * bc + c]);
                UNROLL
                for (int off = 16; off > 0; off /= 2)
                    mt = fmaxf(mt, __shfl_xor_sync(0xffffffffu, mt, off));
                float lt = 0.0f;
                for (int c = lane; c < bc; c += 32) {
                    float pv = mt == -INFINITY ? 0.0f : expf(Ss[r * bc + c] - mt);
                    Ss[r * bc + c] = pv;
                    lt += pv;
                }
                UNROLL
                for (int off = 16; off > 0; off /= 2)
                    lt += __shfl_xor_sync(0xffffffffu, lt, off);
                if (lane == 0) {
                    const float mi = ms[r], li = ls[r], mnew = fmaxf(mi, mt);
                    const float ei = mnew == -INFINITY ? 0.0f : expf(mi - mnew);
                    const float et = mnew == -INFINITY ? 0.0f : expf(mt - mnew);
                    const float lnew = ei * li + et * lt;
                    fa[r] = lnew > 0.0f ? li * ei / lnew : 1.0f;
                    fb[r] = lnew > 0.0f ? et / lnew : 0.0f;
                    ls[r] = lnew;
                    ms[r] = mnew;
                }
            }
            __syncthreads();
            for (int e = t; e < br * d; e += T) { /* line 12 */
                const int r = e / d, c = e % d;
                float acc = 0.0f;
                for (int x = 0; x < bc; x++)
                    acc += Ss[r * bc + x] * Vs[x * d + c];
                Os[e] = fa[r] * Os[e] + fb[r] * acc;
            }
            __syncthreads();
            for (int e = t; e < br * d; e += T) /* line 13: O_i, l_i, m_i to HBM */
                o[(size_t)i0 * d + e] = Os[e];
            for (int r = t; r < br; r += T) {
                lg[i0 + r] = ls[r];
                mg[i0 + r] = ms[r];
            }
            __syncthreads();
        }
    }
}

/* ================================================================================
 * FlashAttention v2: one block per Q tile, the loop over K,V inside.
 * ================================================================================ */

/* v2: FlashAttention-2's order. A block owns Br query rows for the whole
 * kernel: Q_i, O_i and the softmax state (m, l) never leave the chip, and
 * only K_j, V_j tiles of Bc keys stream through shared memory.
 *
 * Q and O live in registers: a group of G = d/16 lanes owns 4 rows, each lane
 * 16 of the d columns in four float4 chunks (columns 4u + 4Gc .. 4u + 4Gc + 3,
 * c = 0..3, for lane u of the group), so a thread holds 4x16 floats of q and
 * 4x16 of o, and every load of K, V, Q and store of O is one 128-bit access.
 * The G lanes of a group sit 32/G lanes apart in their warp, so a quad of
 * lanes shares one K/V chunk: every 128-bit K/V load is 2 wavefronts.
 *
 * Keys go V2_KC at a time. Each lane computes partial dot products for its 4
 * rows x V2_KC keys; a reduce-scatter over the group (log2 G shuffle rounds,
 * each halving what a lane keeps) leaves lane u with the whole scores of 4/G
 * rows (half a row's keys when G = 8). That lane alone runs the online
 * softmax of its rows, so each exponential is computed once; then the group
 * gathers the probabilities (4 V2_KC shuffles) for o += p V. A lane keeps its
 * rows in its own order (slot s holds row s ^ rp, rp from the lane's index),
 * chosen so that in every round a lane sends the upper half of its slots and
 * keeps the lower: no lane-dependent selects. o is rescaled only when some
 * row of the warp has a new maximum (a warp vote), which after the first
 * tiles is rare. Batches that need no mask (no key past the tile's end, none
 * above the causal diagonal) run without per-score tests. Scores are kept
 * in base 2 (q carries log2 e), so each exponential is one exp2_approx
 * (MUFU.EX2; exp2f would add a subnormal fix-up of ~5 instructions). Writes O,
 * l and m once; a block of a split tile writes its part instead (v2_work_of,
 * attn_flash_v2_merge). d must be 16, 32, 64 or 128. */
#define V2_KC ATTN_V2_KC
#define V2_LOG2E 1.44269504088896340736f
#define V2_LN2 0.69314718055994530942f

/* The group row a lane keeps in slot s is s ^ v2_rowperm(u). */
__device__ __forceinline__ int v2_rowperm(int u, const int G) { return G <= 4 ? u * (4 / G) : u >> 1; }

/* The lane u' of the group that owns (after the reduce-scatter) the row in
 * slot s of a lane with row order rp, for key j of a batch (G = 8 splits a
 * row's keys between two lanes). */
__device__ __forceinline__ int v2_owner(int s, int j, int rp, const int G)
{
    return G <= 4 ? (s ^ rp) / (4 / G) : 2 * (s ^ rp) + (j >= V2_KC / 2);
}

/* x as held by the lane of the group that owns slot s, key j of this lane.
 * For G <= 4 that lane is lane ^ (gpw * (s / (4/G))): the row order makes
 * every exchange a butterfly with a constant mask (and slot 0 the lane's
 * own); at G = 8 the key half makes it lane-dependent. */
__device__ __forceinline__ float v2_from_owner(float x, int s, int j, int rp, int lane, const int G)
{
    const int gpw = 32 / G;
    if (G == 1 || (G <= 4 && s / (4 / G) == 0))
        return x;
    if (G <= 4)
        return __shfl_xor_sync(0xffffffffu, x, gpw * (s / (4 / G)));
    return __shfl_sync(0xffffffffu, x, lane % gpw + gpw * v2_owner(s, j, rp, G));
}

/* One batch of V2_KC keys starting at key kc of the tile in Ks/Vs (kn keys
 * valid; the tile starts at key k0; the group's rows start at r0). masked:
 * test each score against kn and the causal diagonal; else use them all. */
__device__ __forceinline__ void flash_v2_batch(float qr[4][16], float o[4][16], float *mown, float *lown,
                                               const float *Ks, const float *Vs, int kc, int kn, int k0, int r0,
                                               int causal, int u, int lane, const int G, const int masked)
{
    const int d = 16 * G, gpw = 32 / G;     /* groups per warp */
    const int NV = 4 * V2_KC / G;           /* scores a lane keeps after the reduce-scatter */
    const int RO = G <= 4 ? 4 / G : 1;      /* rows it owns */
    const int rp = v2_rowperm(u, G);
    float v[4 * V2_KC];                     /* v[s * V2_KC + j]: slot s (row s ^ rp), key kc + j */
    UNROLL
    for (int j = 0; j < V2_KC; j++) {
        UNROLL
        for (int s = 0; s < 4; s++)
            v[s * V2_KC + j] = 0.0f;
        if (!masked || kc + j < kn) {
            const float *kr = Ks + (kc + j) * d + 4 * u;
            UNROLL
            for (int c = 0; c < 4; c++) {
                const float4 kx = load_float4(kr + 4 * G * c);
                UNROLL
                for (int s = 0; s < 4; s++) {
                    v[s * V2_KC + j] += qr[s][4 * c + 0] * kx.x;
                    v[s * V2_KC + j] += qr[s][4 * c + 1] * kx.y;
                    v[s * V2_KC + j] += qr[s][4 * c + 2] * kx.z;
                    v[s * V2_KC + j] += qr[s][4 * c + 3] * kx.w;
                }
            }
        }
    }
    /* LESSON: reduce-scatter of the partial sums over the group: in each
     * round a lane sends the upper half of what it holds to its partner and
     * adds the partner's upper half to its lower half. Rows first... */
    int live = 4 * V2_KC;
    for (int bit = G / 2; bit >= (G == 8 ? 2 : 1); bit /= 2) { /* at most 2 rounds: 4 rows */
        const int half = live / 2;
        UNROLL
        for (int i = 0; i < 2 * V2_KC; i++)
            if (i < half)
                v[i] += __shfl_xor_sync(0xffffffffu, v[half + i], bit * gpw);
        live = half;
    }
    if (G == 8) { /* ...then, at d = 128, the keys of the one row left */
        const int high = u & 1;
        UNROLL
        for (int i = 0; i < V2_KC / 2; i++) {
            const float send = high ? v[i] : v[V2_KC / 2 + i];
            const float keep = high ? v[V2_KC / 2 + i] : v[i];
            v[i] = keep + __shfl_xor_sync(0xffffffffu, send, gpw);
        }
    }
    /* LESSON: online softmax of the lane's own rows */
    int grew = 0;
    float alpha[4];
    UNROLL
    for (int q = 0; q < RO; q++) {
        const int row = r0 + (q ^ rp);
        float cmax = -INFINITY;
        UNROLL
        for (int i = q * (NV / RO); i < (q + 1) * (NV / RO); i++) {
            if (masked) {
                const int key = kc + (G <= 4 ? i - q * V2_KC : (u & 1) * (V2_KC / 2) + i);
                if (key >= kn || (causal && k0 + key > row))
                    v[i] = -INFINITY;
            }
            cmax = fmaxf(cmax, v[i]);
        }
        if (G == 8) /* the row's other half is in the partner lane */
            cmax = fmaxf(cmax, __shfl_xor_sync(0xffffffffu, cmax, gpw));
        const float mnew = fmaxf(mown[q], cmax);
        grew |= mnew > mown[q];
        if (!masked) /* every score is finite: so is mnew; exp2(-inf) = 0 (the first
                      * batch), exp2(0) = 1 (no new maximum: the check of l against
                      * the reference, 1024 batches at N = 4096, would show a drift) */
            alpha[q] = exp2_approx(mown[q] - mnew);
        else
            alpha[q] = mnew > mown[q] && mown[q] != -INFINITY ? exp2_approx(mown[q] - mnew) : 1.0f;
        float psum = 0.0f;
        UNROLL
        for (int i = q * (NV / RO); i < (q + 1) * (NV / RO); i++) {
            if (!masked)
                v[i] = exp2_approx(v[i] - mnew);
            else
                v[i] = mnew == -INFINITY ? 0.0f : exp2_approx(v[i] - mnew);
            psum += v[i];
        }
        lown[q] = lown[q] * alpha[q] + psum;
        mown[q] = mnew;
    }
    /* where slot s's row (s ^ rp) and key j are kept: lane v2_owner, and index in v */
#define V2_INDEX(s, j) (G <= 4 ? ((s) % RO) * V2_KC + (j) : (j) % (V2_KC / 2))
    /* rescale o when some row of the warp grew */
    if (__any_sync(0xffffffffu, grew)) {
        UNROLL
        for (int s = 0; s < 4; s++) {
            const float a = v2_from_owner(alpha[s % RO], s, 0, rp, lane, G);
            UNROLL
            for (int cc = 0; cc < 16; cc++)
                o[s][cc] *= a;
        }
    }
    /* LESSON: gather p for the group's 4 rows, then o += p V */
    float p[4][V2_KC];
    UNROLL
    for (int s = 0; s < 4; s++)
        UNROLL
        for (int j = 0; j < V2_KC; j++)
            p[s][j] = v2_from_owner(v[V2_INDEX(s, j)], s, j, rp, lane, G);
#undef V2_INDEX
    UNROLL
    for (int j = 0; j < V2_KC; j++) {
        if (!masked || kc + j < kn) {
            const float *vr = Vs + (kc + j) * d + 4 * u;
            UNROLL
            for (int c = 0; c < 4; c++) {
                const float4 vx = load_float4(vr + 4 * G * c);
                UNROLL
                for (int s = 0; s < 4; s++) {
                    o[s][4 * c + 0] += p[s][j] * vx.x;
                    o[s][4 * c + 1] += p[s][j] * vx.y;
                    o[s][4 * c + 2] += p[s][j] * vx.z;
                    o[s][4 * c + 3] += p[s][j] * vx.w;
                }
            }
        }
    }
}

/* Which work a v2 block does. The grid is (T, B*H, splits), T = ceil(N/Br)
 * row tiles a head, numbered t = bh * T + it over all heads. A tile t <
 * whole runs whole, in its block with s = 0 (its blocks with s > 0 have
 * nothing to do); every later tile is split: block s runs its rows over the
 * s-th of `splits` key ranges (whole batches of V2_KC keys) and writes
 * (O / l, l, m) of that range to part (t - whole) * splits + s of `part`,
 * for attn_flash_v2_merge. Everything but the key range comes from blockIdx
 * and the parameters, so the compiler can recompute it instead of keeping
 * it in registers (at 168 registers a thread, any more would spill). */
typedef struct v2_work {
    int bh, i0;  /* head, first row */
    int kb, ke;  /* keys kb .. ke-1 */
    int split;   /* the tile is split; -1: nothing to do */
} v2_work;

__device__ __forceinline__ v2_work v2_work_of(int N, int Br, int causal, int whole, int splits)
{
    const int T = (N + Br - 1) / Br, t = (int)blockIdx.y * T + (int)blockIdx.x, s = (int)blockIdx.z;
    v2_work w;
    w.bh = (int)blockIdx.y;
    w.i0 = (int)blockIdx.x * Br;
    w.split = t >= whole ? 1 : s == 0 ? 0 : -1;
    const int ns = w.split == 1 ? splits : 1;
    const int kend = causal ? min(N, w.i0 + Br) : N; /* keys any row of the tile can see */
    const int nb = (kend + V2_KC - 1) / V2_KC;      /* batches */
    w.kb = s * nb / ns * V2_KC;
    w.ke = min(kend, (s + 1) * nb / ns * V2_KC);
    return w;
}

/* LESSON: the K and V tiles go from HBM to shared memory by asynchronous
 * copies (cp.async, sm_80+): all of a thread's copies are in flight at once
 * and none passes through registers, where a load-then-store loop waits for
 * each load before its store (and the registers are all taken by q and o).
 * Each copy is 16 bytes, both addresses 16-byte aligned (d is a multiple of
 * 16, the tiles start at multiples of d); a thread waits for its own copies
 * (copy_async_wait_all) and the barrier after the call shows them to all. */
__device__ __forceinline__ void v2_load_tile(float *Ks, float *Vs, const float *Kt, const float *Vt, int n)
{
    for (int e = 4 * threadIdx.x; e < n; e += 4 * blockDim.x) {
        copy_async_float4(Ks + e, Kt + e);
        copy_async_float4(Vs + e, Vt + e);
    }
    copy_async_wait_all(); /* this thread's copies have landed; the barrier shows them to all */
}

__device__ __forceinline__ void flash_v2_body(float *O, float *l, float *m, float *part, const float *Q,
                                              const float *K, const float *V, int N, int Bc, float scale, int causal,
                                              int whole, int splits, const int G)
{
    const int d = 16 * G;
    EXTERN_SHARED(float, smem);
    float *Ks = smem, *Vs = smem + Bc * d; /* [key][d] each */
    const int lane = threadIdx.x % 32, gpw = 32 / G; /* groups per warp */
    const int u = lane / gpw, group = (threadIdx.x / 32) * gpw + lane % gpw;
    const int Br = blockDim.x * 4 / G;
    const v2_work w = v2_work_of(N, Br, causal, whole, splits);
    if (w.split < 0) /* block-uniform: no thread of the block reaches a barrier */
        return;
    const size_t head = (size_t)w.bh * N * d; /* Q, K, V, O + head: this head */
    const int i0 = w.i0, r0 = i0 + group * 4;
    const int RO = G <= 4 ? 4 / G : 1, rp = v2_rowperm(u, G);
    float qr[4][16], o[4][16], mown[4], lown[4]; /* slot s holds row r0 + (s ^ rp) */
    /* LESSON: q is scaled by log2(e) too: scores (and m) in base-2 units, so
     * each e^(x - m) is one exp2_approx, with no multiply. l is the same sum in
     * either base (2^(x' - m') = e^(x - m)); m goes out as m' ln 2. */
    const float scale2 = scale * V2_LOG2E;
    UNROLL
    for (int s = 0; s < 4; s++) {
        const int row = r0 + (s ^ rp);
        UNROLL
        for (int c = 0; c < 4; c++) {
            float4 x = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (row < N)
                x = load_float4(Q + head + (size_t)row * d + 4 * u + 4 * G * c);
            qr[s][4 * c + 0] = x.x * scale2;
            qr[s][4 * c + 1] = x.y * scale2;
            qr[s][4 * c + 2] = x.z * scale2;
            qr[s][4 * c + 3] = x.w * scale2;
        }
        UNROLL
        for (int cc = 0; cc < 16; cc++)
            o[s][cc] = 0.0f;
        mown[s] = -INFINITY;
        lown[s] = 0.0f;
    }
    for (int k0 = w.kb; k0 < w.ke; k0 += Bc) {
        const int kn = min(Bc, w.ke - k0);
        __syncthreads(); /* the previous tile is no longer read */
        v2_load_tile(Ks, Vs, K + head + (size_t)k0 * d, V + head + (size_t)k0 * d, kn * d);
        __syncthreads();
        for (int kc = 0; kc < kn; kc += V2_KC) {
            /* a batch needs no mask when all its keys are in the tile and at or
             * below the causal diagonal of the block's first row i0 */
            if (kc + V2_KC > kn || (causal && k0 + kc + V2_KC - 1 > i0))
                flash_v2_batch(qr, o, mown, lown, Ks, Vs, kc, kn, k0, r0, causal, u, lane, G, 1);
            else
                flash_v2_batch(qr, o, mown, lown, Ks, Vs, kc, kn, k0, r0, causal, u, lane, G, 0);
        }
    }
    /* every lane needs l of its 4 slots' rows; the owners have it */
    float lrow[4], mrow[4];
    UNROLL
    for (int s = 0; s < 4; s++) {
        float lo = lown[s % RO];
        if (G == 8) /* the two halves of a row each summed their keys */
            lo += __shfl_xor_sync(0xffffffffu, lo, gpw);
        lrow[s] = v2_from_owner(lo, s, 0, rp, lane, G);
        mrow[s] = v2_from_owner(mown[s % RO], s, 0, rp, lane, G);
    }
    /* a whole tile writes its rows of O, l, m; a part its rows of `part`
     * (parts of Br rows: O at [item][r][d], then l and m at [item][r]) */
    float *ob = O + head, *lb = l + (size_t)w.bh * N, *mb = m + (size_t)w.bh * N;
    int ri = i0; /* where row i0 goes */
    if (w.split) {
        const int T = gridDim.x, t = (int)blockIdx.y * T + (int)blockIdx.x;
        const size_t rows = (size_t)(T * gridDim.y - whole) * splits * Br;
        ob = part;
        lb = part + rows * d;
        mb = lb + rows;
        ri = ((t - whole) * splits + (int)blockIdx.z) * Br;
    }
    UNROLL
    for (int s = 0; s < 4; s++) {
        const int row = r0 + (s ^ rp), r = ri + row - i0;
        if (row < N) {
            /* a part may see no key of a row (causal): l = 0, O = 0 */
            const float inv = lrow[s] > 0.0f ? 1.0f / lrow[s] : 0.0f;
            UNROLL
            for (int c = 0; c < 4; c++)
                store_float4(ob + (size_t)r * d + 4 * u + 4 * G * c,
                             make_float4(o[s][4 * c] * inv, o[s][4 * c + 1] * inv, o[s][4 * c + 2] * inv,
                                         o[s][4 * c + 3] * inv));
            if (u == 0) { /* rp = 0: slot s is row r0 + s */
                lb[r] = lrow[s];
                mb[r] = mrow[s] * V2_LN2; /* m in natural units, as the reference's */
            }
        }
    }
}

/* One entry point per head size, so that d is a constant for the compiler.
 * Two blocks of ATTN_V2_THREADS per SM where the registers allow it (d = 32
 * needs 222 registers a thread and d = 16 would spill: they run one). The
 * macro writes the four __global__ functions, attn_flash_v2_d16 ... d128. */
#define V2_ENTRY(d, bounds)                                                                                   \
    __global__ void bounds attn_flash_v2_d##d(float *O, float *l, float *m, float *part, const float *Q,      \
                                              const float *K, const float *V, int N, int Bc, float scale,     \
                                              int causal, int whole, int splits)                              \
    {                                                                                                         \
        flash_v2_body(O, l, m, part, Q, K, V, N, Bc, scale, causal, whole, splits, d / 16);                   \
    }
#define V2_TWO_PER_SM __launch_bounds__(ATTN_V2_THREADS, 2)
#define V2_ONE_PER_SM __launch_bounds__(ATTN_V2_THREADS, 1) /* nvcc: up to 255 registers, as without */
V2_ENTRY(16, V2_ONE_PER_SM)
V2_ENTRY(32, V2_ONE_PER_SM)
V2_ENTRY(64, V2_TWO_PER_SM)
V2_ENTRY(128, V2_TWO_PER_SM)

/* LESSON: the merge of split tiles. Part s of a row saw its keys only: it
 * holds O_s = (sum of e^(x - m_s) v) / l_s, l_s and m_s. With m = max m_s and
 * weights w_s = l_s e^(m_s - m), the whole row is l = sum w_s and
 * O = sum w_s O_s / l: the online softmax's rescale, once per part. One
 * block per split tile: its threads first compute each row's weights into
 * shared memory (l and m to HBM), then combine O in coalesced float4s.
 * Grid: (split tiles, ceil(Br / ATTN_V2_MERGE_ROWS)), so that the merge of
 * a few tiles still spreads over many SMs. */
__global__ void attn_flash_v2_merge(float *O, float *l, float *m, const float *part, int N, int d, int Br, int whole,
                                    int splits)
{
    EXTERN_SHARED(float, wt); /* wt[(r - r0) * splits + s]: the weight / l of part s of row r */
    const int T = (N + Br - 1) / Br, t = whole + blockIdx.x;
    const size_t bh = (size_t)(t / T), rows = (size_t)gridDim.x * splits * Br;
    const int i0 = (t % T) * Br, r0 = blockIdx.y * ATTN_V2_MERGE_ROWS; /* the block's rows of the tile */
    const int nr = min(min(Br, N - i0), r0 + ATTN_V2_MERGE_ROWS);     /* rows r0 .. nr-1 */
    const float *op = part, *lp = part + rows * d, *mp = lp + rows;
    const size_t p0 = (size_t)blockIdx.x * splits * Br; /* row 0 of the tile's first part */
    for (int r = r0 + threadIdx.x; r < nr; r += blockDim.x) {
        float mx = -INFINITY, lsum = 0.0f;
        for (int s = 0; s < splits; s++)
            mx = fmaxf(mx, mp[p0 + (size_t)s * Br + r]);
        for (int s = 0; s < splits; s++) {
            /* a part that saw no key of the row has l_s = 0, m_s = -inf: w_s = 0
             * (mx is finite: some part holds key 0, which every row sees) */
            const float ws = lp[p0 + (size_t)s * Br + r] * __expf(mp[p0 + (size_t)s * Br + r] - mx);
            wt[(r - r0) * splits + s] = ws;
            lsum += ws;
        }
        for (int s = 0; s < splits; s++)
            wt[(r - r0) * splits + s] /= lsum;
        l[bh * N + i0 + r] = lsum;
        m[bh * N + i0 + r] = mx;
    }
    __syncthreads();
    const int c4 = d / 4;
    for (int e = threadIdx.x; e < (nr - r0) * c4; e += blockDim.x) {
        const int r = r0 + e / c4, c = 4 * (e % c4);
        float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int s = 0; s < splits; s++) {
            const float ws = wt[(r - r0) * splits + s];
            const float4 x = load_float4(op + (p0 + (size_t)s * Br + r) * d + c);
            acc.x += ws * x.x;
            acc.y += ws * x.y;
            acc.z += ws * x.z;
            acc.w += ws * x.w;
        }
        store_float4(O + (bh * N + i0 + r) * d + c, acc);
    }
}

/* ---- launchers ------------------------------------------------------------------ */
LAUNCHER(attn_std_scores, (float *, S), (const float *, Q), (const float *, K), (int, N), (int, d), (float, scale),
         (int, causal))
LAUNCHER(attn_std_softmax, (float *, P), (const float *, S), (int, N), (int, causal))
LAUNCHER(attn_std_pv, (float *, O), (const float *, P), (const float *, V), (int, N), (int, d), (int, causal))
LAUNCHER(attn_flash_v1_init, (float *, O), (float *, l), (float *, m), (long long, rows), (int, d))
LAUNCHER(attn_flash_v1, (float *, O), (float *, l), (float *, m), (const float *, Q), (const float *, K),
         (const float *, V), (int, N), (int, d), (int, Br), (int, Bc), (float, scale), (int, causal))
#define V2_LAUNCHER(k)                                                                                  \
    LAUNCHER(k, (float *, O), (float *, l), (float *, m), (float *, part), (const float *, Q),         \
             (const float *, K), (const float *, V), (int, N), (int, Bc), (float, scale), (int, causal), \
             (int, whole), (int, splits))
V2_LAUNCHER(attn_flash_v2_d16)
V2_LAUNCHER(attn_flash_v2_d32)
V2_LAUNCHER(attn_flash_v2_d64)
V2_LAUNCHER(attn_flash_v2_d128)
LAUNCHER(attn_flash_v2_merge, (float *, O), (float *, l), (float *, m), (const float *, part), (int, N), (int, d),
         (int, Br), (int, whole), (int, splits))
