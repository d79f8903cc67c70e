/* tests/test_attention.c - lesson 4's kernels against the CPU reference and
 * their HBM bytes against the closed forms (lessons/04_attention/).
 *
 * Covers: for a table of shapes (B, H, N, d, causal, --sram, optional flash
 * v1 --br/--bc) with N not a multiple of 64 or of the tiles, every version
 * (standard, flash v1, flash v2) run through the sim backend by the lesson's
 * own driver (attn_run): (a) O passes the lesson's check (|O - ref| <=
 * ATTN_ATOL + ATTN_RTOL |ref| against the double-precision reference);
 * (b) the HBM bytes read and written per tensor (per-allocation counters)
 * equal attn_expected() exactly, tensor by tensor; (c) the per-kernel HBM
 * counters, summed over the version's kernels, equal the closed form's
 * totals; (d) flash v1 and v2's l and m against the reference's. Flash v2
 * with split tiles: forced (--v2-splits, every tile split) and as the plan
 * splits the last wave of a grid past one wave (whole and split tiles in one
 * grid), with the merge's bytes. attn_v2_plan's answers. Then
 * attn_params_check's refusals (d = 48 for v2; too many --v2-splits; a v1 tile over
 * the 227 KB opt-in limit) and the figures of Theorem 2 from the closed
 * forms (which (b) pins to the simulator): standard ~ N^2, flash v1 ~ 1/M,
 * and flash v2 at least 10x below standard at N = 2048, d = 64, M = 48 KB.
 * Suite attention_bugs holds regression tests for bugs found while writing
 * this file (registered as their own CTest test, see tests/CMakeLists.txt).
 * What it is not: a test of the CUDA backend (no GPU here) or of the report.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "lesson04.h"

#define U(x) ((unsigned long long)(x))

enum { V_STD, V_V1, V_V2, NVER }; /* lesson04.c's order: bit v of attn_params.versions */
static const char *const ver_name[NVER] = {"standard", "v1", "v2"};

typedef struct attn_case {
    int B, H, N, d, causal;
    long long sram;   /* M in bytes */
    long long br, bc; /* flash v1 tile overrides, 0 = from M */
} attn_case;

#define K16 (16LL << 10)
#define K48 (48LL << 10)
#define K96 (96LL << 10)

/* Every N of {1 (one key), 17, 63, 64 +- 1, 100, 130, 257} with every d of
 * v2 and causal off and on, the --sram values 16k, 48k, 96k in turn, a few
 * with B = 2 or H = 2; tiles that do not divide N (v1 at 48k, d = 64: Br =
 * Bc = 48; at 16k, d = 128: Br = Bc = 8; v2 Bc = 96 at 48k, d = 64); then v1
 * tile overrides (17 x 7, 7 x 17, 1 x 1) and two larger N with several v2
 * blocks (N = 600, d = 64: Br = 256; N = 1100, d = 16: Br = 1024). */
