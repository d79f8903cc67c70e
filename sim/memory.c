/* sim/memory.c - the device-memory arena behind sim/memory.h.
 *
 * One reservation of address space (PROT_NONE, never committed until
 * allocated). An allocation takes whole 64 KiB granules and is followed by
 * at least one unmapped granule (its red zone); a granule-to-allocation table
 * lets the hot path find the owner of any address in two loads. Freed
 * ranges are unmapped and handed out again only once the fresh ones are spent,
 * and likewise allocation ids (records): both wait in a quarantine, oldest
 * freed reused first, as AddressSanitizer's does, so a use of a buffer freed
 * recently is still reported as a use after free, naming it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* 256 GiB of address space. A build for valgrind (cachegrind's deterministic instruction and
 * cache counts: docs/NOTES.md, "Measuring without noise") passes a smaller one with -D. */
#ifndef SIM_ARENA_BYTES
#define SIM_ARENA_BYTES ((uintptr_t)256 << 30)
#endif

sim_arena_t sim_arena;
sim_alloc sim_allocs[SIM_MAX_ALLOCS];
static sim_copy_counters copies;

/* The last id is no allocation's: it owns the granules of freed allocations whose
 * record has been reused (never matches on the hot path, as id 0 does not). Fresh
 * ids are 1 .. SIM_FREED_ID - 1. */
#define SIM_FREED_ID ((uint32_t)SIM_MAX_ALLOCS - 1)
#define GRANULE ((uintptr_t)1 << SIM_GRANULE_SHIFT)

/* Freed ids, oldest first (a ring: each id is in it at most once, so it never
 * overflows); reused once fresh ids run out. */
static uint32_t freed_ids[SIM_MAX_ALLOCS];
static uint32_t freed_head, freed_n;

/* Freed address ranges [begin, end) (whole granules, each followed by a red
 * zone), in the order they were freed; entries [spans_head, spans_n) of
 * spans, with holes (begin == end) where one was taken whole. Reused, first
 * fit from the oldest, once the fresh space past sim_arena.next is spent. */
typedef struct free_span {
    uintptr_t begin, end;
} free_span;
static free_span *spans;
static size_t spans_head, spans_n, spans_cap, spans_live;

static uintptr_t granules_of(size_t bytes) { return ((uintptr_t)bytes + GRANULE - 1) & ~(GRANULE - 1); }

static void owners_set(uintptr_t a, uintptr_t len, uint32_t id)
{
    uint32_t *o = sim_arena.owner + ((a - sim_arena.base) >> SIM_GRANULE_SHIFT);
    for (uintptr_t k = 0; k < len >> SIM_GRANULE_SHIFT; k++)
        o[k] = id;
}

/* Index of the oldest freed range of at least len bytes, or SIZE_MAX; *largest:
 * the largest freed range. */
static size_t span_find(uintptr_t len, uintptr_t *largest)
{
    *largest = 0;
    for (size_t i = spans_head; i < spans_n; i++) {
        uintptr_t n = spans[i].end - spans[i].begin;
        if (n >= len)
            return i;
        if (n > *largest)
            *largest = n;
    }
    return SIZE_MAX;
}

/* Takes [begin, begin + len) of freed range i for a new allocation: the rest,
 * past a red-zone granule, stays a freed range of the same age; a rest too
 * small for that becomes red zone. */
static void span_take(size_t i, uintptr_t len)
{
    free_span *s = &spans[i];
    uintptr_t rest = s->end - s->begin - len;
    if (rest >= 2 * GRANULE) {
        owners_set(s->begin + len, GRANULE, 0);
        s->begin += len + GRANULE;
        return;
    }
    if (rest)
        owners_set(s->begin + len, rest, 0);
    s->begin = s->end = 0;
    spans_live--;
    while (spans_head < spans_n && spans[spans_head].begin == spans[spans_head].end)
        spans_head++;
    if (spans_head == spans_n)
        spans_head = spans_n = 0;
    else if (spans_head > 4096 && spans_head > spans_n / 2) { /* keep the array dense */
        memmove(spans, spans + spans_head, (spans_n - spans_head) * sizeof *spans);
        spans_n -= spans_head;
        spans_head = 0;
    }
}

