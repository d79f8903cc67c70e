/* tests/test_faults.c - kernel faults that would kill or hang the process
 * (sim/launch.c: on_fault, the watchdog, sim_spin_yield; sim/access.c: writes
 * to the program's static data and to __constant__ memory).
 *
 * Each must end in a report that names the kernel, the block, the thread and
 * the source line, a launch that returns an error, and a process that carries
 * on: a correct launch right after works. Cases: integer division by zero
 * (SIGFPE on the CPU), a store into read-only host data (a const table, a
 * string literal) and into a host static array, a memset (uninstrumented)
 * into read-only data (SIGSEGV), a write to a __constant__ variable, a thread
 * that never ends (SIMTLAB_TIMEOUT), with and without instrumented accesses
 * and with the block waiting at a barrier for it; threads that spin on a flag
 * another thread sets (they must complete, as on a GPU since Volta); bad
 * SIMTLAB_STACK_KB / SIMTLAB_TIMEOUT values; 2000 failing launches in a row.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "fault_kernels.h"
#include "test_util.h"

#define KFILE "fault_kernels.cu"

static void works_after(const char *what)
{
    int out[64];
    int *d = dev_buf("after", sizeof out, NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    int st = divide_at_launch_sim(&cfg, d, 12, 3, 0, 0);
    cr_assert_eq(st, SIM_OK, "case %s: a correct launch afterwards failed: %s", what, sim_last_error());
    to_host(out, d, sizeof out);
    cr_assert_eq(out[0], 4, "case %s: 12 / 3 = %d afterwards", what, out[0]);
    cr_assert_eq(out[63], 12, "case %s: 12 / 1 = %d afterwards", what, out[63]);
}

static void where(const char *kernel, const char *marker, int bx, int tx, const char *what)
{
    assert_report_where(KFILE, kernel, marker, bx, tx, what);
}

static void status_is(int st, sim_status want, const char *what)
{
    cr_assert_eq(st, want, "case %s: status %s, want %s; message: %s", what, sim_status_name((sim_status)st),
                 sim_status_name(want), sim_last_error());
    ASSERT_ERROR_HAS(sim_status_name(want), "%s (status name)", what);
}

/* ---- SIGFPE -------------------------------------------------------------------------------- */
Test(faults, integer_divide_by_zero)
{
    int *d = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    int st = divide_at_launch_sim(&cfg, d, 12, 0, 1, 17);
    status_is(st, SIM_ERR_INTEGER_DIVIDE, "12 / 0");
    ASSERT_ERROR_HAS("integer division by zero", "12 / 0");
    where("divide_at", "SITE:divide", 1, 17, "12 / 0");
    works_after("12 / 0");
    /* INT_MIN / -1 traps on x86-64 too */
    st = divide_at_launch_sim(&cfg, d, INT32_MIN, -1, 0, 3);
    status_is(st, SIM_ERR_INTEGER_DIVIDE, "INT_MIN / -1");
    where("divide_at", "SITE:divide", 0, 3, "INT_MIN / -1");
    works_after("INT_MIN / -1");
}

/* a process survives 2000 failing launches in a row (signals, stacks, reports) */
Test(faults, two_thousand_failing_launches)
{
    int *d = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    for (int k = 0; k < 2000; k++) {
        int st = divide_at_launch_sim(&cfg, d, 1, 0, k % 2, k % 32);
        cr_assert_eq(st, SIM_ERR_INTEGER_DIVIDE, "launch %d: %s", k, sim_last_error());
    }
    works_after("2000 failures");
}

/* ---- writes to the program's own data --------------------------------------------------------- */
static const int host_const_table[4] = {1, 2, 3, 4};
static int host_static_array[16];
int host_global_array[16] = {5};

