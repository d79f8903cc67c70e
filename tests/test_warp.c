/* tests/test_warp.c - warp intrinsics (sim/launch.c: warp_rendezvous, warp_compute).
 *
 * Covers: __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync
 * for int, float and double, every width from 1 to 32 and full and partial
 * masks, against the CUDA Programming Guide's definitions written out below
 * in plain C; __ballot_sync, __any_sync, __all_sync over predicate patterns
 * and masks; __activemask and the layout of warps (lanes 0-31, 32-63, ... of
 * the block's linear thread index) in 1-, 2- and 3-D blocks and in blocks
 * that are not a multiple of 32; __syncwarp ordering shared memory between
 * lanes; and each misuse (lanes that disagree on mask, intrinsic or width, a
 * mask without the caller, an mma in a partial warp) reported as
 * SIM_ERR_WARP_SYNC, after which the process works. Lanes that exited or lie
 * past the block's end drop out of a mask, as on the H100. Where CUDA leaves
 * a result undefined (a lane reading a lane outside the mask), the reader
 * gets 0, as on the H100, and the launch a note (sim_launch_info.undef_note).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test_util.h"
#include "warp_kernels.h"

#define KFILE "warp_kernels.cu"
#define FULL 0xffffffffu

/* ---- the CUDA definitions ---------------------------------------------------------------
 * CUDA C++ Programming Guide, "Warp Shuffle Functions": each lane reads var
 * from a source lane; width (a power of two 1..32) splits the warp into
 * subsections of width lanes, each a separate entity with logical lanes
 * 0..width-1.
 *   __shfl_sync(m, var, srcLane, w): the lane srcLane modulo w of the
 *     caller's own subsection.
 *   __shfl_up_sync(m, var, delta, w): caller - delta; "the source lane index
 *     will not wrap around the value of width, so effectively the lower delta
 *     lanes will be unchanged".
 *   __shfl_down_sync(m, var, delta, w): caller + delta; the upper delta lanes
 *     of each subsection are unchanged.
 *   __shfl_xor_sync(m, var, laneMask, w): caller XOR laneMask; "each group of
 *     width consecutive threads are able to access elements from earlier
 *     groups of threads, however if they attempt to access elements from
 *     later groups of threads their own value of var will be returned".
 * Returns the source lane of lane l (0..31). */
static unsigned shfl_src(int kind, unsigned l, int arg, unsigned w)
{
    unsigned base = l / w * w; /* first lane of l's subsection */
    switch (kind) {
    case WARP_SHFL_IDX: return base + (unsigned)(((arg % (int)w) + (int)w) % (int)w);
    case WARP_SHFL_UP: return (int)(l - base) - arg < 0 ? l : l - (unsigned)arg;
    case WARP_SHFL_DOWN: return (l - base) + (unsigned)arg >= w ? l : l + (unsigned)arg;
    default: {
        unsigned s = l ^ (unsigned)arg;
        return s >= base + w ? l : s;
    }
    }
}

static const char *const kind_names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"};

/* ---- shuffles: every kind x type, looping over widths, arguments and masks ------------------ */
typedef struct shfl_case {
    int kind;
    int type; /* 0 int, 1 float, 2 double */
} shfl_case;

static shfl_case shfl_cases[] = {
    {WARP_SHFL_IDX, 0}, {WARP_SHFL_IDX, 1}, {WARP_SHFL_IDX, 2},   {WARP_SHFL_UP, 0},
    {WARP_SHFL_UP, 1},  {WARP_SHFL_UP, 2},  {WARP_SHFL_DOWN, 0},  {WARP_SHFL_DOWN, 1},
    {WARP_SHFL_DOWN, 2}, {WARP_SHFL_XOR, 0}, {WARP_SHFL_XOR, 1}, {WARP_SHFL_XOR, 2},
};
static const char *const type_names[] = {"int", "float", "double"};

static const unsigned widths[] = {32, 16, 8, 4, 2, 1};
static const unsigned masks[] = {FULL, 0x0000ffffu, 0xffff0000u, 0x00ff00ffu, 0x0f0f0f0fu, 0x00000004u, 0x80000001u};
static const int idx_args[] = {0, 1, 5, 15, 31, 35, -1};
static const int up_down_args[] = {0, 1, 2, 3, 4, 8, 16, 31};
static const int xor_args[] = {0, 1, 2, 3, 4, 8, 16, 31, 7};

#define NT 128 /* 2 blocks of 64 threads: 4 warps */

/* The value thread i holds, by type; every bit of a double matters. */
static double value_of(int type, int i)
{
    return type == 0 ? (double)(i * 1000 + 7) : type == 1 ? i + 0.25 : 1e12 + i * 0.5;
}

static int run_shfl(int type, void *d_out, void *d_in, int kind, int arg, int w, unsigned m)
{
    simt_cfg cfg = cfg1(2, 64, 0);
    switch (type) {
    case 0: return shfl_int_launch_sim(&cfg, d_out, d_in, kind, arg, w, m);
    case 1: return shfl_float_launch_sim(&cfg, d_out, d_in, kind, arg, w, m);
    default: return shfl_double_launch_sim(&cfg, d_out, d_in, kind, arg, w, m);
    }
}

static double out_at(int type, const void *out, int i)
{
    return type == 0 ? ((const int *)out)[i] : type == 1 ? ((const float *)out)[i] : ((const double *)out)[i];
}

ParameterizedTestParameters(warp, shuffle)
{
    return cr_make_param_array(shfl_case, shfl_cases, sizeof shfl_cases / sizeof shfl_cases[0]);
}