/* The freed ranges merged where they meet (one red-zone granule between, or none), each merged
 * range as young as its youngest part, so a recent free stays quarantined: only on the way to
 * "out of memory", where a request larger than every freed range may fit in neighbours (a loop
 * that frees each buffer before it allocates a larger one, brucefan1983's oversubscription). */
typedef struct aged_span {
    uintptr_t begin, end;
    size_t age;
} aged_span;
static int by_begin(const void *x, const void *y)
{
    const aged_span *a = x, *b = y;
    return (a->begin > b->begin) - (a->begin < b->begin);
}
static int by_age(const void *x, const void *y)
{
    const aged_span *a = x, *b = y;
    return (a->age > b->age) - (a->age < b->age);
}
static void spans_coalesce(void)
{
    aged_span *v = malloc((spans_live ? spans_live : 1) * sizeof *v);
    if (!v)
        return;
    size_t m = 0, k = 0;
    for (size_t i = spans_head; i < spans_n; i++)
        if (spans[i].begin != spans[i].end)
            v[m++] = (aged_span){spans[i].begin, spans[i].end, i};
    qsort(v, m, sizeof *v, by_begin);
    for (size_t i = 0; i < m; i++) {
        if (k && (v[i].begin == v[k - 1].end || v[i].begin == v[k - 1].end + GRANULE)) {
            v[k - 1].end = v[i].end; /* the red zone between (no owner, no memory) joins it */
            if (v[i].age > v[k - 1].age)
                v[k - 1].age = v[i].age;
        } else {
            v[k++] = v[i];
        }
    }
    qsort(v, k, sizeof *v, by_age);
    for (size_t i = 0; i < k; i++)
        spans[i] = (free_span){v[i].begin, v[i].end};
    spans_head = 0;
    spans_n = spans_live = k;
    free(v);
}

/* Remembers a freed range; when the table cannot grow, the range is simply
 * never reused. */
static void span_add(uintptr_t begin, uintptr_t end)
{
    if (spans_n == spans_cap) {
        size_t cap = spans_cap ? 2 * spans_cap : 1024;
        free_span *n = realloc(spans, cap * sizeof *n);
        if (!n)
            return;
        spans = n;
        spans_cap = cap;
    }
    spans[spans_n++] = (free_span){begin, end};
    spans_live++;
}

int sim_memory_init(void)
{
    if (sim_arena.base)
        return 0;
    /* from the first allocation, not the first launch: a kernel called like a host function
     * before any launch is told apart from any other fault (launch.c on_fault) */
    sim_fault_handler_install();
    void *p = mmap(NULL, SIM_ARENA_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "cannot reserve %llu GiB of address space for the device arena",
                      (unsigned long long)(SIM_ARENA_BYTES >> 30));
        return -1;
    }
    size_t owners = (SIM_ARENA_BYTES >> SIM_GRANULE_SHIFT) * sizeof(uint32_t);
    void *o = mmap(NULL, owners, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (o == MAP_FAILED) {
        munmap(p, SIM_ARENA_BYTES);
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "cannot map the arena's owner table");
        return -1;
    }
    sim_arena.owner = o;
    sim_arena.span = SIM_ARENA_BYTES;
    sim_arena.next = (uintptr_t)p + ((uintptr_t)1 << SIM_GRANULE_SHIFT); /* red zone first */
    sim_allocs[0].begin = UINTPTR_MAX; /* id 0: never matches */
    sim_allocs[0].live_end = 0;
    snprintf(sim_allocs[0].name, sizeof sim_allocs[0].name, "(red zone)");
    sim_arena.n_allocs = 1;
    sim_allocs[SIM_FREED_ID].begin = UINTPTR_MAX; /* never matches either */
    sim_allocs[SIM_FREED_ID].live_end = 0;
    sim_allocs[SIM_FREED_ID].freed = 1;
    snprintf(sim_allocs[SIM_FREED_ID].name, sizeof sim_allocs[SIM_FREED_ID].name, "(freed memory)");
    sim_arena.base = (uintptr_t)p; /* last: hooks test base */
    return 0;
}