static attn_case attn_cases[] = {
    {1, 1, 1, 16, 0, K16, 0, 0}, {1, 1, 1, 16, 1, K48, 0, 0}, {1, 1, 1, 32, 0, K96, 0, 0}, {1, 2, 1, 32, 1, K16, 0, 0},
    {1, 2, 1, 64, 0, K48, 0, 0}, {1, 2, 1, 64, 1, K96, 0, 0}, {2, 1, 1, 128, 0, K16, 0, 0}, {2, 1, 1, 128, 1, K48, 0, 0},
    {2, 1, 17, 16, 0, K96, 0, 0}, {1, 1, 17, 16, 1, K16, 0, 0}, {1, 1, 17, 32, 0, K48, 0, 0}, {1, 1, 17, 32, 1, K96, 0, 0},
    {1, 2, 17, 64, 0, K16, 0, 0}, {1, 2, 17, 64, 1, K48, 0, 0}, {1, 2, 17, 128, 0, K96, 0, 0}, {2, 1, 17, 128, 1, K16, 0, 0},
    {2, 1, 63, 16, 0, K48, 0, 0}, {2, 1, 63, 16, 1, K96, 0, 0}, {1, 1, 63, 32, 0, K16, 0, 0}, {1, 1, 63, 32, 1, K48, 0, 0},
    {1, 1, 63, 64, 0, K96, 0, 0}, {1, 2, 63, 64, 1, K16, 0, 0}, {1, 2, 63, 128, 0, K48, 0, 0}, {1, 2, 63, 128, 1, K96, 0, 0},
    {2, 1, 64, 16, 0, K16, 0, 0}, {2, 1, 64, 16, 1, K48, 0, 0}, {2, 1, 64, 32, 0, K96, 0, 0}, {1, 1, 64, 32, 1, K16, 0, 0},
    {1, 1, 64, 64, 0, K48, 0, 0}, {1, 1, 64, 64, 1, K96, 0, 0}, {1, 2, 64, 128, 0, K16, 0, 0}, {1, 2, 64, 128, 1, K48, 0, 0},
    {1, 2, 65, 16, 0, K96, 0, 0}, {2, 1, 65, 16, 1, K16, 0, 0}, {2, 1, 65, 32, 0, K48, 0, 0}, {2, 1, 65, 32, 1, K96, 0, 0},
    {1, 1, 65, 64, 0, K16, 0, 0}, {1, 1, 65, 64, 1, K48, 0, 0}, {1, 1, 65, 128, 0, K96, 0, 0}, {1, 2, 65, 128, 1, K16, 0, 0},
    {1, 2, 100, 16, 0, K48, 0, 0}, {1, 2, 100, 16, 1, K96, 0, 0}, {2, 1, 100, 32, 0, K16, 0, 0}, {2, 1, 100, 32, 1, K48, 0, 0},
    {2, 1, 100, 64, 0, K96, 0, 0}, {1, 1, 100, 64, 1, K16, 0, 0}, {1, 1, 100, 128, 0, K48, 0, 0}, {1, 1, 100, 128, 1, K96, 0, 0},
    {1, 2, 130, 16, 0, K16, 0, 0}, {1, 2, 130, 16, 1, K48, 0, 0}, {1, 2, 130, 32, 0, K96, 0, 0}, {2, 1, 130, 32, 1, K16, 0, 0},
    {2, 1, 130, 64, 0, K48, 0, 0}, {2, 1, 130, 64, 1, K96, 0, 0}, {1, 1, 130, 128, 0, K16, 0, 0}, {1, 1, 130, 128, 1, K48, 0, 0},
    {1, 1, 257, 16, 0, K96, 0, 0}, {1, 1, 257, 16, 1, K16, 0, 0}, {1, 1, 257, 32, 0, K48, 0, 0}, {1, 1, 257, 32, 1, K96, 0, 0},
    {1, 1, 257, 64, 0, K16, 0, 0}, {1, 1, 257, 64, 1, K48, 0, 0}, {1, 1, 257, 128, 0, K96, 0, 0}, {1, 1, 257, 128, 1, K16, 0, 0},
    /* v1 tile overrides, larger N */
    {1, 1, 100, 16, 1, K48, 17, 7}, {1, 1, 130, 64, 1, K48, 7, 17}, {1, 1, 17, 32, 0, K16, 1, 1},
    {1, 1, 257, 128, 1, K48, 33, 64}, {1, 1, 600, 64, 1, K48, 0, 0},  {1, 1, 1100, 16, 1, K16, 0, 0},
};

static attn_params params_of(const attn_case *c, int versions)
{
    attn_params a = {.B = c->B, .H = c->H, .N = c->N, .d = c->d, .causal = c->causal, .sram = c->sram,
                     .br_override = c->br, .bc_override = c->bc, .versions = versions, .arch = "sm_90"};
    return a;
}

/* "B=1 H=2 N=17 d=32 causal=1 sram=16384 (v1 Br=.. Bc=.., v2 Br=.. Bc=..)" */
static const char *case_str(char *buf, size_t n, const attn_params *a)
{
    snprintf(buf, n, "B=%d H=%d N=%d d=%d causal=%d sram=%lld (v1 Br=%d Bc=%d, v2 Br=%d Bc=%d, %d whole + splits %d)",
             a->B, a->H, a->N, a->d, a->causal, a->sram, a->v1_br, a->v1_bc, a->v2_br, a->v2_bc, a->v2_whole,
             a->v2_splits);
    return buf;
}

/* Runs the selected versions of a on a fresh sim backend (detailed mode if
 * detailed) and checks (a), (b), (c). */
