/* lessons/05_torch_stack/caching_allocator.c - see caching_allocator.h.
 *
 * The functions follow DeviceCachingAllocator in PyTorch's
 * c10/cuda/CUDACachingAllocator.cpp and carry its names in their comments.
 * PyTorch keeps the free blocks in a std::set ordered by (stream, size,
 * address); here a linear scan over the segments finds the same block,
 * which is slower but can be read in one sitting.
 */
#include "caching_allocator.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rules ------------------------------------------------------------------ */

/* round_size: requests are rounded up to a multiple of kMinBlockSize (512 B);
 * anything smaller becomes 512 B. (PyTorch's roundup_power2_divisions option,
 * off by default, would round to power-of-two divisions instead.) */
uint64_t ca_round_size(uint64_t bytes)
{
    if (bytes < CA_MIN_BLOCK_SIZE)
        return CA_MIN_BLOCK_SIZE;
    return CA_MIN_BLOCK_SIZE * ((bytes + CA_MIN_BLOCK_SIZE - 1) / CA_MIN_BLOCK_SIZE);
}

/* get_pool: rounded sizes <= kSmallSize (1 MiB) come from the small pool. */
ca_pool ca_get_pool(uint64_t rounded) { return rounded <= CA_SMALL_SIZE ? CA_POOL_SMALL : CA_POOL_LARGE; }

/* get_allocation_size: the size of the segment cudaMalloc'ed when no cached
 * block fits: kSmallBuffer (2 MiB) for small requests, kLargeBuffer (20 MiB)
 * for requests below kMinLargeAlloc (10 MiB), else the request rounded up to
 * kRoundLarge (2 MiB). */
ca_seg_rule ca_get_allocation_rule(uint64_t rounded)
{
    if (rounded <= CA_SMALL_SIZE)
        return CA_SEG_SMALL_BUFFER;
    if (rounded < CA_MIN_LARGE_ALLOC)
        return CA_SEG_LARGE_BUFFER;
    return CA_SEG_ROUND_LARGE;
}

uint64_t ca_get_allocation_size(uint64_t rounded)
{
    switch (ca_get_allocation_rule(rounded)) {
    case CA_SEG_SMALL_BUFFER:
        return CA_SMALL_BUFFER;
    case CA_SEG_LARGE_BUFFER:
        return CA_LARGE_BUFFER;
    default:
        return CA_ROUND_LARGE * ((rounded + CA_ROUND_LARGE - 1) / CA_ROUND_LARGE);
    }
}

/* should_split: the rest of a block becomes its own free block when it is
 * at least kMinBlockSize (small pool) or more than kSmallSize (large pool;
 * with max_split_size unset, as by default). Otherwise the caller gets the
 * whole block, and memory_allocated counts all of it. */
int ca_should_split(ca_pool pool, uint64_t block_size, uint64_t rounded)
{
    uint64_t remaining = block_size - rounded;
    if (pool == CA_POOL_SMALL)
        return remaining >= CA_MIN_BLOCK_SIZE;
    return remaining > CA_SMALL_SIZE;
}

/* ---- helpers ----------------------------------------------------------------------- */

__attribute__((format(printf, 3, 4))) static int fail(ca_allocator *a, int st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err, sizeof a->err, fmt, ap);
    va_end(ap);
    return st;
}

const char *ca_mib(uint64_t b, char *buf, size_t n)
{
    if (b >= CA_MIB)
        snprintf(buf, n, "%.2f MiB", (double)b / (double)CA_MIB);
    else if (b >= CA_KIB)
        snprintf(buf, n, "%.2f KiB", (double)b / (double)CA_KIB);
    else
        snprintf(buf, n, "%" PRIu64 " B", b);
    return buf;
}

static void note_peaks(ca_allocator *a)
{
    if (a->allocated > a->peak_allocated)
        a->peak_allocated = a->allocated;
    if (a->reserved > a->peak_reserved)
        a->peak_reserved = a->reserved;
}

void ca_init(ca_allocator *a, const ca_device *dev)
{
    memset(a, 0, sizeof *a);
    a->dev = *dev;
    a->next_segment_id = 1;
}

static void free_segment_struct(ca_segment *s)
{
    for (ca_block *b = s->head, *nb; b; b = nb) {
        nb = b->next;
        free(b);
    }
    free(s);
}