/* Returns the id of the allocation owning address a, or 0. */
static uint32_t owner_of(uintptr_t a)
{
    uintptr_t off = a - sim_arena.base;
    if (!sim_arena.base || off >= sim_arena.span)
        return 0;
    return sim_arena.owner[off >> SIM_GRANULE_SHIFT];
}

/* ---- the host's memory -------------------------------------------------------------------- */
static int host_check = 1;

int sim_set_host_memory_check(int on)
{
    const int was = host_check;
    host_check = on != 0;
    return was;
}

/* A field of /proc/meminfo in bytes; 0 if it cannot be read. */
static unsigned long long meminfo_bytes(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    const size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == ':') {
            kb = strtoull(line + kl + 1, NULL, 10);
            break;
        }
    fclose(f);
    return kb * 1024;
}

/* Bytes of the live allocations of HOST_CHECK_MIN or more not yet touched (pages the host does not
 * hold, by mincore); smaller ones count as touched. */
#define HOST_CHECK_MIN ((size_t)64 << 20)
static size_t device_untouched_bytes(void)
{
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char vec[4096];
    size_t untouched = 0;
    for (uint32_t i = 1; i < sim_arena.n_allocs; i++) {
        const sim_alloc *al = &sim_allocs[i];
        if (al->freed || al->bytes < HOST_CHECK_MIN)
            continue;
        size_t resident = 0;
        for (uintptr_t a = al->begin, end = al->begin + al->bytes; a < end;) {
            const size_t len = end - a < sizeof vec * pg ? end - a : sizeof vec * pg;
            if (mincore((void *)a, len, vec)) {
                resident = al->bytes; /* not known: taken as touched */
                break;
            }
            for (size_t k = 0; k < (len + pg - 1) / pg; k++)
                resident += (vec[k] & 1) * pg;
            a += len;
        }
        untouched += al->bytes > resident ? al->bytes - resident : 0;
    }
    return untouched;
}

/* Whether the host lacks the memory for `bytes` more of device memory: what is available now
 * (less a reserve for the program's own and the simulator's) against this request and the large
 * live allocations' bytes not yet touched (they will be). The message in why. Only a request of
 * HOST_CHECK_MIN or more is checked (a smaller one is soon touched, and a loop of them stays
 * cheap). */
static int host_memory_short(size_t bytes, const char *name, char *why, size_t n)
{
    if (!host_check || bytes < HOST_CHECK_MIN)
        return 0;
    const unsigned long long avail = meminfo_bytes("MemAvailable"), total = meminfo_bytes("MemTotal");
    if (!avail || !total)
        return 0;
    const unsigned long long pending = device_untouched_bytes();
    const unsigned long long reserve = total / 16 < (1ull << 30) ? total / 16 : (1ull << 30);
    if (pending + bytes + reserve <= avail)
        return 0;
    const double G = 1024.0 * 1024.0 * 1024.0;
    snprintf(why, n,
             "sim_malloc(\"%s\", %zu bytes = %.2f GiB): out of device memory: the simulator keeps device memory "
             "in the host's memory, which has %.2f GiB available of %.2f GiB (%.2f GiB kept back for the program "
             "and the simulator, %.2f GiB promised to earlier allocations not yet touched); a process that "
             "touched more would be killed. Make the problem smaller (sizes, batch, iterations), or free device "
             "buffers you no longer need",
             name ? name : "", bytes, bytes / G, avail / G, total / G, reserve / G, pending / G);
    return 1;
}