ParameterizedTest(shfl_case *c, warp, shuffle)
{
    const size_t esz = c->type == 0 ? sizeof(int) : c->type == 1 ? sizeof(float) : sizeof(double);
    char in[NT * 8], out[NT * 8];
    for (int i = 0; i < NT; i++) {
        double v = value_of(c->type, i);
        if (c->type == 0)
            ((int *)in)[i] = (int)v;
        else if (c->type == 1)
            ((float *)in)[i] = (float)v;
        else
            ((double *)in)[i] = v;
    }
    void *d_in = dev_buf("in", NT * esz, in), *d_out = dev_buf("out", NT * esz, NULL);
    const int *args = c->kind == WARP_SHFL_IDX ? idx_args : c->kind == WARP_SHFL_XOR ? xor_args : up_down_args;
    size_t nargs = c->kind == WARP_SHFL_IDX   ? sizeof idx_args / sizeof idx_args[0]
                   : c->kind == WARP_SHFL_XOR ? sizeof xor_args / sizeof xor_args[0]
                                              : sizeof up_down_args / sizeof up_down_args[0];
    int checked_ok = 0, checked_err = 0;
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
        for (size_t ai = 0; ai < nargs; ai++)
            for (size_t mi = 0; mi < sizeof masks / sizeof masks[0]; mi++) {
                unsigned w = widths[wi], m = masks[mi];
                int arg = args[ai];
                /* CUDA leaves a read of a lane outside the mask undefined: the reader gets 0 (the
                 * H100's value) and the launch a note (sim_launch_info.undef_note), not a failure */
                int bad_lane = -1;
                for (unsigned l = 0; l < 32 && bad_lane < 0; l++)
                    if ((m >> l & 1) && !(m >> shfl_src(c->kind, l, arg, w) & 1))
                        bad_lane = (int)l;
                int st = run_shfl(c->type, d_out, d_in, c->kind, arg, (int)w, m);
                cr_assert_eq(st, SIM_OK, "case %s(%s) mask 0x%08x arg %d width %u: %s", kind_names[c->kind],
                             type_names[c->type], m, arg, w, sim_last_error());
                const char *note = sim_last_launch()->undef_note;
                if (bad_lane >= 0) {
                    char want_note[96];
                    snprintf(want_note, sizeof want_note, "lane %d reads lane %u, which does not take part", bad_lane,
                             shfl_src(c->kind, (unsigned)bad_lane, arg, w));
                    cr_assert(strstr(note, want_note), "case %s(%s) mask 0x%08x arg %d width %u: note \"%s\", want \"%s\"",
                              kind_names[c->kind], type_names[c->type], m, arg, w, note, want_note);
                    checked_err++;
                } else {
                    cr_assert_eq(note[0], 0, "case %s(%s) mask 0x%08x arg %d width %u: note \"%s\"", kind_names[c->kind],
                                 type_names[c->type], m, arg, w, note);
                    checked_ok++;
                }
                to_host(out, d_out, NT * esz);
                for (int i = 0; i < NT; i++) {
                    unsigned l = (unsigned)i % 32, src = shfl_src(c->kind, l, arg, w);
                    double want = !(m >> l & 1)  ? (c->type == 1 ? (double)(float)WARP_SENTINEL : WARP_SENTINEL)
                                  : (m >> src & 1) ? value_of(c->type, (int)(i - l + src))
                                                   : 0.0; /* outside: 0 */
                    double got = out_at(c->type, out, i);
                    cr_assert(got == want || (c->type == 1 && (float)got == (float)want),
                              "case %s(%s) mask 0x%08x arg %d width %u: thread %d (lane %u) got %.17g, want %.17g",
                              kind_names[c->kind], type_names[c->type], m, arg, w, i, l, got, want);
                }
            }
    cr_assert(checked_ok > 40 && checked_err > 0, "case %s(%s): %d defined and %d undefined combinations checked",
              kind_names[c->kind], type_names[c->type], checked_ok, checked_err);
    /* after all those notes, a plain shuffle still works */
    cr_assert_eq(run_shfl(c->type, d_out, d_in, c->kind, 1, 32, FULL), SIM_OK, "case %s(%s): a valid call afterwards",
                 kind_names[c->kind], type_names[c->type]);
}

/* Invalid widths are reported (CUDA: undefined). */
/* The launch counts warp instructions, not lanes: one shuffle (or vote) a warp
 * that executes it, whatever its mask (sim_counters.warp_shuffles, warp_votes:
 * the JSON's time_model.warp_shuffles / warp_votes). 3 blocks of 64 threads are
 * 6 warps; votes() makes a ballot, an any and an all. */
Test(warp, counts_warp_instructions_not_lanes)
{
    int in[3 * 64] = {0};
    int *d_in = dev_buf("in", sizeof in, in);
    int *d_out = dev_buf("out", sizeof in, NULL);
    simt_cfg cfg = cfg1(3, 64, 0);
    SIM_CHECK(shfl_int_launch_sim(&cfg, d_out, d_in, WARP_SHFL_XOR, 1, 32, FULL));
    cr_assert_eq(sim_last_launch()->c.warp_shuffles, 6, "full mask: %llu shuffles, want 6 (one a warp)",
                 (unsigned long long)sim_last_launch()->c.warp_shuffles);
    cr_assert_eq(sim_last_launch()->c.warp_votes, 0);
    SIM_CHECK(shfl_int_launch_sim(&cfg, d_out, d_in, WARP_SHFL_XOR, 1, 16, 0x0000ffffu));
    cr_assert_eq(sim_last_launch()->c.warp_shuffles, 6, "lanes 0-15: %llu shuffles, want 6",
                 (unsigned long long)sim_last_launch()->c.warp_shuffles);
    unsigned *d_votes = dev_buf("votes", 3 * sizeof in, NULL);
    SIM_CHECK(votes_launch_sim(&cfg, d_votes, d_in, FULL));
    cr_assert_eq(sim_last_launch()->c.warp_votes, 18, "%llu votes, want 3 a warp",
                 (unsigned long long)sim_last_launch()->c.warp_votes);
    cr_assert_eq(sim_last_launch()->c.warp_shuffles, 0);
    SIM_CHECK(sim_free(d_in));
    SIM_CHECK(sim_free(d_out));
    SIM_CHECK(sim_free(d_votes));
}

