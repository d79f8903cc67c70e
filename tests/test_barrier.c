/* tests/test_barrier.c - __syncthreads and its variants (sim/launch.c, the block scheduler).
 *
 * Covers: a barrier orders shared-memory writes before reads across the
 * whole block (reversal, tree reduction over many barriers); the counting
 * barriers __syncthreads_count/_and/_or return CUDA's values; a block that
 * exits wholly before a barrier the other blocks reach is legal (the
 * barrier-free fast path); threads that exited are not waited for; barrier
 * divergence (threads at two different barriers) is reported with the threads,
 * the source site and the block, the launch fails, and the process keeps
 * working; the per-launch barrier counter.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "barrier_kernels.h"
#include "test_util.h"

#define KFILE "barrier_kernels.cu"

/* ---- correctness ------------------------------------------------------------------- */
typedef struct block_case {
    unsigned grid, block;
} block_case;

static block_case reverse_cases[] = {{1, 1}, {3, 32}, {3, 48}, {2, 100}, {4, 256}, {2, 1024}};

ParameterizedTestParameters(barrier, reverse)
{
    return cr_make_param_array(block_case, reverse_cases, sizeof reverse_cases / sizeof reverse_cases[0]);
}

ParameterizedTest(block_case *c, barrier, reverse)
{
    size_t n = (size_t)c->grid * c->block;
    int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
        in[i] = (int)(i * 13 + 5);
    int *d_in = dev_buf("in", n * sizeof(int), in), *d_out = dev_buf("out", n * sizeof(int), NULL);
    simt_cfg cfg = cfg1(c->grid, c->block, 0);
    SIM_CHECK(reverse_block_launch_sim(&cfg, d_out, d_in));
    to_host(out, d_out, n * sizeof(int));
    for (unsigned b = 0; b < c->grid; b++)
        for (unsigned t = 0; t < c->block; t++) {
            size_t i = (size_t)b * c->block + t;
            int want = in[(size_t)b * c->block + (c->block - 1 - t)];
            cr_assert_eq(out[i], want, "case grid %u block %u: block %u thread %u got %d, want %d", c->grid, c->block,
                         b, t, out[i], want);
        }
    /* one barrier per block */
    cr_assert_eq(sim_last_launch()->c.barriers, c->grid, "case grid %u block %u: %llu barriers, want %u", c->grid,
                 c->block, (unsigned long long)sim_last_launch()->c.barriers, c->grid);
    free(in);
    free(out);
}

static block_case reduce_cases[] = {{1, 1}, {5, 2}, {5, 64}, {3, 256}, {2, 1024}};

ParameterizedTestParameters(barrier, reduce)
{
    return cr_make_param_array(block_case, reduce_cases, sizeof reduce_cases / sizeof reduce_cases[0]);
}

ParameterizedTest(block_case *c, barrier, reduce)
{
    size_t n = (size_t)c->grid * c->block;
    int *in = malloc(n * sizeof(int)), out[8];
    for (size_t i = 0; i < n; i++)
        in[i] = (int)(i % 97) - 40;
    int *d_in = dev_buf("in", n * sizeof(int), in), *d_out = dev_buf("out", c->grid * sizeof(int), NULL);
    simt_cfg cfg = cfg1(c->grid, c->block, 0);
    SIM_CHECK(reduce_tree_launch_sim(&cfg, d_out, d_in));
    to_host(out, d_out, c->grid * sizeof(int));
    unsigned rounds = 0;
    for (unsigned h = c->block / 2; h > 0; h /= 2)
        rounds++;
    for (unsigned b = 0; b < c->grid; b++) {
        long want = 0;
        for (unsigned t = 0; t < c->block; t++)
            want += in[(size_t)b * c->block + t];
        cr_assert_eq(out[b], want, "case grid %u block %u: block %u sum %d, want %ld", c->grid, c->block, b, out[b],
                     want);
    }
    /* 1 + log2(block) barriers per block */
    cr_assert_eq(sim_last_launch()->c.barriers, (uint64_t)c->grid * (1 + rounds),
                 "case grid %u block %u: %llu barriers, want %u", c->grid, c->block,
                 (unsigned long long)sim_last_launch()->c.barriers, c->grid * (1 + rounds));
    free(in);
}

