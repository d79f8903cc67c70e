/* tests/test_counters.c - traffic counters against closed forms (sim/access.c, sim/launch.c).
 *
 * Covers: per-launch counters (sim_last_launch()->c) and per-allocation
 * counters (sim_alloc_query) for kernels whose traffic is derived by hand
 * below, in normal and in detailed mode: y = 2x (the lesson's kernel; HBM
 * bytes, requests and sectors with n not a multiple of 32 and blocks not a
 * multiple of 32), a strided copy (sectors per request 4, 8, 16, 32), the
 * naive, shared-tiled and padded-tiled transposes (global sectors, shared
 * wavefronts and bank conflicts, SRAM bytes, barriers), local memory of a
 * recursion; counters (and results) identical with 1, 2 and 3 OpenMP
 * workers; host<->device copies counted apart from kernel HBM traffic.
 * Addresses: allocations start on 64 KiB boundaries, so every array starts a
 * sector (32 B); a full warp's 32 consecutive floats are 4 sectors.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <criterion/parameterized.h>

#include "counter_kernels.h"
#include "lds_patterns.h"
#include "scale.h"
#include "test_util.h"

#define U(x) ((unsigned long long)(x))

/* EXPECT_CTR(field, want, case...): one counter of the last launch. */
#define EXPECT_CTR(field, want, ...)                                                                \
    do {                                                                                            \
        char c_[160];                                                                               \
        snprintf(c_, sizeof c_, __VA_ARGS__);                                                       \
        cr_assert_eq(sim_last_launch()->c.field, (uint64_t)(want), "case %s: " #field " = %llu, want %llu", c_, \
                     U(sim_last_launch()->c.field), U(want));                                       \
    } while (0)

static void expect_alloc(const void *d, uint64_t rd, uint64_t wr, const char *what)
{
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(d, &ai));
    cr_assert(ai.read_bytes == rd && ai.write_bytes == wr,
              "case %s: allocation '%s' read %llu / written %llu bytes, want %llu / %llu", what, ai.name,
              U(ai.read_bytes), U(ai.write_bytes), U(rd), U(wr));
}

/* In normal mode the detailed counters stay 0. */
static void expect_no_detail(const char *what)
{
    const sim_counters *k = &sim_last_launch()->c;
    cr_assert(k->global_ld_requests == 0 && k->global_wavefronts == 0 && k->global_st_requests == 0 && k->global_ld_sectors == 0 &&
                  k->global_st_sectors == 0 && k->shared_ld_requests == 0 && k->shared_st_requests == 0 &&
                  k->shared_ld_wavefronts == 0 && k->shared_st_wavefronts == 0 && k->shared_ld_conflicts == 0 &&
                  k->shared_st_conflicts == 0 && k->global_st_lines == 0 && k->global_st_partial == 0,
              "case %s (normal mode): detailed counters are not 0", what);
}

/* ---- y = 2x ------------------------------------------------------------------------------
 * scale_v1: idx = blockIdx.x * blockDim.x + threadIdx.x; if (idx < n) y[idx] = 2 * x[idx].
 * Each thread with idx < n reads 4 B of x and writes 4 B of y: HBM 4n each way.
 * A warp (32 consecutive threads of a block) with at least one idx < n makes
 * one load request and one store request; its sectors are the distinct
 * 32-byte segments of its active lanes' 4-byte words (8 floats a sector). */
typedef struct scale_case {
    int n, block;
    unsigned requests, sectors; /* per direction (ld = st) */
} scale_case;

static scale_case scale_cases[] = {
    /* n=1000, 8 blocks of 128: warps of idx 0..991 are full (31 x 4 sectors), warp
     * 992..1023 has 8 active lanes (992..999: 32 B, 1 sector): 32 requests, 125 sectors */
    {1000, 128, 32, 125},
    /* n=33, 2 blocks of 32: one full warp (4 sectors) and one lane (1 sector) */
    {33, 32, 2, 5},
    /* n=100, 3 blocks of 48 (warps of 32 + 16 lanes): idx 0-31 (bytes 0-127: 4 sectors),
     * 32-47 (128-191: 2), 48-79 (192-319: sectors 6-9, 4), 80-95 (320-383: 2),
     * 96-99 (384-399: 1); block 2's second warp (idx 128-143) is all out of range: 5 requests,
     * 13 sectors */
    {100, 48, 5, 13},
    /* n=4096, 16 blocks of 256: 128 full warps, 4 sectors each */
    {4096, 256, 128, 512},
    /* n=1, 1 block of 64: lane 0 alone; warp 1 has no active lane */
    {1, 64, 1, 1},
    /* n=70, 1 block of 1024: warps idx 0-31, 32-63 (4 sectors each), 64-69 (24 B, 1 sector) */
    {70, 1024, 3, 9},
};

ParameterizedTestParameters(counters, scale)
{
    return cr_make_param_array(scale_case, scale_cases, sizeof scale_cases / sizeof scale_cases[0]);
}

ParameterizedTest(scale_case *c, counters, scale)
{
    const int n = c->n;
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        x[i] = (float)i - 3.5f;
    float *d_x = dev_buf("x", n * sizeof(float), x), *d_y = dev_buf("y", n * sizeof(float), NULL);
    unsigned grid = (unsigned)((n + c->block - 1) / c->block);
    simt_cfg cfg = cfg1(grid, (unsigned)c->block, 0);
    for (int detailed = 0; detailed <= 1; detailed++) {
        sim_set_detailed(detailed);
        sim_reset_counters();
        SIM_CHECK(scale_v1_launch_sim(&cfg, d_y, d_x, n));
        to_host(y, d_y, n * sizeof(float));
        for (int i = 0; i < n; i++)
            cr_assert_eq(y[i], 2 * x[i], "case n=%d block=%d: y[%d] = %g", n, c->block, i, y[i]);
        EXPECT_CTR(hbm_read_bytes, 4 * n, "scale n=%d block=%d detailed=%d", n, c->block, detailed);
        EXPECT_CTR(hbm_write_bytes, 4 * n, "scale n=%d block=%d detailed=%d", n, c->block, detailed);
        EXPECT_CTR(sram_read_bytes, 0, "scale n=%d block=%d detailed=%d", n, c->block, detailed);
        EXPECT_CTR(sram_write_bytes, 0, "scale n=%d block=%d detailed=%d", n, c->block, detailed);
        EXPECT_CTR(threads, grid * c->block, "scale n=%d block=%d detailed=%d", n, c->block, detailed);
        EXPECT_CTR(barriers, 0, "scale n=%d block=%d detailed=%d", n, c->block, detailed);
        expect_alloc(d_x, 4 * n, 0, "scale: x");
        expect_alloc(d_y, 0, 4 * n, "scale: y");
        if (!detailed) {
            expect_no_detail("scale");
            continue;
        }
        EXPECT_CTR(global_ld_requests, c->requests, "scale n=%d block=%d", n, c->block);
        EXPECT_CTR(global_st_requests, c->requests, "scale n=%d block=%d", n, c->block);
        EXPECT_CTR(global_ld_sectors, c->sectors, "scale n=%d block=%d", n, c->block);
        EXPECT_CTR(global_st_sectors, c->sectors, "scale n=%d block=%d", n, c->block);
        EXPECT_CTR(shared_ld_requests + sim_last_launch()->c.shared_st_requests, 0, "scale n=%d", n);
    }
    free(x);
    free(y);
}

