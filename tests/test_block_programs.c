/* tests/test_block_programs.c - lesson 6's block programs (lessons/06_block_programs).
 *
 * Covers: add_kernel and softmax_kernel (written against tl.h) launched
 * through the sim backend as the lesson driver launches them, over a table
 * of shapes: n a multiple of BLOCK_SIZE, n not a multiple, n < BLOCK_SIZE,
 * n = 1, BLOCK_SIZE smaller than a warp, several warps per program and
 * several slots per thread; softmax rows shorter than a warp, not a multiple
 * of the threads, exactly a power of two (no lane masked), one column. For
 * each: the exact HBM bytes (add read 8n write 4n, softmax read 4RC write
 * 4RC; the launch record and the per-buffer counters agree), the 32-byte
 * sectors of coalesced warp requests (the closed form restated below), that
 * the masked lanes wrote nothing (the output buffer is padded to whole
 * programs, the padding keeps its NaN bytes; the inputs are exactly n long,
 * so a masked lane that read would be reported by the simulator), and the
 * results against add_cpu / softmax_rows_cpu (double). Also bp_threads'
 * choices and refusals.
 * Tolerances: add |z - ref| <= 1e-6 |ref| (one float rounding of an exact
 * sum is 2^-24 relative); softmax |y - ref| <= 1e-5 |ref| + 1e-12 (expf
 * against exp in double, as tests/test_softmax.c).
 * What it is not: a test of the lesson's report (tests/lessons.cmake runs
 * the lesson).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "block_programs.h"
#include "lesson.h"

#define U(x) ((unsigned long long)(x))
#define ADD_RTOL 1e-6
#define SM_RTOL 1e-5
#define SM_ATOL 1e-12

static void fill(float *x, size_t n, double lo, double hi, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        x[i] = (float)(lo + (hi - lo) * ((double)(seed >> 11) / 9007199254740992.0));
    }
}

static int nan_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u == 0xffffffffu;
}

/* ---- add_kernel ----------------------------------------------------------------------------- */
typedef struct add_case {
    int n, block, warps; /* warps 0: bp_threads' choice */
} add_case;

static add_case add_cases[] = {
    {98432, 1024, 0}, /* the tutorial: 97 programs, the last 128 lanes on, 896 off */
    {4096, 1024, 0},  /* a multiple of BLOCK_SIZE: no lane off */
    {1000, 256, 0},   /* 4 programs of 1 warp, 8 slots a thread; the last 232 on */
    {1000, 4096, 0},  /* n < BLOCK_SIZE: one program, 3096 lanes off */
    {1, 1024, 0},     /* one element */
    {1, 1, 0},        /* BLOCK_SIZE 1: 31 of the warp's lanes hold no element */
    {100, 16, 0},     /* BLOCK_SIZE < a warp: programs share sectors */
    {777, 8, 1},      /* one sector per program */
    {5000, 2048, 4},  /* 16 slots a thread (TL_PER_THREAD), 3 programs */
    {3333, 512, 16},  /* BLOCK_SIZE < threads: 512 threads, 1 slot, some warps partly on */
    {65537, 16384, 0}, /* the largest tile: 1024 threads x 16 */
};

ParameterizedTestParameters(block_programs, add_bytes_tail_and_results)
{
    return cr_make_param_array(add_case, add_cases, sizeof add_cases / sizeof add_cases[0]);
}

