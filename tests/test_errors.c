/* tests/test_errors.c - reports of illegal accesses by kernels (sim/access.c, sim/launch.c).
 *
 * Covers: each class of kernel bug becomes a report in the style of
 * compute-sanitizer and a failed launch, never a crash: out-of-bounds global
 * reads and writes (past the end, far past it, before the start), use after
 * free (also while freed ids and ranges are reused, where a fault in a reused
 * range names its new allocation), a host pointer, out-of-bounds dynamic
 * shared memory (both sides), misaligned global and shared accesses, another
 * thread's stack, fiber stack overflow (large local array, deep recursion;
 * SIMTLAB_STACK_KB), and
 * shared-memory races in detailed mode. Each report must name the kernel, the
 * source line, the block, the thread, the address, the allocation and offset
 * where there is one, and read or write; after each, a correct launch still
 * works in the same process.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdint.h>

#include "error_kernels.h"
#include "test_util.h"

#define KFILE "error_kernels.cu"
#define N 128 /* threads per launch: 2 blocks of 64 */

/* A correct read_at launch (nobody strays) must work after any failure. */
static void assert_still_works(const char *after)
{
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i * 2;
    float *d_in = dev_buf("ok_in", sizeof in, in), *d_out = dev_buf("ok_out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    int st = read_at_launch_sim(&cfg, d_out, d_in, 0, -1, -1);
    cr_assert_eq(st, SIM_OK, "case %s: a correct launch afterwards failed: %s", after, sim_last_error());
    to_host(out, d_out, sizeof out);
    for (int i = 0; i < N; i++)
        cr_assert_eq(out[i], in[i], "case %s: the launch afterwards computed out[%d] = %g", after, i, out[i]);
}

static void assert_status(int st, sim_status want, const char *what)
{
    cr_assert_eq(st, want, "case %s: status %s, want %s; message: %s", what, sim_status_name((sim_status)st),
                 sim_status_name(want), sim_last_error());
    cr_assert_eq(sim_last_launch()->status, want, "case %s: sim_last_launch()->status", what);
    ASSERT_ERROR_HAS(sim_status_name(want), "%s (status name)", what);
}

static void assert_where(const char *kernel, const char *marker, int bx, int tx, const char *what)
{
    assert_report_where(KFILE, kernel, marker, bx, tx, what);
}

static void assert_address(uintptr_t a, const char *what)
{
    char buf[40];
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)a);
    ASSERT_ERROR_HAS(buf, "%s (address)", what);
}

/* ---- global out of bounds ----------------------------------------------------------------- */
typedef struct oob_case {
    char name[40];
    int write;
    long long off; /* element index of the bad access */
    int bb, bt;    /* the thread that makes it */
    char where[96]; /* how the report must describe the address */
} oob_case;

/* "in" and "out" hold N floats (512 bytes) each; allocations sit on 64 KiB
 * granules with unmapped red zones between them. */
static oob_case oob_cases[] = {
    {"read just past the end", 0, N, 1, 5, "0 bytes past the end of allocation 'in' (512 bytes; offset 512)"},
    {"read 12 bytes past the end", 0, N + 3, 0, 63, "12 bytes past the end of allocation 'in' (512 bytes; offset 524)"},
    {"read into the red zone", 0, 16384 + 10, 1, 0, "past the end of allocation 'in' (512 bytes)"},
    {"write just past the end", 1, N, 0, 7, "0 bytes past the end of allocation 'out' (512 bytes; offset 512)"},
    {"write far past the end", 1, N + 100, 1, 63, "400 bytes past the end of allocation 'out' (512 bytes; offset 912)"},
    {"read before the start", 0, -1, 1, 2, "4 bytes before the start of allocation 'in'"},
    {"write before the start", 1, -4, 0, 1, "16 bytes before the start of allocation 'out'"},
};

ParameterizedTestParameters(errors, global_out_of_bounds)
{
    return cr_make_param_array(oob_case, oob_cases, sizeof oob_cases / sizeof oob_cases[0]);
}