/* ---- strided copy ------------------------------------------------------------------------
 * copy_strided, n = 1024, 4 blocks of 256: y[i] = x[i * stride]. 32 full warps.
 * A warp's loads are 32 floats 4*stride bytes apart, spanning 128*stride bytes:
 * stride 1: 4 sectors; 2: 8; 4: 16; 8 or more: every lane in its own sector, 32.
 * The lines they lie in (one L1 data-pipe wavefront each) are min(stride, 32).
 * Stores are consecutive: 4 sectors per request. HBM: 4n read (only the words
 * touched), 4n written. */
typedef struct stride_case {
    int stride;
    unsigned sectors_per_request;
    unsigned lines_per_request; /* the L1 data pipe's wavefronts: 128-byte lines (session 29) */
} stride_case;

static stride_case stride_cases[] = {{1, 4, 1}, {2, 8, 2}, {4, 16, 4}, {8, 32, 8}, {16, 32, 16}, {32, 32, 32}};

ParameterizedTestParameters(counters, strided)
{
    return cr_make_param_array(stride_case, stride_cases, sizeof stride_cases / sizeof stride_cases[0]);
}

ParameterizedTest(stride_case *c, counters, strided)
{
    const int n = 1024, s = c->stride;
    float *x = malloc((size_t)n * s * sizeof(float)), y[1024];
    for (int i = 0; i < n * s; i++)
        x[i] = (float)i;
    float *d_x = dev_buf("x", (size_t)n * s * sizeof(float), x), *d_y = dev_buf("y", n * sizeof(float), NULL);
    simt_cfg cfg = cfg1(4, 256, 0);
    for (int detailed = 0; detailed <= 1; detailed++) {
        sim_set_detailed(detailed);
        sim_reset_counters();
        SIM_CHECK(copy_strided_launch_sim(&cfg, d_y, d_x, n, s));
        to_host(y, d_y, sizeof y);
        for (int i = 0; i < n; i++)
            cr_assert_eq(y[i], (float)(i * s), "case stride %d: y[%d] = %g", s, i, y[i]);
        EXPECT_CTR(hbm_read_bytes, 4 * n, "stride %d detailed %d", s, detailed);
        EXPECT_CTR(hbm_write_bytes, 4 * n, "stride %d detailed %d", s, detailed);
        expect_alloc(d_x, 4 * n, 0, "strided: x");
        expect_alloc(d_y, 0, 4 * n, "strided: y");
        /* the time model's global wavefronts: counted, or counting mode's estimate from its sample
         * of the first and last blocks (every block alike here: exact) */
        const sim_time_pred p = sim_time_model(sim_get_device(), &cfg, &sim_last_launch()->c, 0);
        cr_assert_float_eq(p.global_wavefronts, 32.0 * (c->lines_per_request + 1), 1e-9,
                           "case stride %d detailed %d: global wavefronts %.1f, want %u", s, detailed,
                           p.global_wavefronts, 32 * (c->lines_per_request + 1));
        /* no barriers: the latency term takes SIM_TM_C_FREE bytes in flight a thread (session 30) */
        sim_counters with_bar = sim_last_launch()->c;
        with_bar.barriers = 4;
        const sim_time_pred pb = sim_time_model(sim_get_device(), &cfg, &with_bar, 0);
        cr_assert_gt(p.t_latency, 0, "stride %d: a latency term", s);
        cr_assert_float_eq(p.t_latency * SIM_TM_C_FREE / SIM_TM_C, pb.t_latency, 1e-9 * pb.t_latency,
                           "stride %d: latency %g s without barriers, %g with", s, p.t_latency, pb.t_latency);
        if (!detailed) {
            expect_no_detail("strided");
            EXPECT_CTR(global_accesses, 2 * n, "stride %d: a load and a store a thread", s);
            /* without the sample: every request taken as coalesced, 128 requested bytes a line */
            sim_set_sample(0);
            SIM_CHECK(copy_strided_launch_sim(&cfg, d_y, d_x, n, s));
            sim_set_sample(1);
            const sim_time_pred q = sim_time_model(sim_get_device(), &cfg, &sim_last_launch()->c, 0);
            cr_assert_float_eq(q.global_wavefronts, 8.0 * n / 128, 1e-9, "case stride %d, no sample: %.1f", s,
                               q.global_wavefronts);
            continue;
        }
        EXPECT_CTR(global_ld_requests, 32, "stride %d", s);
        EXPECT_CTR(global_st_requests, 32, "stride %d", s);
        EXPECT_CTR(global_ld_sectors, 32 * c->sectors_per_request, "stride %d", s);
        EXPECT_CTR(global_st_sectors, 32 * 4, "stride %d", s);
        EXPECT_CTR(global_wavefronts, 32 * (c->lines_per_request + 1), "stride %d: the store's line too", s);
        EXPECT_CTR(global_st_lines, 32, "stride %d: consecutive stores, a line a request", s);
        EXPECT_CTR(global_st_partial, 0, "stride %d: consecutive stores fill their sectors", s);
    }
    free(x);
}

/* ---- transposes ----------------------------------------------------------------------------
 * n x n floats, E = n^2 elements, blocks of 32x8 threads, (n/32)^2 blocks, one
 * warp per threadIdx.y; each warp runs each loop 4 times (rows +0, 8, 16, 24),
 * so every memory instruction of a loop makes R = 4 * 8 * (n/32)^2 = E/32
 * requests, each of 32 lanes.
 *  naive:  loads in[(y+j)*n + x]: 32 consecutive floats, 4 sectors: 4R;
 *          stores out[x*n + y+j]: 32 floats 4n bytes apart, 32 sectors: 32R.
 *  tiled:  global loads and stores both along rows: 4R sectors each.
 *          shared stores tile[ty+j][tx]: 32 consecutive words, 32 banks, 1
 *          wavefront: R wavefronts, 0 conflicts; shared loads tile[tx][ty+j]:
 *          words 32 apart, all in one bank: 32 wavefronts (31 conflicts) per
 *          request: 32R wavefronts, 31R conflicts.
 *  padded: tile[32][33]: the column's words are 33 apart, 32 different banks:
 *          shared loads R wavefronts, 0 conflicts.
 *  tiled and padded: SRAM 4E bytes written and 4E read; one barrier per block.
 *          Counting mode's sample of bank conflicts (the first and the last
 *          block, both their stretches): 2 x 8 TILE^2 bytes, and 2 x 33 (tiled)
 *          or 2 x 2 (padded) wavefronts a TILE^2 / 32 requests.
 *  all: HBM 4E read, 4E written. */
enum { TR_NAIVE, TR_TILED, TR_PADDED };
static const char *const tr_name[] = {"naive", "tiled", "padded"};

typedef struct tr_case {
    int kind, n;
} tr_case;

static tr_case tr_cases[] = {{TR_NAIVE, 64}, {TR_TILED, 64}, {TR_PADDED, 64},
                             {TR_NAIVE, 128}, {TR_TILED, 128}, {TR_PADDED, 128}};

static simt_cfg tr_cfg(int n) { return cfg3((unsigned)n / TILE, (unsigned)n / TILE, 1, TILE, TILE_ROWS, 1, 0); }

