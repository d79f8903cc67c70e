/* tests/test_memory.c - the device-memory API (sim/memory.c).
 *
 * Covers: sim_malloc / sim_free / sim_memcpy / sim_memset round trips, names
 * (given, default, truncated), 64 KiB alignment, sim_bytes_in_use,
 * sim_alloc_query on base, interior and out-of-range pointers, addresses not
 * reused while fresh ones remain, freed ids and ranges reused (oldest first) once
 * they run out, so loops of malloc + free run on; every misuse (size 0, NULL, double free, freeing a host or interior
 * pointer, copies and memsets out of range, into freed memory or with the
 * wrong direction, an allocation larger than the arena) returns its status
 * with a message naming the values, and the process carries on.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdint.h>

#include "test_util.h"

#define GRANULE ((uintptr_t)64 << 10)

static void expect_status(int st, sim_status want, const char *what)
{
    cr_assert_eq(st, want, "case %s: status %s, want %s (%s)", what, sim_status_name((sim_status)st),
                 sim_status_name(want), sim_last_error());
    if (want != SIM_OK) {
        ASSERT_ERROR_HAS(sim_status_name(want), "%s (status name)", what);
        cr_assert_eq(sim_get_last_status(), want, "case %s: sim_get_last_status", what);
    }
}

Test(memory, round_trip)
{
    const size_t n = 10000;
    float *h = malloc(n * sizeof(float)), *back = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        h[i] = (float)i * 0.5f;
    size_t before = sim_bytes_in_use();
    float *d_a, *d_b;
    SIM_CHECK(sim_malloc((void **)&d_a, n * sizeof(float), "a"));
    SIM_CHECK(sim_malloc((void **)&d_b, n * sizeof(float), "b"));
    cr_assert_eq(sim_bytes_in_use(), before + 2 * n * sizeof(float), "case two allocations: bytes in use %zu",
                 sim_bytes_in_use());
    cr_assert_eq((uintptr_t)d_a % GRANULE, 0, "case alignment: %p is not 64 KiB aligned", (void *)d_a);
    cr_assert_eq((uintptr_t)d_b % GRANULE, 0, "case alignment: %p is not 64 KiB aligned", (void *)d_b);
    cr_assert((uintptr_t)d_b >= (uintptr_t)d_a + n * sizeof(float) + GRANULE,
              "case red zone: b (%p) must start at least one 64 KiB granule after a ends", (void *)d_b);
    SIM_CHECK(sim_memcpy(d_a, h, n * sizeof(float), SIM_COPY_H2D));
    SIM_CHECK(sim_memcpy(d_b, d_a, n * sizeof(float), SIM_COPY_D2D));
    SIM_CHECK(sim_memcpy(back, d_b, n * sizeof(float), SIM_COPY_D2H));
    cr_assert(!memcmp(h, back, n * sizeof(float)), "case H2D, D2D, D2H round trip: data differs");
    /* memset writes bytes; part of a buffer */
    SIM_CHECK(sim_memset(d_b + 10, 0x3f, 8 * sizeof(float)));
    SIM_CHECK(sim_memcpy(back, d_b, n * sizeof(float), SIM_COPY_D2H));
    uint32_t w;
    memcpy(&w, &back[12], 4);
    cr_assert_eq(w, 0x3f3f3f3fu, "case memset 0x3f: word 0x%08x", w);
    cr_assert_eq(back[9], h[9], "case memset: the word before was touched");
    cr_assert_eq(back[18], h[18], "case memset: the word after was touched");
    /* zero-byte copies and sets are no-ops */
    SIM_CHECK(sim_memcpy(d_a, h, 0, SIM_COPY_H2D));
    SIM_CHECK(sim_memset(d_a, 0, 0));
    /* overlapping device-to-device copy (memmove semantics) */
    SIM_CHECK(sim_memcpy(d_b + 1, d_b, 100 * sizeof(float), SIM_COPY_D2D));
    SIM_CHECK(sim_memcpy(back, d_b, 101 * sizeof(float), SIM_COPY_D2H));
    cr_assert(back[1] == h[0] && back[100] == h[99], "case overlapping D2D: %g %g", back[1], back[100]);
    SIM_CHECK(sim_free(d_a));
    SIM_CHECK(sim_free(d_b));
    cr_assert_eq(sim_bytes_in_use(), before, "case after free: bytes in use %zu, want %zu", sim_bytes_in_use(), before);
    SIM_CHECK(sim_free(NULL));
    free(h);
    free(back);
}