sim_status sim_malloc(void **ptr, size_t bytes, const char *name)
{
    if (!ptr) {
        sim_set_error(SIM_ERR_INVALID_VALUE, "sim_malloc: ptr is NULL");
        return SIM_ERR_INVALID_VALUE;
    }
    *ptr = NULL;
    if (sim_memory_init())
        return SIM_ERR_MEMORY_ALLOCATION;
    if (bytes == 0) {
        sim_set_error(SIM_ERR_INVALID_VALUE, "sim_malloc(\"%s\"): size 0; allocate at least 1 byte", name ? name : "");
        return SIM_ERR_INVALID_VALUE;
    }
    const uintptr_t g = (uintptr_t)1 << SIM_GRANULE_SHIFT;
    if (bytes > sim_arena.span - 2 * g) { /* before rounding, which would wrap */
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION,
                      "sim_malloc(\"%s\", %zu bytes): out of device memory: larger than the whole device arena (%llu GiB)",
                      name ? name : "", bytes, (unsigned long long)(sim_arena.span >> 30));
        return SIM_ERR_MEMORY_ALLOCATION;
    }
    char why[512];
    if (host_memory_short(bytes, name, why, sizeof why)) {
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "%s", why);
        return SIM_ERR_MEMORY_ALLOCATION;
    }
    uintptr_t span = granules_of(bytes);
    uintptr_t end = sim_arena.base + sim_arena.span;
    const uint32_t live = sim_arena.n_allocs - 1 - freed_n;
    if (sim_arena.n_allocs >= SIM_FREED_ID && !freed_n) { /* every id is a live allocation's */
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION,
                      "sim_malloc(\"%s\", %zu bytes): out of device memory: %u allocations live, the limit "
                      "(%u at once; 0 freed ones quarantined); free buffers you no longer need",
                      name ? name : "", bytes, live, SIM_FREED_ID - 1);
        return SIM_ERR_MEMORY_ALLOCATION;
    }
    /* fresh address space first; then the oldest freed range that fits */
    size_t reuse = SIZE_MAX;
    uintptr_t a = sim_arena.next;
    if (span > end - sim_arena.next || end - sim_arena.next - span < g) {
        uintptr_t largest;
        reuse = span_find(span, &largest);
        if (reuse == SIZE_MAX) { /* neighbours may fit it together */
            spans_coalesce();
            reuse = span_find(span, &largest);
        }
        if (reuse == SIZE_MAX) {
            sim_set_error(SIM_ERR_MEMORY_ALLOCATION,
                          "sim_malloc(\"%s\", %zu bytes): out of device memory: the arena (%llu GiB of address "
                          "space) is spent: %u allocations live (%zu bytes), and of the %zu freed ranges "
                          "quarantined none is large enough, neighbours merged (the largest: %llu bytes; limit %u "
                          "allocations)%s",
                          name ? name : "", bytes, (unsigned long long)(sim_arena.span >> 30), live,
                          sim_bytes_in_use(), spans_live, (unsigned long long)largest, SIM_FREED_ID - 1,
                          live ? "; free buffers you no longer need" : "");
            return SIM_ERR_MEMORY_ALLOCATION;
        }
        a = spans[reuse].begin;
    }
    if (mprotect((void *)a, span, PROT_READ | PROT_WRITE)) {
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION,
                      "sim_malloc(\"%s\", %zu bytes): the host refused the memory (%s; %u allocations live, each "
                      "a mapping of its own: the host's limit is vm.max_map_count)",
                      name ? name : "", bytes, strerror(errno), live);
        return SIM_ERR_MEMORY_ALLOCATION;
    }
    if (reuse == SIZE_MAX)
        sim_arena.next = a + span + g; /* one red-zone granule after */
    else
        span_take(reuse, span);
    uint32_t id;
    if (sim_arena.n_allocs < SIM_FREED_ID) {
        id = sim_arena.n_allocs++;
    } else { /* the oldest freed id: its old range, where not reused, is freed memory of no record */
        id = freed_ids[freed_head];
        freed_head = (freed_head + 1) % SIM_MAX_ALLOCS;
        freed_n--;
        const sim_alloc *old = &sim_allocs[id];
        uint32_t *o = sim_arena.owner + ((old->begin - sim_arena.base) >> SIM_GRANULE_SHIFT);
        for (uintptr_t k = 0; k < granules_of(old->bytes) >> SIM_GRANULE_SHIFT; k++)
            if (o[k] == id)
                o[k] = SIM_FREED_ID;
    }
    sim_alloc *al = &sim_allocs[id];
    memset(al, 0, sizeof *al); /* counters and name are the new allocation's */
    al->begin = a;
    al->live_end = a + bytes;
    al->bytes = bytes;
    if (name && name[0])
        snprintf(al->name, sizeof al->name, "%s", name);
    else
        snprintf(al->name, sizeof al->name, "alloc#%u", id);
    owners_set(a, span, id);
    *ptr = (void *)a;
    return SIM_OK;
}