/* release_block: cudaFree one segment and unlink it. */
static int release_segment(ca_allocator *a, ca_segment **link)
{
    ca_segment *s = *link;
    if (a->dev.free(a->dev.ctx, s->addr, s->size))
        return -1;
    a->n_cuda_free++;
    a->reserved -= s->size;
    *link = s->next;
    free_segment_struct(s);
    return 0;
}

int ca_destroy(ca_allocator *a)
{
    int rc = CA_OK;
    while (a->segments) {
        ca_segment *s = a->segments;
        if (a->dev.free(a->dev.ctx, s->addr, s->size))
            rc = CA_ERR_DEVICE;
        a->segments = s->next;
        free_segment_struct(s);
    }
    a->allocated = a->requested = a->reserved = 0;
    return rc;
}

/* get_free_block: best fit over the cached blocks of one pool and stream:
 * the smallest free block >= size; among equal sizes the lowest address
 * (PyTorch's BlockComparatorSize orders by stream, size, then address). */
static ca_block *get_free_block(ca_allocator *a, ca_pool pool, int stream, uint64_t size)
{
    ca_block *best = NULL;
    for (ca_segment *s = a->segments; s; s = s->next) {
        if (s->pool != pool || s->stream != stream)
            continue;
        for (ca_block *b = s->head; b; b = b->next)
            if (!b->allocated && b->size >= size &&
                (!best || b->size < best->size || (b->size == best->size && b->addr < best->addr)))
                best = b;
    }
    return best;
}

/* release_cached_blocks (torch.cuda.empty_cache): cudaFree every segment
 * whose one block is free (after merging, a segment with no allocated block
 * is one free block: PyTorch releases blocks with neither prev nor next). */
static int release_cached_blocks(ca_allocator *a, int *released, uint64_t *bytes)
{
    *released = 0;
    *bytes = 0;
    for (ca_segment **link = &a->segments; *link;) {
        ca_segment *s = *link;
        if (!s->head->allocated && !s->head->next) {
            uint64_t sz = s->size;
            if (release_segment(a, link))
                return -1;
            (*released)++;
            *bytes += sz;
        } else {
            link = &s->next;
        }
    }
    return 0;
}

/* alloc_block: cudaMalloc one segment of `size` for pool and stream, as one
 * free block. Returns 0, or -1 when the device is out of memory. */
static int alloc_block(ca_allocator *a, ca_pool pool, int stream, uint64_t size, ca_segment **out)
{
    uint64_t addr;
    if (a->dev.malloc(a->dev.ctx, size, &addr))
        return -1;
    ca_segment *s = calloc(1, sizeof *s);
    ca_block *b = calloc(1, sizeof *b);
    if (!s || !b) {
        free(s);
        free(b);
        a->dev.free(a->dev.ctx, addr, size);
        return -2;
    }
    a->n_cuda_malloc++;
    s->addr = addr;
    s->size = size;
    s->stream = stream;
    s->pool = pool;
    s->id = a->next_segment_id++;
    s->head = b;
    b->addr = addr;
    b->size = size;
    b->stream = stream;
    b->seg = s;
    /* appended: the list stays in cudaMalloc order */
    ca_segment **link = &a->segments;
    while (*link)
        link = &(*link)->next;
    *link = s;
    a->reserved += size;
    note_peaks(a);
    *out = s;
    return 0;
}