Test(warp, invalid_width)
{
    static const int bad[] = {0, 3, 6, 33, 64, -2};
    int *d_in = dev_buf("in", NT * sizeof(int), NULL), *d_out = dev_buf("out", NT * sizeof(int), NULL);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int st = run_shfl(0, d_out, d_in, WARP_SHFL_XOR, 1, bad[k], FULL);
        cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case width %d: status %s", bad[k], sim_status_name((sim_status)st));
        char buf[48];
        snprintf(buf, sizeof buf, "width %d must be a power of two", bad[k]);
        ASSERT_ERROR_HAS(buf, "width %d", bad[k]);
    }
}

/* ---- votes ------------------------------------------------------------------------------- */
typedef struct vote_case {
    char name[16];
    int pattern;
} vote_case;

enum { V_NONE, V_ALL, V_EVEN, V_BELOW5, V_LANE31, V_MIXED, V_BIG };

static int vote_pred(int pattern, int i)
{
    unsigned l = (unsigned)i % 32;
    switch (pattern) {
    case V_NONE: return 0;
    case V_ALL: return 1;
    case V_EVEN: return l % 2 == 0;
    case V_BELOW5: return l < 5;
    case V_LANE31: return l == 31;
    case V_MIXED: return (i * 7) % 3 == 0; /* differs between warps */
    default: return -(int)l * 1000;        /* any non-zero value is true */
    }
}

static vote_case vote_cases[] = {{"none", V_NONE}, {"all", V_ALL},       {"even", V_EVEN}, {"below5", V_BELOW5},
                                 {"lane31", V_LANE31}, {"mixed", V_MIXED}, {"big", V_BIG}};

ParameterizedTestParameters(warp, votes)
{
    return cr_make_param_array(vote_case, vote_cases, sizeof vote_cases / sizeof vote_cases[0]);
}

ParameterizedTest(vote_case *c, warp, votes)
{
    int pred[NT];
    unsigned out[3 * NT];
    for (int i = 0; i < NT; i++)
        pred[i] = vote_pred(c->pattern, i);
    int *d_pred = dev_buf("pred", sizeof pred, pred);
    unsigned *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    for (size_t mi = 0; mi < sizeof masks / sizeof masks[0]; mi++) {
        unsigned m = masks[mi];
        SIM_CHECK(votes_launch_sim(&cfg, d_out, d_pred, m));
        to_host(out, d_out, sizeof out);
        for (int wbase = 0; wbase < NT; wbase += 32) {
            /* CUDA: __ballot_sync sets bit N iff lane N is in the mask and its
             * predicate is non-zero; __any_sync: any of them; __all_sync: all
             * lanes of the mask. */
            unsigned ballot = 0;
            for (unsigned l = 0; l < 32; l++)
                if ((m >> l & 1) && pred[wbase + (int)l])
                    ballot |= 1u << l;
            for (unsigned l = 0; l < 32; l++) {
                const unsigned *r = &out[3 * (wbase + (int)l)];
                if (!(m >> l & 1)) {
                    cr_assert_eq(r[0], WARP_SENTINEL, "case %s mask 0x%08x: lane %u outside the mask wrote", c->name,
                                 m, l);
                    continue;
                }
                cr_assert_eq(r[0], ballot, "case %s mask 0x%08x: warp at %d lane %u __ballot_sync = 0x%08x, want 0x%08x",
                             c->name, m, wbase, l, r[0], ballot);
                cr_assert_eq(r[1] != 0, ballot != 0, "case %s mask 0x%08x: warp at %d lane %u __any_sync = %u",
                             c->name, m, wbase, l, r[1]);
                cr_assert_eq(r[2] != 0, ballot == m, "case %s mask 0x%08x: warp at %d lane %u __all_sync = %u",
                             c->name, m, wbase, l, r[2]);
            }
        }
    }
}

/* ---- warp layout ----------------------------------------------------------------------------- */
typedef struct layout_case {
    simt_dim block;
} layout_case;

static layout_case layout_cases[] = {{{16, 4, 1}}, {{8, 4, 2}}, {{48, 1, 1}},  {{7, 5, 1}},
                                     {{32, 1, 1}}, {{1, 64, 1}}, {{100, 1, 1}}, {{3, 3, 3}}};

ParameterizedTestParameters(warp, layout)
{
    return cr_make_param_array(layout_case, layout_cases, sizeof layout_cases / sizeof layout_cases[0]);
}