/* ---- __syncthreads_count / _and / _or ------------------------------------------------- */
typedef struct pred_case {
    char name[24];
    unsigned block;
    int pattern;
} pred_case;

enum { P_NONE, P_ALL, P_FIRST, P_LAST, P_EVEN, P_BELOW17, P_ALL_BUT_ONE, P_VALUE7 };

/* The predicate of thread t of a block of n threads, before != 0 is applied. */
static int pred_of(int pattern, unsigned t, unsigned n)
{
    switch (pattern) {
    case P_NONE: return 0;
    case P_ALL: return 1;
    case P_FIRST: return t == 0;
    case P_LAST: return t == n - 1;
    case P_EVEN: return t % 2 == 0;
    case P_BELOW17: return t < 17;
    case P_ALL_BUT_ONE: return t != n / 2;
    default: return (int)(t % 3) * 7; /* non-zero values other than 1 count as true */
    }
}

static pred_case pred_cases[] = {
    {"none", 64, P_NONE},           {"all", 64, P_ALL},        {"first", 100, P_FIRST},
    {"last", 100, P_LAST},          {"even", 48, P_EVEN},      {"below17", 32, P_BELOW17},
    {"all but one", 1024, P_ALL_BUT_ONE}, {"value 7", 96, P_VALUE7}, {"single all", 1, P_ALL},
};

ParameterizedTestParameters(barrier, sync_ops)
{
    return cr_make_param_array(pred_case, pred_cases, sizeof pred_cases / sizeof pred_cases[0]);
}

ParameterizedTest(pred_case *c, barrier, sync_ops)
{
    const unsigned grid = 2, n = c->block;
    size_t total = (size_t)grid * n;
    int *pred = malloc(total * sizeof(int)), *res = malloc(3 * total * sizeof(int));
    for (unsigned b = 0; b < grid; b++)
        for (unsigned t = 0; t < n; t++) /* block 1 uses the pattern of the reversed block */
            pred[(size_t)b * n + t] = pred_of(c->pattern, b ? n - 1 - t : t, n);
    int *d_pred = dev_buf("pred", total * sizeof(int), pred), *d_res = dev_buf("res", 3 * total * sizeof(int), NULL);
    simt_cfg cfg = cfg1(grid, n, 0);
    SIM_CHECK(sync_ops_launch_sim(&cfg, d_res, d_pred));
    to_host(res, d_res, 3 * total * sizeof(int));
    for (unsigned b = 0; b < grid; b++) {
        /* CUDA: _count returns the number of threads whose predicate is non-zero,
         * _and non-zero iff it is non-zero for all, _or iff for any. */
        int count = 0;
        for (unsigned t = 0; t < n; t++)
            count += pred[(size_t)b * n + t] != 0;
        int all = count == (int)n, any = count > 0;
        for (unsigned t = 0; t < n; t++) {
            const int *r = &res[3 * ((size_t)b * n + t)];
            cr_assert_eq(r[0], count, "case %s: block %u thread %u __syncthreads_count = %d, want %d", c->name, b, t,
                         r[0], count);
            cr_assert_eq(r[1] != 0, all, "case %s: block %u thread %u __syncthreads_and = %d, want %s", c->name, b, t,
                         r[1], all ? "non-zero" : "0");
            cr_assert_eq(r[2] != 0, any, "case %s: block %u thread %u __syncthreads_or = %d, want %s", c->name, b, t,
                         r[2], any ? "non-zero" : "0");
        }
    }
    cr_assert_eq(sim_last_launch()->c.barriers, 3 * grid, "case %s: barriers", c->name);
    free(pred);
    free(res);
}