sim_status sim_free(void *ptr)
{
    if (!ptr)
        return SIM_OK;
    uint32_t id = owner_of((uintptr_t)ptr);
    sim_alloc *al = &sim_allocs[id];
    if (!id || al->begin != (uintptr_t)ptr || al->freed) {
        sim_set_error(SIM_ERR_INVALID_DEVICE_POINTER, "sim_free(%p): %s", ptr,
                      !id ? "not a device pointer" : al->freed ? "double free" : "not the start of an allocation");
        return SIM_ERR_INVALID_DEVICE_POINTER;
    }
    al->freed = 1;
    al->live_end = al->begin;
    uintptr_t span = granules_of(al->bytes);
    /* give the memory back, keep the addresses reserved and owned (use after free);
     * both wait in the quarantine until fresh ones run out */
    mmap((void *)al->begin, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    freed_ids[(freed_head + freed_n++) % SIM_MAX_ALLOCS] = id;
    span_add(al->begin, al->begin + span);
    return SIM_OK;
}

/* The __device__ variables registered by sim_register_symbol (few: one a cudaGetSymbolAddress'd
 * variable), looked up by a scan. */
#define SIM_MAX_SYMBOLS 4096
static struct {
    uintptr_t begin, end;
} symbols[SIM_MAX_SYMBOLS];
static unsigned n_symbols;

sim_status sim_register_symbol(const void *ptr, size_t bytes)
{
    uintptr_t a = (uintptr_t)ptr;
    for (unsigned i = 0; i < n_symbols; i++)
        if (symbols[i].begin == a) {
            if (a + bytes > symbols[i].end)
                symbols[i].end = a + bytes;
            return SIM_OK;
        }
    if (n_symbols == SIM_MAX_SYMBOLS) {
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "more than %d __device__ variables asked for their address",
                      SIM_MAX_SYMBOLS);
        return SIM_ERR_MEMORY_ALLOCATION;
    }
    symbols[n_symbols].begin = a;
    symbols[n_symbols++].end = a + bytes;
    return SIM_OK;
}

int sim_in_symbol(const void *ptr, size_t bytes)
{
    uintptr_t a = (uintptr_t)ptr;
    for (unsigned i = 0; i < n_symbols; i++)
        if (a >= symbols[i].begin && a < symbols[i].end && bytes <= symbols[i].end - a)
            return 1;
    return 0;
}

/* Checks that [p, p+n) lies inside one live allocation (0) or one registered __device__
 * variable (1); fills err text (-1). */