static void run_and_check(attn_params *a, int detailed)
{
    char cs[200], err[1024] = "";
    int rc = attn_params_check(a, err, sizeof err);
    case_str(cs, sizeof cs, a);
    if (detailed)
        strncat(cs, " detailed", sizeof cs - strlen(cs) - 1);
    cr_assert_eq(rc, 0, "case %s: attn_params_check refused it: %s", cs, err);

    float *q, *k, *v;
    double *ref;
    attn_make_inputs(a, &q, &k, &v, &ref);
    cr_assert(q && k && v && ref, "case %s: attn_make_inputs: out of host memory", cs);
    backend be;
    cr_assert_eq(be_open(&be, BACKEND_SIM, "sm_90", detailed), 0, "case %s: be_open(sim): %s", cs, be.err);
    attn_version_result res[NVER];
    cr_assert_eq(attn_run(&be, a, q, k, v, ref, res), 0, "case %s: attn_run failed: %s", cs, be.err);

    for (int ver = 0; ver < NVER; ver++) {
        if (!(a->versions & (1 << ver)))
            continue;
        const attn_version_result *r = &res[ver];
        const char *vn = ver_name[ver];
        cr_assert(r->ran && r->ok, "case %s, version %s: did not run to the end", cs, vn);
        /* (a) the result */
        cr_expect(r->check.pass,
                  "case %s, version %s: O differs from the reference: max abs err %.3g, max rel err %.3g "
                  "(tolerance %g + %g |ref|), worst element %zu",
                  cs, vn, r->check.max_abs_err, r->check.max_rel_err, ATTN_ATOL, ATTN_RTOL, r->check.worst);
        if (ver != V_STD)
            cr_expect(r->lm.pass,
                      "case %s, version %s: l or m differs from the reference: l max rel err %.3g, m max abs err %.3g "
                      "(tolerance %g + %g |ref|), worst row %zu",
                      cs, vn, r->lm.max_rel_err, r->lm.max_abs_err, ATTN_ATOL, ATTN_RTOL, r->lm.worst);
        /* (b) bytes per tensor, exactly */
        attn_bytes e = attn_expected(a, ver);
        for (int t = 0; t < ATT_NTENSORS; t++) {
            cr_expect_eq(r->measured.rd[t], e.rd[t], "case %s, version %s, tensor %s: HBM read %llu bytes, closed form %llu",
                         cs, vn, attn_tensor_names[t], U(r->measured.rd[t]), U(e.rd[t]));
            cr_expect_eq(r->measured.wr[t], e.wr[t],
                         "case %s, version %s, tensor %s: HBM written %llu bytes, closed form %llu", cs, vn,
                         attn_tensor_names[t], U(r->measured.wr[t]), U(e.wr[t]));
        }
        /* (c) the kernels' own counters, summed, against the totals */
        uint64_t krd = 0, kwr = 0;
        cr_assert_gt(r->n_kernels, 0, "case %s, version %s: no kernel launched", cs, vn);
        for (int i = r->first_kernel; i < r->first_kernel + r->n_kernels; i++) {
            krd += be.kernels[i].sim.hbm_read_bytes;
            kwr += be.kernels[i].sim.hbm_write_bytes;
        }
        cr_expect_eq(krd, attn_bytes_read(&e), "case %s, version %s: kernels read %llu HBM bytes, closed form total %llu",
                     cs, vn, U(krd), U(attn_bytes_read(&e)));
        cr_expect_eq(kwr, attn_bytes_written(&e),
                     "case %s, version %s: kernels wrote %llu HBM bytes, closed form total %llu", cs, vn, U(kwr),
                     U(attn_bytes_written(&e)));
        cr_expect(r->hbm_read == krd && r->hbm_write == kwr,
                  "case %s, version %s: attn_run's totals %llu / %llu differ from its kernels' %llu / %llu", cs, vn,
                  U(r->hbm_read), U(r->hbm_write), U(krd), U(kwr));
    }
    be_close(&be);
    free(q);
    free(k);
    free(v);
    free(ref);
}

ParameterizedTestParameters(attention, versions_vs_reference_and_closed_forms)
{
    return cr_make_param_array(attn_case, attn_cases, sizeof attn_cases / sizeof attn_cases[0]);
}

ParameterizedTest(attn_case *c, attention, versions_vs_reference_and_closed_forms)
{
    attn_params a = params_of(c, 7);
    run_and_check(&a, 0);
}