ParameterizedTest(layout_case *c, warp, layout)
{
    const simt_dim b = c->block;
    const unsigned nt = b.x * b.y * b.z, grid = 2;
    unsigned *out = malloc(4 * grid * nt * sizeof(unsigned));
    unsigned *d_out = dev_buf("out", 4 * grid * nt * sizeof(unsigned), NULL);
    simt_cfg cfg = cfg3(grid, 1, 1, b.x, b.y, b.z, 0);
    SIM_CHECK(warp_layout_launch_sim(&cfg, d_out));
    to_host(out, d_out, 4 * grid * nt * sizeof(unsigned));
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < nt; t++) {
            /* warp w holds the threads of linear index 32w .. 32w+31 that exist */
            unsigned base = t & ~31u, lanes = nt - base < 32 ? nt - base : 32, last = base + lanes - 1;
            unsigned exists = lanes == 32 ? FULL : (1u << lanes) - 1, ballot = 0;
            for (unsigned l = 0; l < lanes; l++)
                if (((base + l) / b.x) % b.y % 2 == 1) /* threadIdx.y of linear index base + l */
                    ballot |= 1u << l;
            unsigned want_last = (last % b.x) * 1000 + (last / b.x) % b.y;
            const unsigned *r = &out[4 * ((size_t)blk * nt + t)];
            cr_assert_eq(r[0], base, "case block (%u,%u,%u): thread %u: lane 0 of its warp is %u, want %u", b.x, b.y,
                         b.z, t, r[0], base);
            cr_assert_eq(r[1], ballot, "case block (%u,%u,%u): thread %u: ballot(threadIdx.y odd) = 0x%08x, want 0x%08x",
                         b.x, b.y, b.z, t, r[1], ballot);
            cr_assert_eq(r[2], want_last, "case block (%u,%u,%u): thread %u: last lane's x*1000+y = %u, want %u", b.x,
                         b.y, b.z, t, r[2], want_last);
            cr_assert_eq(r[3], exists, "case block (%u,%u,%u): thread %u: __activemask() = 0x%08x, want 0x%08x", b.x,
                         b.y, b.z, t, r[3], exists);
        }
    free(out);
}

/* __activemask() of lanes that run straight through (k = 32: nobody returns):
 * the warp is converged, every lane is active, every lane sees 0xffffffff.
 * With k < 32, lanes >= k returned, so (CUDA: "threads which have exited the
 * program are always marked as inactive", and lanes on the other side of a
 * branch are not active either) lanes < k see exactly lanes 0..k-1. */
static void check_activemask(int k)
{
    unsigned out[64];
    unsigned *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    SIM_CHECK(active_after_exit_launch_sim(&cfg, d_out, k));
    to_host(out, d_out, sizeof out);
    unsigned want = k == 32 ? FULL : (1u << k) - 1;
    for (int i = 0; i < 64; i++)
        cr_assert_eq(out[i], i % 32 < k ? want : WARP_SENTINEL,
                     "case lanes >= %d return first: thread %d __activemask() = 0x%08x, want 0x%08x", k, i, out[i],
                     want);
}

/* Regression tests of a fixed bug: sim_activemask returned the lanes that had
 * not exited *yet* (lanes run one after another); it is now a rendezvous of
 * the live lanes. Measured on an H200: 0xffffffff for every lane when none
 * returns, 0x0000ffff when lanes 16-31 return. */
Test(warp, activemask_regression_lane_order)
{
    check_activemask(32);
}

Test(warp, activemask_regression_lanes_that_will_return)
{
    check_activemask(16);
    check_activemask(1);
    check_activemask(31);
}

/* ---- __syncwarp --------------------------------------------------------------------------- */
typedef struct syncwarp_case {
    unsigned mask;
    int detailed;
} syncwarp_case;

static syncwarp_case syncwarp_cases[] = {{FULL, 0}, {FULL, 1}, {0x0000ffffu, 0}, {0x0000ffffu, 1}, {0xff00ff00u, 1}};

ParameterizedTestParameters(warp, syncwarp)
{
    return cr_make_param_array(syncwarp_case, syncwarp_cases, sizeof syncwarp_cases / sizeof syncwarp_cases[0]);
}

ParameterizedTest(syncwarp_case *c, warp, syncwarp)
{
    sim_set_detailed(c->detailed);
    int out[NT];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    /* with __syncwarp(mask), every lane of the mask has written before any reads */
    SIM_CHECK(syncwarp_swap_launch_sim(&cfg, d_out, c->mask, 1));
    to_host(out, d_out, sizeof out);
    for (int i = 0; i < NT; i++) {
        int t = i % 64;
        int want = (c->mask >> (t % 32) & 1) ? t ^ 1 : WARP_SENTINEL;
        cr_assert_eq(out[i], want, "case mask 0x%08x detailed %d: thread %d got %d, want %d", c->mask, c->detailed, i,
                     out[i], want);
    }
    /* without it, the neighbour's word is read unordered: a race in detailed mode */
    int st = syncwarp_swap_launch_sim(&cfg, d_out, c->mask, 0);
    if (c->detailed) {
        cr_assert_eq(st, SIM_ERR_SHARED_RACE, "case mask 0x%08x: no __syncwarp in detailed mode: status %s", c->mask,
                     sim_status_name((sim_status)st));
        /* s[t] written, then s[t ^ 1] read: read-after-write in the program, though the lane that ran
         * first read its neighbour's word before the neighbour wrote it */
        ASSERT_ERROR_HAS("read-after-write", "mask 0x%08x no __syncwarp", c->mask);
        ASSERT_ERROR_HAS("(__syncwarp() where only the warp's lanes share the data)", "mask 0x%08x no __syncwarp",
                         c->mask);
    } else {
        cr_assert_eq(st, SIM_OK, "case mask 0x%08x: no __syncwarp in normal mode (no race check): %s", c->mask,
                     sim_last_error());
    }
}

/* __syncwarp() without an argument means the full mask. */
Test(warp, syncwarp_default_mask_is_full)
{
    sim_set_detailed(1);
    int out[NT];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    SIM_CHECK(syncwarp_swap_launch_sim(&cfg, d_out, FULL, 2));
    to_host(out, d_out, sizeof out);
    for (int i = 0; i < NT; i++)
        cr_assert_eq(out[i], (i % 64) ^ 1, "case __syncwarp(): thread %d got %d", i, out[i]);
}

/* Two rendezvous of one warp pending at once, with disjoint lanes: lanes 0-7
 * wait at a 16-lane shuffle while lanes 8-15 first complete an 8-lane one.
 * Legal CUDA (Volta and later; the H200 computes the values below).
 * Regression: warp_rendezvous once kept one pending rendezvous per warp and
 * reported lane 8's call as a disagreement. */