static int check_range(const void *p, size_t n, const char *what, const char *call)
{
    if (sim_in_symbol(p, n))
        return 1;
    uint32_t id = owner_of((uintptr_t)p);
    const sim_alloc *al = &sim_allocs[id];
    if (!id || al->freed || n > al->live_end - (uintptr_t)p) { /* no wrap-around for huge n */
        char where[256];
        sim_describe_address(where, sizeof where, (uintptr_t)p, (unsigned)(n > 0xffffffffu ? 0xffffffffu : n));
        sim_set_error(SIM_ERR_INVALID_VALUE, "%s: %s range of %zu bytes at %p is not inside a live device allocation: %s",
                      call, what, n, p, where);
        return -1;
    }
    return 0;
}

sim_status sim_memcpy(void *dst, const void *src, size_t bytes, sim_copy_kind kind)
{
    if (bytes == 0)
        return SIM_OK;
    if (!dst || !src) {
        sim_set_error(SIM_ERR_INVALID_VALUE, "sim_memcpy: %s pointer is NULL", dst ? "source" : "destination");
        return SIM_ERR_INVALID_VALUE;
    }
    int to_symbol = 0;
    if ((kind == SIM_COPY_H2D || kind == SIM_COPY_D2D) &&
        (to_symbol = check_range(dst, bytes, "destination", "sim_memcpy")) < 0)
        return SIM_ERR_INVALID_VALUE;
    if ((kind == SIM_COPY_D2H || kind == SIM_COPY_D2D) && check_range(src, bytes, "source", "sim_memcpy") < 0)
        return SIM_ERR_INVALID_VALUE;
    memmove(dst, src, bytes);
    /* what the L2 model keeps of it (sim/l2.c): copies to the device are written
     * through L2, as from pageable host memory (not those to a __device__ variable, outside
     * the arena, as cudaMemcpyToSymbol's) */
    if ((kind == SIM_COPY_H2D || kind == SIM_COPY_D2D) && !to_symbol)
        sim_l2_host_access((uintptr_t)dst - sim_arena.base, bytes, 1);
    if (kind == SIM_COPY_H2D)
        copies.h2d_bytes += bytes;
    else if (kind == SIM_COPY_D2H)
        copies.d2h_bytes += bytes;
    else
        copies.d2d_bytes += bytes;
    return SIM_OK;
}

sim_status sim_memset(void *ptr, int value, size_t bytes)
{
    if (bytes == 0)
        return SIM_OK;
    int symbol = check_range(ptr, bytes, "destination", "sim_memset");
    if (symbol < 0)
        return SIM_ERR_INVALID_VALUE;
    memset(ptr, value, bytes);
    if (!symbol)
        sim_l2_host_access((uintptr_t)ptr - sim_arena.base, bytes, 1);
    return SIM_OK;
}

sim_status sim_alloc_query(const void *ptr, sim_alloc_info *info)
{
    uint32_t id = owner_of((uintptr_t)ptr);
    if (id == SIM_FREED_ID) {
        sim_set_error(SIM_ERR_INVALID_DEVICE_POINTER,
                      "sim_alloc_query(%p): device memory freed long ago (its allocation's record was reused)", ptr);
        return SIM_ERR_INVALID_DEVICE_POINTER;
    }
    if (!id || (uintptr_t)ptr >= sim_allocs[id].begin + sim_allocs[id].bytes) {
        sim_set_error(SIM_ERR_INVALID_DEVICE_POINTER, "sim_alloc_query(%p): not a device pointer", ptr);
        return SIM_ERR_INVALID_DEVICE_POINTER;
    }
    const sim_alloc *al = &sim_allocs[id];
    info->name = al->name;
    info->base = (void *)al->begin;
    info->bytes = al->bytes;
    info->freed = al->freed;
    info->read_bytes = al->read_bytes;
    info->write_bytes = al->write_bytes;
    return SIM_OK;
}

sim_copy_counters sim_copy_totals(void) { return copies; }

