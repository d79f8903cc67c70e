/* lessons/07_backward/backward.h - lesson 7's kernels (attention's backward
 * pass), the CPU reference of the gradients, and the closed forms of every
 * kernel's HBM bytes (traffic.c).
 *
 * Given Q, K, V, the output gradient dO and what the forward saved, the
 * backward computes dQ, dK, dV. With S = scale Q K^T, P = softmax(S),
 * O = P V (per head, N x d, row-major, heads bh = b H + h one after another):
 *   dV = P^T dO          dP = dO V^T          D_i = rowsum(dO_i * O_i) = rowsum(P_i * dP_i)
 *   dS = P * (dP - D)    dQ = scale dS K      dK = scale dS^T Q
 * Standard backward reads the P the forward stored (N x N per head) and
 * writes dP and dS to HBM (the paper's Algorithm 3). Flash backward reads
 * only the forward's row statistics (l, m, or FlashAttention-2's
 * logsumexp L = m + ln l) and recomputes P tile by tile in SRAM.
 */
#ifndef LESSON07_BACKWARD_H
#define LESSON07_BACKWARD_H
#include <stdint.h>

#include "simt_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif
/* ---- CPU reference, double --------------------------------------------------- */
/* One head: dq, dk, dv (N x d each) from q, k, v, dout; and the forward's
 * outputs: o (N x d), each row's softmax sum l and maximum m (N each, double),
 * and P (N x N, rounded to float; 0 above the diagonal with causal). Any of
 * o, l, m, p may be NULL, and dq (then dk, dv are not used): the forward only.
 * 0, or -1 out of memory. */
int attn_bwd_cpu_head(double *dq, double *dk, double *dv, double *o, double *l, double *m, float *p, const float *q,
                      const float *k, const float *v, const float *dout, int N, int d, int causal);

/* ---- tensors and closed forms (traffic.c) -------------------------------------- */
enum {
    BWD_Q, BWD_K, BWD_V, BWD_O, BWD_DO, BWD_P, BWD_DP, BWD_DS, BWD_L, BWD_M, BWD_LSE, BWD_D,
    BWD_DQ, BWD_DK, BWD_DV, BWD_NTENSORS
};
extern const char *const bwd_tensor_names[BWD_NTENSORS]; /* "Q" ... "dV" ("L" is the logsumexp) */

typedef struct bwd_shape {
    int B, H, N, d, causal;
    int v1_br, v1_bc; /* Algorithm 4 tiles */
} bwd_shape;

typedef struct bwd_bytes {
    uint64_t rd[BWD_NTENSORS], wr[BWD_NTENSORS];
} bwd_bytes;

/* Exact HBM bytes each kernel requests, per tensor, summed over B*H heads. */
bwd_bytes bwd_std_dv_bytes(const bwd_shape *s);  /* dV = P^T dO */
bwd_bytes bwd_std_dp_bytes(const bwd_shape *s);  /* dP = dO V^T */
bwd_bytes bwd_std_ds_bytes(const bwd_shape *s);  /* dS = P * (dP - rowsum(P * dP)) */
bwd_bytes bwd_std_dq_bytes(const bwd_shape *s);  /* dQ = scale dS K */
bwd_bytes bwd_std_dk_bytes(const bwd_shape *s);  /* dK = scale dS^T Q */
bwd_bytes bwd_v1_init_bytes(const bwd_shape *s); /* dQ = 0 */
bwd_bytes bwd_v1_bytes(const bwd_shape *s);      /* Algorithm 4 (zero if its tiles are not set) */
bwd_bytes bwd_v2_pre_bytes(const bwd_shape *s);  /* L = m + ln l, D = rowsum(dO * O) */
bwd_bytes bwd_v2_bytes(const bwd_shape *s, int dq_atomic); /* the main kernel (dQ by atomics or not at all) */
bwd_bytes bwd_v2_dq_bytes(const bwd_shape *s);   /* the separate dQ pass */
uint64_t bwd_bytes_read(const bwd_bytes *b);
uint64_t bwd_bytes_written(const bwd_bytes *b);
void bwd_bytes_add(bwd_bytes *acc, const bwd_bytes *b);
/* FLOPs: 2 per multiply-add of each product, over the visible (query, key)
 * pairs: standard 8 d per pair (dV, dP, dQ, dK); flash 10 d (S recomputed
 * too), and 14 d with v2's separate dQ pass (S and dP computed twice). */
double bwd_pairs(const bwd_shape *s);

/* ---- flash backward v2's tiles ----------------------------------------------- */
/* A block owns BWD_V2_BC keys (its K_j, V_j and the dK_j, dV_j accumulators)
 * and walks the query rows BWD_V2_BR at a time; the dQ pass's block owns
 * BWD_V2_BR rows and walks the keys BWD_V2_BC at a time. 256 threads. */
