/* tests/test_atomic.c - atomic read-modify-write operations (sim/launch.c: sim_atomic_*).
 *
 * Covers: atomicAdd, atomicSub, atomicMin, atomicMax, atomicExch and
 * atomicCAS (once, and as the classic retry loop) on int and unsigned, and
 * atomicAdd / atomicExch on float (CUDA has no float Sub/Min/Max/CAS), on a
 * global word and on a __shared__ word, every thread of a 16384-thread grid
 * hitting the same address, run on several OpenMP workers. Checked exactly:
 * the final word, and that the old values the atomics returned form a valid
 * serialisation (each intermediate value returned once); unsigned Min/Max
 * compare as unsigned; an atomic counts one read and one write of the word.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdint.h>

#include "atomic_kernels.h"
#include "test_util.h"

enum { T_INT, T_UINT, T_FLOAT };
enum { S_GLOBAL, S_SHARED };
static const char *const type_name[] = {"int", "unsigned", "float"};
static const char *const space_name[] = {"global", "shared"};
static const char *const op_name[] = {"atomicAdd", "atomicSub", "atomicMin", "atomicMax",
                                      "atomicExch", "atomicCAS once", "atomicCAS loop"};

#define GRID 64
#define BLOCK 256
#define N (GRID * BLOCK)

typedef struct atom_case {
    int type, space, op;
} atom_case;

static atom_case atom_cases[] = {
    {T_INT, S_GLOBAL, ATOM_ADD},        {T_INT, S_GLOBAL, ATOM_SUB},       {T_INT, S_GLOBAL, ATOM_MIN},
    {T_INT, S_GLOBAL, ATOM_MAX},        {T_INT, S_GLOBAL, ATOM_EXCH},      {T_INT, S_GLOBAL, ATOM_CAS_ONCE},
    {T_INT, S_GLOBAL, ATOM_CAS_LOOP},   {T_UINT, S_GLOBAL, ATOM_ADD},      {T_UINT, S_GLOBAL, ATOM_SUB},
    {T_UINT, S_GLOBAL, ATOM_MIN},       {T_UINT, S_GLOBAL, ATOM_MAX},      {T_UINT, S_GLOBAL, ATOM_EXCH},
    {T_UINT, S_GLOBAL, ATOM_CAS_ONCE},  {T_UINT, S_GLOBAL, ATOM_CAS_LOOP}, {T_FLOAT, S_GLOBAL, ATOM_ADD},
    {T_FLOAT, S_GLOBAL, ATOM_EXCH},     {T_INT, S_SHARED, ATOM_ADD},       {T_INT, S_SHARED, ATOM_SUB},
    {T_INT, S_SHARED, ATOM_MIN},        {T_INT, S_SHARED, ATOM_MAX},       {T_INT, S_SHARED, ATOM_EXCH},
    {T_INT, S_SHARED, ATOM_CAS_ONCE},   {T_INT, S_SHARED, ATOM_CAS_LOOP},  {T_UINT, S_SHARED, ATOM_ADD},
    {T_UINT, S_SHARED, ATOM_SUB},       {T_UINT, S_SHARED, ATOM_MIN},      {T_UINT, S_SHARED, ATOM_MAX},
    {T_UINT, S_SHARED, ATOM_EXCH},      {T_UINT, S_SHARED, ATOM_CAS_ONCE}, {T_UINT, S_SHARED, ATOM_CAS_LOOP},
    {T_FLOAT, S_SHARED, ATOM_ADD},      {T_FLOAT, S_SHARED, ATOM_EXCH},
};

/* All three types are 4 bytes: arrays hold bit patterns, num() reads one as a number. */
static double num(int type, uint32_t bits)
{
    union { uint32_t u; int32_t i; float f; } v = {.u = bits};
    return type == T_INT ? (double)v.i : type == T_UINT ? (double)v.u : (double)v.f;
}
static uint32_t bits_of(int type, double x)
{
    union { uint32_t u; int32_t i; float f; } v;
    if (type == T_INT)
        v.i = (int32_t)x;
    else if (type == T_UINT)
        v.u = (uint32_t)x;
    else
        v.f = (float)x;
    return v.u;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Operand of thread i (0..n-1 within its group), and the word's initial value. */
static double operand(const atom_case *c, int i, int n)
{
    switch (c->op) {
    case ATOM_ADD:
    case ATOM_SUB:
    case ATOM_CAS_LOOP: return 1;
    case ATOM_MIN:
    case ATOM_MAX: {
        double perm = (double)(((long)i * 7919) % n); /* a permutation of 0..n-1 */
        /* int: around zero; unsigned: half of them at or above 2^31, where a
         * signed compare would order them below the others */
        return c->type == T_INT ? perm - n / 2 : ((long)perm % 2 ? 2147483648.0 : 0.0) + perm * 3;
    }
    default: return i + 1; /* EXCH, CAS: distinct non-zero values */
    }
}
static double initial(const atom_case *c, int n)
{
    switch (c->op) {
    case ATOM_SUB: return n + 10;
    case ATOM_MIN: return c->type == T_INT ? INT_MAX : UINT_MAX;
    case ATOM_MAX: return c->type == T_INT ? INT_MIN : 0;
    case ATOM_ADD:
    case ATOM_CAS_LOOP: return 100;
    default: return 0;
    }
}

/* Checks one group (the whole grid for global, one block for shared): the
 * final word and the old values old[0..n) the atomics returned. */
static void check_group(const atom_case *c, int group, double init, const double *val, const double *old, double fin,
                        int n)
{
    const char *tn = type_name[c->type], *sn = space_name[c->space], *on = op_name[c->op];
    double *sorted = malloc((size_t)(n + 1) * sizeof(double));
    switch (c->op) {
    case ATOM_ADD:
    case ATOM_CAS_LOOP:
    case ATOM_SUB: {
        /* += 1 (-= 1) n times: final init +- n; the old values are exactly the
         * n intermediate values, each once */
        double step = c->op == ATOM_SUB ? -1 : 1;
        cr_assert_eq(fin, init + step * n, "case %s %s %s group %d: final %.17g, want %.17g", on, tn, sn, group, fin,
                     init + step * n);
        memcpy(sorted, old, (size_t)n * sizeof(double));
        qsort(sorted, (size_t)n, sizeof(double), cmp_double);
        for (int k = 0; k < n; k++) {
            double want = c->op == ATOM_SUB ? init - n + 1 + k : init + k;
            cr_assert_eq(sorted[k], want, "case %s %s %s group %d: the %d-th smallest old value is %.17g, want %.17g",
                         on, tn, sn, group, k, sorted[k], want);
        }
        break;
    }
    case ATOM_MIN:
    case ATOM_MAX: {
        double best = init;
        for (int k = 0; k < n; k++)
            best = c->op == ATOM_MIN ? (val[k] < best ? val[k] : best) : (val[k] > best ? val[k] : best);
        cr_assert_eq(fin, best, "case %s %s %s group %d: final %.17g, want %.17g", on, tn, sn, group, fin, best);
        /* every old value was the word at some point: init or an operand, never past the extreme */
        memcpy(sorted, val, (size_t)n * sizeof(double));
        qsort(sorted, (size_t)n, sizeof(double), cmp_double);
        for (int k = 0; k < n; k++) {
            int ok = old[k] == init || bsearch(&old[k], sorted, (size_t)n, sizeof(double), cmp_double) != NULL;
            cr_assert(ok, "case %s %s %s group %d: thread %d got %.17g, neither the initial value nor an operand", on,
                      tn, sn, group, k, old[k]);
            cr_assert(c->op == ATOM_MIN ? old[k] >= fin : old[k] <= fin,
                      "case %s %s %s group %d: thread %d got %.17g beyond the final %.17g", on, tn, sn, group, k, old[k],
                      fin);
        }
        break;
    }
    case ATOM_EXCH: {
        /* a chain of swaps: the old values plus the final word are the initial
         * value plus every operand, each exactly once */
        memcpy(sorted, old, (size_t)n * sizeof(double));
        sorted[n] = fin;
        qsort(sorted, (size_t)n + 1, sizeof(double), cmp_double);
        for (int k = 0; k <= n; k++)
            cr_assert_eq(sorted[k], (double)k, "case %s %s %s group %d: values seen %d-th is %.17g, want %d", on, tn, sn,
                         group, k, sorted[k], k);
        break;
    }
    default: { /* CAS once: exactly one thread saw 0 and stored its operand; the others saw that */
        int winners = 0, w = -1;
        for (int k = 0; k < n; k++)
            if (old[k] == 0) {
                winners++;
                w = k;
            }
        cr_assert_eq(winners, 1, "case %s %s %s group %d: %d threads won the CAS", on, tn, sn, group, winners);
        cr_assert_eq(fin, val[w], "case %s %s %s group %d: final %.17g, want the winner's %.17g", on, tn, sn, group,
                     fin, val[w]);
        for (int k = 0; k < n; k++)
            cr_assert(k == w || old[k] == fin, "case %s %s %s group %d: loser %d saw %.17g, want %.17g", on, tn, sn,
                      group, k, old[k], fin);
    }
    }
    free(sorted);
}

static int launch_global(const atom_case *c, void *word, void *old, const void *val)
{
    simt_cfg cfg = cfg1(GRID, BLOCK, 0);
    switch (c->type) {
    case T_INT: return atom_int_global_launch_sim(&cfg, word, old, val, c->op);
    case T_UINT: return atom_uint_global_launch_sim(&cfg, word, old, val, c->op);
    default: return atom_float_global_launch_sim(&cfg, word, old, val, c->op);
    }
}

static int launch_shared(const atom_case *c, void *result, void *old, const void *val, const void *init)
{
    simt_cfg cfg = cfg1(GRID, BLOCK, 0);
    switch (c->type) {
    case T_INT: return atom_int_shared_launch_sim(&cfg, result, old, val, init, c->op);
    case T_UINT: return atom_uint_shared_launch_sim(&cfg, result, old, val, init, c->op);
    default: return atom_float_shared_launch_sim(&cfg, result, old, val, init, c->op);
    }
}

ParameterizedTestParameters(atomic, contention)
{
    return cr_make_param_array(atom_case, atom_cases, sizeof atom_cases / sizeof atom_cases[0]);
}

ParameterizedTest(atom_case *c, atomic, contention)
{
    use_workers(4);
#ifdef _OPENMP
    cr_assert_geq(sim_worker_count(), 2, "case: want several workers, have %d", sim_worker_count());
#endif
    const char *tn = type_name[c->type], *sn = space_name[c->space], *on = op_name[c->op];
    const int group_n = c->space == S_GLOBAL ? N : BLOCK, groups = N / group_n;
    uint32_t *val = malloc(N * 4), *old = malloc(N * 4), init[GRID], fin[GRID];
    double *vald = malloc(N * sizeof(double)), *oldd = malloc(N * sizeof(double));
    for (int i = 0; i < N; i++) {
        vald[i] = operand(c, i % group_n, group_n);
        val[i] = bits_of(c->type, vald[i]);
    }
    double init_d = initial(c, group_n);
    for (int b = 0; b < GRID; b++)
        init[b] = bits_of(c->type, init_d);
    void *d_val = dev_buf("val", N * 4, val), *d_old = dev_buf("old", N * 4, NULL);
    void *d_word = dev_buf("word", GRID * 4, init), *d_init = dev_buf("init", GRID * 4, init);
    sim_reset_counters();
    int st = c->space == S_GLOBAL ? launch_global(c, d_word, d_old, d_val) : launch_shared(c, d_word, d_old, d_val, d_init);
    cr_assert_eq(st, SIM_OK, "case %s %s %s: %s", on, tn, sn, sim_last_error());
    to_host(old, d_old, N * 4);
    to_host(fin, d_word, GRID * 4);
    for (int i = 0; i < N; i++)
        oldd[i] = num(c->type, old[i]);
    for (int g = 0; g < groups; g++)
        check_group(c, g, init_d, vald + (size_t)g * group_n, oldd + (size_t)g * group_n, num(c->type, fin[g]),
                    group_n);

    /* traffic: an atomic is one read and one write of the word; the CAS loop
     * adds its plain first read and a read+write per retry */
    sim_alloc_info wi;
    SIM_CHECK(sim_alloc_query(d_word, &wi));
    const sim_counters *k = &sim_last_launch()->c;
    if (c->space == S_GLOBAL) {
        if (c->op != ATOM_CAS_LOOP) {
            cr_assert_eq(wi.read_bytes, 4 * N, "case %s %s %s: word read %llu bytes, want %d", on, tn, sn,
                         (unsigned long long)wi.read_bytes, 4 * N);
            cr_assert_eq(wi.write_bytes, 4 * N, "case %s %s %s: word written %llu bytes, want %d", on, tn, sn,
                         (unsigned long long)wi.write_bytes, 4 * N);
        } else {
            cr_assert(wi.read_bytes >= 8 * N && wi.write_bytes >= 4 * N && wi.read_bytes == wi.write_bytes + 4 * N,
                      "case %s %s %s: word read %llu / written %llu bytes", on, tn, sn,
                      (unsigned long long)wi.read_bytes, (unsigned long long)wi.write_bytes);
        }
        cr_assert_eq(k->sram_read_bytes + k->sram_write_bytes, 0, "case %s %s %s: shared traffic", on, tn, sn);
    } else {
        /* per block: thread 0 stores init (4 B) and loads the result (4 B);
         * every thread's atomic reads and writes 4 B; the CAS loop reads first
         * (volatile: a warp's lanes read together, as on a GPU, so all but one
         * lane of a warp retry at least once, a read and a write each time) */
        uint64_t rd = (uint64_t)N * 4 + GRID * 4, wr = rd;
        if (c->op == ATOM_CAS_LOOP) {
            /* the retries: a read and a write each, at least 31 a warp; the reads are the writes
             * plus the first plain reads */
            const uint64_t retried = k->sram_write_bytes - wr;
            cr_assert(k->sram_write_bytes >= wr + (uint64_t)N / 32 * 31 * 4 && retried % 4 == 0,
                      "case %s %s %s: sram write %llu, want %llu plus 4 a retry, at least 31 a warp", on, tn, sn,
                      (unsigned long long)k->sram_write_bytes, (unsigned long long)wr);
            cr_assert_eq(k->sram_read_bytes, k->sram_write_bytes + (uint64_t)N * 4,
                         "case %s %s %s: sram read %llu, want the writes (%llu) plus the first reads (%d)", on, tn,
                         sn, (unsigned long long)k->sram_read_bytes, (unsigned long long)k->sram_write_bytes, N * 4);
        } else {
            cr_assert_eq(k->sram_read_bytes, rd, "case %s %s %s: sram read %llu, want %llu", on, tn, sn,
                         (unsigned long long)k->sram_read_bytes, (unsigned long long)rd);
            cr_assert_eq(k->sram_write_bytes, wr, "case %s %s %s: sram write %llu, want %llu", on, tn, sn,
                         (unsigned long long)k->sram_write_bytes, (unsigned long long)wr);
        }
    }
    free(val);
    free(old);
    free(vald);
    free(oldd);
}

/* Many threads, few addresses: a histogram against the CPU, on 1 to 4 workers. */
Test(atomic, histogram)
{
    const int n = 200000, nbins = 7;
    int *in = malloc(n * sizeof(int));
    unsigned want[7] = {0}, got[7];
    for (int i = 0; i < n; i++) {
        in[i] = (i * 2654435761u) >> 7 & 0xffff;
        want[in[i] % nbins]++;
    }
    int *d_in = dev_buf("in", n * sizeof(int), in);
    unsigned *d_bins = dev_buf("bins", sizeof got, NULL);
    for (int workers = 1; workers <= 4; workers++) {
        use_workers(workers);
        SIM_CHECK(sim_memset(d_bins, 0, sizeof got));
        simt_cfg cfg = cfg1((n + 255) / 256, 256, 0);
        SIM_CHECK(histogram_launch_sim(&cfg, d_bins, d_in, n, nbins));
        to_host(got, d_bins, sizeof got);
        for (int b = 0; b < nbins; b++)
            cr_assert_eq(got[b], want[b], "case histogram, %d workers: bin %d = %u, want %u", workers, b, got[b],
                         want[b]);
    }
    free(in);
}

/* Unsigned atomicSub wraps modulo 2^32, as unsigned arithmetic does. */
Test(atomic, unsigned_sub_wraps)
{
    unsigned val[64], zero[2] = {3, 3};
    for (int i = 0; i < 64; i++)
        val[i] = 1;
    unsigned *d_val = dev_buf("val", sizeof val, val), *d_old = dev_buf("old", sizeof val, NULL);
    unsigned *d_word = dev_buf("word", sizeof zero, zero);
    simt_cfg cfg = cfg1(1, 64, 0);
    SIM_CHECK(atom_uint_global_launch_sim(&cfg, d_word, d_old, d_val, ATOM_SUB));
    unsigned fin;
    to_host(&fin, d_word, sizeof fin);
    cr_assert_eq(fin, 3u - 64u, "case 3 - 64 x 1 (unsigned): 0x%08x, want 0x%08x", fin, 3u - 64u);
}

/* ---- atomics as their own kind of request (detailed mode) ---------------------------------------
 * The GPU counts a global atomic as a RED or ATOM request (sectors under
 * l1tex__t_sectors_pipe_lsu_mem_global_op_red/_atom, not ld/st) and a shared
 * atomic's wavefronts once, as atom wavefronts: so must the simulator. */
Test(atomic, counted_as_their_own_requests)
{
    sim_set_detailed(1);
    enum { NH = 1024 };
    int in[NH];
    for (int i = 0; i < NH; i++)
        in[i] = i;
    int *d_in = dev_buf("in", sizeof in, in);
    unsigned *bins = dev_buf("bins", NH * sizeof(unsigned), NULL);
    simt_cfg cfg = cfg1(NH / 256, 256, 0);
    /* one bin per element: each warp's atomics cover 128 contiguous bytes = 4 sectors */
    SIM_CHECK(histogram_launch_sim(&cfg, bins, d_in, NH, NH));
    const sim_counters *c = &sim_last_launch()->c;
    cr_assert_eq(c->global_atom_requests, NH / 32, "atom requests %llu", (unsigned long long)c->global_atom_requests);
    cr_assert_eq(c->global_atom_sectors, NH / 32 * 4, "atom sectors %llu", (unsigned long long)c->global_atom_sectors);
    cr_assert_eq(c->global_ld_requests, NH / 32, "loads: in[i] only, %llu", (unsigned long long)c->global_ld_requests);
    cr_assert_eq(c->global_ld_sectors, NH / 32 * 4, "load sectors %llu", (unsigned long long)c->global_ld_sectors);
    cr_assert_eq(c->global_st_requests, 0, "an atomic is not a store: %llu", (unsigned long long)c->global_st_requests);
    cr_assert_eq(c->hbm_read_bytes, (uint64_t)NH * 4 * 2, "bytes: in[] and the bins' reads");
    cr_assert_eq(c->hbm_write_bytes, (uint64_t)NH * 4, "bytes: the bins' writes");
    /* every element to one bin: the 32 lanes on one word are served one
     * after another, one sector each (as the H200 counts them) */
    SIM_CHECK(histogram_launch_sim(&cfg, bins, d_in, NH, 1));
    c = &sim_last_launch()->c;
    cr_assert_eq(c->global_atom_requests, NH / 32);
    cr_assert_eq(c->global_atom_sectors, NH, "one bin: %llu sectors", (unsigned long long)c->global_atom_sectors);
    /* two bins, 16 lanes each, both in one sector: 16 passes of one sector */
    SIM_CHECK(histogram_launch_sim(&cfg, bins, d_in, NH, 2));
    c = &sim_last_launch()->c;
    cr_assert_eq(c->global_atom_sectors, NH / 2, "two bins: %llu sectors", (unsigned long long)c->global_atom_sectors);

    /* shared: every thread of a block on one word; thread 0 stores it first and loads it last */
    int *val = dev_buf("val", N * sizeof(int), NULL), *old = dev_buf("old", N * sizeof(int), NULL);
    int *init = dev_buf("init", GRID * sizeof(int), NULL), *res = dev_buf("res", GRID * sizeof(int), NULL);
    cfg = cfg1(GRID, BLOCK, 0);
    SIM_CHECK(atom_int_shared_launch_sim(&cfg, res, old, val, init, ATOM_ADD));
    c = &sim_last_launch()->c;
    cr_assert_eq(c->shared_atom_requests, N / 32, "shared atom requests %llu", (unsigned long long)c->shared_atom_requests);
    cr_assert_eq(c->shared_atom_wavefronts, N / 32, "one word: one wavefront a request, %llu",
                 (unsigned long long)c->shared_atom_wavefronts);
    cr_assert_eq(c->shared_st_requests, GRID, "shared stores: thread 0's only, %llu",
                 (unsigned long long)c->shared_st_requests);
    cr_assert_eq(c->shared_ld_requests, GRID, "shared loads: thread 0's only, %llu",
                 (unsigned long long)c->shared_ld_requests);
    sim_set_detailed(0);
    /* counting mode's sample of bank conflicts (the first and last blocks) sees
     * the atomics as detailed mode does: per block, thread 0's store and load
     * (1 wavefront each, 4 bytes each) and BLOCK / 32 atomic requests of one
     * wavefront (8 bytes a thread: the read and the write) */
    sim_set_sample(1);
    SIM_CHECK(atom_int_shared_launch_sim(&cfg, res, old, val, init, ATOM_ADD));
    c = &sim_last_launch()->c;
    cr_assert_eq(c->sample_sram_bytes, 2 * (8 + 8 * BLOCK), "sampled shared bytes %llu",
                 (unsigned long long)c->sample_sram_bytes);
    cr_assert_eq(c->sample_wavefronts, 2 * (2 + BLOCK / 32), "sampled wavefronts %llu (atomics included)",
                 (unsigned long long)c->sample_wavefronts);
    cr_assert_eq(c->shared_atom_wavefronts, 0, "counting mode: no detailed counters in its figures");
}