static int run_transpose(int kind, float *d_out, const float *d_in, int n)
{
    simt_cfg cfg = tr_cfg(n);
    return kind == TR_NAIVE   ? transpose_naive_launch_sim(&cfg, d_out, d_in, n)
           : kind == TR_TILED ? transpose_tiled_launch_sim(&cfg, d_out, d_in, n)
                              : transpose_padded_launch_sim(&cfg, d_out, d_in, n);
}

ParameterizedTestParameters(counters, transpose)
{
    return cr_make_param_array(tr_case, tr_cases, sizeof tr_cases / sizeof tr_cases[0]);
}

ParameterizedTest(tr_case *c, counters, transpose)
{
    const int n = c->n;
    const uint64_t E = (uint64_t)n * n, R = E / 32, blocks = E / (TILE * TILE);
    const char *k = tr_name[c->kind];
    float *in = malloc(E * sizeof(float)), *out = malloc(E * sizeof(float));
    for (uint64_t i = 0; i < E; i++)
        in[i] = (float)i;
    float *d_in = dev_buf("in", E * sizeof(float), in), *d_out = dev_buf("out", E * sizeof(float), NULL);
    for (int detailed = 0; detailed <= 1; detailed++) {
        sim_set_detailed(detailed);
        sim_reset_counters();
        SIM_CHECK(run_transpose(c->kind, d_out, d_in, n));
        to_host(out, d_out, E * sizeof(float));
        for (int r = 0; r < n; r++)
            for (int q = 0; q < n; q++)
                cr_assert_eq(out[r * n + q], in[q * n + r], "case %s n=%d: out[%d][%d] = %g, want %g", k, n, r, q,
                             out[r * n + q], in[q * n + r]);
        int shared = c->kind != TR_NAIVE;
        EXPECT_CTR(hbm_read_bytes, 4 * E, "%s n=%d detailed=%d", k, n, detailed);
        EXPECT_CTR(hbm_write_bytes, 4 * E, "%s n=%d detailed=%d", k, n, detailed);
        EXPECT_CTR(sram_read_bytes, shared ? 4 * E : 0, "%s n=%d detailed=%d", k, n, detailed);
        EXPECT_CTR(sram_write_bytes, shared ? 4 * E : 0, "%s n=%d detailed=%d", k, n, detailed);
        EXPECT_CTR(barriers, shared ? blocks : 0, "%s n=%d detailed=%d", k, n, detailed);
        EXPECT_CTR(threads, blocks * TILE * TILE_ROWS, "%s n=%d detailed=%d", k, n, detailed);
        expect_alloc(d_in, 4 * E, 0, "transpose: in");
        expect_alloc(d_out, 0, 4 * E, "transpose: out");
        /* counting mode samples the bank conflicts of the first and the last
         * block (sim/launch.c): two stretches each (one barrier), both counted */
        const uint64_t block_bytes = 8 * TILE * TILE, block_wf = TILE * TILE / 32 * (c->kind == TR_TILED ? 33 : 2);
        EXPECT_CTR(sample_sram_bytes, !detailed && shared ? 2 * block_bytes : 0, "%s n=%d detailed=%d", k, n, detailed);
        EXPECT_CTR(sample_wavefronts, !detailed && shared ? 2 * block_wf : 0, "%s n=%d detailed=%d", k, n, detailed);
        /* the L2's requests (session 30): every store line (the L1 writes through: the naive
         * transpose's 32 a request, each a partial sector) and the load lines that miss L1 (R,
         * each sector read once); counted, or counting mode's estimate from its sample (every
         * block alike: exact). The time model's L2 term is then theirs, not the sectors'. */
        const int naive = c->kind == TR_NAIVE;
        const sim_counters *lc = &sim_last_launch()->c;
        const simt_cfg cfg = tr_cfg(n);
        const sim_time_pred p = sim_time_model(sim_get_device(), &cfg, lc, 0);
        cr_assert_float_eq(p.l2_requests, (double)((naive ? 33 : 2) * R), 1e-6, "%s n=%d detailed=%d: %.1f L2 requests",
                           k, n, detailed, p.l2_requests);
        const double scale = sim_get_device()->ceil.l2_req_scale;
        const double t_req = scale * ((naive ? 33 : 2) * R * SIM_TM_L2_REQ +
                                      (naive ? 32 * R * SIM_TM_L2_WPART : 4 * R * SIM_TM_L2_WSEC));
        const double t_bw = 32.0 * (double)(lc->l2_read_sectors + lc->l2_write_sectors) / sim_get_device()->ceil.l2_bytes_per_s;
        cr_assert_float_eq(p.t_l2, t_req > t_bw ? t_req : t_bw, 1e-15, "%s n=%d detailed=%d: t_l2 %g s", k, n, detailed,
                           p.t_l2);
        if (naive)
            cr_assert_gt(t_req, 10 * t_bw, "naive n=%d: the partial stores' requests, not the sectors, bound the L2", n);
        if (!detailed) {
            expect_no_detail(k);
            continue;
        }
        EXPECT_CTR(global_ld_requests, R, "%s n=%d", k, n);
        EXPECT_CTR(global_st_requests, R, "%s n=%d", k, n);
        EXPECT_CTR(global_ld_sectors, 4 * R, "%s n=%d", k, n);
        EXPECT_CTR(global_st_sectors, (c->kind == TR_NAIVE ? 32 : 4) * R, "%s n=%d", k, n);
        EXPECT_CTR(global_st_lines, (naive ? 32 : 1) * R, "%s n=%d", k, n);
        EXPECT_CTR(global_st_partial, naive ? 32 * R : 0, "%s n=%d: a 4-byte store a sector", k, n);
        EXPECT_CTR(shared_st_requests, shared ? R : 0, "%s n=%d", k, n);
        EXPECT_CTR(shared_st_wavefronts, shared ? R : 0, "%s n=%d", k, n);
        EXPECT_CTR(shared_st_conflicts, 0, "%s n=%d", k, n);
        EXPECT_CTR(shared_ld_requests, shared ? R : 0, "%s n=%d", k, n);
        EXPECT_CTR(shared_ld_wavefronts, c->kind == TR_TILED ? 32 * R : shared ? R : 0, "%s n=%d", k, n);
        EXPECT_CTR(shared_ld_conflicts, c->kind == TR_TILED ? 31 * R : 0, "%s n=%d", k, n);
    }
    free(in);
    free(out);
}

/* ---- bank conflicts, 8-byte words and broadcast ------------------------------------------
 * shared_doubles(stride), one warp: lane t stores the double at word
 * 2*t*stride (two 4-byte words, banks (2*t*stride) % 32 and the next) and
 * loads its neighbour's (the same 32 doubles, so the same banks).
 * Each request covers 64 words, so it needs at least 2 wavefronts (ideal 2);
 * wavefronts = the most distinct words any one bank holds:
 *   stride 1: words 0..63, every bank twice: 2 wavefronts, 0 conflicts;
 *   stride 2: words 4t, 4t+1: banks 0,1,4,5,..,28,29, each 4 times: 4, 2;
 *   stride 16: words 32t, 32t+1: banks 0 and 1, 32 times each: 32, 30.
 * SRAM bytes: 8 per lane each way. */
typedef struct dbl_case {
    int stride;
    unsigned wavefronts, conflicts;
} dbl_case;