ParameterizedTest(oob_case *c, errors, global_out_of_bounds)
{
    float in[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    /* a neighbour below, so "before the start" has an allocation on each side */
    void *d_below = dev_buf("below", 4096, NULL);
    float *d_in = dev_buf("in", sizeof in, in), *d_out = dev_buf("out", sizeof in, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    int st = c->write ? write_at_launch_sim(&cfg, d_out, c->off, c->bb, c->bt)
                      : read_at_launch_sim(&cfg, d_out, d_in, c->off, c->bb, c->bt);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, c->name);
    ASSERT_ERROR_HAS(c->write ? "invalid global write of 4 bytes" : "invalid global read of 4 bytes", "%s (kind)",
                     c->name);
    assert_address((uintptr_t)((c->write ? d_out : d_in) + c->off), c->name);
    ASSERT_ERROR_HAS(c->where, "%s (allocation and offset)", c->name);
    assert_where(c->write ? "write_at" : "read_at", c->write ? "SITE:write_at" : "SITE:read_at", c->bb, c->bt,
                 c->name);
    (void)d_below;
    assert_still_works(c->name);
}

/* Regression: an address just below an allocation was described as "N bytes
 * past the end" of the allocation below it (or, below the first allocation,
 * as a red zone naming none); it must name the allocation it precedes. */
Test(errors, regression_before_start_named_the_allocation_below)
{
    float in[N];
    memset(in, 0, sizeof in);
    float *d_first = dev_buf("first", sizeof in, in), *d_out = dev_buf("out", sizeof in, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    int st = read_at_launch_sim(&cfg, d_out, d_first, -2, 0, 9);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "read before the first allocation");
    ASSERT_ERROR_HAS("8 bytes before the start of allocation 'first' (512 bytes)", "read before the first allocation");
    assert_where("read_at", "SITE:read_at", 0, 9, "read before the first allocation");
    assert_still_works("read before the first allocation");
}

/* ---- freed memory, host memory ------------------------------------------------------------- */
Test(errors, use_after_free)
{
    float *d_gone = dev_buf("gone", N * sizeof(float), NULL), *d_out = dev_buf("out", N * sizeof(float), NULL);
    SIM_CHECK(sim_free(d_gone));
    simt_cfg cfg = cfg1(2, 64, 0);
    int st = read_at_launch_sim(&cfg, d_out, d_gone, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "read after free");
    ASSERT_ERROR_HAS("invalid global read of 4 bytes", "read after free");
    assert_address((uintptr_t)d_gone, "read after free");
    ASSERT_ERROR_HAS("inside allocation 'gone' (512 bytes; offset 0), which was freed (use after free)",
                     "read after free");
    assert_where("read_at", "SITE:read_at", 0, 0, "read after free");
    assert_still_works("read after free");

    st = write_at_launch_sim(&cfg, d_gone, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "write after free");
    ASSERT_ERROR_HAS("invalid global write of 4 bytes", "write after free");
    ASSERT_ERROR_HAS("which was freed (use after free)", "write after free");
    assert_still_works("write after free");
}

/* Fills the arena with live buffers (16 GiB, then smaller) until not even 64 MiB fits, then runs
 * `loops` x (1 KiB sim_malloc + sim_free): past 65535 allocations the ids are recycled, and once
 * the arena's fresh address space is spent the freed ranges are reused, oldest first. [*lo, *hi]:
 * the range the loop's buffers took. */
static void fill_and_churn(int loops, uintptr_t *lo, uintptr_t *hi)
{
    sim_set_host_memory_check(0); /* address space only: more than the host has, untouched */
    for (size_t sz = (size_t)16 << 30; sz >= ((size_t)64 << 20); sz /= 4) {
        void *p;
        while (sim_malloc(&p, sz, "filler") == SIM_OK)
            ;
    }
    *lo = UINTPTR_MAX;
    *hi = 0;
    for (int i = 0; i < loops; i++) {
        void *p = NULL;
        int st = sim_malloc(&p, 1024, "churn");
        if (st != SIM_OK)
            cr_assert_fail("case churn: iteration %d of %d x (sim_malloc 1 KiB + sim_free) on a full arena: %s", i,
                           loops, sim_last_error());
        if ((uintptr_t)p < *lo)
            *lo = (uintptr_t)p;
        if ((uintptr_t)p > *hi)
            *hi = (uintptr_t)p;
        SIM_CHECK(sim_free(p));
    }
}

/* Reusing freed memory must not hide a use after free: the buffer freed last is the last reused,
 * so the allocations made after its free (here 'out' and 100 more) take other ranges and ids. */
Test(errors, use_after_free_while_recycling)
{
    uintptr_t lo, hi;
    fill_and_churn(70000, &lo, &hi);
    float *d_gone = dev_buf("gone", N * sizeof(float), NULL);
    cr_assert((uintptr_t)d_gone >= lo && (uintptr_t)d_gone <= hi, "case setup: 'gone' is not in a reused range");
    SIM_CHECK(sim_free(d_gone));
    float *d_out = dev_buf("out", N * sizeof(float), NULL);
    for (int i = 0; i < 100; i++) {
        void *p;
        SIM_CHECK(sim_malloc(&p, N * sizeof(float), "later"));
        cr_assert(p != (void *)d_gone, "case allocation %d after the free: got the freed range back", i);
        SIM_CHECK(sim_free(p));
    }
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(d_gone, &ai));
    cr_assert(ai.freed && !strcmp(ai.name, "gone"), "case query after the free: name %s freed %d", ai.name, ai.freed);
    simt_cfg cfg = cfg1(2, 64, 0);
    int st = read_at_launch_sim(&cfg, d_out, d_gone, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "read after free, ids recycled");
    assert_address((uintptr_t)d_gone, "read after free, ids recycled");
    ASSERT_ERROR_HAS("inside allocation 'gone' (512 bytes; offset 0), which was freed (use after free)",
                     "read after free, ids recycled");
    st = write_at_launch_sim(&cfg, d_gone, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "write after free, ids recycled");
    ASSERT_ERROR_HAS("inside allocation 'gone' (512 bytes; offset 0), which was freed (use after free)",
                     "write after free, ids recycled");
    assert_still_works("use after free, ids recycled");
}