/* Detailed mode (sectors, wavefronts, race checks) counts the same bytes. */
static attn_case detailed_cases[] = {
    {1, 1, 65, 32, 1, K48, 0, 0},
    {1, 2, 100, 64, 0, K16, 0, 0},
    {1, 1, 130, 16, 1, K96, 0, 0},
};

ParameterizedTestParameters(attention, detailed_mode_same_bytes)
{
    return cr_make_param_array(attn_case, detailed_cases, sizeof detailed_cases / sizeof detailed_cases[0]);
}

ParameterizedTest(attn_case *c, attention, detailed_mode_same_bytes)
{
    attn_params a = params_of(c, 7);
    run_and_check(&a, 1);
}

/* Flash v2 with split tiles (--v2-splits): each tile's keys in S ranges
 * (uneven: N not a multiple of 4 S; causal tiles whose ranges hold no key of
 * some rows), merged by attn_flash_v2_merge; the parts tensor's bytes exact.
 * These sizes fit one wave, so every tile is split. */
typedef struct split_case {
    attn_case c;
    int splits;
} split_case;

static split_case split_cases[] = {
    {{1, 2, 130, 64, 0, K48, 0, 0}, 3}, {{1, 1, 257, 16, 1, K16, 0, 0}, 5}, {{2, 1, 100, 128, 1, K96, 0, 0}, 2},
    {{1, 1, 600, 64, 1, K48, 0, 0}, 8}, {{1, 3, 65, 32, 0, K48, 0, 0}, 4},  {{1, 1, 17, 64, 1, K48, 0, 0}, 5},
};

ParameterizedTestParameters(attention, v2_split_tiles_vs_reference_and_closed_forms)
{
    return cr_make_param_array(split_case, split_cases, sizeof split_cases / sizeof split_cases[0]);
}

ParameterizedTest(split_case *sc, attention, v2_split_tiles_vs_reference_and_closed_forms)
{
    attn_params a = params_of(&sc->c, 4);
    a.splits_override = sc->splits;
    run_and_check(&a, sc->c.N == 130); /* one in detailed mode: sectors, races */
    cr_expect(a.v2_whole == 0 && a.v2_splits == sc->splits,
              "case B=%d H=%d N=%d d=%d causal=%d --v2-splits %d: want 0 whole tiles and %d splits, got %d and %d",
              sc->c.B, sc->c.H, sc->c.N, sc->c.d, sc->c.causal, sc->splits, sc->splits, a.v2_whole, a.v2_splits);
}

/* A grid of whole and split tiles, as the plan makes it past one wave: the
 * whole tiles' idle z > 0 blocks, parts of tiles t >= whole > 0, the merge.
 * 140 heads x 2 row tiles = 280 tiles on 264 slots (sm_90, 132 SMs x 2). */
static attn_case mixed_cases[] = {
    {1, 140, 200, 64, 0, K48, 0, 0},
    {2, 70, 200, 64, 1, K48, 0, 0},
};

ParameterizedTestParameters(attention, v2_planned_split_of_the_last_wave)
{
    return cr_make_param_array(attn_case, mixed_cases, sizeof mixed_cases / sizeof mixed_cases[0]);
}

ParameterizedTest(attn_case *c, attention, v2_planned_split_of_the_last_wave)
{
    attn_params a = params_of(c, 4);
    run_and_check(&a, 0);
    cr_expect(a.v2_whole == 264 && a.v2_splits > 1,
              "case B=%d H=%d N=%d causal=%d: want 264 whole tiles and the last 16 split, got %d whole, %d splits", c->B,
              c->H, c->N, c->causal, a.v2_whole, a.v2_splits);
}