Test(memory, names)
{
    void *a, *b, *c, *d;
    SIM_CHECK(sim_malloc(&a, 100, "d_x"));
    SIM_CHECK(sim_malloc(&b, 100, NULL));
    SIM_CHECK(sim_malloc(&c, 100, ""));
    char longname[100];
    memset(longname, 'q', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    SIM_CHECK(sim_malloc(&d, 100, longname));
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(a, &ai));
    cr_assert_str_eq(ai.name, "d_x", "case named: '%s'", ai.name);
    cr_assert(ai.base == a && ai.bytes == 100 && !ai.freed, "case named: base/bytes/freed");
    SIM_CHECK(sim_alloc_query(b, &ai));
    cr_assert(!strncmp(ai.name, "alloc#", 6), "case NULL name: '%s', want alloc#N", ai.name);
    SIM_CHECK(sim_alloc_query(c, &ai));
    cr_assert(!strncmp(ai.name, "alloc#", 6), "case empty name: '%s', want alloc#N", ai.name);
    SIM_CHECK(sim_alloc_query(d, &ai));
    cr_assert(strlen(ai.name) > 16 && strlen(ai.name) < 99 && !strncmp(ai.name, longname, strlen(ai.name)),
              "case long name: kept a prefix of it, got '%s'", ai.name);
    /* the name is copied */
    char tmp[8] = "tmp";
    void *e;
    SIM_CHECK(sim_malloc(&e, 4, tmp));
    strcpy(tmp, "XXX");
    SIM_CHECK(sim_alloc_query(e, &ai));
    cr_assert_str_eq(ai.name, "tmp", "case name copied: '%s'", ai.name);
}

Test(memory, query)
{
    char *d;
    SIM_CHECK(sim_malloc((void **)&d, 1000, "q"));
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(d + 999, &ai));
    cr_assert(ai.base == d && ai.bytes == 1000, "case interior pointer: base %p bytes %zu", ai.base, ai.bytes);
    expect_status(sim_alloc_query(d + 1000, &ai), SIM_ERR_INVALID_DEVICE_POINTER, "query one past the end");
    expect_status(sim_alloc_query(d - 1, &ai), SIM_ERR_INVALID_DEVICE_POINTER, "query in the red zone before");
    int host;
    expect_status(sim_alloc_query(&host, &ai), SIM_ERR_INVALID_DEVICE_POINTER, "query of a host pointer");
    ASSERT_ERROR_HAS("not a device pointer", "query of a host pointer");
    /* freed allocations keep their record */
    SIM_CHECK(sim_free(d));
    SIM_CHECK(sim_alloc_query(d, &ai));
    cr_assert(ai.freed && ai.bytes == 1000 && !strcmp(ai.name, "q"), "case freed: freed=%d bytes=%zu name=%s",
              ai.freed, ai.bytes, ai.name);
}

/* Addresses are not handed out twice while fresh ones remain (the arena is 256 GiB), so a stale
 * pointer is caught. */
Test(memory, addresses_not_reused)
{
    void *a, *b;
    SIM_CHECK(sim_malloc(&a, 4096, "first"));
    SIM_CHECK(sim_free(a));
    SIM_CHECK(sim_malloc(&b, 4096, "second"));
    cr_assert_neq(a, b, "case malloc after free: the freed address %p came back", a);
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(a, &ai));
    cr_assert(ai.freed && !strcmp(ai.name, "first"), "case stale pointer: still names 'first' (freed)");
    int x = 0;
    expect_status(sim_memcpy(a, &x, 4, SIM_COPY_H2D), SIM_ERR_INVALID_VALUE, "copy to freed memory");
    ASSERT_ERROR_HAS("which was freed", "copy to freed memory");
    expect_status(sim_memset(a, 0, 4), SIM_ERR_INVALID_VALUE, "memset of freed memory");
}

/* Programs that cudaMalloc and cudaFree in a loop (one buffer live at a time) run as long as they
 * like: once fresh allocation ids run out, freed ones come back, oldest first. */