ParameterizedTest(add_case *c, block_programs, add_bytes_tail_and_results)
{
    char cs[96], why[400];
    snprintf(cs, sizeof cs, "add n=%d BLOCK_SIZE=%d warps=%d", c->n, c->block, c->warps);
    const int threads = bp_threads(c->block, c->warps, why, sizeof why);
    cr_assert(threads > 0, "case %s: bp_threads refused: %s", cs, why);
    const int grid = (c->n + c->block - 1) / c->block;
    const size_t n = (size_t)c->n, padded = (size_t)grid * c->block;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(padded * sizeof *z);
    double *ref = malloc(n * sizeof *ref);
    cr_assert(x && y && z && ref, "case %s: out of host memory", cs);
    fill(x, n, 0, 1, 0x2545F4914F6CDD1Dull);
    fill(y, n, -1, 1, 0x9E3779B97F4A7C15ull);
    add_cpu(ref, x, y, c->n);

    backend be;
    cr_assert_eq(be_open(&be, BACKEND_SIM, "sm_90", 1), 0, "be_open(sim): %s", be.err);
    float *d_x = NULL, *d_y = NULL, *d_z = NULL;
    cr_assert_eq(be_malloc(&be, &d_x, n * 4, "x") || be_malloc(&be, &d_y, n * 4, "y") ||
                     be_malloc(&be, &d_z, padded * 4, "z") || be_upload(&be, d_x, x, n * 4) ||
                     be_upload(&be, d_y, y, n * 4) || be_memset(&be, d_z, 0xff, padded * 4),
                 0, "case %s: set-up: %s", cs, be.err);
    be_reset_counts(&be);
    simt_cfg cfg = {.grid = {(unsigned)grid, 1, 1}, .block = {(unsigned)threads, 1, 1}};
    cr_assert_eq(BE_LAUNCH(&be, add_kernel, &cfg, d_x, d_y, d_z, c->n, c->block), 0, "case %s: launch: %s", cs, be.err);
    const be_kernel *k = be_last(&be);

    /* bytes: only the lanes the mask keeps on */
    cr_expect_eq(k->sim.hbm_read_bytes, 8ull * n, "case %s: HBM read %llu bytes, want 8n = %llu", cs,
                 U(k->sim.hbm_read_bytes), U(8 * n));
    cr_expect_eq(k->sim.hbm_write_bytes, 4ull * n, "case %s: HBM write %llu bytes, want 4n = %llu", cs,
                 U(k->sim.hbm_write_bytes), U(4 * n));
    uint64_t xr, xw, yr, yw, zr, zw;
    cr_assert_eq(be_buffer_counts(&be, d_x, &xr, &xw) || be_buffer_counts(&be, d_y, &yr, &yw) ||
                     be_buffer_counts(&be, d_z, &zr, &zw),
                 0, "case %s: be_buffer_counts: %s", cs, be.err);
    cr_expect(xr == 4 * n && xw == 0 && yr == 4 * n && yw == 0 && zr == 0 && zw == 4 * n,
              "case %s: buffers x %llu/%llu, y %llu/%llu, z %llu/%llu bytes read/written, want 4n/0, 4n/0, 0/4n (4n = "
              "%llu)",
              cs, U(xr), U(xw), U(yr), U(yw), U(zr), U(zw), U(4 * n));
    cr_expect_eq(k->sim.local_read_bytes + k->sim.local_write_bytes, 0,
                 "case %s: %llu bytes of local memory: the tiles left registers", cs,
                 U(k->sim.local_read_bytes + k->sim.local_write_bytes));
    /* sectors: coalesced warp requests */
    uint64_t sec = 0;
    for (int pid = 0; pid < grid; pid++)
        sec += bp_tile_sectors((long long)pid * c->block, c->n - (long long)pid * c->block, c->block, threads);
    cr_expect(k->sim.global_ld_sectors == 2 * sec && k->sim.global_st_sectors == sec,
              "case %s: sectors ld %llu st %llu, want %llu and %llu", cs, U(k->sim.global_ld_sectors),
              U(k->sim.global_st_sectors), U(2 * sec), U(sec));

    /* results, and the padding past n untouched */
    cr_assert_eq(be_download(&be, z, d_z, padded * 4), 0, "case %s: be_download: %s", cs, be.err);
    check_result r = check_close(z, ref, n, ADD_RTOL, 0);
    cr_expect(r.pass, "case %s: z differs from add_cpu: max rel err %.3g (tolerance %g), element %zu: %.9g vs %.9g", cs,
              r.max_rel_err, ADD_RTOL, r.worst, (double)z[r.worst], ref[r.worst]);
    size_t touched = 0;
    for (size_t i = n; i < padded; i++)
        touched += !nan_bits(z[i]);
    cr_expect_eq(touched, 0, "case %s: %zu of the %zu masked-off elements past n were written", cs, touched, padded - n);
    be_close(&be);
    free(x), free(y), free(z), free(ref);
}