Test(faults, store_to_host_const_table)
{
    int *d = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = store_through_launch_sim(&cfg, d, (int *)host_const_table, 9);
    status_is(st, SIM_ERR_ILLEGAL_ADDRESS, "store to a const table");
    ASSERT_ERROR_HAS("invalid write of 4 bytes", "store to a const table");
    ASSERT_ERROR_HAS("read-only data", "store to a const table");
    where("store_through", "SITE:store_through", 0, 9, "store to a const table");
    cr_assert_eq(host_const_table[0], 1);
    works_after("store to a const table");
}

Test(faults, store_to_string_literal)
{
    int *d = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    static const char *lit = "a string literal, long enough";
    int st = store_through_launch_sim(&cfg, d, (int *)(uintptr_t)(((uintptr_t)lit + 3) & ~(uintptr_t)3), 0);
    status_is(st, SIM_ERR_ILLEGAL_ADDRESS, "store to a string literal");
    ASSERT_ERROR_HAS("read-only data", "store to a string literal");
    works_after("store to a string literal");
}

Test(faults, store_to_host_static_and_global_arrays)
{
    int *d = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = store_through_launch_sim(&cfg, d, host_static_array + 3, 4);
    status_is(st, SIM_ERR_ILLEGAL_ADDRESS, "store to a host static array (.bss)");
    ASSERT_ERROR_HAS("host memory (static data", "store to a host static array");
    where("store_through", "SITE:store_through", 0, 4, "store to a host static array");
    cr_assert_eq(host_static_array[3], 0, "the store must not have happened");
    st = store_through_launch_sim(&cfg, d, host_global_array, 0);
    status_is(st, SIM_ERR_ILLEGAL_ADDRESS, "store to a host global array (.data)");
    cr_assert_eq(host_global_array[0], 5, "the store must not have happened");
    works_after("store to host static data");
}

/* memset inside a kernel is not instrumented: only the CPU's fault sees it */
Test(faults, uninstrumented_store_faults)
{
    int *d = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = memset_through_launch_sim(&cfg, d, (int *)host_const_table, 4, 2);
    status_is(st, SIM_ERR_ILLEGAL_ADDRESS, "memset into a const table");
    ASSERT_ERROR_HAS("the kernel faulted (SIGSEGV)", "memset into a const table");
    ASSERT_ERROR_HAS("in kernel memset_through", "memset into a const table (kernel)");
    ASSERT_ERROR_HAS("block (0,0,0), thread (2,0,0)", "memset into a const table (thread)");
    works_after("memset into a const table");
}

Test(faults, write_to_constant)
{
    int out[32];
    int *d = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = write_constant_launch_sim(&cfg, d, 5);
    status_is(st, SIM_ERR_ILLEGAL_ADDRESS, "write to __constant__");
    ASSERT_ERROR_HAS("to a __constant__ variable", "write to __constant__");
    where("write_constant", "SITE:write_constant", 0, 5, "write to __constant__");
    /* no thread writes: a launch that only reads the table works and reads it unchanged */
    SIM_CHECK(write_constant_launch_sim(&cfg, d, -1));
    to_host(out, d, sizeof out);
    cr_assert_eq(out[1], 2, "table[1] = %d after the refused write", out[1]);
    works_after("write to __constant__");
}

Test(faults, device_variable_is_writable)
{
    int out[4];
    int *d = dev_buf("out", sizeof out, NULL);
    simt_cfg cfg = cfg1(4, 64, 0);
    use_workers(1); /* blocks in order: block b sees 64 (b + 1) */
    SIM_CHECK(device_counter_launch_sim(&cfg, d));
    to_host(out, d, sizeof out);
    for (int b = 0; b < 4; b++)
        cr_assert_eq(out[b], 64 * (b + 1), "block %d read counter %d", b, out[b]);
}

