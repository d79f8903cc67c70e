/* lessons/04_attention/attention.h - the lesson 4 kernels' launchers, the CPU
 * reference, and the closed forms of every kernel's HBM bytes (traffic.c). */
#ifndef LESSON04_ATTENTION_H
#define LESSON04_ATTENTION_H
#include <stdint.h>

#include "simt_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif
/* o (BH, N, d) = softmax(q k^T / sqrt(d)) v, in double */
void attention_cpu(double *o, const float *q, const float *k, const float *v, int BH, int N, int d, int causal);
/* one head, rows 0, step, 2 step, ... only (the others are left as they are);
 * l, m (may be NULL): each row's softmax sum and maximum, as flash v1 and v2 write them */
void attention_cpu_rows(double *o, double *l, double *m, const float *q, const float *k, const float *v, int N, int d,
                        int causal, int step);

/* ---- closed forms (traffic.c) ------------------------------------------- */
/* ATT_PART: flash v2's partial (O, l, m) of split tiles (attn_v2_plan) */
enum { ATT_Q, ATT_K, ATT_V, ATT_S, ATT_P, ATT_O, ATT_L, ATT_M, ATT_PART, ATT_NTENSORS };
extern const char *const attn_tensor_names[ATT_NTENSORS]; /* "Q" ... "m", "parts" */

typedef struct attn_shape {
    int B, H, N, d, causal;
    int v1_br, v1_bc; /* Algorithm 1 tiles */
    int v2_br, v2_bc; /* FlashAttention-2 tiles: rows per block, keys per tile */
    int v2_whole, v2_splits; /* attn_v2_plan: tiles run whole, key ranges of each later tile */
} attn_shape;

typedef struct attn_bytes {
    uint64_t rd[ATT_NTENSORS], wr[ATT_NTENSORS];
} attn_bytes;

/* Exact HBM bytes each kernel requests, per tensor, summed over B*H heads. */
attn_bytes attn_std_scores_bytes(const attn_shape *s);
attn_bytes attn_std_softmax_bytes(const attn_shape *s);
attn_bytes attn_std_pv_bytes(const attn_shape *s);
attn_bytes attn_flash_v1_init_bytes(const attn_shape *s);
attn_bytes attn_flash_v1_bytes(const attn_shape *s);
attn_bytes attn_flash_v2_bytes(const attn_shape *s);       /* the main kernel */
attn_bytes attn_flash_v2_merge_bytes(const attn_shape *s); /* zero when no tile is split */
uint64_t attn_bytes_read(const attn_bytes *b);
uint64_t attn_bytes_written(const attn_bytes *b);
void attn_bytes_add(attn_bytes *acc, const attn_bytes *b);

/* Threads of a flash v2 block. 192, not 256: at d = 64 the kernel needs 168
 * registers, so two 192-thread blocks fit an SM's 64K registers (12 warps to
 * hide latency instead of 8), and Br = 192 rows still keeps v2 over 10x below
 * standard attention's HBM bytes at N = 2048, M = 48 KB (12.0x). */
#define ATTN_V2_THREADS 192
/* Keys a v2 batch takes at once (the kernel's register tile; key ranges of
 * split tiles are whole batches, so traffic.c and the plan use it too). */
#define ATTN_V2_KC 4
/* Rows of a split tile one attn_flash_v2_merge block combines, and its threads. */
#define ATTN_V2_MERGE_ROWS 32
#define ATTN_V2_MERGE_THREADS 128

/* Tile choices. v1: the paper's Bc = ceil(M/4d), Br = min(ceil(M/4d), d),
 * M = sram_bytes / 4 elements. v2: Bc = keys whose K and V tiles fit M (a
 * multiple of 8), Br = 4 * threads / (d/16) rows with up to ATTN_V2_THREADS threads. */