/* A range and an id that served freed allocations belong to the new one: its faults name it, and
 * its counters start at zero. */
Test(errors, reused_range_names_the_new_allocation)
{
    uintptr_t lo, hi;
    fill_and_churn(70000, &lo, &hi);
    float in[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    float *d_in = dev_buf("fresh_in", sizeof in, in), *d_out = dev_buf("fresh_out", sizeof in, NULL);
    cr_assert((uintptr_t)d_in >= lo && (uintptr_t)d_in <= hi, "case setup: 'fresh_in' is not in a reused range");
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(d_in, &ai));
    cr_assert(!strcmp(ai.name, "fresh_in") && !ai.freed && ai.bytes == sizeof in && ai.read_bytes == 0,
              "case query: name %s freed %d bytes %zu read %llu", ai.name, ai.freed, ai.bytes,
              (unsigned long long)ai.read_bytes);
    simt_cfg cfg = cfg1(2, 64, 0);
    SIM_CHECK(read_at_launch_sim(&cfg, d_out, d_in, 0, -1, -1));
    SIM_CHECK(sim_alloc_query(d_in, &ai));
    cr_assert_eq(ai.read_bytes, sizeof in, "case counters: 'fresh_in' read %llu bytes, want %zu",
                 (unsigned long long)ai.read_bytes, sizeof in);
    int st = read_at_launch_sim(&cfg, d_out, d_in, N + 3, 0, 63);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "read past the end of a reused range");
    ASSERT_ERROR_HAS("12 bytes past the end of allocation 'fresh_in' (512 bytes; offset 524)",
                     "read past the end of a reused range");
    st = write_at_launch_sim(&cfg, d_out, -1, 1, 0);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "write before the start of a reused range");
    ASSERT_ERROR_HAS("4 bytes before the start of allocation 'fresh_out'", "write before a reused range");
    SIM_CHECK(sim_free(d_in));
    st = read_at_launch_sim(&cfg, d_out, d_in, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "read after free of a reused range");
    ASSERT_ERROR_HAS("inside allocation 'fresh_in' (512 bytes; offset 0), which was freed",
                     "read after free of a reused range");
    assert_still_works("reused range");
}

Test(errors, host_pointer)
{
    float *host = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        host[i] = 1;
    float *d_out = dev_buf("out", N * sizeof(float), NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    int st = read_at_launch_sim(&cfg, d_out, host, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "read of a malloc'd host pointer");
    ASSERT_ERROR_HAS("invalid read of 4 bytes", "host pointer (kind)");
    assert_address((uintptr_t)host, "host pointer");
    ASSERT_ERROR_HAS("host pointer", "host pointer (diagnosis)");
    assert_where("read_at", "SITE:read_at", 0, 0, "host pointer");
    assert_still_works("host pointer read");
    st = write_at_launch_sim(&cfg, host, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "write to a malloc'd host pointer");
    ASSERT_ERROR_HAS("invalid write of 4 bytes", "host pointer write");
    cr_assert_eq(host[0], 1.0f, "case host pointer write: the write happened (host[0] = %g)", host[0]);
    assert_still_works("host pointer write");
    free(host);
}

/* A NULL pointer (an allocation never made, or never checked) is named as such. */
Test(errors, null_pointer)
{
    float *d_out = dev_buf("out", N * sizeof(float), NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    int st = read_at_launch_sim(&cfg, d_out, NULL, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "read through NULL");
    ASSERT_ERROR_HAS("invalid read of 4 bytes at address 0x0", "NULL read (kind)");
    ASSERT_ERROR_HAS("a NULL pointer", "NULL read (diagnosis)");
    assert_still_works("NULL read");
    st = write_at_launch_sim(&cfg, NULL, 0, -1, -1);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "write through NULL");
    ASSERT_ERROR_HAS("invalid write of 4 bytes at address 0x", "NULL write (kind)");
    ASSERT_ERROR_HAS("a NULL pointer", "NULL write (diagnosis)");
    assert_still_works("NULL write");
}

/* Thread 1 writes a local variable of thread 0 (whose address it got through
 * shared memory): each thread's stack is its own. */
Test(errors, other_threads_stack)
{
    int *d_out = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    int st = scribble_stack_launch_sim(&cfg, d_out);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, "write to another thread's stack");
    ASSERT_ERROR_HAS("invalid write of 4 bytes", "another thread's stack");
    ASSERT_ERROR_HAS("another thread's local variable", "another thread's stack (diagnosis)");
    assert_where("scribble_stack", "SITE:scribble", 0, 1, "another thread's stack");
    assert_still_works("another thread's stack");
}

