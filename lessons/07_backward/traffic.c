/* lessons/07_backward/traffic.c - the exact HBM bytes of every lesson 7
 * kernel, derived from the kernels' own loads and stores (README.md, "The
 * accounting"). The simulator's counts must equal these; tests assert it.
 * Each function counts floats of one head, then scales by 4 bytes x B*H.
 * An atomicAdd counts one read and one write of its word. */
#include <string.h>

#include "backward.h"

#define TILE 64 /* the standard product's tile of C (backward.cu MM_TILE) */

const char *const bwd_tensor_names[BWD_NTENSORS] = {"Q", "K",  "V", "O", "dO", "P",  "dP", "dS",
                                                    "l", "m",  "L", "D", "dQ", "dK", "dV"};

static uint64_t min_u(uint64_t a, uint64_t b) { return a < b ? a : b; }
static int ceil_div(int a, int b) { return (a + b - 1) / b; }

static bwd_bytes zero(void)
{
    bwd_bytes b;
    memset(&b, 0, sizeof b);
    return b;
}

static bwd_bytes scaled(bwd_bytes b, const bwd_shape *s)
{
    for (int i = 0; i < BWD_NTENSORS; i++) {
        b.rd[i] *= 4ull * s->B * s->H;
        b.wr[i] *= 4ull * s->B * s->H;
    }
    return b;
}

/* The product C (M x Nc) over K (backward.cu attn_bwd_std_mm): each 64 x 64
 * tile of C reads its rows of A and its columns of B over the reduction
 * range the mask leaves, [kbeg, kend), and C is written once. */
static void mm_bytes(bwd_bytes *b, int ta, int tb, int tc, int M, int Nc, int K, int causal)
{
    for (int ti = 0; ti < ceil_div(M, TILE); ti++)
        for (int tj = 0; tj < ceil_div(Nc, TILE); tj++) {
            const uint64_t i0 = (uint64_t)ti * TILE, j0 = (uint64_t)tj * TILE;
            if (causal == BWD_MM_SKIP_UPPER && j0 > i0 + TILE - 1)
                continue;
            const uint64_t kbeg = causal == BWD_MM_K_FROM_ROW ? i0 : 0;
            const uint64_t kend = causal == BWD_MM_K_TO_ROW ? min_u((uint64_t)K, i0 + TILE) : (uint64_t)K;
            const uint64_t rows = min_u(TILE, M - i0), cols = min_u(TILE, Nc - j0);
            b->rd[ta] += rows * (kend - kbeg);
            b->rd[tb] += (kend - kbeg) * cols;
            b->wr[tc] += rows * cols;
        }
}

bwd_bytes bwd_std_dv_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    mm_bytes(&b, BWD_P, BWD_DO, BWD_DV, s->N, s->d, s->N, s->causal ? BWD_MM_K_FROM_ROW : BWD_MM_FULL);
    return scaled(b, s);
}

bwd_bytes bwd_std_dp_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    mm_bytes(&b, BWD_DO, BWD_V, BWD_DP, s->N, s->N, s->d, s->causal ? BWD_MM_SKIP_UPPER : BWD_MM_FULL);
    return scaled(b, s);
}

bwd_bytes bwd_std_ds_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    const uint64_t N = (uint64_t)s->N, visible = s->causal ? N * (N + 1) / 2 : N * N;
    b.rd[BWD_P] = b.rd[BWD_DP] = 2 * visible; /* D_i, then dS: two passes over the visible part */
    b.wr[BWD_DS] = N * N;
    return scaled(b, s);
}

bwd_bytes bwd_std_dq_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    mm_bytes(&b, BWD_DS, BWD_K, BWD_DQ, s->N, s->d, s->N, s->causal ? BWD_MM_K_TO_ROW : BWD_MM_FULL);
    return scaled(b, s);
}

bwd_bytes bwd_std_dk_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    mm_bytes(&b, BWD_DS, BWD_Q, BWD_DK, s->N, s->d, s->N, s->causal ? BWD_MM_K_FROM_ROW : BWD_MM_FULL);
    return scaled(b, s);
}

bwd_bytes bwd_v1_init_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    b.wr[BWD_DQ] = (uint64_t)s->N * s->d;
    return scaled(b, s);
}