Test(warp, regression_one_pending_rendezvous_per_warp)
{
    int out[64];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    int st = nested_masks_launch_sim(&cfg, d_out);
    cr_assert_eq(st, SIM_OK, "case lanes 8-15 shuffle among themselves while lanes 0-7 wait at a 16-lane shuffle: "
                             "%s",
                 sim_last_error());
    to_host(out, d_out, sizeof out);
    for (int t = 0; t < 64; t++) {
        int l = t % 32, src = l ^ 8;
        int want = l >= 16 ? l : src >= 8 ? src + (src ^ 1) : src;
        cr_assert_eq(out[t], want, "case nested masks: thread %d got %d, want %d", t, out[t], want);
    }
}

/* ---- misuse ------------------------------------------------------------------------------- */
static void assert_shuffle_still_works(const char *after)
{
    int in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = i;
    int *d_in = dev_buf("in", sizeof in, in), *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    int st = shfl_int_launch_sim(&cfg, d_out, d_in, WARP_SHFL_XOR, 1, 32, FULL);
    cr_assert_eq(st, SIM_OK, "case %s: a correct shuffle afterwards failed: %s", after, sim_last_error());
    to_host(out, d_out, sizeof out);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(out[i], i ^ 1, "case %s: shuffle afterwards: out[%d] = %d", after, i, out[i]);
}

/* Lanes that exited are not waited for, whether they left before the others
 * called (lane 5) or while they waited (lane 31, which the simulator runs
 * last), as on the H100 (docs/gpu/h100-partial-warp: a full-mask ballot
 * after lanes 16-31 returned gives 0x0000ffff, after lane 31's late return
 * 0x7fffffff, and a full-mask __syncwarp returns; synccheck silent). A
 * shuffle that reads an exited lane's value gets a note (undef_note). */
Test(warp, mask_names_exited_lane)
{
    int *d_out = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    char site[64], buf[160];
    kernel_site(site, sizeof site, KFILE, "SITE:after_exit");
    for (int gone = 5; gone <= 31; gone += 26) {
        int out[32];
        for (int i = 0; i < 32; i++)
            out[i] = -1;
        SIM_CHECK(sim_memcpy(d_out, out, sizeof out, SIM_COPY_H2D));
        SIM_CHECK(shfl_after_exit_launch_sim(&cfg, d_out, gone, 0));
        to_host(out, d_out, sizeof out);
        for (int i = 0; i < 32; i++)
            cr_assert_eq(out[i], i == gone ? -1 : 0, "case lane %d exited: out[%d] = %d", gone, i, out[i]);
    }
    /* lane 0 exited: the others read its value, undefined: a note, and 0 as on the H100 */
    SIM_CHECK(shfl_after_exit_launch_sim(&cfg, d_out, 0, 0));
    snprintf(buf, sizeof buf, "__shfl_sync (%s): lane 1 reads lane 0, which does not take part (lanes 0xfffffffe do",
             site);
    cr_assert(strstr(sim_last_launch()->undef_note, buf), "case lane 0 exited: note \"%s\", want \"%s\"",
              sim_last_launch()->undef_note, buf);
    cr_assert(strstr(sim_last_launch()->undef_note, "in kernel shfl_after_exit, block (0,0,0), thread (1,0,0)"),
              "case lane 0 exited: note \"%s\"", sim_last_launch()->undef_note);
    int own[32];
    to_host(own, d_out, sizeof own);
    for (int i = 1; i < 32; i++)
        cr_assert_eq(own[i], 0, "case lane 0 exited: lane %d got %d, want 0", i, own[i]);
    /* lane 31 exits while lanes 0-30 wait to read it: the rendezvous completes at its exit, from
     * the exiting thread's fiber */
    SIM_CHECK(shfl_after_exit_launch_sim(&cfg, d_out, 31, 31));
    snprintf(buf, sizeof buf, "__shfl_sync (%s): lane 0 reads lane 31, which does not take part (lanes 0x7fffffff do",
             site);
    cr_assert(strstr(sim_last_launch()->undef_note, buf), "case lane 31 exited late: note \"%s\", want \"%s\"",
              sim_last_launch()->undef_note, buf);
    cr_assert(strstr(sim_last_launch()->undef_note, "thread (0,0,0)"), "case lane 31 exited late: note \"%s\"",
              sim_last_launch()->undef_note);
    to_host(own, d_out, sizeof own);
    for (int i = 0; i < 31; i++)
        cr_assert_eq(own[i], 0, "case lane 31 exited late: lane %d got %d, want 0", i, own[i]);
    /* a correct launch after a note has none */
    SIM_CHECK(shfl_after_exit_launch_sim(&cfg, d_out, 5, 0));
    cr_assert_eq(sim_last_launch()->undef_note[0], 0, "case after a note: \"%s\"", sim_last_launch()->undef_note);
    /* one exit completes two rendezvous whose masks name the lane (a shuffle of lanes 0-14, a
     * ballot of 16-31), in both warps of the block */
    unsigned *d_two = dev_buf("two", 65 * sizeof(unsigned), NULL); /* [64]: the word lane 15 polls */
    simt_cfg cfg64 = cfg1(1, 64, 0);
    SIM_CHECK(two_rdv_exit_launch_sim(&cfg64, d_two));
    cr_assert_eq(sim_last_launch()->undef_note[0], 0, "case two rendezvous: note \"%s\"", sim_last_launch()->undef_note);
    unsigned two[64];
    to_host(two, d_two, sizeof two);
    for (int i = 0; i < 64; i++) {
        const unsigned l = (unsigned)i % 32, want = l < 15 ? (l + 1) % 15 * 10 : l == 15 ? 0u : 0xaaaa0000u;
        cr_assert_eq(two[i], want, "case two rendezvous: thread %d got 0x%x, want 0x%x", i, two[i], want);
    }
    /* votes and __syncwarp: lanes 16-31 and then lane 31 alone */
    unsigned *d_b = dev_buf("b", 64 * sizeof(unsigned), NULL);
    simt_cfg cfg2 = cfg1(1, 64, 0);
    for (int gone = 16; gone <= 31; gone += 15) {
        unsigned b[64];
        memset(b, 0, sizeof b);
        SIM_CHECK(sim_memcpy(d_b, b, sizeof b, SIM_COPY_H2D));
        SIM_CHECK(ballot_after_exit_launch_sim(&cfg2, d_b, gone));
        to_host(b, d_b, sizeof b);
        const unsigned want = (1u << gone) - 1;
        for (int i = 0; i < 64; i++)
            cr_assert_eq(b[i], i % 32 < gone ? want : 0u, "case lanes >= %d exited: thread %d's ballot 0x%08x", gone,
                         i, b[i]);
    }
}

