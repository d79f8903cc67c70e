/* lessons/04_attention/traffic.c - the exact HBM bytes of every lesson 4
 * kernel, derived from the kernels' own loads and stores (README.md, "The
 * accounting"). The simulator's counts must equal these; tests assert it. */
#include <math.h>
#include <string.h>

#include "attention.h"

#define TILE 64 /* standard kernels' output tile, attention.cu STD_TILE */

const char *const attn_tensor_names[ATT_NTENSORS] = {"Q", "K", "V", "S", "P", "O", "l", "m"};

static uint64_t rows_of(int t, int N) { return (uint64_t)(N - t * TILE < TILE ? N - t * TILE : TILE); }
static int ceil_div(int a, int b) { return (a + b - 1) / b; }

static attn_bytes scaled(attn_bytes b, const attn_shape *s)
{
    for (int i = 0; i < ATT_NTENSORS; i++) {
        b.rd[i] *= 4ull * s->B * s->H;
        b.wr[i] *= 4ull * s->B * s->H;
    }
    return b;
}

attn_bytes attn_std_scores_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    int T = ceil_div(s->N, TILE);
    for (int ti = 0; ti < T; ti++)
        for (int tj = 0; tj < T; tj++) {
            if (s->causal && tj > ti)
                continue; /* the block returns at once */
            b.rd[ATT_Q] += rows_of(ti, s->N) * s->d;
            b.rd[ATT_K] += rows_of(tj, s->N) * s->d;
            b.wr[ATT_S] += rows_of(ti, s->N) * rows_of(tj, s->N);
        }
    return scaled(b, s);
}

attn_bytes attn_std_softmax_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    uint64_t N = (uint64_t)s->N, visible = s->causal ? N * (N + 1) / 2 : N * N;
    b.rd[ATT_S] = 3 * visible; /* max, sum, write: three passes over the visible part */
    b.wr[ATT_P] = N * N;
    return scaled(b, s);
}

attn_bytes attn_std_pv_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    int T = ceil_div(s->N, TILE), Tc = ceil_div(s->d, TILE);
    for (int ti = 0; ti < T; ti++) {
        uint64_t kend = s->causal && (ti + 1) * TILE < s->N ? (uint64_t)(ti + 1) * TILE : (uint64_t)s->N;
        for (int tc = 0; tc < Tc; tc++) {
            uint64_t cols = (uint64_t)(s->d - tc * TILE < TILE ? s->d - tc * TILE : TILE);
            b.rd[ATT_P] += rows_of(ti, s->N) * kend;
            b.rd[ATT_V] += kend * cols;
        }
    }
    b.wr[ATT_O] = (uint64_t)s->N * s->d;
    return scaled(b, s);
}

attn_bytes attn_flash_v1_init_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    b.wr[ATT_O] = (uint64_t)s->N * s->d;
    b.wr[ATT_L] = b.wr[ATT_M] = (uint64_t)s->N;
    return scaled(b, s);
}

attn_bytes attn_flash_v1_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    b.rd[ATT_K] = b.rd[ATT_V] = (uint64_t)s->N * s->d; /* K_j, V_j once each */
    for (int j0 = 0; j0 < s->N; j0 += s->v1_bc) {
        int istart = s->causal ? (j0 / s->v1_br) * s->v1_br : 0;
        uint64_t R = (uint64_t)(s->N - istart); /* rows of the Q tiles that see K_j */
        b.rd[ATT_Q] += R * s->d;
        b.rd[ATT_O] += R * s->d;
        b.rd[ATT_L] += R;
        b.rd[ATT_M] += R;
        b.wr[ATT_O] += R * s->d;
        b.wr[ATT_L] += R;
        b.wr[ATT_M] += R;
    }
    return scaled(b, s);
}

attn_bytes attn_flash_v2_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    for (int i0 = 0; i0 < s->N; i0 += s->v2_br) {
        int kend = s->causal && i0 + s->v2_br < s->N ? i0 + s->v2_br : s->N;
        uint64_t keys = 0;
        for (int k0 = 0; k0 < kend; k0 += s->v2_bc)
            keys += (uint64_t)(s->N - k0 < s->v2_bc ? s->N - k0 : s->v2_bc);
        b.rd[ATT_K] += keys * s->d;
        b.rd[ATT_V] += keys * s->d;
    }
    b.rd[ATT_Q] = (uint64_t)s->N * s->d;
    b.wr[ATT_O] = (uint64_t)s->N * s->d;
    b.wr[ATT_L] = b.wr[ATT_M] = (uint64_t)s->N;
    return scaled(b, s);
}

uint64_t attn_bytes_read(const attn_bytes *b)
{
    uint64_t n = 0;
    for (int i = 0; i < ATT_NTENSORS; i++)
        n += b->rd[i];
    return n;
}

uint64_t attn_bytes_written(const attn_bytes *b)
{
    uint64_t n = 0;
    for (int i = 0; i < ATT_NTENSORS; i++)
        n += b->wr[i];
    return n;
}

void attn_bytes_add(attn_bytes *acc, const attn_bytes *b)
{
    for (int i = 0; i < ATT_NTENSORS; i++) {
        acc->rd[i] += b->rd[i];
        acc->wr[i] += b->wr[i];
    }
}

void attn_v1_tiles(long long sram_bytes, int d, int *br, int *bc)
{
    long long M = sram_bytes / 4, t = (M + 4LL * d - 1) / (4LL * d);
    if (t < 1)
        t = 1;
    *bc = (int)t;
    *br = (int)(t < d ? t : d);
}

int attn_v2_tiles(long long sram_bytes, int N, int d, int *br, int *bc, int *threads)
{
    if (d != 16 && d != 32 && d != 64 && d != 128)
        return -1;
    int G = d / 16;
    long long keys = sram_bytes / 4 / (2LL * d); /* K_j and V_j: 2 * Bc * d floats */
    keys = keys / 8 * 8;
    if (keys > 256)
        keys = 256;
    *bc = (int)keys;
    /* ATTN_V2_THREADS threads, fewer when N is small: lanes needed = ceil(N/4) groups * G */
    long long lanes = ((long long)(N + 3) / 4) * G;
    long long t = (lanes + 31) / 32 * 32;
    *threads = (int)(t < ATTN_V2_THREADS ? t : ATTN_V2_THREADS);
    *br = *threads * 4 / G;
    return keys >= 8 ? 0 : -2;
}

uint64_t attn_flash_v1_shared_bytes(int d, int br, int bc)
{
    return 4ull * (2ull * bc * d + 2ull * br * d + (uint64_t)br * bc + 4ull * br);
}

uint64_t attn_flash_v2_shared_bytes(int d, int bc) { return 4ull * 2 * bc * d; }

double attn_flops(const attn_shape *s)
{
    double N = s->N, pairs = s->causal ? N * (N + 1) / 2 : N * N;
    return 4.0 * s->d * pairs * s->B * s->H;
}