int ca_malloc(ca_allocator *a, uint64_t bytes, int stream, ca_block **out)
{
    ca_action *act = &a->last;
    memset(act, 0, sizeof *act);
    act->kind = CA_ACT_MALLOC;
    act->stream = stream;
    act->requested = bytes;
    *out = NULL;
    if (stream < 0 || stream >= CA_MAX_STREAMS) {
        snprintf(a->err, sizeof a->err, "stream %d: streams are 0 to %d", stream, CA_MAX_STREAMS - 1);
        return CA_ERR_INVALID;
    }
    if (bytes == 0) /* an empty tensor: PyTorch returns a null pointer, no block */
        return CA_OK;
    const uint64_t size = ca_round_size(bytes);
    const ca_pool pool = ca_get_pool(size);
    const uint64_t alloc_size = ca_get_allocation_size(size);
    act->rounded = size;
    act->pool = pool;

    /* First, try to get a block from the existing pool (best fit). */
    ca_block *b = get_free_block(a, pool, stream, size);
    if (b) {
        act->reused = 1;
    } else {
        /* Can't reuse an existing block: cudaMalloc a new segment; if that
         * fails, free all non-split cached blocks and retry once. */
        ca_segment *s;
        int rc = alloc_block(a, pool, stream, alloc_size, &s);
        if (rc == -1) {
            if (release_cached_blocks(a, &act->released_segments, &act->released_bytes))
                return fail(a, CA_ERR_DEVICE, "cudaFree failed while releasing the cache");
            act->retried = 1;
            a->n_alloc_retries++;
            rc = alloc_block(a, pool, stream, alloc_size, &s);
        }
        if (rc == -2)
            return fail(a, CA_ERR_DEVICE, "out of host memory for the allocator's bookkeeping");
        if (rc) {
            char t[32], al[32], un[32];
            a->n_ooms++;
            act->oom = 1;
            act->new_segment = alloc_size;
            snprintf(a->err, sizeof a->err,
                     "CUDA out of memory. Tried to allocate %s. Of the allocated memory %s is allocated by PyTorch, "
                     "and %s is reserved by PyTorch but unallocated.",
                     ca_mib(alloc_size, t, sizeof t), ca_mib(a->allocated, al, sizeof al),
                     ca_mib(a->reserved - a->allocated, un, sizeof un));
            return CA_ERR_OOM;
        }
        b = s->head;
        act->new_segment = alloc_size;
        act->seg_rule = ca_get_allocation_rule(size);
    }
    act->found_size = b->size;
    act->segment_id = b->seg->id;
    act->remainder = b->size - size;

    /* alloc_found_block: split when should_split says so; the caller gets
     * the low part, the rest stays a free block right above it. */
    if (ca_should_split(pool, b->size, size)) {
        ca_block *nb = calloc(1, sizeof *nb);
        if (!nb)
            return fail(a, CA_ERR_DEVICE, "out of host memory for the allocator's bookkeeping");
        nb->addr = b->addr;
        nb->size = size;
        nb->stream = b->stream;
        nb->seg = b->seg;
        nb->prev = b->prev;
        nb->next = b;
        if (b->prev)
            b->prev->next = nb;
        else
            b->seg->head = nb;
        b->prev = nb;
        b->addr += size;
        b->size -= size;
        b = nb;
        act->split = 1;
    }
    b->allocated = 1;
    b->requested = bytes;
    a->allocated += b->size;
    a->requested += bytes;
    note_peaks(a);
    act->block_size = b->size;
    *out = b;
    return CA_OK;
}

static int owns(const ca_allocator *a, const ca_block *b)
{
    for (const ca_segment *s = a->segments; s; s = s->next)
        if (s == b->seg)
            for (const ca_block *x = s->head; x; x = x->next)
                if (x == b)
                    return 1;
    return 0;
}

/* try_merge_blocks: dst absorbs its free neighbour src (same segment by
 * construction). Returns the bytes absorbed (0 if src is absent or in use). */
static uint64_t try_merge_blocks(ca_block *dst, ca_block *src)
{
    if (!src || src->allocated)
        return 0;
    if (dst->prev == src) {
        dst->addr = src->addr;
        dst->prev = src->prev;
        if (dst->prev)
            dst->prev->next = dst;
        else
            dst->seg->head = dst;
    } else {
        dst->next = src->next;
        if (dst->next)
            dst->next->prev = dst;
    }
    uint64_t n = src->size;
    dst->size += n;
    free(src);
    return n;
}

int ca_free(ca_allocator *a, ca_block *b)
{
    ca_action *act = &a->last;
    memset(act, 0, sizeof *act);
    act->kind = CA_ACT_FREE;
    if (!b)
        return CA_OK;
    if (!owns(a, b) || !b->allocated)
        return fail(a, CA_ERR_INVALID, "free of a block that is %s",
                    owns(a, b) ? "already free" : "not from this allocator");
    act->stream = b->stream;
    act->pool = b->seg->pool;
    act->segment_id = b->seg->id;
    act->block_size = b->size;
    act->requested = b->requested;
    a->allocated -= b->size;
    a->requested -= b->requested;
    b->allocated = 0;
    b->requested = 0;
    /* free_block: merge with the free neighbours, prev first, then next */
    act->merged_prev = try_merge_blocks(b, b->prev) > 0;
    act->merged_next = try_merge_blocks(b, b->next) > 0;
    act->merged_size = b->size;
    return CA_OK;
}

int ca_empty_cache(ca_allocator *a)
{
    ca_action *act = &a->last;
    memset(act, 0, sizeof *act);
    act->kind = CA_ACT_EMPTY_CACHE;
    if (release_cached_blocks(a, &act->released_segments, &act->released_bytes))
        return fail(a, CA_ERR_DEVICE, "cudaFree failed while releasing the cache");
    return CA_OK;
}