Test(warp, lanes_disagree_on_mask)
{
    int *d_out = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = mask_mismatch_launch_sim(&cfg, d_out);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case different masks: status %s", sim_status_name((sim_status)st));
    char site[64], buf[320];
    kernel_site(site, sizeof site, KFILE, "SITE:mismatch");
    snprintf(buf, sizeof buf,
             "lanes 0x0000ffff wait at __shfl_sync (%s) with mask 0xffffffff, but lane 16 waits at __shfl_sync (%s) "
             "with mask 0xfffffffe",
             site, site);
    ASSERT_ERROR_HAS(buf, "different masks");
    ASSERT_ERROR_HAS("thread (16,0,0)", "different masks (thread)");
    assert_shuffle_still_works("different masks");
}

Test(warp, lanes_disagree_on_intrinsic)
{
    unsigned *d_out = dev_buf("out", 32 * sizeof(unsigned), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = vote_mismatch_launch_sim(&cfg, d_out);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case ballot vs any: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("lane 16 calls __any_sync", "ballot vs any");
    ASSERT_ERROR_HAS("wait at __ballot_sync", "ballot vs any");
    assert_shuffle_still_works("ballot vs any");
    int *d_i = dev_buf("outi", 32 * sizeof(int), NULL);
    st = width_mismatch_launch_sim(&cfg, d_i);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case width 16 vs 32: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("disagree", "width 16 vs 32");
    assert_shuffle_still_works("width 16 vs 32");
}

Test(warp, mask_without_calling_lane)
{
    int *d_out = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = mask_without_caller_launch_sim(&cfg, d_out);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case mask 0x1 from lane 1: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("mask 0x00000001 does not name the calling lane 1", "mask 0x1 from lane 1");
    assert_shuffle_still_works("mask without caller");
}

Test(warp, shuffle_against_barrier)
{
    int *d_out = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = shfl_vs_barrier_launch_sim(&cfg, d_out);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case shuffle vs __syncthreads: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("but lane 16 waits at __syncthreads()", "shuffle vs __syncthreads");
    assert_shuffle_still_works("shuffle vs __syncthreads");
}

/* A block of 48 threads: warp 1 has lanes 0-15 only. Lanes past the block's
 * end count as exited: the full mask waits for lanes 0-15 and the ballot
 * has their bits only, as on the H100 (docs/gpu/h100-partial-warp: ballot
 * 0x0000fffe of threadIdx.x > 0 in a 16-thread block, compute-sanitizer's
 * synccheck silent). */
Test(warp, full_mask_on_partial_warp)
{
    unsigned *d_out = dev_buf("out", 48 * sizeof(unsigned), NULL);
    simt_cfg cfg = cfg1(1, 48, 0);
    SIM_CHECK(full_mask_partial_warp_launch_sim(&cfg, d_out));
    unsigned v[48];
    to_host(v, d_out, sizeof v);
    for (int i = 0; i < 48; i++)
        cr_assert_eq(v[i], i < 32 ? FULL : 0x0000ffffu, "case block 48, full mask: thread %d's ballot 0x%08x", i,
                     v[i]);
    /* a shuffle reading a lane past the end reads an undefined value: a note */
    int *d_s = dev_buf("s", 48 * sizeof(int), NULL), in[48];
    for (int i = 0; i < 48; i++)
        in[i] = 100 + i;
    int *d_in = dev_buf("in", sizeof in, in);
    SIM_CHECK(shfl_int_launch_sim(&cfg, d_s, d_in, WARP_SHFL_DOWN, 1, 32, FULL));
    cr_assert(strstr(sim_last_launch()->undef_note, "lane 15 reads lane 16, which does not take part (lanes 0x0000ffff"),
              "case block 48, shfl_down 1: note \"%s\"", sim_last_launch()->undef_note);
    cr_assert(strstr(sim_last_launch()->undef_note, "thread (47,0,0)"), "case block 48, shfl_down 1: note \"%s\"",
              sim_last_launch()->undef_note);
    /* within the 16 lanes (width 16) the same shuffle is fine, and has no note */
    SIM_CHECK(shfl_int_launch_sim(&cfg, d_s, d_in, WARP_SHFL_DOWN, 1, 16, FULL));
    cr_assert_eq(sim_last_launch()->undef_note[0], 0, "case block 48, width 16: note \"%s\"",
                 sim_last_launch()->undef_note);
    int out[48];
    to_host(out, d_s, sizeof out);
    for (int i = 32; i < 48; i++)
        cr_assert_eq(out[i], i == 47 ? 147 : 101 + i, "case block 48, width 16: thread %d got %d", i, out[i]);
    /* mma.sync is .aligned: a partial warp stays a report (test_mma) */
}

/* Up to one pending rendezvous a lane (warp-aggregated atomics: HeCBench atomicAggregate's 16
 * groups failed with "more than 8 warp intrinsics pending" before SIM_MAX_RDV was 32). */
Test(warp, many_disjoint_groups_pending)
{
    int *d_out = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    for (int groups = 1; groups <= 32; groups *= 2) {
        SIM_CHECK(many_groups_launch_sim(&cfg, d_out, groups));
        int out[64];
        to_host(out, d_out, sizeof out);
        for (int i = 0; i < 64; i++)
            cr_assert_eq(out[i], (i % 32) % groups * 3, "case %d groups: thread %d got %d, want %d", groups, i,
                         out[i], (i % 32) % groups * 3);
    }
}

/* ---- regressions found in review --------------------------------------------------------- */
/* CUDA's delta for __shfl_up/down_sync is unsigned: a "negative" delta is huge,
 * so every lane keeps its own value (the simulator once treated it as signed). */
Test(warp, regression_shuffle_delta_is_unsigned)
{
    int in[32], out[32];
    for (int i = 0; i < 32; i++)
        in[i] = 100 + i;
    int *d_in = dev_buf("in", sizeof in, in), *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    for (int kind = WARP_SHFL_UP; kind <= WARP_SHFL_DOWN; kind++) {
        SIM_CHECK(shfl_int_launch_sim(&cfg, d_out, d_in, kind, -1, 32, FULL));
        to_host(out, d_out, sizeof out);
        for (int i = 0; i < 32; i++)
            cr_assert_eq(out[i], in[i], "case %s delta -1: lane %d got %d, want its own %d",
                         kind == WARP_SHFL_UP ? "up" : "down", i, out[i], in[i]);
    }
}

/* ---- tensor cores: mma_tf32, mma_tf32x3, tf32_round (sim/launch.c: mma_compute) ---------- */
/* PTX ISA, "Matrix Fragments for mma.m16n8k8" (.tf32): the row g = lane / 4
 * and column t = lane % 4 of each fragment are spelled out in the kernel
 * (mma_tile); here the whole 16 x 8 product is checked in double. */
static float tf32_trunc(float x) /* what the tensor core reads of an fp32 operand */
{
    union { float f; uint32_t u; } v = {x};
    v.u &= 0xffffe000u;
    return v.f;
}

static void mma_run(float D[128], const float A[128], const float B[64], int three)
{
    float *dD = dev_buf("D", 128 * sizeof(float), D), *dA = dev_buf("A", 128 * sizeof(float), A);
    float *dB = dev_buf("B", 64 * sizeof(float), B);
    simt_cfg cfg = cfg1(1, 32, 0);
    SIM_CHECK(mma_tile_launch_sim(&cfg, dD, dA, dB, three));
    to_host(D, dD, 128 * sizeof(float));
}

/* Operands that TF32 holds exactly (k/8, small integers): every product and
 * sum is exact, so the fragments' layout is checked bit for bit. */
Test(warp, mma_tf32_exact_operands)
{
    float A[128], B[64], D[128], C[128];
    for (int i = 0; i < 128; i++) {
        A[i] = (float)(i % 13 - 6) / 8.0f;
        C[i] = D[i] = (float)(i % 7);
    }
    for (int i = 0; i < 64; i++)
        B[i] = (float)(i % 11 - 5);
    for (int three = 0; three < 2; three++) {
        memcpy(D, C, sizeof D);
        mma_run(D, A, B, three);
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 8; n++) {
                double want = C[m * 8 + n];
                for (int k = 0; k < 8; k++)
                    want += (double)A[m * 8 + k] * B[k * 8 + n];
                cr_assert_eq(D[m * 8 + n], (float)want, "case %s: D[%d][%d] = %g, want %g",
                             three ? "mma_tf32x3" : "mma_tf32", m, n, D[m * 8 + n], want);
            }
    }
}