#define BWD_V2_BR 64
#define BWD_V2_BC 64
#define BWD_V2_THREADS 256
/* v2's shared tiles: K_j, V_j, Q_i, dO_i with rows of BWD_V2_LD(d) = d + 8
 * floats (16-byte aligned), the P and dS tiles [Br][BWD_V2_LDP], rows 8 banks
 * apart (mod 32) in all of them (at d = 16 rows are 24 banks apart, which is
 * -8 mod 32: the same four rows fill the 32 banks), so that the tensor
 * cores' fragments read down a column fill 32 banks (backward.cu, "LESSON:
 * v2's five products");
 * L_i and D_i: its dynamic shared memory (both kernels). */
#define BWD_V2_LD(d) ((d) + 8)
#define BWD_V2_LDP (BWD_V2_BC + 8)
static inline uint64_t bwd_v2_shared_bytes(int d)
{
    return 4ull * ((uint64_t)(BWD_V2_BC + BWD_V2_BR) * 2 * BWD_V2_LD(d) + 2ull * BWD_V2_BR * BWD_V2_LDP + 2 * BWD_V2_BR);
}
/* Algorithm 4's tiles (Bc = ceil(M / 4d), Br = min(Bc, d): lesson 4's
 * attn_v1_tiles) and its shared memory: K_j, V_j, dK_j, dV_j [Bc][d];
 * Q_i, O_i, dO_i, dQ_i [Br][d]; P_ij, dS_ij [Br][Bc]; l_i, m_i, D_i [Br]. */
uint64_t bwd_v1_shared_bytes(int d, int br, int bc);
#ifdef __cplusplus
}
#endif

/* Standard backward: one tiled matrix product for dV, dP, dQ and dK,
 * C (M x Nc) = alpha op(A) op(B) over K, 64 x 64 tiles of C, 16 x 16 threads;
 * ta: A is stored transposed (A[k * lda + i]), tb: B is (B[j * ldb + k]).
 * causal (BWD_MM_*): which part of the reduction or of C the mask leaves. */
enum { BWD_MM_FULL, BWD_MM_K_FROM_ROW, BWD_MM_K_TO_ROW, BWD_MM_SKIP_UPPER };
DECLARE_LAUNCHER(attn_bwd_std_mm, (float *, C), (const float *, A), (const float *, B), (int, M), (int, Nc), (int, K),
                 (int, lda), (int, ldb), (int, ta), (int, tb), (long long, strideA), (long long, strideB),
                 (long long, strideC), (float, alpha), (int, causal));
DECLARE_LAUNCHER(attn_bwd_std_ds, (float *, dS), (const float *, P), (const float *, dP), (int, N), (int, causal));
/* Algorithm 4: init (dQ = 0), then one block per head. */
DECLARE_LAUNCHER(attn_bwd_v1_init, (float *, dQ), (long long, n));
DECLARE_LAUNCHER(attn_bwd_v1, (float *, dQ), (float *, dK), (float *, dV), (const float *, Q), (const float *, K),
                 (const float *, V), (const float *, O), (const float *, dO), (const float *, l), (const float *, m),
                 (int, N), (int, d), (int, Br), (int, Bc), (float, scale), (int, causal));
/* FlashAttention-2 order: the pre-pass (one warp per row), then one block per
 * (K_j, V_j tile, head), grid (ceil(N / BWD_V2_BC), B*H); dq_atomic: dQ_i
 * gets each block's share by atomicAdd (dQ zeroed first), else not at all
 * and the dQ pass, grid (ceil(N / BWD_V2_BR), B*H), writes it. */
DECLARE_LAUNCHER(attn_bwd_v2_pre, (float *, L), (float *, D), (const float *, O), (const float *, dO),
                 (const float *, l), (const float *, m), (long long, rows), (int, d));
#define BWD_V2_DECLARE(dd)                                                                                        \
    DECLARE_LAUNCHER(attn_bwd_v2_d##dd, (float *, dQ), (float *, dK), (float *, dV), (const float *, Q),          \
                     (const float *, K), (const float *, V), (const float *, dO), (const float *, L),             \
                     (const float *, D), (int, N), (float, scale), (int, causal), (int, dq_atomic));             \
    DECLARE_LAUNCHER(attn_bwd_v2_dq_d##dd, (float *, dQ), (const float *, Q), (const float *, K),               \
                     (const float *, V), (const float *, dO), (const float *, L), (const float *, D), (int, N),  \
                     (float, scale), (int, causal))
BWD_V2_DECLARE(16);
BWD_V2_DECLARE(32);
BWD_V2_DECLARE(64);
BWD_V2_DECLARE(128);
#endif