/* ---- the watchdog --------------------------------------------------------------------------- */
Test(faults, thread_that_never_ends, .timeout = 60)
{
    setenv("SIMTLAB_TIMEOUT", "1", 1);
    int *d = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    int st = spin_forever_launch_sim(&cfg, d, 1, 6, 0);
    status_is(st, SIM_ERR_LAUNCH_TIMEOUT, "for (;;) in one thread");
    ASSERT_ERROR_HAS("longer than SIMTLAB_TIMEOUT=1 s", "for (;;)");
    /* how far the grid got: a long kernel and a hang look different (here a hang: 1 block ran
     * to its end on a worker, or none: the count depends on the workers) */
    ASSERT_ERROR_HAS(" of the grid's 2 blocks had finished", "for (;;) progress");
    char site[64], buf[128];
    snprintf(buf, sizeof buf, "thread (6,0,0) still running, last seen at %s",
             kernel_site(site, sizeof site, KFILE, "SITE:forever"));
    ASSERT_ERROR_HAS(buf, "for (;;) (where)");
    ASSERT_ERROR_HAS("block (1,0,0), thread (6,0,0)", "for (;;) (block and thread)");
    works_after("for (;;)");
    /* the others wait at a barrier for it: the report says so */
    st = spin_forever_launch_sim(&cfg, d, 0, 31, 1);
    status_is(st, SIM_ERR_LAUNCH_TIMEOUT, "for (;;) before a barrier");
    ASSERT_ERROR_HAS("31 waiting at a barrier (__syncthreads: 0-30)", "for (;;) before a barrier");
    works_after("for (;;) before a barrier");
    unsetenv("SIMTLAB_TIMEOUT");
}

/* Threads 5-31 loop after a barrier, threads 0-4 end: the report names first the thread the
 * watchdog stopped (the one its location line names), in its loop, and the others, which the
 * barrier released and which never ran again, at that barrier (they were "last seen at an
 * unknown line": session 22). */