/* General fp32 operands: mma_tf32 is the product of the truncated operands
 * (to fp32 rounding of 8 sums), about 2^-11 off the fp32 product; mma_tf32x3
 * is within a few fp32 ulps of it. */
Test(warp, mma_tf32_precision)
{
    float A[128], B[64], D[128], D3[128];
    uint32_t s = 12345;
    for (int i = 0; i < 128; i++) {
        s = s * 1664525u + 1013904223u;
        A[i] = (float)((s >> 8) / 16777216.0 - 0.5);
        D[i] = D3[i] = 0.25f;
    }
    for (int i = 0; i < 64; i++) {
        s = s * 1664525u + 1013904223u;
        B[i] = (float)((s >> 8) / 16777216.0 - 0.5);
    }
    mma_run(D, A, B, 0);
    mma_run(D3, A, B, 1);
    double err1 = 0, errt = 0, err3 = 0;
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            double exact = 0.25, trunc = 0.25;
            for (int k = 0; k < 8; k++) {
                exact += (double)A[m * 8 + k] * B[k * 8 + n];
                trunc += (double)tf32_trunc(A[m * 8 + k]) * tf32_trunc(B[k * 8 + n]);
            }
            err1 = fmax(err1, fabs(D[m * 8 + n] - exact));
            errt = fmax(errt, fabs(D[m * 8 + n] - trunc));
            err3 = fmax(err3, fabs(D3[m * 8 + n] - exact));
        }
    /* |sum| <= 0.25 + 8 * 0.25: one fp32 ulp of 2.25 is 2.4e-7 */
    cr_assert_leq(errt, 8 * 2.4e-7, "case mma_tf32 against its truncated operands: max error %.3g", errt);
    cr_assert_gt(err1, 1e-5, "case mma_tf32 against fp32: max error %.3g, TF32 should show (~1e-3)", err1);
    cr_assert_lt(err1, 5e-3, "case mma_tf32 against fp32: max error %.3g", err1);
    cr_assert_leq(err3, 8 * 2.4e-7, "case mma_tf32x3 against fp32: max error %.3g", err3);
}