Test(memory, malloc_free_loop_recycles_ids)
{
    size_t before = sim_bytes_in_use();
    void *first = NULL;
    for (int i = 0; i < 100000; i++) {
        void *p = NULL;
        int st = sim_malloc(&p, 1024, "loop");
        if (st != SIM_OK)
            cr_assert_fail("case iteration %d of 100000 x (sim_malloc 1 KiB + sim_free): %s: %s", i,
                           sim_status_name((sim_status)st), sim_last_error());
        if (!i)
            first = p;
        st = sim_free(p);
        if (st != SIM_OK)
            cr_assert_fail("case iteration %d: sim_free: %s", i, sim_last_error());
    }
    cr_assert_eq(sim_bytes_in_use(), before, "case after the loop: bytes in use %zu, want %zu", sim_bytes_in_use(),
                 before);
    /* the first buffer's record went to a later one; its range (not reused: fresh space remains)
     * is still freed memory */
    int x = 0;
    expect_status(sim_memcpy(first, &x, 4, SIM_COPY_H2D), SIM_ERR_INVALID_VALUE, "copy to the first, freed buffer");
    ASSERT_ERROR_HAS("freed long ago (use after free", "copy to the first, freed buffer");
    /* the allocation after them is a whole, usable allocation of its own */
    char *d = dev_buf("after", 4096, NULL);
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(d, &ai));
    cr_assert(!ai.freed && ai.bytes == 4096 && !strcmp(ai.name, "after") && !ai.read_bytes && !ai.write_bytes,
              "case allocation after the loop: freed=%d bytes=%zu name=%s read=%llu written=%llu", ai.freed, ai.bytes,
              ai.name, (unsigned long long)ai.read_bytes, (unsigned long long)ai.write_bytes);
}

/* Large buffers allocated and freed in a loop, never more than one live, add up to more than the
 * arena (256 GiB of address space): once it is spent, freed ranges come back, oldest first, mapped
 * again. 16 GiB x 40 = 640 GiB (reserving and mapping untouched ranges costs no time whatever the
 * size; only the pages written below are committed). */
Test(memory, large_malloc_free_loop_reuses_address_space)
{
    sim_set_host_memory_check(0); /* address space only: more than the host has, few pages touched */
    const size_t big = (size_t)16 << 30;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < 40; i++) {
        char *p = NULL;
        int st = sim_malloc((void **)&p, big, "big");
        if (st != SIM_OK)
            cr_assert_fail("case iteration %d of 40 x (sim_malloc 16 GiB + sim_free): %s: %s", i,
                           sim_status_name((sim_status)st), sim_last_error());
        if ((uintptr_t)p < lo)
            lo = (uintptr_t)p;
        if ((uintptr_t)p > hi)
            hi = (uintptr_t)p;
        /* mapped: its first and last pages take writes and read back */
        SIM_CHECK(sim_memset(p, i + 1, 4096));
        SIM_CHECK(sim_memset(p + big - 4096, i + 1, 4096));
        char back[2];
        SIM_CHECK(sim_memcpy(&back[0], p, 1, SIM_COPY_D2H));
        SIM_CHECK(sim_memcpy(&back[1], p + big - 1, 1, SIM_COPY_D2H));
        cr_assert(back[0] == (char)(i + 1) && back[1] == (char)(i + 1), "case iteration %d: read back %d %d", i,
                  back[0], back[1]);
        SIM_CHECK(sim_free(p));
    }
    cr_assert(hi - lo < ((uintptr_t)256 << 30), "case 40 x 16 GiB: addresses span more than the arena");
}

/* Each buffer freed before a larger one is allocated (1, 2, ... 40 GiB: 820 GiB over the loop,
 * at most 40 live): once fresh space is spent, no single freed range fits, but neighbours do
 * together (brucefan1983's oversubscription example), and the memory works. */
Test(memory, growing_malloc_free_loop_merges_freed_neighbours)
{
    sim_set_host_memory_check(0); /* address space only: more than the host has, few pages touched */
    for (int n = 1; n <= 40; n++) {
        const size_t bytes = (size_t)n << 30;
        char *p = NULL;
        int st = sim_malloc((void **)&p, bytes, "grow");
        if (st != SIM_OK)
            cr_assert_fail("case %d GiB after %d smaller ones, each freed: %s: %s", n, n - 1,
                           sim_status_name((sim_status)st), sim_last_error());
        SIM_CHECK(sim_memset(p + bytes - 4096, n, 4096));
        char back = 0;
        SIM_CHECK(sim_memcpy(&back, p + bytes - 1, 1, SIM_COPY_D2H));
        cr_assert_eq(back, (char)n, "case %d GiB: read back %d", n, back);
        SIM_CHECK(sim_free(p));
    }
}

/* A freed range larger than the request is split: two 7 GiB buffers fit where one 16 GiB buffer
 * was, each with its red zone, once the arena is full. */