/* ---- softmax_kernel ---------------------------------------------------------------------------- */
typedef struct sm_case {
    int R, C, warps;
    float offset; /* added to every input: +100 overflows a softmax without the max */
} sm_case;

static sm_case sm_cases[] = {
    {1823, 781, 0, 0},  /* the tutorial: BLOCK_SIZE 1024, 243 lanes off a row */
    {1, 1, 0, 0},       /* one element: BLOCK_SIZE 1 */
    {3, 17, 0, 0},      /* a row shorter than a warp */
    {5, 31, 4, 0},      /* 4 warps, 3 of them hold no element */
    {4, 100, 0, 0},     /* not a multiple of 32 */
    {7, 256, 0, 0},     /* a power of two: no lane masked */
    {2, 1025, 0, 0},    /* BLOCK_SIZE 2048: 1023 lanes off */
    {3, 4096, 8, 0},    /* 256 threads, 16 slots each */
    {2, 16384, 0, 0},   /* the largest row: 1024 threads x 16 */
    {33, 64, 1, 100.0f}, /* large inputs: exp(x) alone would overflow */
};

ParameterizedTestParameters(block_programs, softmax_bytes_tail_and_results)
{
    return cr_make_param_array(sm_case, sm_cases, sizeof sm_cases / sizeof sm_cases[0]);
}

ParameterizedTest(sm_case *c, block_programs, softmax_bytes_tail_and_results)
{
    char cs[112], why[400];
    const int block = bp_next_pow2(c->C);
    snprintf(cs, sizeof cs, "softmax R=%d C=%d BLOCK_SIZE=%d warps=%d inputs + %g", c->R, c->C, block, c->warps,
             (double)c->offset);
    const int threads = bp_threads(block, c->warps, why, sizeof why);
    cr_assert(threads > 0, "case %s: bp_threads refused: %s", cs, why);
    cr_assert(block >= c->C && (block & (block - 1)) == 0 && (block == 1 || block / 2 < c->C),
              "case %s: bp_next_pow2(%d) = %d is not the next power of two", cs, c->C, block);
    const size_t n = (size_t)c->R * c->C, bytes = n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes);
    double *ref = malloc(n * sizeof *ref);
    cr_assert(x && y && ref, "case %s: out of host memory", cs);
    fill(x, n, -5.0 + c->offset, 5.0 + c->offset, 0x2545F4914F6CDD1Dull);
    softmax_rows_cpu(ref, x, c->R, c->C);

    backend be;
    cr_assert_eq(be_open(&be, BACKEND_SIM, "sm_90", 1), 0, "be_open(sim): %s", be.err);
    float *d_x = NULL, *d_y = NULL;
    cr_assert_eq(be_malloc(&be, &d_x, bytes, "x") || be_malloc(&be, &d_y, bytes, "y") || be_upload(&be, d_x, x, bytes) ||
                     be_memset(&be, d_y, 0xff, bytes),
                 0, "case %s: set-up: %s", cs, be.err);
    be_reset_counts(&be);
    simt_cfg cfg = {.grid = {(unsigned)c->R, 1, 1}, .block = {(unsigned)threads, 1, 1}};
    cr_assert_eq(BE_LAUNCH(&be, softmax_kernel, &cfg, d_y, d_x, c->C, c->C, c->R, c->C, block), 0,
                 "case %s: launch: %s", cs, be.err);
    const be_kernel *k = be_last(&be);

    /* fused: each element read once and written once */
    cr_expect_eq(k->sim.hbm_read_bytes, 4ull * n, "case %s: HBM read %llu bytes, want 4RC = %llu", cs,
                 U(k->sim.hbm_read_bytes), U(4 * n));
    cr_expect_eq(k->sim.hbm_write_bytes, 4ull * n, "case %s: HBM write %llu bytes, want 4RC = %llu", cs,
                 U(k->sim.hbm_write_bytes), U(4 * n));
    uint64_t xr, xw, yr, yw;
    cr_assert_eq(be_buffer_counts(&be, d_x, &xr, &xw) || be_buffer_counts(&be, d_y, &yr, &yw), 0,
                 "case %s: be_buffer_counts: %s", cs, be.err);
    cr_expect(xr == 4 * n && xw == 0 && yr == 0 && yw == 4 * n,
              "case %s: buffers x %llu/%llu, y %llu/%llu bytes read/written, want 4RC/0 and 0/4RC (4RC = %llu)", cs,
              U(xr), U(xw), U(yr), U(yw), U(4 * n));
    /* the two reductions: each nw floats written and nw * nw read per program (tl.h) */
    const uint64_t nw = (uint64_t)threads / 32;
    cr_expect(k->sim.sram_write_bytes == 8 * nw * (uint64_t)c->R && k->sim.sram_read_bytes == 8 * nw * nw * (uint64_t)c->R,
              "case %s: SRAM read %llu written %llu bytes, want 8 nw^2 R = %llu and 8 nw R = %llu (nw = %llu)", cs,
              U(k->sim.sram_read_bytes), U(k->sim.sram_write_bytes), U(8 * nw * nw * c->R), U(8 * nw * c->R), U(nw));
    cr_expect_eq(k->sim.local_read_bytes + k->sim.local_write_bytes, 0,
                 "case %s: %llu bytes of local memory: the tiles left registers", cs,
                 U(k->sim.local_read_bytes + k->sim.local_write_bytes));
    uint64_t sec = 0;
    for (int r = 0; r < c->R; r++)
        sec += bp_tile_sectors((long long)r * c->C, c->C, block, threads);
    cr_expect(k->sim.global_ld_sectors == sec && k->sim.global_st_sectors == sec,
              "case %s: sectors ld %llu st %llu, want %llu each", cs, U(k->sim.global_ld_sectors),
              U(k->sim.global_st_sectors), U(sec));

    cr_assert_eq(be_download(&be, y, d_y, bytes), 0, "case %s: be_download: %s", cs, be.err);
    check_result r = check_close(y, ref, n, SM_RTOL, SM_ATOL);
    cr_expect(r.pass,
              "case %s: y differs from softmax_rows_cpu: max abs err %.3g, max rel err %.3g (tolerance %g |ref| + %g), "
              "element %zu: %.9g vs %.9g",
              cs, r.max_abs_err, r.max_rel_err, SM_RTOL, SM_ATOL, r.worst, (double)y[r.worst], ref[r.worst]);
    be_close(&be);
    free(x), free(y), free(ref);
}