static dbl_case dbl_cases[] = {{1, 2, 0}, {2, 4, 2}, {16, 32, 30}};

ParameterizedTestParameters(counters, shared_doubles)
{
    return cr_make_param_array(dbl_case, dbl_cases, sizeof dbl_cases / sizeof dbl_cases[0]);
}

ParameterizedTest(dbl_case *c, counters, shared_doubles)
{
    double out[32];
    double *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    sim_set_detailed(1);
    SIM_CHECK(shared_doubles_launch_sim(&cfg, d_out, c->stride));
    to_host(out, d_out, sizeof out);
    for (int t = 0; t < 32; t++)
        cr_assert_eq(out[t], (double)((t + 1) % 32), "case doubles stride %d: out[%d] = %g", c->stride, t, out[t]);
    EXPECT_CTR(sram_write_bytes, 256, "doubles stride %d", c->stride);
    EXPECT_CTR(sram_read_bytes, 256, "doubles stride %d", c->stride);
    EXPECT_CTR(shared_st_requests, 1, "doubles stride %d", c->stride);
    EXPECT_CTR(shared_ld_requests, 1, "doubles stride %d", c->stride);
    EXPECT_CTR(shared_st_wavefronts, c->wavefronts, "doubles stride %d", c->stride);
    EXPECT_CTR(shared_ld_wavefronts, c->wavefronts, "doubles stride %d", c->stride);
    EXPECT_CTR(shared_st_conflicts, c->conflicts, "doubles stride %d", c->stride);
    EXPECT_CTR(shared_ld_conflicts, c->conflicts, "doubles stride %d", c->stride);
    EXPECT_CTR(global_st_sectors, 8, "doubles stride %d (256 B of out)", c->stride);
}

/* shared_gather(k, spread), one warp: 32 store requests of 32 consecutive
 * words (1 wavefront each), then one load request of the k distinct words
 * (t % k) * spread. Lanes reading one word share it (broadcast); distinct
 * words in one bank serialise:
 *   k 1: one word for all: 1 wavefront, 0 conflicts;
 *   k 32, spread 1: 32 banks: 1, 0;  k 16, spread 2: even banks, once each: 1, 0;
 *   k 32, spread 2: even banks, twice each: 2, 1;  k 4, spread 32: bank 0, 4 words: 4, 3;
 *   k 32, spread 32: bank 0, 32 words: 32, 31;  k 8, spread 33: banks 0..7: 1, 0. */
typedef struct gather_case {
    int k, spread;
    unsigned wavefronts, conflicts;
} gather_case;

static gather_case gather_cases[] = {{1, 0, 1, 0},  {32, 1, 1, 0},  {16, 2, 1, 0},  {32, 2, 2, 1},
                                     {4, 32, 4, 3}, {32, 32, 32, 31}, {8, 33, 1, 0}};

ParameterizedTestParameters(counters, shared_gather)
{
    return cr_make_param_array(gather_case, gather_cases, sizeof gather_cases / sizeof gather_cases[0]);
}

ParameterizedTest(gather_case *c, counters, shared_gather)
{
    float out[32];
    float *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    sim_set_detailed(1);
    SIM_CHECK(shared_gather_launch_sim(&cfg, d_out, c->k, c->spread));
    to_host(out, d_out, sizeof out);
    for (int t = 0; t < 32; t++)
        cr_assert_eq(out[t], (float)((t % c->k) * c->spread), "case gather k %d spread %d: out[%d] = %g", c->k,
                     c->spread, t, out[t]);
    EXPECT_CTR(shared_st_requests, 32, "gather k %d spread %d", c->k, c->spread);
    EXPECT_CTR(shared_st_wavefronts, 32, "gather k %d spread %d", c->k, c->spread);
    EXPECT_CTR(shared_st_conflicts, 0, "gather k %d spread %d", c->k, c->spread);
    EXPECT_CTR(shared_ld_requests, 1, "gather k %d spread %d", c->k, c->spread);
    EXPECT_CTR(shared_ld_wavefronts, c->wavefronts, "gather k %d spread %d", c->k, c->spread);
    EXPECT_CTR(shared_ld_conflicts, c->conflicts, "gather k %d spread %d", c->k, c->spread);
    EXPECT_CTR(sram_write_bytes, 4096, "gather k %d spread %d", c->k, c->spread);
    EXPECT_CTR(sram_read_bytes, 128, "gather k %d spread %d", c->k, c->spread);
}

/* ---- 128-bit accesses --------------------------------------------------------------------------
 * shared_probe4, one warp: lane t loads the 16-byte chunk idx[t] with
 * load_float4 (LDS.128); shared_probe8 the 8-byte item idx[t] (LDS.64).
 * The lane -> item patterns are tests/kernels/lds_patterns.h, which
 * scripts/gpu/lds_patterns.cu measured; the wavefronts are what the H200
 * counted for each (docs/parity-h200.md, "128-bit and 64-bit shared accesses"). */
typedef struct probe_case { /* no pointers: Criterion copies parameters to another process */
    int pattern;
    char what[32];
    unsigned wavefronts, conflicts;     /* 128-bit */
    unsigned wavefronts8, conflicts8;   /* 64-bit, the same pattern over 8-byte items */
} probe_case;

static probe_case probe_cases[] = {
    {0, "broadcast", 2, 0, 1, 0},       {1, "lane % 2", 2, 0, 1, 0},
    {2, "lane % 4", 4, 0, 2, 0},        {3, "lane % 8", 4, 0, 2, 0},
    {4, "lane", 4, 0, 2, 0},            {5, "lane / 8", 2, 0, 1, 0},
    {6, "lane / 16", 2, 0, 1, 0},       {7, "lane % 16", 4, 0, 2, 0},
    {8, "lane / 4", 2, 0, 1, 0},        {9, "lane / 2", 2, 0, 1, 0},
    {10, "(lane % 4) * 8", 16, 12, 4, 2}, {11, "lane % 2 + 2 (lane / 16)", 2, 0, 1, 0},
    {12, "(lane / 8) % 2", 2, 0, 1, 0}, {13, "lane / 8 + 4 (lane % 2)", 2, 0, 1, 0},
    {14, "31 - lane", 4, 0, 2, 0},      {15, "(lane % 8) * 2", 8, 4, 2, 0},
};

ParameterizedTestParameters(counters, shared_float4)
{
    return cr_make_param_array(probe_case, probe_cases, sizeof probe_cases / sizeof probe_cases[0]);
}