ca_stats ca_get_stats(const ca_allocator *a)
{
    ca_stats st;
    memset(&st, 0, sizeof st);
    st.allocated = a->allocated;
    st.requested = a->requested;
    st.reserved = a->reserved;
    for (const ca_segment *s = a->segments; s; s = s->next) {
        st.segments++;
        if (s->pool == CA_POOL_SMALL)
            st.reserved_small += s->size;
        else
            st.reserved_large += s->size;
        for (const ca_block *b = s->head; b; b = b->next) {
            st.blocks++;
            if (b->allocated)
                st.live_blocks++;
            else if (b->size > st.largest_free)
                st.largest_free = b->size;
        }
    }
    st.free = a->reserved - a->allocated;
    /* fragmentation: the share of the cached (reserved, not allocated) bytes
     * that lies outside the largest free block, so cannot serve one request
     * of that many bytes. 0: all free memory is one block; near 1: it is
     * scattered in small pieces. */
    st.fragmentation = st.free ? 1.0 - (double)st.largest_free / (double)st.free : 0.0;
    st.peak_allocated = a->peak_allocated;
    st.peak_reserved = a->peak_reserved;
    st.cuda_mallocs = a->n_cuda_malloc;
    st.cuda_frees = a->n_cuda_free;
    st.alloc_retries = a->n_alloc_retries;
    st.ooms = a->n_ooms;
    return st;
}

#define CHECK(cond, ...)                                                                              \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            snprintf(why, n, __VA_ARGS__);                                                            \
            return 0;                                                                                 \
        }                                                                                             \
    } while (0)

int ca_check(const ca_allocator *a, char *why, size_t n)
{
    uint64_t alloc = 0, req = 0, res = 0;
    for (const ca_segment *s = a->segments; s; s = s->next) {
        CHECK(s->head && s->head->addr == s->addr && !s->head->prev, "segment #%u: its first block does not start it",
              s->id);
        CHECK(s->pool != CA_POOL_SMALL || s->size == CA_SMALL_BUFFER, "segment #%u: a small-pool segment of %" PRIu64
              " bytes (kSmallBuffer is %llu)", s->id, s->size, CA_SMALL_BUFFER);
        CHECK(s->size % CA_ROUND_LARGE == 0, "segment #%u: %" PRIu64 " bytes is not a multiple of 2 MiB", s->id,
              s->size);
        uint64_t sum = 0;
        for (const ca_block *b = s->head; b; b = b->next) {
            CHECK(b->seg == s, "segment #%u: a block at 0x%" PRIx64 " names another segment", s->id, b->addr);
            CHECK(b->size > 0 && b->size % CA_MIN_BLOCK_SIZE == 0,
                  "segment #%u: block at 0x%" PRIx64 " has %" PRIu64 " bytes, not a positive multiple of 512", s->id,
                  b->addr, b->size);
            CHECK(b->stream == s->stream, "segment #%u: block at 0x%" PRIx64 " is on stream %d, its segment on %d",
                  s->id, b->addr, b->stream, s->stream);
            CHECK(b->addr == s->addr + sum, "segment #%u: block at 0x%" PRIx64 " leaves a gap or overlaps", s->id,
                  b->addr);
            CHECK(!b->next || b->next->prev == b, "segment #%u: broken back link at 0x%" PRIx64, s->id, b->addr);
            CHECK(b->allocated || !b->next || b->next->allocated,
                  "segment #%u: free neighbours at 0x%" PRIx64 " were not merged", s->id, b->addr);
            CHECK(b->allocated ? b->requested > 0 && b->requested <= b->size : b->requested == 0,
                  "segment #%u: block at 0x%" PRIx64 " has requested %" PRIu64 " for size %" PRIu64, s->id, b->addr,
                  b->requested, b->size);
            sum += b->size;
            if (b->allocated) {
                alloc += b->size;
                req += b->requested;
            }
        }
        CHECK(sum == s->size, "segment #%u: its blocks add up to %" PRIu64 " of %" PRIu64 " bytes", s->id, sum,
              s->size);
        res += s->size;
        for (const ca_segment *t = s->next; t; t = t->next)
            CHECK(t->addr >= s->addr + s->size || s->addr >= t->addr + t->size, "segments #%u and #%u overlap", s->id,
                  t->id);
    }
    CHECK(alloc == a->allocated, "allocated is %" PRIu64 " but the allocated blocks add up to %" PRIu64, a->allocated,
          alloc);
    CHECK(req == a->requested, "requested is %" PRIu64 " but the live requests add up to %" PRIu64, a->requested, req);
    CHECK(res == a->reserved, "reserved is %" PRIu64 " but the segments add up to %" PRIu64, a->reserved, res);
    CHECK(a->allocated <= a->reserved, "allocated %" PRIu64 " > reserved %" PRIu64, a->allocated, a->reserved);
    return 1;
}