/* ---- a barrier block 0 never reaches ----------------------------------------------------- */
Test(barrier, block0_exits_before_barrier)
{
    const unsigned grid = 6, n = 64;
    int *out = malloc(grid * n * sizeof(int));
    int *d_out = dev_buf("out", grid * n * sizeof(int), NULL);
    SIM_CHECK(sim_memset(d_out, 0xff, grid * n * sizeof(int)));
    simt_cfg cfg = cfg1(grid, n, 0);
    SIM_CHECK(skip_block0_launch_sim(&cfg, d_out));
    to_host(out, d_out, grid * n * sizeof(int));
    for (unsigned t = 0; t < n; t++)
        cr_assert_eq(out[t], -1, "case block 0 exits: out[%u] = %d was written", t, out[t]);
    for (unsigned b = 1; b < grid; b++)
        for (unsigned t = 0; t < n; t++) {
            int want = (int)(b * n + (t + 1) % n);
            cr_assert_eq(out[b * n + t], want, "case block 0 exits: block %u thread %u got %d, want %d", b, t,
                         out[b * n + t], want);
        }
    cr_assert_eq(sim_last_launch()->c.barriers, grid - 1, "case block 0 exits: %llu barriers, want %u",
                 (unsigned long long)sim_last_launch()->c.barriers, grid - 1);
    cr_assert_eq(sim_last_launch()->c.threads, grid * n, "case block 0 exits: threads");
}

/* After a failed launch the simulator must still run kernels correctly. */
static void assert_still_works(const char *after)
{
    const unsigned n = 128;
    int in[128], out[128];
    for (unsigned i = 0; i < n; i++)
        in[i] = (int)i;
    int *d_in = dev_buf("in", sizeof in, in), *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, n, 0);
    int st = reverse_block_launch_sim(&cfg, d_out, d_in);
    cr_assert_eq(st, SIM_OK, "case %s: a correct launch afterwards failed: %s", after, sim_last_error());
    to_host(out, d_out, sizeof out);
    for (unsigned i = 0; i < n; i++)
        cr_assert_eq(out[i], (int)(n - 1 - i), "case %s: the launch afterwards computed out[%u] = %d", after, i,
                     out[i]);
}

/* ---- (a): some threads exit, the others meet at a barrier --------------------------------
 * Not a divergence: a barrier waits for the threads that have not exited (sm_70 and later; on
 * the H100 `if (i >= n) return;` before a __syncthreads() runs right, compute-sanitizer's
 * synccheck, racecheck and memcheck silent: docs/gpu/h100-partial-warp). Threads < k pass the
 * barrier and read each other's shared writes. */
typedef struct exit_case {
    unsigned grid, block;
    int k; /* threads < k stay */
} exit_case;

static exit_case exit_cases[] = {{1, 32, 16}, {3, 32, 1}, {2, 64, 31}, {1, 100, 99}, {2, 256, 40}, {1, 64, 40}};

ParameterizedTestParameters(barrier, exited_threads_not_waited_for)
{
    return cr_make_param_array(exit_case, exit_cases, sizeof exit_cases / sizeof exit_cases[0]);
}

ParameterizedTest(exit_case *c, barrier, exited_threads_not_waited_for)
{
    const unsigned n = c->grid * c->block;
    int *d_out = dev_buf("out", n * sizeof(int), NULL);
    simt_cfg cfg = cfg1(c->grid, c->block, c->block * sizeof(int));
    SIM_CHECK(exit_then_wait_launch_sim(&cfg, d_out, c->k));
    cr_assert_eq(sim_last_launch()->c.barriers, (uint64_t)c->grid, "case block %u k %d: %llu barriers, want %u",
                 c->block, c->k, (unsigned long long)sim_last_launch()->c.barriers, c->grid);
    int *out = malloc(n * sizeof(int));
    to_host(out, d_out, n * sizeof(int));
    for (unsigned i = 0; i < n; i++) {
        const int t = (int)(i % c->block), want = t < c->k ? 100 + (t + 1) % c->k : 0;
        cr_assert_eq(out[i], want, "case block %u k %d: out[%u] = %d, want %d", c->block, c->k, i, out[i], want);
    }
    free(out);
    /* and with the race check of detailed mode: no hazard across the barrier */
    sim_set_detailed(1);
    int st = exit_then_wait_launch_sim(&cfg, d_out, c->k);
    sim_set_detailed(0);
    cr_assert_eq(st, SIM_OK, "case block %u k %d, detailed: %s", c->block, c->k, sim_last_error());
}