ParameterizedTest(probe_case *c, counters, shared_float4)
{
    int idx[32];
    for (int t = 0; t < 32; t++)
        idx[t] = lds_item(c->pattern, t);
    float out[32];
    float *d_out = dev_buf("out", sizeof out, NULL);
    int *d_idx = dev_buf("idx", sizeof idx, idx);
    simt_cfg cfg = cfg1(1, 32, 0);
    sim_set_detailed(1);
    SIM_CHECK(shared_probe4_launch_sim(&cfg, d_out, d_idx));
    to_host(out, d_out, sizeof out);
    for (int t = 0; t < 32; t++)
        cr_assert_eq(out[t], (float)(16 * idx[t] + 6), "case %s: out[%d] = %g", c->what, t, out[t]);
    EXPECT_CTR(shared_ld_requests, 1, "float4 chunks %s", c->what);
    EXPECT_CTR(sram_read_bytes, 512, "float4 chunks %s", c->what);
    EXPECT_CTR(shared_ld_wavefronts, c->wavefronts, "float4 chunks %s", c->what);
    EXPECT_CTR(shared_ld_conflicts, c->conflicts, "float4 chunks %s", c->what);

    double out8[32];
    double *d_out8 = dev_buf("out8", sizeof out8, NULL);
    SIM_CHECK(shared_probe8_launch_sim(&cfg, d_out8, d_idx));
    to_host(out8, d_out8, sizeof out8);
    for (int t = 0; t < 32; t++)
        cr_assert_eq(out8[t], (double)idx[t], "case %s (64-bit): out[%d] = %g", c->what, t, out8[t]);
    EXPECT_CTR(shared_ld_requests, 1, "double items %s", c->what);
    EXPECT_CTR(shared_ld_wavefronts, c->wavefronts8, "double items %s", c->what);
    EXPECT_CTR(shared_ld_conflicts, c->conflicts8, "double items %s", c->what);
}

/* global_float4, one warp: 32 lanes x 16 bytes. Stride 1: 512 consecutive
 * bytes, 16 sectors for the load and the store; stride 2: every other chunk,
 * the load touches 32 sectors. A chunk never spans two sectors (16-byte
 * aligned), so sectors = distinct chunks / 2 or the chunks themselves. */
Test(counters, global_float4)
{
    float x[256], y[128];
    for (int i = 0; i < 256; i++)
        x[i] = (float)i;
    for (int stride = 1; stride <= 2; stride++) {
        float *d_x = dev_buf("x", sizeof x, x), *d_y = dev_buf("y", sizeof y, NULL);
        simt_cfg cfg = cfg1(1, 32, 0);
        sim_set_detailed(1);
        SIM_CHECK(global_float4_launch_sim(&cfg, d_y, d_x, stride));
        to_host(y, d_y, sizeof y);
        for (int i = 0; i < 128; i++)
            cr_assert_eq(y[i], x[4 * stride * (i / 4) + i % 4], "case stride %d: y[%d] = %g", stride, i, y[i]);
        EXPECT_CTR(global_ld_requests, 1, "float4 stride %d", stride);
        EXPECT_CTR(global_st_requests, 1, "float4 stride %d", stride);
        EXPECT_CTR(global_ld_sectors, 16 * stride, "float4 stride %d", stride);
        EXPECT_CTR(global_st_sectors, 16, "float4 stride %d", stride);
        expect_alloc(d_x, 512, 0, "float4 x");
        expect_alloc(d_y, 0, 512, "float4 y");
    }
}

/* scatter_words, one warp, y[t * stride] = t: the store request's lines (the L2's write
 * requests) and its sectors written in part. Stride 1: 128 consecutive bytes, 4 whole sectors in
 * 1 line; 2: 8 sectors (each half written) in 2 lines; 8: 32 sectors in 8 lines; 32: 32 in 32
 * lines (a naive transpose's stores; spread over more than 64 sectors: measure's sorted path).
 * With a gap of 64 KB between the half-warps (the sorted path, several lanes a sector): stride
 * 1, 2 x 2 whole sectors in 2 lines; stride 2, 2 x 4 half-written sectors in 2 lines. */
typedef struct scatter_case {
    int stride, gap; /* gap 0: 16 * stride, one run of lanes */
    unsigned sectors, lines, partial;
} scatter_case;

static scatter_case scatter_cases[] = {{1, 0, 4, 1, 0},       {2, 0, 8, 2, 8},       {8, 0, 32, 8, 32},
                                       {32, 0, 32, 32, 32},   {1, 16384, 4, 2, 0},   {2, 16384, 8, 2, 8}};

ParameterizedTestParameters(counters, scatter_words)
{
    return cr_make_param_array(scatter_case, scatter_cases, sizeof scatter_cases / sizeof scatter_cases[0]);
}

ParameterizedTest(scatter_case *c, counters, scatter_words)
{
    const int s = c->stride, gap = c->gap ? c->gap : 16 * s;
    float *d_y = dev_buf("y", (16 * (size_t)s + (size_t)gap) * sizeof(float), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    sim_set_detailed(1);
    SIM_CHECK(scatter_words_launch_sim(&cfg, d_y, s, gap));
    EXPECT_CTR(global_st_requests, 1, "scatter stride %d gap %d", s, gap);
    EXPECT_CTR(global_st_sectors, c->sectors, "scatter stride %d gap %d", s, gap);
    EXPECT_CTR(global_st_lines, c->lines, "scatter stride %d gap %d", s, gap);
    EXPECT_CTR(global_st_partial, c->partial, "scatter stride %d gap %d", s, gap);
    EXPECT_CTR(global_wavefronts, c->lines, "scatter stride %d gap %d", s, gap);
}

/* copy_async_tile, one warp: the copies are HBM reads and SRAM writes like
 * any others, but, in detailed mode, requests of their own (LDGSTS on the
 * GPU): stride 1, 512 consecutive bytes, 16 sectors; stride 2, 32; their
 * shared side 4 wavefronts (128-bit stores, quarter-warps), no conflicts.
 * The loads and stores counters see only the LDS.128 and the STG.128. */
Test(counters, copy_async)
{
    float x[256], y[128];
    for (int i = 0; i < 256; i++)
        x[i] = (float)i;
    for (int stride = 1; stride <= 2; stride++) {
        float *d_x = dev_buf("x", sizeof x, x), *d_y = dev_buf("y", sizeof y, NULL);
        simt_cfg cfg = cfg1(1, 32, 512);
        sim_set_detailed(1);
        SIM_CHECK(copy_async_tile_launch_sim(&cfg, d_y, d_x, stride, 0));
        to_host(y, d_y, sizeof y);
        for (int i = 0; i < 128; i++) {
            int t = (i / 4 + 1) % 32; /* y's chunk i/4 is lane i/4 + 1's */
            cr_assert_eq(y[i], x[4 * stride * t + i % 4], "case stride %d: y[%d] = %g", stride, i, y[i]);
        }
        EXPECT_CTR(async_requests, 1, "copy_async stride %d", stride);
        EXPECT_CTR(async_ld_sectors, 16 * stride, "copy_async stride %d", stride);
        EXPECT_CTR(async_st_wavefronts, 4, "copy_async stride %d", stride);
        EXPECT_CTR(async_st_conflicts, 0, "copy_async stride %d", stride);
        EXPECT_CTR(global_ld_requests, 0, "copy_async stride %d", stride);
        EXPECT_CTR(global_ld_sectors, 0, "copy_async stride %d", stride);
        EXPECT_CTR(shared_st_requests, 0, "copy_async stride %d", stride);
        EXPECT_CTR(shared_ld_wavefronts, 4, "copy_async stride %d", stride);
        EXPECT_CTR(global_st_sectors, 16, "copy_async stride %d", stride);
        EXPECT_CTR(sram_write_bytes, 512, "copy_async stride %d", stride);
        EXPECT_CTR(sram_read_bytes, 512, "copy_async stride %d", stride);
        expect_alloc(d_x, 512, 0, "copy_async x");
        expect_alloc(d_y, 0, 512, "copy_async y");
    }
}

/* copy_async_float4 copies global to shared only, and its copies must be
 * waited for before a barrier: each misuse is a report that names it and
 * the fix (in plain and in detailed mode). */
Test(counters, copy_async_misuse)
{
    float x[128] = {0};
    static const char *const want[] = {"", "copy_async_float4 reads global memory only",
                                       "copy_async_float4 writes shared memory only",
                                       "copies not waited for: on a GPU they may land after the barrier"};
    static const sim_status status[] = {SIM_OK, SIM_ERR_ILLEGAL_ADDRESS, SIM_ERR_ILLEGAL_ADDRESS,
                                        SIM_ERR_SHARED_RACE};
    for (int detailed = 0; detailed <= 1; detailed++)
        for (int misuse = 1; misuse <= 3; misuse++) {
            float *d_x = dev_buf("x", sizeof x, x), *d_y = dev_buf("y", sizeof x, NULL);
            simt_cfg cfg = cfg1(1, 32, 512);
            sim_set_detailed(detailed);
            int st = copy_async_tile_launch_sim(&cfg, d_y, d_x, 1, misuse);
            cr_assert_eq(st, status[misuse], "case misuse %d detailed %d: status %d", misuse, detailed, st);
            cr_assert(strstr(sim_last_error(), want[misuse]), "case misuse %d detailed %d: report: %s", misuse,
                      detailed, sim_last_error());
        }
    sim_set_detailed(0);
    /* and a correct launch after them still runs */
    float *d_x = dev_buf("x", sizeof x, x), *d_y = dev_buf("y", sizeof x, NULL);
    simt_cfg cfg = cfg1(1, 32, 512);
    SIM_CHECK(copy_async_tile_launch_sim(&cfg, d_y, d_x, 1, 0));
}

/* ---- local memory ----------------------------------------------------------------------------
 * local_array(n): each thread stores n ints into a local array through a
 * pointer and loads them back: 4n bytes written and 4n read per thread, all
 * local (the thread's stack), none HBM but the one 4-byte result.
 * Only locals whose address escapes are counted: gcc's instrumentation skips
 * locals it can see whole (a volatile local array indexed in the kernel
 * itself, for one), so such a kernel shows 0 local bytes. */
Test(counters, local_memory)
{
    const int n = 50, nt = 64;
    int out[64];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, nt, 0);
    SIM_CHECK(local_array_launch_sim(&cfg, d_out, n));
    to_host(out, d_out, sizeof out);
    for (int t = 0; t < nt; t++)
        cr_assert_eq(out[t], n * t + n * (n - 1) / 2, "case local array n=%d: thread %d result %d", n, t, out[t]);
    EXPECT_CTR(local_write_bytes, 4 * nt * n, "local array n=%d", n);
    EXPECT_CTR(local_read_bytes, 4 * nt * n, "local array n=%d", n);
    EXPECT_CTR(hbm_write_bytes, 4 * nt, "local array n=%d", n);
    EXPECT_CTR(hbm_read_bytes, 0, "local array n=%d", n);
}