/* attn_v2_plan: the tail's time ceil(rem S / slots) / S, smallest S on ties. */
Test(attention, v2_plan_fills_the_last_wave)
{
    static const struct { long long tiles, slots; int max, whole, splits; } t[] = {
        {1408, 264, 8, 1320, 3}, /* B=4 H=16 N=4096 d=64 on 132 SMs x 2: 88 tiles left, 3 x 88 = 264 */
        {704, 264, 8, 528, 3},   /* N=2048: 176 left, 3 x 176 = 2 waves of thirds */
        {384, 264, 8, 264, 2},   /* N=1024: 120 left; 2, 4, 6 and 8 all give half a block: 2 */
        {265, 264, 8, 264, 8},   /* one tile left: as many parts as allowed */
        {265, 264, 1, 265, 1},   /* no split allowed */
        {528, 264, 8, 528, 1},   /* whole waves: nothing to split */
        {200, 264, 8, 200, 1},   /* one wave or less: not split */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int whole = -1, splits = -1;
        attn_v2_plan(t[i].tiles, t[i].slots, t[i].max, &whole, &splits);
        cr_expect(whole == t[i].whole && splits == t[i].splits,
                  "case tiles=%lld slots=%lld max=%d: plan %d whole + %d splits, want %d + %d", t[i].tiles, t[i].slots,
                  t[i].max, whole, splits, t[i].whole, t[i].splits);
    }
    /* the timed shape of docs/parity-h200.md, planned for the sm_90 preset */
    attn_case c = {4, 16, 4096, 64, 0, K48, 0, 0};
    attn_params a = params_of(&c, 4);
    char err[1024] = "";
    cr_assert_eq(attn_params_check(&a, err, sizeof err), 0, "case B=4 H=16 N=4096: refused: %s", err);
    cr_expect(a.v2_br == 192 && a.v2_whole == 1320 && a.v2_splits == 3,
              "case B=4 H=16 N=4096 d=64 sm_90: Br %d, %d whole + %d splits, want 192, 1320 + 3", a.v2_br, a.v2_whole,
              a.v2_splits);
}

/* ---- attn_params_check's refusals ------------------------------------------------------- */
Test(attention, params_check_rejects_more_splits_than_batches)
{
    attn_case c = {1, 1, 17, 64, 0, K48, 0, 0}; /* 17 keys: 5 batches of 4 */
    attn_params a = params_of(&c, 4);
    a.splits_override = 6;
    char err[1024] = "";
    cr_assert_neq(attn_params_check(&a, err, sizeof err), 0, "case N=17 --v2-splits 6: accepted, want a refusal");
    const char *need[] = {"--v2-splits 6", "17 keys", "5 batches of 4", "--v2-splits 5"};
    for (size_t j = 0; j < sizeof need / sizeof need[0]; j++)
        cr_expect(strstr(err, need[j]) != NULL, "case N=17 --v2-splits 6: the message should name '%s'; it is: %s", need[j],
                  err);
}

Test(attention, params_check_rejects_d48_for_v2)
{
    const int versions[] = {4, 7};
    for (size_t i = 0; i < 2; i++) {
        attn_case c = {1, 1, 64, 48, 0, K48, 0, 0};
        attn_params a = params_of(&c, versions[i]);
        char err[1024] = "";
        cr_assert_neq(attn_params_check(&a, err, sizeof err), 0, "case d=48 versions=%d: accepted, want a refusal",
                      versions[i]);
        const char *need[] = {"16", "32", "64", "128", "48"};
        for (size_t j = 0; j < sizeof need / sizeof need[0]; j++)
            cr_expect(strstr(err, need[j]) != NULL,
                      "case d=48 versions=%d: the message should name %s (the d that v2 has, and the d given); it is: %s",
                      versions[i], need[j], err);
    }
    /* v1 and standard have no such restriction */
    attn_case c = {1, 1, 64, 48, 0, K48, 0, 0};
    attn_params a = params_of(&c, 3);
    char err[1024] = "";
    cr_expect_eq(attn_params_check(&a, err, sizeof err), 0, "case d=48 versions=standard+v1: refused: %s", err);
}

Test(attention, params_check_rejects_v1_tile_over_227k)
{
    attn_case c = {1, 1, 1024, 128, 0, 4LL << 20, 0, 0};
    attn_params a = params_of(&c, 2);
    char err[2048] = "";
    cr_assert_neq(attn_params_check(&a, err, sizeof err), 0, "case sram=4m d=128 v1: accepted, want a refusal");
    const sim_device *dev = sim_device_find("sm_90");
    cr_assert(dev != NULL, "sm_90 preset missing");
    cr_assert_eq(dev->shared_per_block_optin, 227u << 10, "case sm_90: opt-in limit %zu, want 227 KB",
                 dev->shared_per_block_optin);
    char need[32], limit[32];
    snprintf(need, sizeof need, "%llu", U(attn_flash_v1_shared_bytes(a.d, a.v1_br, a.v1_bc)));
    snprintf(limit, sizeof limit, "%zu", dev->shared_per_block_optin);
    cr_expect(strstr(err, need) != NULL, "case sram=4m d=128 (Br=%d Bc=%d): the message should name the %s bytes needed; it is: %s",
              a.v1_br, a.v1_bc, need, err);
    cr_expect(strstr(err, limit) != NULL, "case sram=4m d=128: the message should name the limit %s bytes; it is: %s", limit,
              err);
    cr_expect(strstr(err, "sm_90") != NULL, "case sram=4m d=128: the message should name the device; it is: %s", err);
}