/* ---- divergence (b): two different barriers ---------------------------------------------- */
Test(barrier, divergence_two_sites)
{
    int *d_out = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    int st = two_barriers_launch_sim(&cfg, d_out, 20);
    cr_assert_eq(st, SIM_ERR_BARRIER_DIVERGENCE, "case two sites: status %s (%s)", sim_status_name((sim_status)st),
                 sim_last_error());
    char a[64], b[64], buf[256];
    kernel_site(a, sizeof a, KFILE, "SITE:branch_a");
    kernel_site(b, sizeof b, KFILE, "SITE:branch_b");
    snprintf(buf, sizeof buf, "20 threads (0-19) wait at __syncthreads() (%s)", a);
    ASSERT_ERROR_HAS(buf, "two sites (first group)");
    snprintf(buf, sizeof buf, "44 threads (20-63) wait at a different __syncthreads() (%s), with threads of one warp "
             "on both sides", b);
    ASSERT_ERROR_HAS(buf, "two sites (second group)");
    ASSERT_ERROR_HAS("in kernel two_barriers", "two sites (kernel)");
    ASSERT_ERROR_HAS("block (0,0,0)", "two sites (block)");
    int out[64];
    to_host(out, d_out, sizeof out);
    for (int t = 0; t < 64; t++)
        cr_assert_eq(out[t], t < 20 ? 1 : 2, "case two sites: thread %d passed its barrier (out %d)", t, out[t]);
    /* k = 32: each warp takes one branch whole; __syncthreads() is bar.sync 0, .aligned per
     * warp, so the two barriers are one and every thread passes it (as on a GPU) */
    SIM_CHECK(two_barriers_launch_sim(&cfg, d_out, 32));
    to_host(out, d_out, sizeof out);
    for (int t = 0; t < 64; t++)
        cr_assert_eq(out[t], t < 32 ? 11 : 22, "case two sites, k = 32 (warp-uniform): out[%d] = %d", t, out[t]);
    /* k = 0 and k = 64: every thread takes one branch, which is legal */
    SIM_CHECK(two_barriers_launch_sim(&cfg, d_out, 64));
    to_host(out, d_out, sizeof out);
    cr_assert_eq(out[63], 11, "case two sites, k = 64: out[63] = %d", out[63]);
    SIM_CHECK(two_barriers_launch_sim(&cfg, d_out, 0));
    to_host(out, d_out, sizeof out);
    cr_assert_eq(out[0], 22, "case two sites, k = 0: out[0] = %d", out[0]);
    assert_still_works("after divergence (two sites)");
}

/* Warp-uniform sites pass (two_sites, k = 32) only as plain barriers: a __syncthreads_count at one
 * of them is reported, naming both sites and the reduction. */
Test(barrier, divergence_reduction_beside_plain_barrier)
{
    int *d_out = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    int st = mixed_reduce_launch_sim(&cfg, d_out);
    cr_assert_eq(st, SIM_ERR_BARRIER_DIVERGENCE, "status %s (%s)", sim_status_name((sim_status)st), sim_last_error());
    char a[64], b[64], buf[256];
    kernel_site(a, sizeof a, KFILE, "SITE:mixed_count");
    kernel_site(b, sizeof b, KFILE, "SITE:mixed_plain");
    snprintf(buf, sizeof buf, "32 threads (0-31) wait at __syncthreads() (%s)", a);
    ASSERT_ERROR_HAS(buf, "mixed (first site)");
    snprintf(buf, sizeof buf, "32 threads (32-63) wait at a different one (%s), and one of them is "
             "__syncthreads_count/_and/_or", b);
    ASSERT_ERROR_HAS(buf, "mixed (second site, the reduction)");
    assert_still_works("after a reduction beside a plain barrier");
}