/* ---- workers ---------------------------------------------------------------------------------
 * The same launches on 1, 2 and 3 OpenMP workers in one process: results,
 * per-launch counters and per-allocation counters are identical. */
#ifdef _OPENMP
typedef struct run_record {
    sim_counters scale, tiled, strided;
    uint64_t alloc_rw[3][2];
    float y[1000], t[128 * 128];
} run_record;

static void record_run(run_record *r, float *d_x, float *d_y, float *d_in, float *d_t, float *d_s)
{
    sim_alloc_info ai;
    sim_reset_counters();
    simt_cfg c1 = cfg1(8, 128, 0);
    SIM_CHECK(scale_v1_launch_sim(&c1, d_y, d_x, 1000));
    r->scale = sim_last_launch()->c;
    SIM_CHECK(transpose_tiled_launch_sim(&(simt_cfg){{4, 4, 1}, {TILE, TILE_ROWS, 1}, 0, NULL, 0}, d_t, d_in, 128));
    r->tiled = sim_last_launch()->c;
    simt_cfg c3 = cfg1(4, 250, 0);
    SIM_CHECK(copy_strided_launch_sim(&c3, d_s, d_in, 1000, 3));
    r->strided = sim_last_launch()->c;
    const void *bufs[3] = {d_x, d_in, d_t};
    for (int b = 0; b < 3; b++) {
        SIM_CHECK(sim_alloc_query(bufs[b], &ai));
        r->alloc_rw[b][0] = ai.read_bytes;
        r->alloc_rw[b][1] = ai.write_bytes;
    }
    to_host(r->y, d_y, sizeof r->y);
    to_host(r->t, d_t, sizeof r->t);
}

Test(counters, independent_of_workers)
{
    float *x = malloc(1000 * sizeof(float)), *in = malloc(128 * 128 * sizeof(float));
    for (int i = 0; i < 1000; i++)
        x[i] = (float)i * 0.5f;
    for (int i = 0; i < 128 * 128; i++)
        in[i] = (float)i;
    float *d_x = dev_buf("x", 1000 * sizeof(float), x), *d_y = dev_buf("y", 1000 * sizeof(float), NULL);
    float *d_in = dev_buf("in", 128 * 128 * sizeof(float), in), *d_t = dev_buf("t", 128 * 128 * sizeof(float), NULL);
    float *d_s = dev_buf("s", 1000 * sizeof(float), NULL);
    for (int detailed = 0; detailed <= 1; detailed++) {
        sim_set_detailed(detailed);
        static run_record ref, other;
        omp_set_num_threads(1);
        cr_assert_eq(sim_worker_count(), 1, "case 1 worker: sim_worker_count() = %d", sim_worker_count());
        record_run(&ref, d_x, d_y, d_in, d_t, d_s);
        for (int workers = 2; workers <= 3; workers++) {
            omp_set_num_threads(workers);
            cr_assert_eq(sim_worker_count(), workers, "case %d workers: sim_worker_count()", workers);
            SIM_CHECK(sim_memset(d_y, 0, 1000 * sizeof(float)));
            SIM_CHECK(sim_memset(d_t, 0, 128 * 128 * sizeof(float)));
            record_run(&other, d_x, d_y, d_in, d_t, d_s);
            cr_assert(!memcmp(&ref.scale, &other.scale, sizeof ref.scale),
                      "case scale, 1 vs %d workers, detailed %d: counters differ", workers, detailed);
            cr_assert(!memcmp(&ref.tiled, &other.tiled, sizeof ref.tiled),
                      "case tiled transpose, 1 vs %d workers, detailed %d: counters differ (conflicts %llu vs %llu)",
                      workers, detailed, U(ref.tiled.shared_ld_conflicts), U(other.tiled.shared_ld_conflicts));
            cr_assert(!memcmp(&ref.strided, &other.strided, sizeof ref.strided),
                      "case strided copy, 1 vs %d workers, detailed %d: counters differ", workers, detailed);
            cr_assert(!memcmp(ref.alloc_rw, other.alloc_rw, sizeof ref.alloc_rw),
                      "case per-allocation counters, 1 vs %d workers, detailed %d differ", workers, detailed);
            cr_assert(!memcmp(ref.y, other.y, sizeof ref.y) && !memcmp(ref.t, other.t, sizeof ref.t),
                      "case results, 1 vs %d workers, detailed %d differ", workers, detailed);
        }
        cr_assert(detailed == 0 || ref.tiled.shared_ld_conflicts == 31 * 512,
                  "case tiled 128 detailed: %llu conflicts", U(ref.tiled.shared_ld_conflicts));
    }
    free(x);
    free(in);
}
#else
Test(counters, independent_of_workers)
{
    cr_skip_test("built without OpenMP (SIMTLAB_OPENMP=OFF): one worker only");
}
#endif