static const char *rule_str(ca_seg_rule r)
{
    switch (r) {
    case CA_SEG_SMALL_BUFFER:
        return "kSmallBuffer: size <= 1 MiB";
    case CA_SEG_LARGE_BUFFER:
        return "kLargeBuffer: 1 MiB < size < 10 MiB";
    default:
        return "kRoundLarge: size >= 10 MiB, rounded up to 2 MiB";
    }
}

const char *ca_action_str(const ca_action *act, char *buf, size_t n)
{
    char x[32], y[32], z[32];
    size_t k = 0;
#define ADD(...) (k += (size_t)snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, __VA_ARGS__))
    buf[0] = 0;
    switch (act->kind) {
    case CA_ACT_MALLOC:
        if (!act->requested) {
            ADD("0 bytes: no block (a null pointer)");
            break;
        }
        if (act->rounded != act->requested)
            ADD("rounded to %" PRIu64 " B; ", act->rounded);
        if (act->retried)
            ADD("cudaMalloc failed: released %d cached segment%s (%s) and retried; ", act->released_segments,
                act->released_segments == 1 ? "" : "s", ca_mib(act->released_bytes, x, sizeof x));
        if (act->oom) {
            ADD("cudaMalloc of %s failed again: out of memory", ca_mib(act->new_segment, x, sizeof x));
            break;
        }
        if (act->reused)
            ADD("best fit: cached %s block in segment #%u", ca_mib(act->found_size, x, sizeof x), act->segment_id);
        else
            ADD("cudaMalloc %s segment #%u (%s)", ca_mib(act->new_segment, x, sizeof x), act->segment_id,
                rule_str(act->seg_rule));
        if (act->split)
            ADD("; split: %s stays free", ca_mib(act->remainder, y, sizeof y));
        else if (act->remainder)
            ADD("; not split (%s rest %s %s): handed out whole, %s counts as allocated",
                ca_mib(act->remainder, y, sizeof y), act->pool == CA_POOL_SMALL ? "<" : "<=",
                act->pool == CA_POOL_SMALL ? "512 B" : "1 MiB", ca_mib(act->block_size, z, sizeof z));
        break;
    case CA_ACT_FREE:
        ADD("%s back to segment #%u's cache (stream %d)", ca_mib(act->block_size, x, sizeof x), act->segment_id,
            act->stream);
        if (act->merged_prev || act->merged_next)
            ADD("; merged with the free block%s %s: %s free block", act->merged_prev && act->merged_next ? "s" : "",
                act->merged_prev && act->merged_next ? "below and above" : act->merged_prev ? "below" : "above",
                ca_mib(act->merged_size, y, sizeof y));
        break;
    case CA_ACT_EMPTY_CACHE:
        ADD("cudaFree'd %d segment%s without a live block (%s)", act->released_segments,
            act->released_segments == 1 ? "" : "s", ca_mib(act->released_bytes, x, sizeof x));
        break;
    default:
        break;
    }
#undef ADD
    return buf;
}

/* ---- the simulated device -------------------------------------------------------- */

static int sim_malloc(void *ctx, uint64_t bytes, uint64_t *addr)
{
    ca_sim_device *d = ctx;
    if (d->capacity && d->used + bytes > d->capacity)
        return -1; /* cudaErrorMemoryAllocation */
    *addr = d->next_addr;
    d->next_addr += (bytes + CA_ROUND_LARGE - 1) / CA_ROUND_LARGE * CA_ROUND_LARGE;
    d->used += bytes;
    d->mallocs++;
    return 0;
}

static int sim_free(void *ctx, uint64_t addr, uint64_t bytes)
{
    ca_sim_device *d = ctx;
    (void)addr;
    if (bytes > d->used)
        return -1;
    d->used -= bytes;
    d->frees++;
    return 0;
}

void ca_sim_device_init(ca_sim_device *sd, uint64_t capacity, ca_device *dev)
{
    memset(sd, 0, sizeof *sd);
    sd->capacity = capacity;
    sd->next_addr = CA_SIM_BASE;
    dev->malloc = sim_malloc;
    dev->free = sim_free;
    dev->ctx = sd;
}