/* Only one block of many diverges: the report names that block and thread,
 * whatever the number of workers. */
typedef struct one_block_case {
    unsigned grid;
    int bad;
    int workers;
} one_block_case;

static one_block_case one_block_cases[] = {{16, 0, 1}, {16, 11, 1}, {16, 11, 2}, {64, 63, 2}, {64, 5, 3}};

ParameterizedTestParameters(barrier, divergence_one_block)
{
    return cr_make_param_array(one_block_case, one_block_cases, sizeof one_block_cases / sizeof one_block_cases[0]);
}

ParameterizedTest(one_block_case *c, barrier, divergence_one_block)
{
    use_workers(c->workers);
    int *d_out = dev_buf("out", c->grid * 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(c->grid, 64, 0);
    int st = diverge_in_block_launch_sim(&cfg, d_out, c->bad);
    cr_assert_eq(st, SIM_ERR_BARRIER_DIVERGENCE, "case grid %u bad block %d, %d workers: status %s", c->grid, c->bad,
                 c->workers, sim_status_name((sim_status)st));
    char buf[160], site[64];
    snprintf(buf, sizeof buf, "block (%d,0,0)", c->bad);
    ASSERT_ERROR_HAS(buf, "grid %u bad block %d, %d workers (block)", c->grid, c->bad, c->workers);
    snprintf(buf, sizeof buf, "63 threads (0-2,4-63) wait at __syncthreads() (%s)",
             kernel_site(site, sizeof site, KFILE, "SITE:one_block"));
    ASSERT_ERROR_HAS(buf, "grid %u bad block %d (waiting threads)", c->grid, c->bad);
    snprintf(buf, sizeof buf, "1 threads (3) wait at a different __syncthreads() (%s)",
             kernel_site(site, sizeof site, KFILE, "SITE:own_barrier"));
    ASSERT_ERROR_HAS(buf, "grid %u bad block %d (the other site)", c->grid, c->bad);
    /* every block below the bad one ran to completion */
    int *out = malloc(c->grid * 64 * sizeof(int));
    to_host(out, d_out, c->grid * 64 * sizeof(int));
    for (int b = 0; b < c->bad; b++)
        for (int t = 0; t < 64; t++)
            cr_assert_eq(out[b * 64 + t], 1, "case grid %u bad block %d: block %d thread %d did not finish", c->grid,
                         c->bad, b, t);
    free(out);
    assert_still_works("after divergence in one block");
}

/* Detailed mode checks every shared access for races: correct kernels must
 * pass it unchanged (no false hazards across barriers, blocks or launches). */
Test(barrier, detailed_mode_finds_no_race_in_correct_kernels)
{
    sim_set_detailed(1);
    const unsigned n = 256, grid = 4;
    int *in = malloc(grid * n * sizeof(int)), out[4];
    for (unsigned i = 0; i < grid * n; i++)
        in[i] = (int)i;
    int *d_in = dev_buf("in", grid * n * sizeof(int), in), *d_out = dev_buf("out", grid * n * sizeof(int), NULL);
    simt_cfg cfg = cfg1(grid, n, 0);
    for (int rep = 0; rep < 2; rep++) {
        SIM_CHECK(reverse_block_launch_sim(&cfg, d_out, d_in));
        SIM_CHECK(reduce_tree_launch_sim(&cfg, d_out, d_in));
        to_host(out, d_out, sizeof out);
        cr_assert_eq(out[1], (int)(n * (n + 2 * n - 1) / 2), "case detailed reduce: block 1 sum %d", out[1]);
        SIM_CHECK(skip_block0_launch_sim(&cfg, d_out));
    }
    free(in);
}