/* ---- host <-> device copies ------------------------------------------------------------------
 * Copies model PCIe: they count in sim_copy_totals, never in kernel HBM
 * counters or in an allocation's kernel read/write bytes. */
Test(counters, copies_apart_from_kernel_traffic)
{
    const int n = 1000;
    float x[1000], y[1000];
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    float *d_x, *d_y, *d_z;
    SIM_CHECK(sim_malloc((void **)&d_x, sizeof x, "x"));
    SIM_CHECK(sim_malloc((void **)&d_y, sizeof y, "y"));
    SIM_CHECK(sim_malloc((void **)&d_z, sizeof y, "z"));
    sim_reset_counters();
    sim_copy_counters z = sim_copy_totals();
    cr_assert(z.h2d_bytes == 0 && z.d2h_bytes == 0 && z.d2d_bytes == 0, "case after reset: copy totals not 0");
    SIM_CHECK(sim_memcpy(d_x, x, sizeof x, SIM_COPY_H2D));
    SIM_CHECK(sim_memcpy(d_z, d_x, 400, SIM_COPY_D2D));
    simt_cfg cfg = cfg1(4, 256, 0);
    SIM_CHECK(scale_v1_launch_sim(&cfg, d_y, d_x, n));
    SIM_CHECK(sim_memcpy(y, d_y, sizeof y, SIM_COPY_D2H));
    SIM_CHECK(sim_memcpy(y, d_y, 40, SIM_COPY_D2H));
    sim_copy_counters t = sim_copy_totals();
    cr_assert_eq(t.h2d_bytes, sizeof x, "case copies: h2d %llu, want %zu", U(t.h2d_bytes), sizeof x);
    cr_assert_eq(t.d2h_bytes, sizeof y + 40, "case copies: d2h %llu, want %zu", U(t.d2h_bytes), sizeof y + 40);
    cr_assert_eq(t.d2d_bytes, 400, "case copies: d2d %llu, want 400", U(t.d2d_bytes));
    EXPECT_CTR(hbm_read_bytes, 4 * n, "copies: kernel reads only");
    EXPECT_CTR(hbm_write_bytes, 4 * n, "copies: kernel writes only");
    expect_alloc(d_x, 4 * n, 0, "copies: x (uploaded, copied from, read by the kernel)");
    expect_alloc(d_y, 0, 4 * n, "copies: y (written by the kernel, downloaded)");
    expect_alloc(d_z, 0, 0, "copies: z (only a D2D copy target)");
    /* per-allocation counters accumulate over launches until reset */
    SIM_CHECK(scale_v1_launch_sim(&cfg, d_y, d_x, n));
    expect_alloc(d_x, 8 * n, 0, "copies: x after two launches");
    EXPECT_CTR(hbm_read_bytes, 4 * n, "copies: the second launch alone");
    sim_reset_counters();
    expect_alloc(d_x, 0, 0, "copies: x after reset");
    t = sim_copy_totals();
    cr_assert(t.h2d_bytes == 0 && t.d2h_bytes == 0 && t.d2d_bytes == 0, "case copies after reset: not 0");
}

/* Detailed mode's memory is bounded: a warp whose lanes each make 2^20 loads
 * between two barriers kept every request (~340 bytes each: 340 MB) until
 * the barrier; now the requests all lanes have passed are counted on the
 * way (sim/access.c, SIM_REQ_CAP). Counts stay exact. */
#include <sys/resource.h>
static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Counting mode's bank-conflict sample stays bounded, and a stretch too long for it is still
 * sampled as far as the bound: one block of 256 threads, a 1 KB shared write, a barrier, then
 * n = 16400 shared reads a thread with no barrier (4.2 M > SIM_SAMPLE_MAX_ACCESSES). The reads
 * are conflict-free (a warp reads 32 consecutive words: 1 wavefront a 128 bytes), so the exact
 * figure is 8 + 256 n / 32 wavefronts; the sample of the long stretch's first 2^22 accesses
 * gives it within 1 % (high: requests whose lanes were not all in at the cut count whole).
 * Before, the long stretch was dropped and the estimate was the first stretch's 8 alone. The
 * counters are counting mode's, exact. */
Test(counters, sample_partial)
{
    const int n = 16400;
    float *y = dev_buf("y", 256 * sizeof(float), NULL);
    sim_set_detailed(0);
    simt_cfg cfg = cfg1(1, 256, 0);
    SIM_CHECK(shared_stretch_launch_sim(&cfg, y, n));
    EXPECT_CTR(sram_write_bytes, 256 * 4, "shared_stretch");
    EXPECT_CTR(sram_read_bytes, 256ull * n * 4, "shared_stretch");
    EXPECT_CTR(sample_sram_bytes, 256 * 4 + 256ull * n * 4, "shared_stretch: both stretches");
    const double exact = 8 + 256.0 * n / 32, got = (double)sim_last_launch()->c.sample_wavefronts;
    cr_assert(got >= exact && got <= 1.01 * exact, "sampled wavefronts %.0f, exact %.0f", got, exact);
    expect_no_detail("shared_stretch");
    float out[256];
    to_host(out, y, sizeof out);
    for (int t = 0; t < 256; t++) {
        double want = 0;
        for (int i = 0; i < n; i++)
            want += (t + i) & 255;
        cr_assert_float_eq(out[t], (float)want, 1e-3 * want, "y[%d] = %g, want %g", t, out[t], want);
    }
    SIM_CHECK(sim_free(y));
}

/* Counting mode's sample sees a shared race after many global accesses of the same stretch
 * (256 threads x 1024 loads, past the 2^14 sampled accesses it race-checks): global accesses,
 * sampled for the L1 lines since session 29, have their own count and leave the race checks'
 * budget to the shared ones. */
Test(counters, sample_race_after_global_loads)
{
    float *x = dev_buf("x", 1024 * sizeof(float), NULL), *y = dev_buf("y", 256 * sizeof(float), NULL);
    sim_set_detailed(0);
    simt_cfg cfg = cfg1(1, 256, 0);
    SIM_CHECK(global_then_race_launch_sim(&cfg, y, x, 1024));
    const char *note = sim_last_launch()->race_note;
    cr_assert(strstr(note, "in kernel global_then_race") && strstr(note, "seen in counting mode's sample"),
              "the race note is \"%s\"", note);
    EXPECT_CTR(global_accesses, 256 * 1025, "global_then_race: 1024 loads and a store a thread");
    SIM_CHECK(sim_free(x));
    SIM_CHECK(sim_free(y));
}

/* Detailed mode's log of shared accesses (sim/access.c) counts what its table counts, request
 * by request: log_mix's lanes in step, lanes that part (counts, branches, both windows at one
 * instruction, 16- and 24-byte loads, a shuffle between), a stretch past a log's capacity, and
 * a partial last warp. Every warp-level counter of the launch is compared; the results too. */