/* cvt.rna.tf32.f32: to nearest, ties away from zero; Inf and NaN kept. */
Test(warp, tf32_round_ties_away)
{
    const float in[] = {1.0f, 1.0f + 0x1p-11f, 1.0f + 0x1p-11f - 0x1p-23f, -(1.0f + 0x1p-11f), 1.0f + 0x1p-10f + 0x1p-11f,
                        3.0e-40f, INFINITY, -INFINITY};
    const float want[] = {1.0f, 1.0f + 0x1p-10f, 1.0f, -(1.0f + 0x1p-10f), 1.0f + 0x1p-9f,
                          0.0f /* checked below */, INFINITY, -INFINITY};
    enum { n = sizeof in / sizeof in[0] };
    float out[n];
    float *d_in = dev_buf("in", sizeof in, in), *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    SIM_CHECK(tf32_round_of_launch_sim(&cfg, d_out, d_in, n));
    to_host(out, d_out, sizeof out);
    for (int i = 0; i < n - 3; i++)
        cr_assert_eq(out[i], want[i], "case %a: got %a, want %a", in[i], out[i], want[i]);
    cr_assert_eq(tf32_trunc(out[5]), out[5], "case subnormal %a: got %a, not a TF32 value", in[5], out[5]);
    cr_assert_eq(out[6], INFINITY, "case inf: got %a", out[6]);
    cr_assert_eq(out[7], -INFINITY, "case -inf: got %a", out[7]);
}

/* A NaN whose payload lies only in the 13 bits TF32 drops stays a NaN, both
 * through tf32_round and as an mma operand (cutting the bits alone would
 * make it an Inf). */
Test(warp, tf32_nan_stays_nan)
{
    const uint32_t snan_bits = 0x7f800001u;
    float snan;
    memcpy(&snan, &snan_bits, 4);
    float *d_in = dev_buf("in", sizeof snan, &snan), *d_out = dev_buf("out", sizeof(float), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    SIM_CHECK(tf32_round_of_launch_sim(&cfg, d_out, d_in, 1));
    float out;
    to_host(&out, d_out, sizeof out);
    cr_assert(isnan(out), "case tf32_round(NaN 0x%08x): got %a", snan_bits, out);
    float A[128] = {0}, B[64], D[128] = {0};
    A[0] = snan; /* A[0][0] */
    for (int i = 0; i < 64; i++)
        B[i] = 1.0f;
    float *dD = dev_buf("D", sizeof D, D), *dA = dev_buf("A", sizeof A, A), *dB = dev_buf("B", sizeof B, B);
    SIM_CHECK(mma_tile_launch_sim(&cfg, dD, dA, dB, 0));
    to_host(D, dD, sizeof D);
    for (int n = 0; n < 8; n++)
        cr_assert(isnan(D[n]), "case mma with A[0][0] = NaN 0x%08x: D[0][%d] = %a, want NaN", snan_bits, n, D[n]);
    cr_assert_eq(D[8], 0.0f, "case mma: D[1][0] = %a, want 0", D[8]);
}

/* mma.sync is .aligned: a warp of 16 threads, or lanes calling different
 * products, is an error with the intrinsic's name, and the process goes on. */
Test(warp, mma_misuse)
{
    float A[128] = {0}, B[64] = {0}, D[128] = {0};
    float *dD = dev_buf("D", sizeof D, D), *dA = dev_buf("A", sizeof A, A), *dB = dev_buf("B", sizeof B, B);
    simt_cfg cfg = cfg1(1, 16, 0);
    int st = mma_tile_launch_sim(&cfg, dD, dA, dB, 0);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case block 16: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("mma_tf32 (mma.sync.m16n8k8)", "block 16");
    ASSERT_ERROR_HAS("the warp's 32 lanes execute it together (.aligned)", "block 16");
    ASSERT_ERROR_HAS("has only lanes 0x0000ffff (the block has 16 threads: make it a multiple of 32)", "block 16");
    cfg = cfg1(1, 32, 0);
    st = mma_tile_launch_sim(&cfg, dD, dA, dB, 2);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case mma and mma3: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("diverge at the tensor cores", "mma and mma3");
    ASSERT_ERROR_HAS("lane 16 calls mma_tf32x3", "mma and mma3");
    st = mma_tile_launch_sim(&cfg, dD, dA, dB, 3);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case two call sites: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("diverge at the tensor cores", "two call sites");
    ASSERT_ERROR_HAS("lane 16 calls mma_tf32 (mma.sync.m16n8k8) at warp_kernels.cu", "two call sites");
    st = mma_tile_launch_sim(&cfg, dD, dA, dB, 4);
    cr_assert_eq(st, SIM_ERR_ILLEGAL_ADDRESS, "case stray accumulator: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("past the end of allocation 'D'", "stray accumulator");
    ASSERT_ERROR_HAS("thread (5,0,0)", "stray accumulator");
    /* a lane exits after another reached the mma: the next lane to join is told at once (an
     * mma's lanes do not leave its mask on exit, as a shuffle's do: the join tests the exits) */
    st = mma_tile_launch_sim(&cfg, dD, dA, dB, 5);
    cr_assert_eq(st, SIM_ERR_WARP_SYNC, "case a lane exits: status %s", sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("the warp's 32 lanes execute it together (.aligned)", "a lane exits");
    ASSERT_ERROR_HAS("lanes 0x00000002 of warp 0 returned before it: let no lane return", "a lane exits");
    ASSERT_ERROR_HAS("thread (2,0,0)", "a lane exits");
    SIM_CHECK(mma_tile_launch_sim(&cfg, dD, dA, dB, 1));
}