Test(faults, threads_released_by_a_barrier_say_where, .timeout = 60)
{
    setenv("SIMTLAB_TIMEOUT", "1", 1);
    int *d = dev_buf("out", 32 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    int st = spin_after_barrier_launch_sim(&cfg, d, 5);
    status_is(st, SIM_ERR_LAUNCH_TIMEOUT, "loops after a barrier");
    const char *e = sim_last_error();
    const char *loc = strstr(e, "block (0,0,0), thread (");
    cr_assert(loc, "loops after a barrier: no location line:\n%s", e);
    unsigned stopped = (unsigned)atoi(loc + strlen("block (0,0,0), thread ("));
    cr_assert(stopped >= 5, "loops after a barrier: thread %u was stopped, which ended:\n%s", stopped, e);
    const char *first = strstr(e, "In this block: ");
    cr_assert(first, "loops after a barrier: no thread named:\n%s", e);
    first += strlen("In this block: ");
    char head[64];
    snprintf(head, sizeof head, "thread (%u,0,0) still running, last seen at ", stopped);
    cr_assert(!strncmp(first, head, strlen(head)), "loops after a barrier: thread %u should be named first:\n%s",
              stopped, e);
    char where[64];
    snprintf(where, sizeof where, "%s", first + strlen(head));
    for (char *cut = where; *cut; cut++) /* up to "; " or ". " */
        if ((cut[0] == ';' || cut[0] == '.') && (cut[1] == ' ' || !cut[1])) {
            *cut = 0;
            break;
        }
    int found = 0;
    /* any line of the loop: where the watchdog's stop lands depends on the machine's timing (the
     * loop's test was seen in about one run in eight) */
    const char *sites[] = {"SITE:spin_after", "SITE:spin_after_body", "SITE:spin_after_test"};
    for (int k = 0; k < 3; k++) {
        char site[64];
        kernel_site(site, sizeof site, KFILE, sites[k]);
        found |= !strcmp(where, site);
    }
    cr_assert(found, "loops after a barrier: thread %u was seen at %s, not in its loop:\n%s", stopped, where, e);
    char bar[64], buf[160];
    kernel_site(bar, sizeof bar, KFILE, "SITE:spin_barrier");
    snprintf(buf, sizeof buf, "ready to run, last seen leaving the barrier or warp intrinsic at %s", bar);
    ASSERT_ERROR_HAS(buf, "loops after a barrier (the others)");
    cr_assert(!strstr(e, "unknown line"), "loops after a barrier: %s", e);
    works_after("loops after a barrier");
    unsetenv("SIMTLAB_TIMEOUT");
}

/* Thread 0 loops after a barrier and a shuffle; the other lanes of both warps were released by
 * their shuffle and queued as runs (sim/launch.c next_context): the report calls them ready,
 * last seen at the shuffle, not waiting for their warp's other lanes (a queued run's lanes keep
 * their waiting state until they resume; timeout_report marks them). */
Test(faults, lanes_released_by_a_shuffle_are_ready, .timeout = 60)
{
    setenv("SIMTLAB_TIMEOUT", "1", 1);
    int *d = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(1, 64, 0);
    int st = spin_after_shuffle_launch_sim(&cfg, d);
    status_is(st, SIM_ERR_LAUNCH_TIMEOUT, "loops after a shuffle");
    const char *e = sim_last_error();
    ASSERT_ERROR_HAS("block (0,0,0), thread (0,0,0)", "loops after a shuffle (the stopped thread)");
    char shfl[64], buf[160];
    snprintf(buf, sizeof buf, "thread (0,0,0) still running, last seen at %s",
             kernel_site(shfl, sizeof shfl, KFILE, "SITE:spin_shuffle_loop"));
    ASSERT_ERROR_HAS(buf, "loops after a shuffle (where)");
    kernel_site(shfl, sizeof shfl, KFILE, "SITE:spin_shuffle");
    snprintf(buf, sizeof buf, "thread (1,0,0) ready to run, last seen leaving the barrier or warp intrinsic at %s",
             shfl);
    ASSERT_ERROR_HAS(buf, "loops after a shuffle (a lane of warp 0)");
    ASSERT_ERROR_HAS("; 58 more running or ready to run", "loops after a shuffle (lanes 1-30 and 32-62)");
    cr_assert(!strstr(e, "waiting for the other lanes"), "loops after a shuffle: lanes called waiting:\n%s", e);
    cr_assert(!strstr(e, "waiting at a barrier"), "loops after a shuffle: threads called waiting:\n%s", e);
    works_after("loops after a shuffle");
    unsetenv("SIMTLAB_TIMEOUT");
}

Test(faults, endless_loop_of_accesses, .timeout = 60)
{
    setenv("SIMTLAB_TIMEOUT", "1", 1);
    float *in = dev_buf("in", 32 * sizeof(float), NULL), *out = dev_buf("o", 32 * sizeof(float), NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    for (int detailed = 0; detailed < 2; detailed++) {
        sim_set_detailed(detailed);
        int st = loop_forever_loads_launch_sim(&cfg, out, in, 3);
        status_is(st, SIM_ERR_LAUNCH_TIMEOUT, detailed ? "endless loads (detailed)" : "endless loads");
        /* the watchdog stops the thread where its signal lands: the loop's body (the marked
         * line) or its header, the line above */
        char site[64], above[64];
        kernel_site(site, sizeof site, KFILE, "SITE:forever_loads");
        char *colon = strrchr(site, ':');
        snprintf(above, sizeof above, "%.*s:%d", (int)(colon - site), site, atoi(colon + 1) - 1);
        cr_assert(strstr(sim_last_error(), site) || strstr(sim_last_error(), above),
                  "endless loads (where): the error should name %s or %s; it is:\n%s", site, above, sim_last_error());
        ASSERT_ERROR_HAS("thread (3,0,0) still running", "endless loads (who)");
        works_after("endless loads");
    }
    sim_set_detailed(0);
    unsetenv("SIMTLAB_TIMEOUT");
}

/* ---- spinning on a flag ------------------------------------------------------------------------ */
Test(faults, spin_on_shared_flag_completes, .timeout = 60)
{
    int out[3];
    int *d = dev_buf("out", sizeof out, NULL);
    unsigned threads[3] = {32, 64, 256};
    for (int k = 0; k < 3; k++) {
        simt_cfg cfg = cfg1(1, threads[k], 0);
        for (int detailed = 0; detailed < 2; detailed++) {
            sim_set_detailed(detailed);
            SIM_CHECK(wait_for_last_launch_sim(&cfg, d + k));
        }
    }
    sim_set_detailed(0);
    to_host(out, d, sizeof out);
    for (int k = 0; k < 3; k++)
        cr_assert_eq(out[k], (int)(threads[k] * (threads[k] - 1) / 2), "%u threads: sum %d", threads[k], out[k]);
}

Test(faults, spin_on_global_flag_and_lock_complete, .timeout = 60)
{
    int *d = dev_buf("out", 4 * sizeof(int), NULL), *flag = dev_buf("flag", 4, NULL);
    simt_cfg cfg = cfg1(1, 32, 0);
    SIM_CHECK(wait_for_global_flag_launch_sim(&cfg, d, flag, 1));
    int polled;
    to_host(&polled, d, 4);
    cr_assert_eq(polled, 1, "thread 0 must have polled before thread 31 set the flag");
    /* two pollers: they yield to each other, and thread 31, not started yet, must get its turn */
    int zero = 0;
    SIM_CHECK(sim_memcpy(flag, &zero, 4, SIM_COPY_H2D));
    setenv("SIMTLAB_TIMEOUT", "20", 1);
    SIM_CHECK(wait_for_global_flag_launch_sim(&cfg, d, flag, 2));
    unsetenv("SIMTLAB_TIMEOUT");
    int *lock = dev_buf("lock", 4, NULL), *sum = dev_buf("sum", 4, NULL);
    cfg = cfg1(1, 128, 0);
    SIM_CHECK(spin_lock_sum_launch_sim(&cfg, sum, lock));
    int s;
    to_host(&s, sum, 4);
    cr_assert_eq(s, 127 * 128 / 2, "sum under the lock: %d", s);
}

/* ---- settings from the environment -------------------------------------------------------------- */
Test(faults, bad_environment_values_are_errors)
{
    int *d = dev_buf("out", 64 * sizeof(int), NULL);
    simt_cfg cfg = cfg1(2, 32, 0);
    const char *bad_stack[] = {"1000000", "4", "abc", "-8", " 64", "64k"};
    for (size_t i = 0; i < sizeof bad_stack / sizeof *bad_stack; i++) {
        setenv("SIMTLAB_STACK_KB", bad_stack[i], 1);
        int st = divide_at_launch_sim(&cfg, d, 1, 1, 0, 0);
        cr_assert_eq(st, SIM_ERR_INVALID_VALUE, "SIMTLAB_STACK_KB=%s: %s", bad_stack[i], sim_last_error());
        ASSERT_ERROR_HAS("SIMTLAB_STACK_KB=", "SIMTLAB_STACK_KB=%s", bad_stack[i]);
        ASSERT_ERROR_HAS("from 8 to 65536", "SIMTLAB_STACK_KB=%s (range)", bad_stack[i]);
    }
    unsetenv("SIMTLAB_STACK_KB");
    const char *bad_timeout[] = {"-1", "ten", "1e3", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad_timeout / sizeof *bad_timeout; i++) {
        setenv("SIMTLAB_TIMEOUT", bad_timeout[i], 1);
        int st = divide_at_launch_sim(&cfg, d, 1, 1, 0, 0);
        cr_assert_eq(st, SIM_ERR_INVALID_VALUE, "SIMTLAB_TIMEOUT=%s: %s", bad_timeout[i], sim_last_error());
        ASSERT_ERROR_HAS("SIMTLAB_TIMEOUT=", "SIMTLAB_TIMEOUT=%s", bad_timeout[i]);
    }
    setenv("SIMTLAB_TIMEOUT", "0", 1); /* off */
    works_after("SIMTLAB_TIMEOUT=0");
    unsetenv("SIMTLAB_TIMEOUT");
    works_after("bad environment values");
}