Test(counters, log_matches_table)
{
    static const struct {
        int n, block, generic;
    } cases[] = {{10, 96, 0}, {10, 80, 0}, {700, 96, 0}, {1, 32, 0}, {3, 32, 1}, {10, 80, 1}};
    float *g = dev_buf("g", 256 * sizeof(float), NULL);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const int n = cases[c].n, block = cases[c].block, generic = cases[c].generic;
        float *dy = dev_buf("out", 2 * (size_t)block * sizeof(float), NULL);
        simt_cfg cfg = cfg1(2, (unsigned)block, 4096);
        sim_counters got[2];
        float out[2][2 * 96];
        sim_set_detailed(1);
        for (int log = 0; log <= 1; log++) {
            sim_set_detail_log(log);
            SIM_CHECK(log_mix_launch_sim(&cfg, dy, g, n, generic));
            got[log] = sim_last_launch()->c;
            to_host(out[log], dy, 2 * (size_t)block * sizeof(float));
        }
        sim_set_detail_log(1);
        sim_set_detailed(0);
        cr_assert_gt(got[0].shared_ld_requests, 0, "case n %d block %d: no shared requests", n, block);
        if (generic)
            cr_assert_gt(got[0].global_ld_requests, 0, "case n %d block %d generic: no global requests", n, block);
        /* global_ld_requests .. shared_atom_conflicts: the warp-level counters, contiguous */
        const uint64_t *a = &got[0].global_ld_requests, *b = &got[1].global_ld_requests;
        const size_t k = (size_t)(&got[0].shared_atom_conflicts - a) + 1;
        static const char *const names[] = {
            "global_ld_requests", "global_st_requests", "global_ld_sectors", "global_st_sectors",
            "shared_ld_requests", "shared_st_requests", "shared_ld_wavefronts", "shared_st_wavefronts",
            "shared_ld_conflicts", "shared_st_conflicts", "async_requests", "async_ld_sectors",
            "async_st_wavefronts", "async_st_conflicts", "global_atom_requests", "global_atom_sectors",
            "shared_atom_requests", "shared_atom_wavefronts", "shared_atom_conflicts"};
        cr_assert_eq(k, sizeof names / sizeof names[0], "sim_counters changed: update this test's names");
        for (size_t i = 0; i < k; i++)
            cr_expect_eq(b[i], a[i], "case n %d block %d generic %d: %s %llu with the log, %llu with the table", n,
                         block, generic, names[i], U(b[i]), U(a[i]));
        cr_expect_eq(got[1].sram_read_bytes, got[0].sram_read_bytes, "case n %d block %d: sram reads", n, block);
        cr_expect_eq(got[1].sram_write_bytes, got[0].sram_write_bytes, "case n %d block %d: sram writes", n, block);
        cr_expect(!memcmp(out[0], out[1], 2 * (size_t)block * sizeof(float)), "case n %d block %d: results differ", n,
                  block);
        SIM_CHECK(sim_free(dy));
    }
    SIM_CHECK(sim_free(g));
}

/* The sample's drop of a long stretch comes from whichever lane makes its 2^22nd access, while
 * another may be inside the request table's make_room, letting the others run: that lane must
 * not put its access into the table the drop has just emptied (it stayed there, unsampled, and
 * the next sampled stretch on the worker, the next block's, counted it: flash-attention-minimal's
 * estimate changed with the number of workers). Two blocks of shared_stretch on one worker: the
 * sample exactly twice that of one block. */
Test(counters, sample_drop_leaves_no_request)
{
    omp_set_num_threads(1);
    const int n = 16400;
    float *y = dev_buf("y", 2 * 256 * sizeof(float), NULL);
    sim_set_detailed(0);
    simt_cfg cfg = cfg1(2, 256, 0), one = cfg1(1, 256, 0);
    SIM_CHECK(shared_stretch_launch_sim(&one, y, n));
    const uint64_t wf1 = sim_last_launch()->c.sample_wavefronts, b1 = sim_last_launch()->c.sample_sram_bytes;
    cr_assert_gt(wf1, 8, "the long stretch's partial sample is missing");
    SIM_CHECK(shared_stretch_launch_sim(&cfg, y, n));
    EXPECT_CTR(sample_sram_bytes, 2 * b1, "two blocks: twice one block's sample");
    EXPECT_CTR(sample_wavefronts, 2 * wf1, "two blocks: twice one block's sample");
    SIM_CHECK(sim_free(y));
}

/* A detailed launch leaves its warps' logs and lanes' cursors behind; a counting-mode launch after
 * it (whose sample flushes warps too) must not read them: one worker, a detailed launch of a
 * partial warp (16 threads), then a sampled counting launch of a full one, whose sample must be
 * what it is in a process that ran no detailed launch (the first launch here). */
Test(counters, sample_after_detailed_launch)
{
    omp_set_num_threads(1);
    float *g = dev_buf("g", 256 * sizeof(float), NULL), *dy = dev_buf("out", 64 * sizeof(float), NULL);
    simt_cfg c16 = cfg1(1, 16, 4096), c32 = cfg1(1, 32, 4096);
    sim_set_detailed(0);
    SIM_CHECK(log_mix_launch_sim(&c32, dy, g, 10, 0));
    const uint64_t want = sim_last_launch()->c.sample_wavefronts, bytes = sim_last_launch()->c.sample_sram_bytes;
    cr_assert_gt(want, 0, "no sample in counting mode (SIMTLAB_SAMPLE=0 in the environment?)");
    sim_set_detailed(1);
    SIM_CHECK(log_mix_launch_sim(&c16, dy, g, 10, 0));
    sim_set_detailed(0);
    SIM_CHECK(log_mix_launch_sim(&c32, dy, g, 10, 0));
    EXPECT_CTR(sample_wavefronts, want, "counting after detailed");
    EXPECT_CTR(sample_sram_bytes, bytes, "counting after detailed");
    SIM_CHECK(sim_free(dy));
    SIM_CHECK(sim_free(g));
}

Test(counters, detailed_memory_is_bounded)
{
    enum { T = 64, PER = 1 << 19 };
    const int n = T * PER;
    float *x = calloc((size_t)n, sizeof(float));
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 7);
    float *dx = dev_buf("x", (size_t)n * 4, x), *dy = dev_buf("y", T * 4, NULL);
    free(x);
    simt_cfg cfg = cfg1(1, T, 0);
    sim_set_detailed(1);
    SIM_CHECK(long_stretch_launch_sim(&cfg, dy, dx, 1024)); /* warm-up: stacks, tables */
    long before = peak_rss_kb();
    SIM_CHECK(long_stretch_launch_sim(&cfg, dy, dx, n));
    long grew = peak_rss_kb() - before;
    EXPECT_CTR(global_ld_requests, (uint64_t)n / 32, "long stretch: one load request per warp and iteration");
    EXPECT_CTR(global_ld_sectors, (uint64_t)n / 32 * 4, "long stretch: 4 sectors a request");
    EXPECT_CTR(global_st_requests, T / 32, "long stretch: the stores");
    cr_expect_lt(grew, 64 * 1024, "detailed mode grew the peak RSS by %ld KB for %d requests (unbounded: ~%d MB)",
                 grew, n / 32, (int)((long long)n / 32 * 340 / (1 << 20)));
    sim_set_detailed(0);
}