/* ---- Theorem 2, from the closed forms -------------------------------------------------- */
static uint64_t total_bytes(const attn_params *a, int ver)
{
    attn_bytes e = attn_expected(a, ver);
    return attn_bytes_read(&e) + attn_bytes_written(&e);
}

static attn_params checked(int N, int d, int causal, long long sram, int versions)
{
    attn_case c = {1, 1, N, d, causal, sram, 0, 0};
    attn_params a = params_of(&c, versions);
    char err[1024] = "";
    cr_assert_eq(attn_params_check(&a, err, sizeof err), 0, "case N=%d d=%d causal=%d sram=%lld: refused: %s", N, d, causal,
                 sram, err);
    return a;
}

/* Standard attention: Theta(N d + N^2); at N >= 512 the N^2 terms (S, P)
 * dominate, so doubling N multiplies the bytes by nearly 4. */
Test(attention, theorem2_standard_grows_as_n_squared)
{
    const int ds[] = {32, 64, 128};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
        for (int causal = 0; causal <= 1; causal++)
            for (int N = 512; N <= 4096; N *= 2) {
                attn_params a = checked(N, ds[i], causal, K48, 1), b = checked(2 * N, ds[i], causal, K48, 1);
                double ratio = (double)total_bytes(&b, V_STD) / (double)total_bytes(&a, V_STD);
                cr_expect(ratio >= 3.5 && ratio <= 4.1,
                          "case d=%d causal=%d, version standard: bytes(N=%d) / bytes(N=%d) = %.3f, want within [3.5, 4.1]",
                          ds[i], causal, 2 * N, N, ratio);
            }
}

/* Flash v1: Theta(N^2 d^2 / M). Tc = N / Bc passes over Q and O with
 * Bc = ceil(M/4d): doubling M halves the passes, so the Q and O traffic. */
Test(attention, theorem2_v1_q_and_o_traffic_scales_as_one_over_m)
{
    const int Ns[] = {1000, 2048, 4096}, ds[] = {64, 128};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 2; j++)
            for (int causal = 0; causal <= 1; causal++)
                for (long long sram = K16; sram <= (64LL << 10); sram *= 2) {
                    attn_params a = checked(Ns[i], ds[j], causal, sram, 2), b = checked(Ns[i], ds[j], causal, 2 * sram, 2);
                    attn_bytes ea = attn_expected(&a, V_V1), eb = attn_expected(&b, V_V1);
                    double qa = (double)(ea.rd[ATT_Q] + ea.rd[ATT_O] + ea.wr[ATT_O]);
                    double qb = (double)(eb.rd[ATT_Q] + eb.rd[ATT_O] + eb.wr[ATT_O]);
                    cr_expect(qa / qb >= 1.7 && qa / qb <= 2.3,
                              "case N=%d d=%d causal=%d, version v1: Q+O bytes at M=%lld / at M=%lld = %.3f, want within "
                              "[1.7, 2.3]",
                              Ns[i], ds[j], causal, sram, 2 * sram, qa / qb);
                    /* K and V are read once whatever M is */
                    cr_expect(ea.rd[ATT_K] == eb.rd[ATT_K] && ea.rd[ATT_K] == 4ull * Ns[i] * ds[j],
                              "case N=%d d=%d causal=%d sram=%lld, version v1, tensor K: read %llu bytes, want N d 4 = %llu",
                              Ns[i], ds[j], causal, sram, U(ea.rd[ATT_K]), 4ull * Ns[i] * ds[j]);
                }
}