/* ---- dynamic shared memory out of bounds ------------------------------------------------ */
typedef struct dyn_case {
    size_t shared;
    int idx;
    char where[128];
} dyn_case;

static dyn_case dyn_cases[] = {
    {256, 64, "at dynamic shared offset 256: the launch has 256 bytes of dynamic shared memory (past its end)"},
    {256, 100, "at dynamic shared offset 400: the launch has 256 bytes of dynamic shared memory (past its end)"},
    {256, -1, "at dynamic shared offset -4: the launch has 256 bytes of dynamic shared memory (before its start)"},
    {0, 0, "at dynamic shared offset 0: the launch has 0 bytes of dynamic shared memory (past its end)"},
    {48 << 10, 12288, "offset 49152: the launch has 49152 bytes"},
};

ParameterizedTestParameters(errors, dynamic_shared_out_of_bounds)
{
    return cr_make_param_array(dyn_case, dyn_cases, sizeof dyn_cases / sizeof dyn_cases[0]);
}

ParameterizedTest(dyn_case *c, errors, dynamic_shared_out_of_bounds)
{
    int *d_out = dev_buf("out", 4 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(3, 32, c->shared);
    int st = dyn_shared_at_launch_sim(&cfg, d_out, c->idx);
    char what[64];
    snprintf(what, sizeof what, "shared %zu bytes, index %d", c->shared, c->idx);
    assert_status(st, SIM_ERR_ILLEGAL_ADDRESS, what);
    ASSERT_ERROR_HAS("invalid shared write of 4 bytes", "%s", what);
    ASSERT_ERROR_HAS(c->where, "%s", what);
    assert_where("dyn_shared_at", "SITE:dyn_shared", 0, 0, what);
    /* in bounds, the same kernel works */
    if (c->shared >= 4) {
        SIM_CHECK(dyn_shared_at_launch_sim(&cfg, d_out, (int)(c->shared / 4) - 1));
        int v[3];
        to_host(v, d_out, sizeof v);
        cr_assert(v[0] == 5 && v[2] == 5, "case %s: in-bounds run read back %d %d", what, v[0], v[2]);
    }
    assert_still_works(what);
}

/* ---- misaligned ------------------------------------------------------------------------------ */
Test(errors, misaligned)
{
    char *d_buf = dev_buf("buf", 64, NULL);
    float *d_out = dev_buf("out", 4, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = misaligned_at_launch_sim(&cfg, d_buf, 2);
    assert_status(st, SIM_ERR_MISALIGNED_ADDRESS, "global int write at offset 2");
    ASSERT_ERROR_HAS("misaligned global write of 4 bytes", "global write at offset 2");
    assert_address((uintptr_t)(d_buf + 2), "global write at offset 2");
    ASSERT_ERROR_HAS("(allocation 'buf' offset 2)", "global write at offset 2");
    assert_where("misaligned_at", "SITE:misaligned", 0, 0, "global write at offset 2");
    assert_still_works("misaligned write");

    st = misaligned_read_at_launch_sim(&cfg, d_out, d_buf, 5);
    assert_status(st, SIM_ERR_MISALIGNED_ADDRESS, "global float read at offset 5");
    ASSERT_ERROR_HAS("misaligned global read of 4 bytes", "global read at offset 5");
    ASSERT_ERROR_HAS("(allocation 'buf' offset 5)", "global read at offset 5");
    assert_still_works("misaligned read");

    /* aligned offsets are fine */
    SIM_CHECK(misaligned_at_launch_sim(&cfg, d_buf, 8));

    simt_cfg sh = cfg1(1, 32, 64);
    st = misaligned_shared_at_launch_sim(&sh, 6);
    assert_status(st, SIM_ERR_MISALIGNED_ADDRESS, "shared int write at offset 6");
    ASSERT_ERROR_HAS("misaligned shared write of 4 bytes", "shared write at offset 6");
    assert_where("misaligned_shared_at", NULL, 0, 0, "shared write at offset 6");
    SIM_CHECK(misaligned_shared_at_launch_sim(&sh, 12));
    assert_still_works("misaligned shared write");
}

/* Regression (review, 2026-12-02): a misaligned 16-byte store to a local
 * array crashed the simulator (the CPU's movaps faulted) instead of failing
 * the launch; local and constant accesses had no alignment test. */
Test(errors, misaligned_local_float4_is_reported)
{
    float *d_out = dev_buf("out", 4, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = misaligned_local4_launch_sim(&cfg, d_out, 1);
    assert_status(st, SIM_ERR_MISALIGNED_ADDRESS, "float4 store at local float offset 1");
    ASSERT_ERROR_HAS("misaligned local write of 16 bytes", "float4 store at local float offset 1");
    assert_still_works("misaligned local float4");
    SIM_CHECK(misaligned_local4_launch_sim(&cfg, d_out, 4));
    float v;
    to_host(&v, d_out, 4);
    cr_assert_eq(v, 4.0f, "case aligned local float4 (offset 4): read back %g", v);
}

/* ---- stack overflow --------------------------------------------------------------------------- */
Test(errors, stack_overflow_big_local)
{
    unsetenv("SIMTLAB_STACK_KB"); /* the default: 64 KiB per thread */
    float *d_out = dev_buf("out", 64 * sizeof(float), NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    int st = big_local_launch_sim(&cfg, d_out, 16);
    assert_status(st, SIM_ERR_STACK_OVERFLOW, "80 KiB local array, 64 KiB stack");
    ASSERT_ERROR_HAS("cudaErrorLaunchFailure (stack overflow)", "80 KiB local array");
    ASSERT_ERROR_HAS("more than its 64 KiB of stack", "80 KiB local array (limit named)");
    ASSERT_ERROR_HAS("SIMTLAB_STACK_KB", "80 KiB local array (what to do)");
    assert_where("big_local", NULL, 0, 0, "80 KiB local array");
    assert_still_works("stack overflow (local array)");
    /* and again: the guard page of a reused stack still works */
    st = big_local_launch_sim(&cfg, d_out, 16);
    assert_status(st, SIM_ERR_STACK_OVERFLOW, "80 KiB local array, second time");
    assert_still_works("second stack overflow");
}

Test(errors, stack_overflow_recursion)
{
    unsetenv("SIMTLAB_STACK_KB");
    int out[32];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    SIM_CHECK(deep_recursion_launch_sim(&cfg, d_out, 100));
    to_host(out, d_out, sizeof out);
    cr_assert_eq(out[31], 5050, "case recursion depth 100: %d", out[31]);
    int st = deep_recursion_launch_sim(&cfg, d_out, 1000000);
    assert_status(st, SIM_ERR_STACK_OVERFLOW, "recursion depth 10^6");
    ASSERT_ERROR_HAS("more than its 64 KiB of stack", "recursion depth 10^6");
    ASSERT_ERROR_HAS("block (0,0,0), thread (0,0,0)", "recursion depth 10^6 (first thread)");
    assert_still_works("stack overflow (recursion)");
}

/* SIMTLAB_STACK_KB sets the stack of every CUDA thread (read at each launch). */
Test(errors, stack_size_from_environment)
{
    setenv("SIMTLAB_STACK_KB", "256", 1);
    float out[64];
    float *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    SIM_CHECK(big_local_launch_sim(&cfg, d_out, 16));
    to_host(out, d_out, sizeof out);
    cr_assert_eq(out[5], 15.0f, "case 80 KiB local array, 256 KiB stack: out %g", out[5]);
    int st = deep_recursion_launch_sim(&cfg, (int *)d_out, 1000000);
    assert_status(st, SIM_ERR_STACK_OVERFLOW, "recursion depth 10^6, 256 KiB stack");
    ASSERT_ERROR_HAS("more than its 256 KiB of stack", "recursion, 256 KiB stack");
}

/* sim_set_stack_limit (cudaDeviceSetLimit(cudaLimitStackSize)) gives the next launch's threads
 * that much stack, in the same process whose first launch had 64 KiB: the 80 KiB local array
 * overflows, then fits; the limit back at 0 is 64 KiB again; more than 64 MiB is refused. */
Test(errors, stack_size_from_the_limit_between_launches)
{
    unsetenv("SIMTLAB_STACK_KB");
    float out[64];
    float *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    assert_status(big_local_launch_sim(&cfg, d_out, 16), SIM_ERR_STACK_OVERFLOW, "80 KiB local array, 64 KiB stack");
    cr_assert_eq(sim_set_stack_limit(256 << 10), 0);
    SIM_CHECK(big_local_launch_sim(&cfg, d_out, 16));
    to_host(out, d_out, sizeof out);
    cr_assert_eq(out[5], 15.0f, "80 KiB local array, 256 KiB limit: out %g", out[5]);
    cr_assert_eq(sim_set_stack_limit(0), 0);
    assert_status(big_local_launch_sim(&cfg, d_out, 16), SIM_ERR_STACK_OVERFLOW, "limit back at 0: 64 KiB");
    ASSERT_ERROR_HAS("more than its 64 KiB of stack", "limit back at 0");
    cr_assert_eq(sim_set_stack_limit(SIM_STACK_MAX + 1), SIM_ERR_INVALID_VALUE);
    ASSERT_ERROR_HAS("more than the simulator's 67108864 (64 MiB)", "past the maximum");
}

/* ---- shared-memory races (detailed mode) -------------------------------------------------------- */
typedef struct race_case {
    int shift;
    int thread;      /* the thread whose access completes the hazard */
    char hazard[48]; /* and how the report describes it */
} race_case;

/* shared_rotate: s[t] = t; [barrier;] read s[(t + shift) % n], n = 64: a write, then a read,
 * with no barrier between them (read-after-write in the program's order, whichever thread ran
 * first). Threads run in order: with shift 1 or 32, thread `shift` writes the word thread 0 has
 * already read (thread 0 went on past its write to its read, and the report says so); with
 * shift 63 thread 1 reads the word thread 0 wrote. */
static race_case race_cases[] = {
    {1, 1, "(read-after-write hazard)"},
    {32, 32, "(read-after-write hazard)"},
    {63, 1, "(read-after-write hazard)"},
};

ParameterizedTestParameters(errors, shared_race)
{
    return cr_make_param_array(race_case, race_cases, sizeof race_cases / sizeof race_cases[0]);
}

ParameterizedTest(race_case *c, errors, shared_race)
{
    int out[2 * 64];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    char what[48];
    snprintf(what, sizeof what, "rotate by %d without a barrier", c->shift);
    sim_set_detailed(1);
    int st = shared_rotate_launch_sim(&cfg, d_out, c->shift, 0);
    assert_status(st, SIM_ERR_SHARED_RACE, what);
    ASSERT_ERROR_HAS(c->hazard, "%s", what);
    if (c->shift == 63) { /* in the order they ran: thread 0's write, thread 1's read */
        ASSERT_ERROR_HAS("a read of this thread and an access by thread 0, a lane of its warp, with no "
                         "__syncthreads() or __syncwarp() between them",
                         "%s", what);
        ASSERT_ERROR_HAS("put __syncwarp() between the write and the read", "%s", what);
    } else { /* thread 0's read ran first, but comes after its write in the program */
        ASSERT_ERROR_HAS(c->thread < 32 ? "a write of this thread and a read by thread 0, a lane of its warp, that "
                                          "comes after it in the program: that thread went on past this write to "
                                          "its read with no barrier between them"
                                        : "a write of this thread and a read by thread 0 that comes after it in the "
                                          "program",
                         "%s", what);
        ASSERT_ERROR_HAS("Put __syncthreads() between this write and that read", "%s", what);
        if (c->thread >= 32)
            cr_assert(!strstr(sim_last_error(), "a lane of its warp"), "%s: %s", what, sim_last_error());
    }
    assert_where("shared_rotate", c->shift == 63 ? "SITE:race_read" : "SITE:race_write", 0, c->thread, what);
    /* with the barrier: no race, right result */
    SIM_CHECK(shared_rotate_launch_sim(&cfg, d_out, c->shift, 1));
    to_host(out, d_out, sizeof out);
    for (int i = 0; i < 128; i++)
        cr_assert_eq(out[i], (i % 64 + c->shift) % 64, "case rotate by %d with a barrier: out[%d] = %d", c->shift, i,
                     out[i]);
    /* counting mode does not fail the launch, but its sample of the first and last blocks sees
     * the race: a note (sim_launch_info.race_note), and none with the barrier */
    sim_set_detailed(0);
    SIM_CHECK(shared_rotate_launch_sim(&cfg, d_out, c->shift, 0));
    const char *note = sim_last_launch()->race_note;
    cr_assert(strstr(note, c->hazard) && strstr(note, "in kernel shared_rotate") &&
                  strstr(note, "seen in counting mode's sample") && strstr(note, "--detail"),
              "%s in counting mode: the note is \"%s\"", what, note);
    SIM_CHECK(shared_rotate_launch_sim(&cfg, d_out, c->shift, 1));
    cr_assert_eq(sim_last_launch()->race_note[0], 0, "%s with a barrier, counting mode: \"%s\"", what,
                 sim_last_launch()->race_note);
    sim_set_sample(0); /* no sample, no note */
    SIM_CHECK(shared_rotate_launch_sim(&cfg, d_out, c->shift, 0));
    sim_set_sample(1);
    cr_assert_eq(sim_last_launch()->race_note[0], 0, "%s without the sample: \"%s\"", what,
                 sim_last_launch()->race_note);
    assert_still_works(what);
}

/* Stores of the value a word already holds are no hazard (racecheck on the H100 is silent with
 * --racecheck-report all: docs/gpu/h100-partial-warp/survey7_confirm.txt); another value is a
 * write-after-write race, found at the next shared access or at the block's end. */
Test(errors, same_value_writes_do_not_race)
{
    int out[2];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 64, 0);
    sim_set_detailed(1);
    int st = shared_flag_launch_sim(&cfg, d_out, 0);
    cr_assert_eq(st, SIM_OK, "every thread storing 1: %s", sim_last_error());
    to_host(out, d_out, sizeof out);
    cr_assert(out[0] == 5 && out[1] == 5, "same values: out %d %d, expected 5 5", out[0], out[1]);
    static const struct {
        int mode, thread;
        const char *other;
    } races[] = {{1, 1, "thread 0"},
                 /* threads 0-62, in two warps, all stored 1 before: the word has several writers */
                 {2, 63, "several other threads"},
                 /* threads 0-4 stored the same float4 before, lanes of one warp: the last is the writer */
                 {3, 5, "thread 4"}};
    for (unsigned i = 0; i < sizeof races / sizeof races[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "shared_flag mode %d", races[i].mode);
        assert_status(shared_flag_launch_sim(&cfg, d_out, races[i].mode), SIM_ERR_SHARED_RACE, what);
        ASSERT_ERROR_HAS("(write-after-write hazard)", "%s", what);
        char who[64];
        snprintf(who, sizeof who, "a write of this thread and an access by %s", races[i].other);
        ASSERT_ERROR_HAS(who, "%s", what);
        if (races[i].mode != 3) /* the float4's store is the line before */
            assert_where("shared_flag", "SITE:flag_write", 0, races[i].thread, what);
    }
    /* counting mode's sample: a note for another value, none for the same */
    sim_set_detailed(0);
    SIM_CHECK(shared_flag_launch_sim(&cfg, d_out, 0));
    cr_assert_eq(sim_last_launch()->race_note[0], 0, "same values, counting mode: \"%s\"",
                 sim_last_launch()->race_note);
    SIM_CHECK(shared_flag_launch_sim(&cfg, d_out, 1));
    cr_assert(strstr(sim_last_launch()->race_note, "(write-after-write hazard)"),
              "other values, counting mode: the note is \"%s\"", sim_last_launch()->race_note);
    assert_still_works("same-value writes");
}

/* Words read whole by several threads (a tile every thread reads: the shadow says "several"):
 * a write to one in that epoch is a race, and "several" does not outlive the epoch (a read after
 * another thread's write in the next one is a race too). Static and dynamic shared memory. Kept
 * from a read filter that skipped such words' shadows (session 27: slower, dropped), as a guard
 * for the next attempt. */
Test(errors, shared_reread_races)
{
    int out[2 * 96];
    int *d_out = dev_buf("out", sizeof out, NULL);
    sim_set_detailed(1);
    for (int dyn = 0; dyn < 2; dyn++) {
        simt_cfg cfg = cfg1(2, 96, dyn ? 64 * sizeof(int) : 0);
        char what[64];
        snprintf(what, sizeof what, "shared_reread, %s shared memory", dyn ? "dynamic" : "static");
        int st = shared_reread_launch_sim(&cfg, d_out, 0, dyn);
        cr_assert_eq(st, SIM_OK, "%s, mode 0 (barriers): %s", what, sim_last_error());
        to_host(out, d_out, sizeof out);
        const int a = 2 * 3 * (63 * 64 / 2); /* every thread's sum of the tile, twice */
        for (int i = 0; i < 2 * 96; i++)
            cr_assert_eq(out[i], 2 * a + 1, "%s, mode 0: out[%d] = %d, expected %d", what, i, out[i], 2 * a + 1);
        assert_status(shared_reread_launch_sim(&cfg, d_out, 1, dyn), SIM_ERR_SHARED_RACE, what);
        ASSERT_ERROR_HAS("(write-after-read hazard)", "%s, mode 1", what);
        ASSERT_ERROR_HAS("a write of this thread and an access by several other threads", "%s, mode 1", what);
        assert_where("shared_reread", "SITE:reread_war", 0, 7, what);
        assert_status(shared_reread_launch_sim(&cfg, d_out, 2, dyn), SIM_ERR_SHARED_RACE, what);
        ASSERT_ERROR_HAS("(read-after-write hazard)", "%s, mode 2", what);
        ASSERT_ERROR_HAS("a read of this thread and an access by thread 0", "%s, mode 2", what);
        assert_where("shared_reread", "SITE:reread_raw", 0, 1, what);
    }
    sim_set_detailed(0);
    assert_still_works("shared reread");
}

/* The deferred write hazard's corners (review): a struct copy's words, a same-value store that
 * must not hide the first writer from a later read, a yield between the check and the store. */
Test(errors, same_value_writes_corners)
{
    int out[2];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    sim_set_detailed(1);
    static const struct {
        int mode, thread;
        const char *site, *hazard;
    } races[] = {{0, 1, "SITE:copy_write", "(write-after-write hazard)"},
                 {2, 33, "SITE:flag_read", "(read-after-write hazard)"},
                 {3, 32, "SITE:flag_late", "(write-after-write hazard)"},
                 {5, 32, "SITE:copy_shared", "(write-after-write hazard)"}};
    for (unsigned i = 0; i < sizeof races / sizeof races[0]; i++) {
        char what[48];
        snprintf(what, sizeof what, "shared_flag_more mode %d", races[i].mode);
        assert_status(shared_flag_more_launch_sim(&cfg, d_out, races[i].mode), SIM_ERR_SHARED_RACE, what);
        ASSERT_ERROR_HAS(races[i].hazard, "%s", what);
        assert_where("shared_flag_more", races[i].site, 0, races[i].thread, what);
    }
    int st = shared_flag_more_launch_sim(&cfg, d_out, 1);
    cr_assert_eq(st, SIM_OK, "the same struct from every thread: %s", sim_last_error());
    to_host(out, d_out, sizeof out[0]);
    cr_assert_eq(out[0], 14, "the same struct: out %d", out[0]);
    st = shared_flag_more_launch_sim(&cfg, d_out, 4);
    cr_assert_eq(st, SIM_OK, "a warp's same-value stores, then __syncwarp and a read: %s", sim_last_error());
    st = shared_flag_more_launch_sim(&cfg, d_out, 6);
    cr_assert_eq(st, SIM_OK, "4096 stores a lane (the request table lets lanes run), then the same value: %s",
                 sim_last_error());
    sim_set_detailed(0);
    assert_still_works("same-value write corners");
}

/* Threads whose elements share a word (shorts, chars, __half): each byte keeps its reader, so a
 * reduction's `s[t] += s[t + h]` is no race (it was: one reader a word, survey 7's D6), and a
 * thread overwriting a byte another read still is. */
Test(errors, reads_of_parts_of_a_word)
{
    int out[2];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 256, 0);
    sim_set_detailed(1);
    for (int mode = 0; mode <= 2; mode += 2) {
        int st = shared_parts_launch_sim(&cfg, d_out, mode);
        cr_assert_eq(st, SIM_OK, "%s reduction: %s", mode ? "char" : "short", sim_last_error());
        to_host(out, d_out, sizeof out);
        int want = mode ? 0 : 256; /* 256 ones, in a char modulo 256 */
        cr_assert(out[0] == want && out[1] == want, "%s reduction: out %d %d, expected %d", mode ? "char" : "short",
                  out[0], out[1], want);
    }
    assert_status(shared_parts_launch_sim(&cfg, d_out, 1), SIM_ERR_SHARED_RACE, "a neighbour's char overwritten");
    ASSERT_ERROR_HAS("(write-after-read hazard)", "a neighbour's char overwritten");
    assert_where("shared_parts", "SITE:parts_write", 0, 1, "a neighbour's char overwritten");
    sim_set_detailed(0);
    assert_still_works("reads of parts of a word");
}

/* ---- regressions found in review --------------------------------------------------------- */
Test(errors, regression_huge_local_array_is_reported)
{
    unsetenv("SIMTLAB_STACK_KB");
    float *d_out = dev_buf("out", 32 * sizeof(float), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = huge_local_launch_sim(&cfg, d_out, 65536);
    assert_status(st, SIM_ERR_STACK_OVERFLOW, "256 KiB local array, 64 KiB stack");
    assert_still_works("stack overflow (256 KiB local array)");
}

Test(errors, regression_byte_writes_to_one_word_do_not_race)
{
    sim_set_detailed(1);
    int out[2];
    int *d_out = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 256, 0);
    int st = byte_flags_launch_sim(&cfg, d_out);
    sim_set_detailed(0);
    cr_assert_eq(st, SIM_OK, "case 256 threads writing their own byte of a shared char array: %s", sim_last_error());
    to_host(out, d_out, sizeof out);
    cr_assert_eq(out[0], 256, "case byte flags: block 0 counted %d flags", out[0]);
    cr_assert_eq(out[1], 256, "case byte flags: block 1 counted %d flags", out[1]);
}