/* ---- bp_threads: the tile contract on the host ---------------------------------------------- */
Test(block_programs, threads_choices_and_refusals)
{
    char why[400];
    static const struct { long long block, warps; int want; } ok[] = {
        {1, 0, 32}, {256, 0, 32}, {512, 0, 64}, {1024, 0, 128}, {2048, 0, 256}, {4096, 0, 512}, {16384, 0, 1024},
        {1024, 2, 64}, {4096, 8, 256}, {16, 32, 1024},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int t = bp_threads(ok[i].block, ok[i].warps, why, sizeof why);
        cr_expect_eq(t, ok[i].want, "case BLOCK_SIZE=%lld warps=%lld: %d threads, want %d (%s)", ok[i].block, ok[i].warps,
                     t, ok[i].want, t < 0 ? why : "");
    }
    static const struct { long long block, warps; const char *says; } bad[] = {
        {3, 0, "power of two"},       {0, 0, "power of two"},    {32768, 0, "16384"},
        {1024, 3, "power of two"},    {1024, 64, "1 to 32"},     {4096, 4, "--warps 8"},
        {16384, 16, "--warps 32"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        int t = bp_threads(bad[i].block, bad[i].warps, why, sizeof why);
        cr_expect(t == -1 && strstr(why, bad[i].says),
                  "case BLOCK_SIZE=%lld warps=%lld: returned %d with reason '%s', want -1 and a reason naming '%s'",
                  bad[i].block, bad[i].warps, t, why, bad[i].says);
    }
    cr_expect_eq(bp_next_pow2(1), 1, "bp_next_pow2(1)");
    cr_expect_eq(bp_next_pow2(781), 1024, "bp_next_pow2(781)");
    cr_expect_eq(bp_next_pow2(1024), 1024, "bp_next_pow2(1024)");
    cr_expect_eq(bp_next_pow2(1025), 2048, "bp_next_pow2(1025)");
}
