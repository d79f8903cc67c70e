/* tests/test_softmax.c - lesson 3's softmax kernels (lessons/03_softmax/softmax.cu).
 *
 * Covers: softmax_naive, softmax_safe and softmax_online launched through
 * the sim backend (as the lesson driver does: one block per row) for a table
 * of (R, C, block) with C < block, C not a multiple of the block, one column
 * and one row: the exact HBM bytes of each (naive read 8RC write 4RC, safe
 * read 12RC write 4RC, online read 8RC write 4RC; the launch record and the
 * per-buffer counters of x and y agree) and the result against softmax_cpu
 * (double). Tolerance: |y - ref| <= SM_RTOL |ref| + SM_ATOL for every
 * element, a relative error against the double reference (the absolute term
 * only matters for outputs below 1e-7; the smallest here is about 1e-9, so
 * it is a 0.1% allowance there). Inputs are uniform in [-5, 5]; a
 * second set, shifted by +100, overflows exp in float: naive must return
 * inf/NaN there, safe and online must still pass.
 * What it is not: a test of the lesson's report (tests/lessons.cmake runs it).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "backend.h"
#include "lesson.h"
#include "softmax.h"

#define U(x) ((unsigned long long)(x))
#define SM_RTOL 1e-5
#define SM_ATOL 1e-12

enum { V_NAIVE, V_SAFE, V_ONLINE, NVER };
static const char *const ver_name[NVER] = {"softmax_naive", "softmax_safe", "softmax_online"};
static const unsigned loads_per_elem[NVER] = {2, 3, 2}; /* Milakov & Gimelshein 2018; one store each */

typedef struct sm_case {
    int R, C, block;
} sm_case;

static sm_case sm_cases[] = {
    {1, 1, 32},     /* one element */
    {3, 17, 32},    /* C < block */
    {5, 31, 1024},  /* C < one warp, 32 warps idle but in the reductions */
    {4, 100, 64},   /* C not a multiple of the block */
    {7, 257, 128},  /* C = 2 blocks + 1 */
    {2, 1000, 256}, /* C not a multiple of 32 */
    {1, 4096, 1024},
    {16, 2048, 256}, /* the lesson's shape, fewer rows */
    {33, 64, 32},   /* more rows than a warp, C = 2 blocks */
};

static int launch(backend *be, int v, const simt_cfg *cfg, float *d_y, const float *d_x, int R, int C)
{
    switch (v) {
    case V_NAIVE: return BE_LAUNCH(be, softmax_naive, cfg, d_y, d_x, R, C);
    case V_SAFE: return BE_LAUNCH(be, softmax_safe, cfg, d_y, d_x, R, C);
    default: return BE_LAUNCH(be, softmax_online, cfg, d_y, d_x, R, C);
    }
}

static void fill(float *x, size_t n, float offset)
{
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        x[i] = (float)(5.0 * ((double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0)) + offset;
    }
}

ParameterizedTestParameters(softmax, kernels_bytes_and_results)
{
    return cr_make_param_array(sm_case, sm_cases, sizeof sm_cases / sizeof sm_cases[0]);
}