void attn_v1_tiles(long long sram_bytes, int d, int *br, int *bc);
int attn_v2_tiles(long long sram_bytes, int N, int d, int *br, int *bc, int *threads); /* -1 if d unsupported */
/* LESSON: the last wave. A GPU runs `slots` blocks at once (SMs x blocks per
 * SM); `tiles` row tiles take ceil(tiles / slots) waves, and when the last
 * wave is part full its SMs idle. attn_v2_plan runs the first `whole` tiles
 * whole and splits each later one into `splits` key ranges (and a merge),
 * choosing splits (1 .. max_splits) to minimise the time of the tail,
 * counted as ceil(tail blocks / slots) / splits whole-block times; a grid of
 * one wave or less is not split. When splitting does not help it sets
 * whole = tiles, splits = 1. */
void attn_v2_plan(long long tiles, long long slots, int max_splits, int *whole, int *splits);
/* The grid a shape runs: returns the row tiles of all heads (B H ceil(N / Br))
 * and sets the tiles run whole and the splits of the rest (1 if none). */
long long attn_v2_grid(const attn_shape *s, int *whole, int *splits);
/* v2 blocks an SM of dev holds at once (registers: two of ATTN_V2_THREADS at
 * d = 64, 128, one at d = 16, 32; and shared memory). */
int attn_v2_blocks_per_sm(int d, int threads, uint64_t shared_bytes, uint64_t shared_per_sm);
/* Floats of the partials buffer, and the merge's dynamic shared memory. */
uint64_t attn_v2_part_floats(const attn_shape *s);
uint64_t attn_flash_v2_merge_shared_bytes(const attn_shape *s);
/* Dynamic shared memory each flash kernel launches with. */
uint64_t attn_flash_v1_shared_bytes(int d, int br, int bc);
uint64_t attn_flash_v2_shared_bytes(int d, int bc);
/* 4 d per visible (query, key) pair: 4 N^2 d per head, causal N(N+1)/2 pairs */
double attn_flops(const attn_shape *s);
/* The FLOPs a tiled kernel executes: causal, each tile of br query rows
 * computes its keys up to its last row's, rounded up to g keys (the kernel's
 * key tile: the masked part of the diagonal tiles counts); not causal,
 * attn_flops. What the time model needs (sim/timemodel.c); the reports keep
 * attn_flops, the useful ones. */
double attn_flops_executed(const attn_shape *s, int br, int g);
#ifdef __cplusplus
}
#endif

DECLARE_LAUNCHER(attn_std_scores, (float *, S), (const float *, Q), (const float *, K), (int, N), (int, d),
                 (float, scale), (int, causal));
DECLARE_LAUNCHER(attn_std_softmax, (float *, P), (const float *, S), (int, N), (int, causal));
DECLARE_LAUNCHER(attn_std_pv, (float *, O), (const float *, P), (const float *, V), (int, N), (int, d), (int, causal));
DECLARE_LAUNCHER(attn_flash_v1_init, (float *, O), (float *, l), (float *, m), (long long, rows), (int, d));
DECLARE_LAUNCHER(attn_flash_v1, (float *, O), (float *, l), (float *, m), (const float *, Q), (const float *, K),
                 (const float *, V), (int, N), (int, d), (int, Br), (int, Bc), (float, scale), (int, causal));
#define ATTN_V2_DECLARE(k)                                                                                   \
    DECLARE_LAUNCHER(k, (float *, O), (float *, l), (float *, m), (float *, part), (const float *, Q),        \
                     (const float *, K), (const float *, V), (int, N), (int, Bc), (float, scale), (int, causal), \
                     (int, whole), (int, splits))
ATTN_V2_DECLARE(attn_flash_v2_d16);
ATTN_V2_DECLARE(attn_flash_v2_d32);
ATTN_V2_DECLARE(attn_flash_v2_d64);
ATTN_V2_DECLARE(attn_flash_v2_d128);
DECLARE_LAUNCHER(attn_flash_v2_merge, (float *, O), (float *, l), (float *, m), (const float *, part), (int, N),
                 (int, d), (int, Br), (int, whole), (int, splits));
#endif