Test(memory, freed_range_is_split)
{
    sim_set_host_memory_check(0); /* address space only: more than the host has, few pages touched */
    const size_t big = (size_t)16 << 30;
    void *live[20], *p;
    int n = 0;
    while (n < 20 && sim_malloc(&live[n], big, "filler") == SIM_OK)
        n++;
    cr_assert(n >= 2 && n < 20, "case filling the arena with 16 GiB buffers: %d fit", n);
    ASSERT_ERROR_HAS("out of device memory", "arena full");
    for (size_t sz = big / 4; sz >= ((size_t)64 << 20); sz /= 4) /* the rest, down to less than 64 MiB */
        while (sim_malloc(&p, sz, "small filler") == SIM_OK)
            n++;
    SIM_CHECK(sim_free(live[0]));
    char *a, *b;
    SIM_CHECK(sim_malloc((void **)&a, (size_t)7 << 30, "a"));
    SIM_CHECK(sim_malloc((void **)&b, (size_t)7 << 30, "b"));
    cr_assert(a == live[0], "case first 7 GiB: %p, want the freed range's start %p", (void *)a, live[0]);
    cr_assert((uintptr_t)b >= (uintptr_t)a + ((size_t)7 << 30) + GRANULE &&
                  (uintptr_t)b + ((size_t)7 << 30) <= (uintptr_t)live[0] + big,
              "case second 7 GiB: %p must lie in the rest of the freed range, after a red zone", (void *)b);
    SIM_CHECK(sim_memset(a + ((size_t)7 << 30) - 8, 1, 8));
    SIM_CHECK(sim_memset(b, 2, 8));
    expect_status(sim_memset(a + ((size_t)7 << 30), 0, 4), SIM_ERR_INVALID_VALUE, "memset in a's red zone");
    sim_alloc_info ai;
    SIM_CHECK(sim_alloc_query(b, &ai));
    cr_assert(!strcmp(ai.name, "b") && !ai.freed, "case query of b: name %s freed %d", ai.name, ai.freed);
    /* nothing left that fits: out of memory, and the message says what is live and freed */
    void *c;
    expect_status(sim_malloc(&c, (size_t)7 << 30, "c"), SIM_ERR_MEMORY_ALLOCATION, "7 GiB more");
    ASSERT_ERROR_HAS("out of device memory", "7 GiB more");
    char want[64];
    snprintf(want, sizeof want, "%d allocations live", n + 1);
    ASSERT_ERROR_HAS(want, "7 GiB more (live count)");
}

Test(memory, big_allocation)
{
    void *a;
    size_t before = sim_bytes_in_use();
    SIM_CHECK(sim_malloc(&a, (size_t)1 << 30, "1 GiB"));
    cr_assert_eq(sim_bytes_in_use(), before + ((size_t)1 << 30), "case 1 GiB: bytes in use");
    SIM_CHECK(sim_memset((char *)a + ((size_t)1 << 30) - 4096, 7, 4096));
    SIM_CHECK(sim_free(a));
    cr_assert_eq(sim_bytes_in_use(), before, "case 1 GiB freed: bytes in use");
}

/* Device memory is host memory here: an allocation larger than the host has available is refused
 * with the host's figures (Linux would kill the process that touched it), and the live
 * allocations not yet touched count against it; with the check off it only reserves address
 * space. (HeCBench's lrn and atomicCost were killed that way: 2 x 9.2 GB of device memory.) */
Test(memory, host_memory_refused)
{
    FILE *f = fopen("/proc/meminfo", "r");
    cr_assert(f, "/proc/meminfo");
    unsigned long long total_kb = 0, avail_kb = 0;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &total_kb) != 1)
            (void)sscanf(line, "MemAvailable: %llu kB", &avail_kb);
    fclose(f);
    cr_assert(total_kb > 0 && avail_kb > ((size_t)3 << 20), "MemTotal, MemAvailable (3 GiB at least for this test)");
    const size_t more = (size_t)total_kb * 1024 + ((size_t)1 << 30); /* more than the host has at all */
    void *p = (void *)0x1;
    expect_status(sim_malloc(&p, more, "too big"), SIM_ERR_MEMORY_ALLOCATION, "more than MemTotal");
    cr_assert_null(p, "case more than MemTotal: *ptr must be NULL");
    ASSERT_ERROR_HAS("too big", "more than MemTotal (name)");
    ASSERT_ERROR_HAS("the host's memory", "more than MemTotal (why)");
    ASSERT_ERROR_HAS("Make the problem smaller", "more than MemTotal (the fix)");
    /* a third of what is available, not touched, then all of it: the second is refused */
    void *a, *b = (void *)0x1;
    SIM_CHECK(sim_malloc(&a, (size_t)avail_kb * 1024 / 3, "a third"));
    expect_status(sim_malloc(&b, (size_t)avail_kb * 1024, "all of it"), SIM_ERR_MEMORY_ALLOCATION,
                  "a third untouched, then all");
    ASSERT_ERROR_HAS("not yet touched", "a third untouched, then all (the third counted)");
    SIM_CHECK(sim_free(a));
    /* off: address space only */
    cr_assert_eq(sim_set_host_memory_check(0), 1, "the check is on by default");
    SIM_CHECK(sim_malloc(&p, more, "address space only"));
    SIM_CHECK(sim_memset(p, 1, 4096));
    SIM_CHECK(sim_free(p));
}