/* The lesson's headline bar. */
Test(attention, theorem2_v2_moves_10x_fewer_bytes_at_n2048_d64_m48k)
{
    for (int causal = 0; causal <= 1; causal++) {
        attn_params a = checked(2048, 64, causal, K48, 7);
        uint64_t s = total_bytes(&a, V_STD), f = total_bytes(&a, V_V2);
        cr_expect(s >= 10 * f,
                  "case N=2048 d=64 sram=48k causal=%d: standard %llu bytes vs v2 %llu bytes = %.2fx, want >= 10x",
                  causal, U(s), U(f), (double)s / (double)f);
    }
}

/* ---- regression tests ------------------------------------------------------------------
 * bug: lesson04.c launch_version() opts into more than 48 KB of dynamic
 * shared memory for flash v1 only (be_set_max_dynamic_shared), not for
 * flash v2, whose K_j/V_j tiles need 2 Bc d 4 bytes (64 KB at d = 32 with
 * Bc = 256). The simulator's opt-in is global (sim/launch.h), so v2 only
 * worked when v1 had run before it with a tile at least as large; v2 alone,
 * a --sram where v1's tile is the smaller (56k at d = 32), or --br/--bc
 * overrides fail with cudaErrorInvalidValue. Fix: in launch_version, before
 * the v2 launch, `if (be_set_max_dynamic_shared(be, c.shared_bytes)) return -1;`
 * (a no-op on the CUDA backend, whose LAUNCHER opts in itself). */
typedef struct bug_case {
    attn_case c;
    int versions;
    char how[96]; /* the command line that shows it (an array: Criterion copies parameters to another process) */
} bug_case;

static bug_case v2_optin_cases[] = {
    {{1, 1, 65, 32, 0, K96, 0, 0}, 4, "lesson 4 --version v2 --sram 96k --d 32: v2 needs 64 KB"},
    {{1, 1, 65, 64, 1, K96, 0, 0}, 4, "lesson 4 --version v2 --sram 96k --d 64 --causal: v2 needs 96 KB"},
    {{1, 1, 65, 32, 0, 56LL << 10, 0, 0}, 7, "lesson 4 --sram 56k --d 32: v1 needs 50.5 KB, v2 56 KB"},
    {{1, 1, 65, 64, 0, K96, 8, 8}, 7, "lesson 4 --sram 96k --br 8 --bc 8: v1 needs 8.4 KB, v2 96 KB"},
};

ParameterizedTestParameters(attention_bugs, v2_shared_over_48k_without_opt_in)
{
    return cr_make_param_array(bug_case, v2_optin_cases, sizeof v2_optin_cases / sizeof v2_optin_cases[0]);
}

ParameterizedTest(bug_case *b, attention_bugs, v2_shared_over_48k_without_opt_in)
{
    cr_log_info("reproduces: %s", b->how);
    attn_params a = params_of(&b->c, b->versions);
    run_and_check(&a, 0);
}

/* The FLOPs a tiled kernel executes (the time model's input): causal, each tile
 * of br query rows computes keys up to its last row's, rounded up to g keys.
 * N = 256, d = 64, one head: 64-row tiles see 64, 128, 192, 256 keys: 64 x 640 =
 * 40960 pairs (the useful ones: 256 x 257 / 2 = 32896); 192-row tiles with keys
 * to the row (g = 1): 192 x 192 + 64 x 256 = 53248; 48 x 48 tiles (g = 48):
 * five tiles of 48 rows see 48 ... 240 keys, the last 16 rows 256: 48 x (48 + 96
 * + 144 + 192 + 240) + 16 x 256 = 38656. Not causal: 4 N^2 d. */
Test(attention, executed_flops_count_whole_tiles)
{
    attn_shape s = {.B = 1, .H = 1, .N = 256, .d = 64, .causal = 1};
    cr_assert_float_eq(attn_flops(&s), 4.0 * 64 * 32896, 1e-6);
    cr_assert_float_eq(attn_flops_executed(&s, 64, 64), 4.0 * 64 * 40960, 1e-6);
    cr_assert_float_eq(attn_flops_executed(&s, 192, 1), 4.0 * 64 * 53248, 1e-6);
    cr_assert_float_eq(attn_flops_executed(&s, 48, 48), 4.0 * 64 * 38656, 1e-6);
    s.causal = 0;
    cr_assert_float_eq(attn_flops_executed(&s, 64, 64), 4.0 * 64 * 256 * 256, 1e-6);
}