bwd_bytes bwd_v1_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    if (s->v1_br <= 0 || s->v1_bc <= 0) /* tiles not chosen (bwd_params_check): nothing to count */
        return b;
    const uint64_t N = (uint64_t)s->N, d = (uint64_t)s->d;
    b.rd[BWD_K] = b.rd[BWD_V] = N * d; /* K_j, V_j once each */
    b.wr[BWD_DK] = b.wr[BWD_DV] = N * d;
    for (int j0 = 0; j0 < s->N; j0 += s->v1_bc) {
        const int istart = s->causal ? (j0 / s->v1_br) * s->v1_br : 0;
        const uint64_t R = N - istart; /* rows of the query tiles that see K_j */
        b.rd[BWD_Q] += R * d;
        b.rd[BWD_O] += R * d;
        b.rd[BWD_DO] += R * d;
        b.rd[BWD_DQ] += R * d;
        b.wr[BWD_DQ] += R * d;
        b.rd[BWD_L] += R;
        b.rd[BWD_M] += R;
    }
    return scaled(b, s);
}

bwd_bytes bwd_v2_pre_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    const uint64_t N = (uint64_t)s->N;
    b.rd[BWD_O] = b.rd[BWD_DO] = N * s->d;
    b.rd[BWD_L] = b.rd[BWD_M] = N;
    b.wr[BWD_LSE] = b.wr[BWD_D] = N;
    return scaled(b, s);
}

bwd_bytes bwd_v2_bytes(const bwd_shape *s, int dq_atomic)
{
    bwd_bytes b = zero();
    const uint64_t N = (uint64_t)s->N, d = (uint64_t)s->d;
    b.rd[BWD_K] = b.rd[BWD_V] = N * d;
    b.wr[BWD_DK] = b.wr[BWD_DV] = N * d;
    for (int j0 = 0; j0 < s->N; j0 += BWD_V2_BC) {
        const int istart = s->causal ? j0 / BWD_V2_BR * BWD_V2_BR : 0;
        const uint64_t R = N - istart;
        b.rd[BWD_Q] += R * d;
        b.rd[BWD_DO] += R * d;
        b.rd[BWD_LSE] += R;
        b.rd[BWD_D] += R;
        if (dq_atomic) { /* each row's dQ once per key tile, by atomicAdd */
            b.rd[BWD_DQ] += R * d;
            b.wr[BWD_DQ] += R * d;
        }
    }
    return scaled(b, s);
}

bwd_bytes bwd_v2_dq_bytes(const bwd_shape *s)
{
    bwd_bytes b = zero();
    const uint64_t N = (uint64_t)s->N, d = (uint64_t)s->d;
    b.rd[BWD_Q] = b.rd[BWD_DO] = N * d;
    b.rd[BWD_LSE] = b.rd[BWD_D] = N;
    b.wr[BWD_DQ] = N * d;
    for (int i0 = 0; i0 < s->N; i0 += BWD_V2_BR) {
        const uint64_t jend = s->causal ? min_u(N, (uint64_t)i0 + BWD_V2_BR) : N;
        const uint64_t rows = min_u(BWD_V2_BR, N - i0);
        (void)rows;
        b.rd[BWD_K] += jend * d; /* every key tile up to jend, whole (a tile past N - 1 is cut at N) */
        b.rd[BWD_V] += jend * d;
    }
    return scaled(b, s);
}

uint64_t bwd_bytes_read(const bwd_bytes *b)
{
    uint64_t n = 0;
    for (int i = 0; i < BWD_NTENSORS; i++)
        n += b->rd[i];
    return n;
}

uint64_t bwd_bytes_written(const bwd_bytes *b)
{
    uint64_t n = 0;
    for (int i = 0; i < BWD_NTENSORS; i++)
        n += b->wr[i];
    return n;
}

void bwd_bytes_add(bwd_bytes *acc, const bwd_bytes *b)
{
    for (int i = 0; i < BWD_NTENSORS; i++) {
        acc->rd[i] += b->rd[i];
        acc->wr[i] += b->wr[i];
    }
}

double bwd_pairs(const bwd_shape *s)
{
    double N = s->N;
    return (s->causal ? N * (N + 1) / 2 : N * N) * s->B * s->H;
}

uint64_t bwd_v1_shared_bytes(int d, int br, int bc)
{
    return 4ull * (4ull * bc * d + 4ull * br * d + 2ull * br * bc + 3ull * br);
}