/* ---- misuse ------------------------------------------------------------------------------- */
Test(memory, malloc_errors)
{
    void *p = (void *)0x1;
    expect_status(sim_malloc(&p, 0, "zero"), SIM_ERR_INVALID_VALUE, "size 0");
    cr_assert_null(p, "case size 0: *ptr must be NULL, is %p", p);
    ASSERT_ERROR_HAS("size 0", "size 0");
    ASSERT_ERROR_HAS("zero", "size 0 (name)");
    expect_status(sim_malloc(NULL, 16, "null"), SIM_ERR_INVALID_VALUE, "ptr NULL");
    expect_status(sim_malloc(&p, (size_t)300 << 30, "huge"), SIM_ERR_MEMORY_ALLOCATION, "300 GiB");
    cr_assert_null(p, "case 300 GiB: *ptr must be NULL");
    ASSERT_ERROR_HAS("huge", "300 GiB (name)");
    ASSERT_ERROR_HAS("322122547200 bytes", "300 GiB (size)");
    ASSERT_ERROR_HAS("out of device memory", "300 GiB (reason)");
    /* and allocation still works afterwards */
    SIM_CHECK(sim_malloc(&p, 16, "after"));
}

Test(memory, free_errors)
{
    void *a;
    SIM_CHECK(sim_malloc(&a, 256, "a"));
    SIM_CHECK(sim_free(a));
    expect_status(sim_free(a), SIM_ERR_INVALID_DEVICE_POINTER, "double free");
    ASSERT_ERROR_HAS("double free", "double free");
    char buf[32];
    snprintf(buf, sizeof buf, "sim_free(%p)", a);
    ASSERT_ERROR_HAS(buf, "double free (pointer named)");

    void *host = malloc(64);
    expect_status(sim_free(host), SIM_ERR_INVALID_DEVICE_POINTER, "free of a host pointer");
    ASSERT_ERROR_HAS("not a device pointer", "free of a host pointer");
    free(host);
    int stack_var;
    expect_status(sim_free(&stack_var), SIM_ERR_INVALID_DEVICE_POINTER, "free of a stack pointer");

    char *b;
    SIM_CHECK(sim_malloc((void **)&b, 256, "b"));
    expect_status(sim_free(b + 16), SIM_ERR_INVALID_DEVICE_POINTER, "free of an interior pointer");
    ASSERT_ERROR_HAS("not the start of an allocation", "free of an interior pointer");
    SIM_CHECK(sim_free(b)); /* the allocation itself is still live */
}

typedef struct copy_case {
    char name[48];
    int kind;         /* sim_copy_kind */
    long dst_off, src_off; /* byte offsets into the 1000-byte buffers (dst d_a, src d_b, or host) */
    int dst_dev, src_dev;  /* which side is device memory */
    size_t bytes;
    char needle[80];
} copy_case;

/* d_a and d_b are 1000-byte allocations; host buffers are 4096 bytes. */
static copy_case copy_cases[] = {
    {"H2D past the end", SIM_COPY_H2D, 0, 0, 1, 0, 1001, "destination range of 1001 bytes"},
    {"H2D at offset 900, 200 bytes", SIM_COPY_H2D, 900, 0, 1, 0, 200, "destination range of 200 bytes"},
    {"D2H past the end", SIM_COPY_D2H, 0, 0, 0, 1, 2000, "source range of 2000 bytes"},
    {"D2D source past the end", SIM_COPY_D2D, 0, 500, 1, 1, 501, "source range of 501 bytes"},
    {"D2D destination past the end", SIM_COPY_D2D, 999, 0, 1, 1, 2, "destination range of 2 bytes"},
    {"H2D to a host pointer", SIM_COPY_H2D, 0, 0, 0, 0, 16, "not device memory"},
    {"D2H from a host pointer", SIM_COPY_D2H, 0, 0, 0, 0, 16, "not device memory"},
    {"H2D before the start", SIM_COPY_H2D, -8, 0, 1, 0, 4, "destination range of 4 bytes"},
};

