/* lessons/04_attention/traffic.c - the exact HBM bytes of every lesson 4
 * kernel, derived from the kernels' own loads and stores (README.md, "The
 * accounting"). The simulator's counts must equal these; tests assert it. */
#include <math.h>
#include <string.h>

#include "attention.h"

#define TILE 64 /* standard kernels' output tile, attention.cu STD_TILE */

const char *const attn_tensor_names[ATT_NTENSORS] = {"Q", "K", "V", "S", "P", "O", "l", "m", "parts"};

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

/* Keys kb .. ke-1 of split s of ns of the row tile at i0 (attention.cu v2_work_of). */
static void v2_range(const attn_shape *s, int i0, int sp, int ns, int *kb, int *ke)
{
    int kend = s->causal && i0 + s->v2_br < s->N ? i0 + s->v2_br : s->N;
    long long nb = ceil_div(kend, ATTN_V2_KC); /* batches */
    *kb = (int)(sp * nb / ns * ATTN_V2_KC);
    long long e = (sp + 1) * nb / ns * ATTN_V2_KC;
    *ke = e < kend ? (int)e : kend;
}

/* One v2 block's bytes (not scaled): rows i0.., keys of split sp of ns; a
 * whole tile (ns = 1) writes O, l, m, a part `parts`. */
static void v2_block_bytes(attn_bytes *b, const attn_shape *s, int i0, int sp, int ns)
{
    uint64_t R = (uint64_t)(s->N - i0 < s->v2_br ? s->N - i0 : s->v2_br);
    int kb, ke;
    v2_range(s, i0, sp, ns, &kb, &ke);
    b->rd[ATT_Q] += R * s->d;
    b->rd[ATT_K] += (uint64_t)(ke - kb) * s->d; /* each key of the range once */
    b->rd[ATT_V] += (uint64_t)(ke - kb) * s->d;
    if (ns == 1) {
        b->wr[ATT_O] += R * s->d;
        b->wr[ATT_L] += R;
        b->wr[ATT_M] += R;
    } else {
        b->wr[ATT_PART] += R * (s->d + 2);
    }
}

long long attn_v2_grid(const attn_shape *s, int *whole, int *splits)
{
    long long tiles = (long long)s->B * s->H * ceil_div(s->N, s->v2_br);
    int split = s->v2_splits > 1 && s->v2_whole < tiles;
    *whole = split ? s->v2_whole : (int)tiles;
    *splits = split ? s->v2_splits : 1;
    return tiles;
}

attn_bytes attn_flash_v2_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    int T = ceil_div(s->N, s->v2_br), whole, S;
    long long tiles = attn_v2_grid(s, &whole, &S);
    /* every row tile of every head whole, then the split ones' difference */
    for (int it = 0; it < T; it++)
        v2_block_bytes(&b, s, it * s->v2_br, 0, 1);
    for (int i = 0; i < ATT_NTENSORS; i++)
        b.rd[i] *= (uint64_t)s->B * s->H, b.wr[i] *= (uint64_t)s->B * s->H;
    for (long long t = whole; t < tiles; t++) {
        attn_bytes w, p;
        memset(&w, 0, sizeof w);
        memset(&p, 0, sizeof p);
        int i0 = (int)(t % T) * s->v2_br;
        v2_block_bytes(&w, s, i0, 0, 1);
        for (int sp = 0; sp < S; sp++)
            v2_block_bytes(&p, s, i0, sp, S);
        for (int i = 0; i < ATT_NTENSORS; i++)
            b.rd[i] += p.rd[i] - w.rd[i], b.wr[i] += p.wr[i] - w.wr[i];
    }
    for (int i = 0; i < ATT_NTENSORS; i++)
        b.rd[i] *= 4, b.wr[i] *= 4;
    return b;
}

attn_bytes attn_flash_v2_merge_bytes(const attn_shape *s)
{
    attn_bytes b;
    memset(&b, 0, sizeof b);
    int T = ceil_div(s->N, s->v2_br), whole, S;
    long long tiles = attn_v2_grid(s, &whole, &S);
    for (long long t = whole; t < tiles; t++) {
        int i0 = (int)(t % T) * s->v2_br;
        uint64_t R = (uint64_t)(s->N - i0 < s->v2_br ? s->N - i0 : s->v2_br);
        b.rd[ATT_PART] += 4 * R * S * (s->d + 2ull) + 4 * R * S; /* m twice: the max, then the weights */
        b.wr[ATT_O] += 4 * R * s->d;
        b.wr[ATT_L] += 4 * R;
        b.wr[ATT_M] += 4 * R;
    }
    return b;
}

uint64_t attn_v2_part_floats(const attn_shape *s)
{
    int whole, S;
    long long tiles = attn_v2_grid(s, &whole, &S);
    return S > 1 ? (uint64_t)(tiles - whole) * S * s->v2_br * (s->d + 2ull) : 0;
}

uint64_t attn_flash_v2_merge_shared_bytes(const attn_shape *s)
{
    int whole, S;
    attn_v2_grid(s, &whole, &S);
    return 4ull * ATTN_V2_MERGE_ROWS * S;
}

void attn_v2_plan(long long tiles, long long slots, int max_splits, int *whole, int *splits)
{
    *whole = (int)tiles;
    *splits = 1;
    long long rem = slots > 0 ? tiles % slots : 0;
    if (tiles <= slots || rem == 0)
        return;
    /* the tail's time in units of one whole block: ceil(rem S / slots) / S */
    double best = 1.0;
    for (int S = 2; S <= max_splits; S++) {
        double t = (double)((rem * S + slots - 1) / slots) / S;
        if (t < best - 1e-9) {
            best = t;
            *splits = S;
        }
    }
    if (*splits > 1)
        *whole = (int)(tiles - rem);
}

int attn_v2_blocks_per_sm(int d, int threads, uint64_t shared_bytes, uint64_t shared_per_sm)
{
    int by_regs = (d == 64 || d == 128) && threads <= ATTN_V2_THREADS ? 2 : 1;
    uint64_t by_shared = shared_per_sm / (shared_bytes + 1024); /* 1 KB a block for the driver */
    return by_shared < (uint64_t)by_regs ? (int)(by_shared ? by_shared : 1) : by_regs;
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

double attn_flops_executed(const attn_shape *s, int br, int g)
{
    if (!s->causal || br < 1 || g < 1)
        return attn_flops(s);
    const long long N = s->N;
    double pairs = 0;
    for (long long i0 = 0; i0 < N; i0 += br) {
        long long rows = N - i0 < br ? N - i0 : br, keys = (i0 + br + g - 1) / g * g;
        pairs += (double)rows * (double)(keys < N ? keys : N);
    }
    return 4.0 * s->d * pairs * s->B * s->H;
}