ParameterizedTest(sm_case *c, softmax, kernels_bytes_and_results)
{
    const size_t n = (size_t)c->R * c->C, bytes = n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes);
    double *ref = malloc(n * sizeof *ref);
    cr_assert(x && y && ref, "case R=%d C=%d block=%d: out of host memory", c->R, c->C, c->block);
    backend be;
    cr_assert_eq(be_open(&be, BACKEND_SIM, "sm_90", 0), 0, "be_open(sim): %s", be.err);
    float *d_x = NULL, *d_y = NULL;
    cr_assert_eq(be_malloc(&be, &d_x, bytes, "x") || be_malloc(&be, &d_y, bytes, "y"), 0,
                 "case R=%d C=%d block=%d: be_malloc: %s", c->R, c->C, c->block, be.err);
    simt_cfg cfg = {.grid = {(unsigned)c->R, 1, 1}, .block = {(unsigned)c->block, 1, 1}};

    for (int large = 0; large <= 1; large++) {
        const float offset = large ? 100.0f : 0.0f;
        fill(x, n, offset);
        softmax_cpu(ref, x, c->R, c->C);
        cr_assert_eq(be_upload(&be, d_x, x, bytes), 0, "be_upload: %s", be.err);
        for (int v = 0; v < NVER; v++) {
            char cs[160];
            snprintf(cs, sizeof cs, "R=%d C=%d block=%d inputs%s, version %s", c->R, c->C, c->block,
                     large ? " + 100" : "", ver_name[v]);
            cr_assert_eq(be_memset(&be, d_y, 0xff, bytes), 0, "case %s: be_memset: %s", cs, be.err); /* NaN */
            be_reset_counts(&be);
            cr_assert_eq(launch(&be, v, &cfg, d_y, d_x, c->R, c->C), 0, "case %s: launch failed: %s", cs, be.err);
            const be_kernel *k = be_last(&be);
            /* bytes: the launch record and the per-buffer counters */
            const uint64_t want_rd = 4ull * loads_per_elem[v] * n, want_wr = 4ull * n;
            cr_expect_eq(k->sim.hbm_read_bytes, want_rd, "case %s: kernel HBM read %llu bytes, want %u * 4RC = %llu", cs,
                         U(k->sim.hbm_read_bytes), loads_per_elem[v], U(want_rd));
            cr_expect_eq(k->sim.hbm_write_bytes, want_wr, "case %s: kernel HBM write %llu bytes, want 4RC = %llu", cs,
                         U(k->sim.hbm_write_bytes), U(want_wr));
            uint64_t xr, xw, yr, yw;
            cr_assert_eq(be_buffer_counts(&be, d_x, &xr, &xw) || be_buffer_counts(&be, d_y, &yr, &yw), 0,
                         "case %s: be_buffer_counts: %s", cs, be.err);
            cr_expect(xr == want_rd && xw == 0, "case %s, buffer x: read %llu / written %llu bytes, want %llu / 0", cs,
                      U(xr), U(xw), U(want_rd));
            cr_expect(yr == 0 && yw == want_wr, "case %s, buffer y: read %llu / written %llu bytes, want 0 / %llu", cs,
                      U(yr), U(yw), U(want_wr));
            /* the result */
            cr_assert_eq(be_download(&be, y, d_y, bytes), 0, "case %s: be_download: %s", cs, be.err);
            check_result r = check_close(y, ref, n, SM_RTOL, SM_ATOL);
            size_t nonfinite = 0;
            for (size_t i = 0; i < n; i++)
                nonfinite += !isfinite(y[i]);
            if (large && v == V_NAIVE) {
                /* exp(x) > FLT_MAX for x > 88.7: the sum is inf, so every output is 0 or NaN
                 * (exp(x)/inf or inf/inf); with C = 1 exp(x) itself is inf, and inf/inf NaN */
                cr_expect(nonfinite > 0, "case %s: no inf/NaN output; exp(x + 100) should overflow float", cs);
                cr_expect(!r.pass, "case %s: passed the check; the naive version should overflow", cs);
            } else {
                cr_expect(r.pass && nonfinite == 0,
                          "case %s: y differs from softmax_cpu: max abs err %.3g, max rel err %.3g (tolerance %g |ref| + "
                          "%g), worst element %zu: %.9g vs %.9g, %zu inf/NaN",
                          cs, r.max_abs_err, r.max_rel_err, SM_RTOL, SM_ATOL, r.worst, (double)y[r.worst],
                          ref[r.worst], nonfinite);
            }
        }
    }
    be_free(&be, d_x);
    be_free(&be, d_y);
    be_close(&be);
    free(x);
    free(y);
    free(ref);
}

/* The row sums: each output row of the safe and online versions sums to 1
 * within C float roundings. */
Test(softmax, rows_sum_to_one)
{
    const int R = 8, C = 3000, block = 512;
    const size_t n = (size_t)R * C, bytes = n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes);
    cr_assert(x && y, "out of host memory");
    fill(x, n, 0.0f);
    backend be;
    cr_assert_eq(be_open(&be, BACKEND_SIM, "sm_90", 0), 0, "be_open(sim): %s", be.err);
    float *d_x = NULL, *d_y = NULL;
    cr_assert_eq(be_malloc(&be, &d_x, bytes, "x") || be_malloc(&be, &d_y, bytes, "y") || be_upload(&be, d_x, x, bytes),
                 0, "set-up: %s", be.err);
    simt_cfg cfg = {.grid = {(unsigned)R, 1, 1}, .block = {(unsigned)block, 1, 1}};
    for (int v = 0; v < NVER; v++) {
        cr_assert_eq(launch(&be, v, &cfg, d_y, d_x, R, C), 0, "case %s: %s", ver_name[v], be.err);
        cr_assert_eq(be_download(&be, y, d_y, bytes), 0, "%s", be.err);
        for (int r = 0; r < R; r++) {
            double s = 0;
            for (int j = 0; j < C; j++)
                s += y[(size_t)r * C + j];
            cr_expect(fabs(s - 1.0) <= 1e-5, "case R=%d C=%d block=%d, version %s, row %d: sums to %.9f, want 1 +- 1e-5",
                      R, C, block, ver_name[v], r, s);
        }
    }
    be_close(&be);
    free(x);
    free(y);
}