ParameterizedTestParameters(memory, copy_errors)
{
    return cr_make_param_array(copy_case, copy_cases, sizeof copy_cases / sizeof copy_cases[0]);
}

ParameterizedTest(copy_case *c, memory, copy_errors)
{
    char *d_a, *d_b;
    SIM_CHECK(sim_malloc((void **)&d_a, 1000, "a"));
    SIM_CHECK(sim_malloc((void **)&d_b, 1000, "b"));
    char *h_dst = malloc(4096), *h_src = malloc(4096);
    memset(h_src, 1, 4096);
    char *dst = (c->dst_dev ? d_a : h_dst) + c->dst_off;
    char *src = (c->src_dev ? d_b : h_src) + c->src_off;
    sim_copy_counters before = sim_copy_totals();
    expect_status(sim_memcpy(dst, src, c->bytes, (sim_copy_kind)c->kind), SIM_ERR_INVALID_VALUE, c->name);
    ASSERT_ERROR_HAS("sim_memcpy", "%s", c->name);
    ASSERT_ERROR_HAS(c->needle, "%s", c->name);
    sim_copy_counters after = sim_copy_totals();
    cr_assert(!memcmp(&before, &after, sizeof before), "case %s: a refused copy was counted", c->name);
    /* the copy that fits works */
    SIM_CHECK(sim_memcpy(d_a, h_src, 1000, SIM_COPY_H2D));
    free(h_dst);
    free(h_src);
}

Test(memory, memcpy_null)
{
    char *d;
    SIM_CHECK(sim_malloc((void **)&d, 64, "d"));
    char h[64];
    expect_status(sim_memcpy(NULL, h, 8, SIM_COPY_H2D), SIM_ERR_INVALID_VALUE, "memcpy to NULL");
    ASSERT_ERROR_HAS("destination pointer is NULL", "memcpy to NULL");
    expect_status(sim_memcpy(h, NULL, 8, SIM_COPY_D2H), SIM_ERR_INVALID_VALUE, "memcpy from NULL");
    ASSERT_ERROR_HAS("source pointer is NULL", "memcpy from NULL");
}

Test(memory, memset_errors)
{
    char *d;
    SIM_CHECK(sim_malloc((void **)&d, 100, "m"));
    expect_status(sim_memset(d, 0, 101), SIM_ERR_INVALID_VALUE, "memset 101 of 100 bytes");
    ASSERT_ERROR_HAS("sim_memset", "memset 101 of 100 bytes");
    ASSERT_ERROR_HAS("range of 101 bytes", "memset 101 of 100 bytes");
    ASSERT_ERROR_HAS("'m'", "memset 101 of 100 bytes (allocation named)");
    expect_status(sim_memset(d + 50, 0, 51), SIM_ERR_INVALID_VALUE, "memset at 50, 51 bytes");
    char h[16];
    expect_status(sim_memset(h, 0, 16), SIM_ERR_INVALID_VALUE, "memset of a host buffer");
    SIM_CHECK(sim_memset(d, 0, 100));
}

/* ---- regressions found in review --------------------------------------------------------- */
Test(memory, regression_huge_sizes_are_refused)
{
    void *p = (void *)1;
    cr_assert_eq(sim_malloc(&p, SIZE_MAX - 100, "wrap"), SIM_ERR_MEMORY_ALLOCATION,
                 "case SIZE_MAX - 100 bytes: the rounding must not wrap to an empty allocation");
    cr_assert_null(p, "case SIZE_MAX - 100 bytes: ptr cleared");
    char host[64];
    char *d = dev_buf("small", 64, NULL);
    cr_assert_eq(sim_memcpy(host, d + 16, SIZE_MAX - 8, SIM_COPY_D2H), SIM_ERR_INVALID_VALUE,
                 "case memcpy of SIZE_MAX - 8 bytes: the range check must not wrap");
    cr_assert_eq(sim_memset(d + 16, 0, SIZE_MAX - 8), SIM_ERR_INVALID_VALUE,
                 "case memset of SIZE_MAX - 8 bytes: the range check must not wrap");
}