void sim_reset_counters(void)
{
    for (uint32_t i = 0; i < sim_arena.n_allocs; i++)
        sim_allocs[i].read_bytes = sim_allocs[i].write_bytes = 0;
    memset(&copies, 0, sizeof copies);
}

size_t sim_bytes_in_use(void)
{
    size_t n = 0;
    for (uint32_t i = 1; i < sim_arena.n_allocs; i++)
        if (!sim_allocs[i].freed)
            n += sim_allocs[i].bytes;
    return n;
}

/* "12 bytes past the end of allocation 'x' (4000 bytes, offset 4012)" etc. */
void sim_describe_address(char *out, size_t n, uintptr_t a, unsigned size)
{
    uint32_t id = owner_of(a);
    if (id == SIM_FREED_ID) {
        snprintf(out, n, "inside device memory freed long ago (use after free; its allocation's record has been "
                         "reused since, so its name is gone)");
        return;
    }
    if (id && !sim_allocs[id].freed && a >= sim_allocs[id].begin + sim_allocs[id].bytes) {
        const sim_alloc *al = &sim_allocs[id];
        snprintf(out, n, "%llu bytes past the end of allocation '%s' (%zu bytes; offset %llu)",
                 (unsigned long long)(a - (al->begin + al->bytes)), al->name, al->bytes,
                 (unsigned long long)(a - al->begin));
        return;
    }
    if (id && sim_allocs[id].freed) {
        const sim_alloc *al = &sim_allocs[id];
        snprintf(out, n, "inside allocation '%s' (%zu bytes; offset %llu), which was freed (use after free)",
                 al->name, al->bytes, (unsigned long long)(a - al->begin));
        return;
    }
    if (id) {
        const sim_alloc *al = &sim_allocs[id];
        snprintf(out, n, "allocation '%s' (%zu bytes) offset %llu; the access of %u bytes runs %llu bytes past its end",
                 al->name, al->bytes, (unsigned long long)(a - al->begin), size,
                 (unsigned long long)(a + size - (al->begin + al->bytes)));
        return;
    }
    if (sim_arena.base && a - sim_arena.base < sim_arena.span) {
        /* a red zone: name the nearest allocation, below or just above it
         * (a red zone is one granule, so the one above starts at the next) */
        uintptr_t g = (a - sim_arena.base) >> SIM_GRANULE_SHIFT, off = g;
        while (off > 0 && sim_arena.owner[off] == 0)
            off--;
        uint32_t below = sim_arena.owner[off];
        uint32_t above = a < sim_arena.next ? sim_arena.owner[g + 1] : 0;
        if (above == SIM_FREED_ID || (above && (sim_allocs[above].begin <= a || sim_allocs[above].begin - a > GRANULE)))
            above = 0; /* no allocation starts there: freed memory, or the rest of a freed range split by a reuse */
        if (above && (!below || below == SIM_FREED_ID ||
                      sim_allocs[above].begin - a <= a - (sim_allocs[below].begin + sim_allocs[below].bytes))) {
            const sim_alloc *al = &sim_allocs[above];
            snprintf(out, n, "%llu bytes before the start of allocation '%s' (%zu bytes%s)",
                     (unsigned long long)(al->begin - a), al->name, al->bytes, al->freed ? ", freed" : "");
            return;
        }
        if (below == SIM_FREED_ID) {
            snprintf(out, n, "in a red zone after device memory freed long ago (its allocation's record reused)");
            return;
        }
        if (below) {
            const sim_alloc *al = &sim_allocs[below];
            snprintf(out, n, "%llu bytes past the end of allocation '%s' (%zu bytes%s)",
                     (unsigned long long)(a - (al->begin + al->bytes)), al->name, al->bytes,
                     al->freed ? ", freed" : "");
            return;
        }
        snprintf(out, n, "in a red zone of the device arena, before every allocation");
        return;
    }
    snprintf(out, n, "not device memory (a host pointer, or NULL/garbage?)");
}
