/* tests/test_allocator.c - lesson 5's caching allocator (lessons/05_torch_stack/
 * caching_allocator.c) against the rules of PyTorch's CUDACachingAllocator.
 *
 * Covers, one test per rule, with exact byte counts on a simulated device
 * (addresses from CA_SIM_BASE, each segment 2 MiB aligned, never reused):
 * round_size (kMinBlockSize 512), get_pool (kSmallSize 1 MiB), the segment
 * sizes of get_allocation_size (kSmallBuffer 2 MiB, kLargeBuffer 20 MiB below
 * kMinLargeAlloc 10 MiB, kRoundLarge 2 MiB from there), best fit (smallest,
 * then lowest address), should_split in both pools (>= 512 B small, > 1 MiB
 * large), merging on free (never across segments), per-stream pools,
 * empty_cache, the OOM retry, what allocated / requested / reserved /
 * nvidia-smi / fragmentation mean; then trace parsing and replays of traces
 * (the lesson's built-in one step by step, its --capacity retry, a stream
 * trace). After every step the allocator's invariants are checked (ca_check).
 * What it is not: a test against a real GPU (lesson 5 --mode cuda does that)
 * or of the streams model.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "alloc_trace.h"
#include "caching_allocator.h"

#define U(x) ((unsigned long long)(x))
#define KiB 1024ull
#define MiB (1024ull * 1024ull)

typedef struct fx {
    ca_sim_device sd;
    ca_device dev;
    ca_allocator a;
} fx;

static void fx_init(fx *f, uint64_t capacity)
{
    ca_sim_device_init(&f->sd, capacity, &f->dev);
    ca_init(&f->a, &f->dev);
}

static void invariants(fx *f, const char *after)
{
    char why[256];
    cr_assert(ca_check(&f->a, why, sizeof why), "after %s: invariant broken: %s", after, why);
}

static ca_block *must_alloc(fx *f, uint64_t bytes, int stream)
{
    ca_block *b = NULL;
    char what[64];
    snprintf(what, sizeof what, "malloc(%llu, stream %d)", U(bytes), stream);
    int st = ca_malloc(&f->a, bytes, stream, &b);
    cr_assert_eq(st, CA_OK, "%s returned %d: %s", what, st, f->a.err);
    invariants(f, what);
    return b;
}

static void must_free(fx *f, ca_block *b)
{
    int st = ca_free(&f->a, b);
    cr_assert_eq(st, CA_OK, "free returned %d: %s", st, f->a.err);
    invariants(f, "free");
}

/* allocated, requested and reserved, exactly */
#define EXPECT(f, alloc, req, res, ...)                                                               \
    do {                                                                                              \
        ca_stats s_ = ca_get_stats(&(f)->a);                                                          \
        char c_[160];                                                                                 \
        snprintf(c_, sizeof c_, __VA_ARGS__);                                                         \
        cr_assert_eq(s_.allocated, (uint64_t)(alloc), "%s: allocated %llu, want %llu", c_, U(s_.allocated), U(alloc)); \
        cr_assert_eq(s_.requested, (uint64_t)(req), "%s: requested %llu, want %llu", c_, U(s_.requested), U(req));   \
        cr_assert_eq(s_.reserved, (uint64_t)(res), "%s: reserved %llu, want %llu", c_, U(s_.reserved), U(res));      \
    } while (0)

static uint64_t seg_off(const ca_block *b) { return b->addr - b->seg->addr; }

/* ---- round_size: kMinBlockSize ---------------------------------------------------------- */

Test(allocator, round_size_kMinBlockSize)
{
    static const struct { uint64_t in, out; } cases[] = {
        {1, 512},          {4, 512},          {511, 512},         {512, 512},         {513, 1024},
        {4096, 4096},      {40, 512},         {3000000, 3000320}, {1048576, 1048576}, {1048577, 1049088},
        {10485761, 10486272},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_assert_eq(ca_round_size(cases[i].in), cases[i].out, "round_size(%llu) = %llu, want %llu", U(cases[i].in),
                     U(ca_round_size(cases[i].in)), U(cases[i].out));
        fx f;
        fx_init(&f, 0);
        ca_block *b = must_alloc(&f, cases[i].in, 0);
        /* what memory_allocated counts is the rounded size (every case here is split) */
        EXPECT(&f, cases[i].out, cases[i].in, ca_get_allocation_size(cases[i].out), "malloc(%llu)", U(cases[i].in));
        cr_assert_eq(b->size, cases[i].out, "malloc(%llu): block of %llu", U(cases[i].in), U(b->size));
        ca_destroy(&f.a);
    }
}

/* ---- get_pool: kSmallSize --------------------------------------------------------------- */

Test(allocator, get_pool_kSmallSize)
{
    cr_assert_eq(ca_get_pool(1048576), CA_POOL_SMALL, "1 MiB exactly is small (<= kSmallSize)");
    cr_assert_eq(ca_get_pool(1049088), CA_POOL_LARGE, "1 MiB + 512 is large");
    fx f;
    fx_init(&f, 0);
    ca_block *s = must_alloc(&f, 1048576, 0);
    cr_assert_eq(s->seg->pool, CA_POOL_SMALL, "1048576 B: the small pool");
    EXPECT(&f, 1048576, 1048576, 2 * MiB, "1 MiB: one 2 MiB small segment");
    ca_block *l = must_alloc(&f, 1048577, 0); /* rounds to 1049088: large, a 20 MiB segment */
    cr_assert_eq(l->seg->pool, CA_POOL_LARGE, "1048577 B: the large pool");
    cr_assert_neq(l->seg, s->seg, "the pools never share a segment");
    EXPECT(&f, 1048576 + 1049088, 1048576 + 1048577, 2 * MiB + 20 * MiB, "1 MiB + 1 MiB + 1 B");
    ca_destroy(&f.a);
}

/* ---- get_allocation_size: kSmallBuffer ---------------------------------------------------- */

Test(allocator, small_segment_kSmallBuffer)
{
    fx f;
    fx_init(&f, 0);
    ca_block *b[5];
    for (int i = 0; i < 4; i++) { /* four 512 KiB tensors fill one 2 MiB segment exactly */
        b[i] = must_alloc(&f, 512 * KiB, 0);
        EXPECT(&f, (i + 1) * 512 * KiB, (i + 1) * 512 * KiB, 2 * MiB, "512 KiB tensor %d", i + 1);
        cr_assert_eq(b[i]->seg, b[0]->seg, "tensor %d shares the first 2 MiB segment", i + 1);
        cr_assert_eq(seg_off(b[i]), (uint64_t)i * 512 * KiB, "tensor %d at offset %llu", i + 1, U(seg_off(b[i])));
    }
    cr_assert_eq(ca_get_stats(&f.a).blocks, 4, "no free block is left in the full segment");
    b[4] = must_alloc(&f, 512 * KiB, 0);
    EXPECT(&f, 5 * 512 * KiB, 5 * 512 * KiB, 4 * MiB, "the fifth 512 KiB tensor: a second 2 MiB segment");
    cr_assert_eq(ca_get_stats(&f.a).cuda_mallocs, 2ul, "two cudaMallocs");
    ca_destroy(&f.a);
}

/* ---- get_allocation_size: kLargeBuffer for 1 MiB < size < kMinLargeAlloc --------------- */

Test(allocator, large_segment_kLargeBuffer)
{
    static const uint64_t sizes[] = {1048577, 2 * MiB, 5 * MiB, 10 * MiB - 512};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        fx f;
        fx_init(&f, 0);
        uint64_t r = ca_round_size(sizes[i]);
        cr_assert_eq(ca_get_allocation_size(r), 20 * MiB, "get_allocation_size(%llu)", U(r));
        ca_block *b = must_alloc(&f, sizes[i], 0);
        EXPECT(&f, r, sizes[i], 20 * MiB, "malloc(%llu): a 20 MiB segment", U(sizes[i]));
        cr_assert_eq(b->next->size, 20 * MiB - r, "malloc(%llu): the rest %llu stays free", U(sizes[i]),
                     U(b->next->size));
        ca_destroy(&f.a);
    }
}

/* ---- get_allocation_size: kRoundLarge from kMinLargeAlloc -------------------------------- */

Test(allocator, round_large_kMinLargeAlloc_kRoundLarge)
{
    static const struct { uint64_t bytes, rounded, segment; } cases[] = {
        {10 * MiB, 10 * MiB, 10 * MiB},           /* exactly kMinLargeAlloc: no kLargeBuffer */
        {10485761, 10486272, 12 * MiB},           /* one byte more: 12 MiB */
        {16 * MiB, 16 * MiB, 16 * MiB},
        {17825793, 17826304, 18 * MiB},
        {100000000, 100000256, 96 * MiB},         /* 100000256 / 2 MiB = 47.7 -> 48 x 2 MiB */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fx f;
        fx_init(&f, 0);
        cr_assert_eq(ca_get_allocation_size(cases[i].rounded), cases[i].segment, "get_allocation_size(%llu) = %llu",
                     U(cases[i].rounded), U(ca_get_allocation_size(cases[i].rounded)));
        must_alloc(&f, cases[i].bytes, 0);
        uint64_t rest = cases[i].segment - cases[i].rounded;
        /* the rest is split off only if > 1 MiB; else the whole segment counts as allocated */
        uint64_t alloc = rest > MiB ? cases[i].rounded : cases[i].segment;
        EXPECT(&f, alloc, cases[i].bytes, cases[i].segment, "malloc(%llu)", U(cases[i].bytes));
        ca_destroy(&f.a);
    }
}

/* ---- get_free_block: best fit, ties by address -------------------------------------------- */

Test(allocator, best_fit_smallest_then_lowest_address)
{
    fx f;
    fx_init(&f, 0);
    /* one 20 MiB segment: a 4 | b 2 | c 8 | d 2 | 4 free (MiB) */
    ca_block *a = must_alloc(&f, 4 * MiB, 0), *b = must_alloc(&f, 2 * MiB, 0), *c = must_alloc(&f, 8 * MiB, 0),
             *d = must_alloc(&f, 2 * MiB, 0);
    const uint64_t base = a->seg->addr;
    cr_assert(b->seg == a->seg && c->seg == a->seg && d->seg == a->seg, "a, b, c, d share one 20 MiB segment");
    EXPECT(&f, 16 * MiB, 16 * MiB, 20 * MiB, "a b c d");
    must_free(&f, a); /* free: 4 MiB at 0 */
    must_free(&f, c); /* free: 8 MiB at 6 MiB; and 4 MiB at 16 MiB */
    EXPECT(&f, 4 * MiB, 4 * MiB, 20 * MiB, "a and c freed");
    /* 4 MiB: two free blocks of exactly 4 MiB; the lower address wins */
    ca_block *e = must_alloc(&f, 4 * MiB, 0);
    cr_assert_eq(e->addr, base, "the 4 MiB request took the block at offset %llu, want 0", U(e->addr - base));
    /* 5 MiB: the smallest free block >= 5 MiB is the 8 MiB one, not the first in memory */
    ca_block *g = must_alloc(&f, 5 * MiB, 0);
    cr_assert_eq(g->addr, base + 6 * MiB, "the 5 MiB request took offset %llu, want 6 MiB", U(g->addr - base));
    EXPECT(&f, 13 * MiB, 13 * MiB, 20 * MiB, "no cudaMalloc: best fit found cached blocks");
    cr_assert_eq(ca_get_stats(&f.a).cuda_mallocs, 1ul, "one cudaMalloc in all");
    ca_destroy(&f.a);
}

/* ---- should_split: the small pool splits a remainder >= kMinBlockSize -------------------- */

Test(allocator, split_small_pool_remainder_ge_512)
{
    fx f;
    fx_init(&f, 0);
    ca_block *a = must_alloc(&f, 1 * MiB, 0);        /* 2 MiB segment: 1 MiB used, 1 MiB free */
    ca_block *b = must_alloc(&f, 1 * MiB - 512, 0);  /* rest 512 B >= 512: split */
    cr_assert_eq(b->size, 1 * MiB - 512, "a remainder of 512 B is split off in the small pool");
    cr_assert(b->next && !b->next->allocated && b->next->size == 512, "a free 512 B block follows");
    EXPECT(&f, 2 * MiB - 512, 2 * MiB - 512, 2 * MiB, "1 MiB + (1 MiB - 512)");
    ca_block *c = must_alloc(&f, 100, 0); /* fits the 512 B block exactly */
    cr_assert_eq(c->seg, a->seg, "the 100 B tensor uses the 512 B block");
    cr_assert_eq(seg_off(c), 2 * MiB - 512, "at the segment's end");
    EXPECT(&f, 2 * MiB, 2 * MiB - 512 + 100, 2 * MiB, "the segment is full");
    cr_assert(ca_should_split(CA_POOL_SMALL, 1024, 512), "512 B rest: split");
    cr_assert(!ca_should_split(CA_POOL_SMALL, 1024, 1024), "no rest: no split");
    ca_destroy(&f.a);
}

/* ---- should_split: the large pool splits only a remainder > kSmallSize ------------------- */

Test(allocator, split_large_pool_remainder_gt_1MiB)
{
    fx f;
    fx_init(&f, 0);
    /* 19 MiB: a 20 MiB segment, rest exactly 1 MiB: not split, 20 MiB counts as allocated */
    ca_block *a = must_alloc(&f, 19 * MiB, 0);
    cr_assert_eq(a->size, 20 * MiB, "19 MiB in a 20 MiB segment: the whole block, %llu", U(a->size));
    EXPECT(&f, 20 * MiB, 19 * MiB, 20 * MiB, "19 MiB: rest 1 MiB kept");
    /* 19 MiB - 512: rest 1 MiB + 512 > 1 MiB: split */
    ca_block *b = must_alloc(&f, 19 * MiB - 512, 0);
    cr_assert_eq(b->size, 19 * MiB - 512, "rest 1 MiB + 512: split");
    EXPECT(&f, 20 * MiB + 19 * MiB - 512, 19 * MiB + 19 * MiB - 512, 40 * MiB, "two 20 MiB segments");
    /* a cached block obeys the same rule: free the 20 MiB block, ask for 19.5 MiB */
    const uint64_t a_addr = a->addr;
    must_free(&f, a);
    ca_block *c = must_alloc(&f, 19 * MiB + 512 * KiB, 0);
    cr_assert_eq(c->addr, a_addr, "the cached 20 MiB block is reused");
    cr_assert_eq(c->size, 20 * MiB, "cached 20 MiB block for 19.5 MiB: rest 512 KiB is not split off");
    EXPECT(&f, 20 * MiB + 19 * MiB - 512, 19 * MiB + 512 * KiB + 19 * MiB - 512, 40 * MiB, "19.5 MiB reuses it");
    cr_assert(ca_should_split(CA_POOL_LARGE, 20 * MiB, 19 * MiB - 512), "rest 1 MiB + 512: split");
    cr_assert(!ca_should_split(CA_POOL_LARGE, 20 * MiB, 19 * MiB), "rest 1 MiB: no split");
    ca_destroy(&f.a);
}

/* ---- free_block: merge with free neighbours ---------------------------------------------- */

Test(allocator, merge_free_neighbours)
{
    fx f;
    fx_init(&f, 0);
    ca_block *a = must_alloc(&f, 4 * MiB, 0), *b = must_alloc(&f, 4 * MiB, 0), *c = must_alloc(&f, 4 * MiB, 0);
    ca_segment *s = a->seg;
    cr_assert_eq(ca_get_stats(&f.a).blocks, 4, "a b c and the 8 MiB rest");
    must_free(&f, a);
    cr_assert_eq(ca_get_stats(&f.a).blocks, 4, "a has no free neighbour: 4 blocks");
    must_free(&f, c); /* merges with the 8 MiB rest above it */
    cr_assert_eq(ca_get_stats(&f.a).blocks, 3, "c merged with the rest: [free 4|b|free 12]");
    cr_assert_eq(ca_get_stats(&f.a).largest_free, 12 * MiB, "the merged block is 12 MiB");
    must_free(&f, b); /* merges below and above: one block spans the segment */
    ca_stats st = ca_get_stats(&f.a);
    cr_assert_eq(st.blocks, 1, "one free block left, not %d", st.blocks);
    cr_assert(s->head && !s->head->next && s->head->size == 20 * MiB && s->head->addr == s->addr,
              "the segment is one free 20 MiB block");
    EXPECT(&f, 0, 0, 20 * MiB, "all freed, still reserved");
    cr_assert_eq(f.a.last.merged_prev + f.a.last.merged_next, 2, "the last free merged both sides");
    ca_destroy(&f.a);
}

Test(allocator, merge_never_crosses_segments)
{
    fx f;
    fx_init(&f, 0);
    ca_block *a = must_alloc(&f, 20 * MiB, 0), *b = must_alloc(&f, 20 * MiB, 0);
    cr_assert_eq(b->seg->addr, a->seg->addr + 20 * MiB, "the simulated cudaMalloc put them side by side");
    must_free(&f, a);
    must_free(&f, b);
    ca_stats st = ca_get_stats(&f.a);
    cr_assert_eq(st.blocks, 2, "two free blocks, one per segment");
    cr_assert_eq(st.largest_free, 20 * MiB, "adjacent segments do not merge: largest free %llu", U(st.largest_free));
    /* so a 30 MiB request cannot use them: it needs its own segment */
    must_alloc(&f, 30 * MiB, 0);
    EXPECT(&f, 30 * MiB, 30 * MiB, 70 * MiB, "20 + 20 cached + 30 new");
    ca_destroy(&f.a);
}

/* ---- per-stream pools ---------------------------------------------------------------------- */

Test(allocator, per_stream_pools)
{
    fx f;
    fx_init(&f, 0);
    ca_block *a = must_alloc(&f, 4 * MiB, 0);
    const ca_segment *seg0 = a->seg;
    must_free(&f, a); /* stream 0 caches a free 20 MiB block */
    ca_block *b = must_alloc(&f, 4 * MiB, 1);
    cr_assert_eq(b->stream, 1, "the block is stream 1's");
    EXPECT(&f, 4 * MiB, 4 * MiB, 40 * MiB, "stream 1 cannot reuse stream 0's free block: a second 20 MiB segment");
    ca_block *c = must_alloc(&f, 4 * MiB, 0);
    cr_assert_eq(c->seg, seg0, "stream 0 reuses its own segment");
    EXPECT(&f, 8 * MiB, 8 * MiB, 40 * MiB, "stream 0 reuses its cached block");
    /* the small pool too */
    ca_block *s0 = must_alloc(&f, 1000, 0), *s1 = must_alloc(&f, 1000, 1);
    cr_assert_neq(s0->seg, s1->seg, "small tensors of two streams live in two 2 MiB segments");
    EXPECT(&f, 8 * MiB + 2048, 8 * MiB + 2000, 44 * MiB, "two small segments");
    must_free(&f, b); /* freed on stream 1: goes back to stream 1's pool */
    ca_block *d = must_alloc(&f, 4 * MiB, 0);
    EXPECT(&f, 8 * MiB + 2048, 8 * MiB + 2000, 44 * MiB, "stream 0 fits in its 20 MiB segment (16 MiB free)");
    cr_assert_eq(d->seg, c->seg, "stream 0's 4 MiB goes to its own segment, not stream 1's free one");
    ca_destroy(&f.a);
}

/* ---- empty_cache (release_cached_blocks) --------------------------------------------------- */

Test(allocator, empty_cache_releases_only_free_segments)
{
    fx f;
    fx_init(&f, 0);
    ca_block *x = must_alloc(&f, 16 * MiB, 0);  /* segment 16 MiB */
    ca_block *w = must_alloc(&f, 4 * MiB, 0);   /* segment 20 MiB */
    ca_block *t = must_alloc(&f, 512, 0);       /* segment 2 MiB (small) */
    ca_block *u = must_alloc(&f, 600000, 0);    /* the same small segment */
    ca_block *y = must_alloc(&f, 12 * MiB, 1);  /* segment 12 MiB on stream 1 */
    EXPECT(&f, 16 * MiB + 4 * MiB + 512 + 600064 + 12 * MiB, 16 * MiB + 4 * MiB + 512 + 600000 + 12 * MiB,
           (16 + 20 + 2 + 12) * MiB, "five tensors");
    must_free(&f, x);
    must_free(&f, u);
    must_free(&f, y);
    EXPECT(&f, 4 * MiB + 512, 4 * MiB + 512, 50 * MiB, "freed: memory stays reserved until empty_cache");
    cr_assert_eq(ca_empty_cache(&f.a), CA_OK, "empty_cache");
    invariants(&f, "empty_cache");
    /* the 16 MiB and stream 1's 12 MiB go; w's 20 MiB and t's 2 MiB (one live 512 B tensor) stay */
    EXPECT(&f, 4 * MiB + 512, 4 * MiB + 512, 22 * MiB, "after empty_cache");
    ca_stats st = ca_get_stats(&f.a);
    cr_assert_eq(st.cuda_frees, 2ul, "two cudaFree, not %lu", st.cuda_frees);
    cr_assert_eq(st.segments, 2, "two segments stay");
    cr_assert_eq(f.a.last.released_bytes, 28 * MiB, "released 28 MiB, not %llu", U(f.a.last.released_bytes));
    cr_assert_eq(st.free, 16 * MiB + 2 * MiB - 512, "still cached: 16 MiB of w's segment, 2 MiB - 512 of t's");
    must_free(&f, w);
    must_free(&f, t);
    cr_assert_eq(ca_empty_cache(&f.a), CA_OK, "empty_cache");
    EXPECT(&f, 0, 0, 0, "nothing live: nothing reserved");
    cr_assert_eq(f.sd.used, 0ull, "the device has every byte back");
    ca_destroy(&f.a);
}

/* ---- the figures: allocated, requested, reserved, nvidia-smi, fragmentation -------------- */

Test(allocator, allocated_counts_block_size_not_request)
{
    fx f;
    fx_init(&f, 0);
    must_alloc(&f, 11 * MiB + 512 * KiB, 0); /* a 12 MiB segment, rest 512 KiB kept */
    must_alloc(&f, 3000000, 0);              /* rounded 3000320, split from a 20 MiB segment */
    must_alloc(&f, 4, 0);                    /* 512 B of a 2 MiB segment */
    EXPECT(&f, 3000320 + 12 * MiB + 512, 3000000 + 11 * MiB + 512 * KiB + 4, 20 * MiB + 12 * MiB + 2 * MiB,
           "memory_allocated counts block sizes; requested the callers' sizes");
    ca_stats st = ca_get_stats(&f.a);
    cr_assert_eq(st.live_blocks, 3, "three live blocks");
    cr_assert_eq(st.free, st.reserved - st.allocated, "free = reserved - allocated");
    ca_destroy(&f.a);
}

Test(allocator, nvidia_smi_is_reserved_plus_context)
{
    cr_assert_eq(CA_CONTEXT_BYTES, 500 * MiB, "the assumed context is 500 MiB (H100/H200, recent driver)");
    fx f;
    fx_init(&f, 0);
    must_alloc(&f, 1, 0);
    ca_stats st = ca_get_stats(&f.a);
    /* one byte of tensor: nvidia-smi shows the 2 MiB segment and the context */
    cr_assert_eq(st.reserved + CA_CONTEXT_BYTES, 502 * MiB, "1 B tensor: nvidia-smi 502 MiB");
    cr_assert_eq(st.allocated, 512ull, "memory_allocated 512 B");
    ca_destroy(&f.a);
}

Test(allocator, fragmentation_definition)
{
    fx f;
    fx_init(&f, 0);
    cr_assert_eq(ca_get_stats(&f.a).fragmentation, 0.0, "nothing reserved: 0");
    ca_block *a = must_alloc(&f, 4 * MiB, 0), *b = must_alloc(&f, 4 * MiB, 0);
    must_alloc(&f, 4 * MiB, 0);
    (void)a;
    /* free: the 8 MiB rest, one block: fragmentation 0 */
    cr_assert_eq(ca_get_stats(&f.a).fragmentation, 0.0, "one free block: 0");
    must_free(&f, b);
    ca_stats st = ca_get_stats(&f.a);
    cr_assert_eq(st.free, 12 * MiB, "free 4 + 8 MiB");
    cr_assert_eq(st.largest_free, 8 * MiB, "largest 8 MiB");
    cr_assert_float_eq(st.fragmentation, 1.0 / 3.0, 1e-12, "1 - 8/12 = 1/3, got %.15g", st.fragmentation);
    ca_destroy(&f.a);
}

/* ---- malloc's retry: release_cached_blocks, then cudaMalloc once more ------------------- */

Test(allocator, oom_retry_releases_cache)
{
    fx f;
    fx_init(&f, 40 * MiB);
    ca_block *a = must_alloc(&f, 4 * MiB, 0); /* 20 MiB segment */
    must_free(&f, a);
    /* 30 MiB: the cached 20 MiB block is too small, cudaMalloc(30 MiB) fails (20 + 30 > 40),
     * the cache is released, the retry succeeds */
    must_alloc(&f, 30 * MiB, 0);
    ca_stats st = ca_get_stats(&f.a);
    cr_assert(f.a.last.retried, "the allocation was retried");
    cr_assert_eq(f.a.last.released_segments, 1, "one cached segment released");
    EXPECT(&f, 30 * MiB, 30 * MiB, 30 * MiB, "after the retry");
    cr_assert_eq(st.alloc_retries, 1ul, "num_alloc_retries 1");
    cr_assert_eq(st.cuda_mallocs, 2ul, "two cudaMalloc");
    cr_assert_eq(st.cuda_frees, 1ul, "one cudaFree");
    cr_assert_eq(st.ooms, 0ul, "no OOM");
    ca_destroy(&f.a);
}

Test(allocator, oom_after_retry)
{
    fx f;
    fx_init(&f, 40 * MiB);
    must_alloc(&f, 30 * MiB, 0);
    ca_block *b = (ca_block *)1;
    int st = ca_malloc(&f.a, 4 * MiB, 0, &b); /* needs a 20 MiB segment: 30 + 20 > 40, nothing cached */
    cr_assert_eq(st, CA_ERR_OOM, "out of memory, got %d", st);
    cr_assert_null(b, "no block on failure");
    cr_assert(strstr(f.a.err, "CUDA out of memory. Tried to allocate 20.00 MiB") != NULL, "PyTorch's message: %s",
              f.a.err);
    cr_assert(strstr(f.a.err, "30.00 MiB is allocated by PyTorch") != NULL, "names what is allocated: %s", f.a.err);
    ca_stats s = ca_get_stats(&f.a);
    cr_assert_eq(s.ooms, 1ul, "num_ooms 1");
    cr_assert_eq(s.alloc_retries, 1ul, "it retried first");
    invariants(&f, "the failed malloc");
    EXPECT(&f, 30 * MiB, 30 * MiB, 30 * MiB, "unchanged by the failure");
    ca_destroy(&f.a);
}

/* ---- edges -------------------------------------------------------------------------------- */

Test(allocator, zero_bytes_is_a_null_block)
{
    fx f;
    fx_init(&f, 0);
    ca_block *b = (ca_block *)1;
    cr_assert_eq(ca_malloc(&f.a, 0, 0, &b), CA_OK, "malloc(0) succeeds");
    cr_assert_null(b, "malloc(0) gives no block");
    EXPECT(&f, 0, 0, 0, "malloc(0) reserves nothing");
    cr_assert_eq(ca_free(&f.a, NULL), CA_OK, "free(NULL) is a no-op");
    ca_destroy(&f.a);
}

Test(allocator, bad_free_and_bad_stream)
{
    fx f;
    fx_init(&f, 0);
    ca_block *a = must_alloc(&f, 8 * MiB, 0), *b = must_alloc(&f, 1 * MiB + 512, 0);
    (void)b;
    must_free(&f, b); /* b merges into the rest; a is still live */
    cr_assert_eq(ca_free(&f.a, a->next), CA_ERR_INVALID, "freeing a free block fails");
    cr_assert(strstr(f.a.err, "already free"), "says why: %s", f.a.err);
    fx g;
    fx_init(&g, 0);
    ca_block *other = must_alloc(&g, 100, 0);
    cr_assert_eq(ca_free(&f.a, other), CA_ERR_INVALID, "a block of another allocator");
    ca_block *c;
    cr_assert_eq(ca_malloc(&f.a, 100, CA_MAX_STREAMS, &c), CA_ERR_INVALID, "stream %d is out of range", CA_MAX_STREAMS);
    invariants(&f, "the refused calls");
    ca_destroy(&f.a);
    ca_destroy(&g.a);
}

/* ---- traces --------------------------------------------------------------------------------- */

Test(allocator, trace_parse_units_and_streams)
{
    ca_trace t;
    char err[256];
    const char *text = "# heading one\n"
                       "alloc a 3000000\n"
                       "alloc b 4MiB 1   # a comment\n"
                       "alloc c 1.5MiB\n"
                       "alloc d 20MB 7\n"
                       "alloc e 2k\n"
                       "\n"
                       "free a\n"
                       "empty_cache\r\n";
    cr_assert_eq(ca_trace_parse(&t, text, "t", err, sizeof err), 0, "parse: %s", err);
    cr_assert_eq(t.n, 8, "7 steps and a heading, got %d ops", t.n);
    cr_assert_eq(t.steps, 7, "7 steps");
    cr_assert_eq(t.ops[0].kind, CA_TRACE_HEADING, "a heading first");
    cr_assert_str_eq(t.ops[0].text, "heading one", "the heading's text");
    static const uint64_t bytes[] = {3000000, 4194304, 1572864, 20000000, 2048};
    static const int streams[] = {0, 1, 0, 7, 0};
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(t.ops[1 + i].kind, CA_TRACE_ALLOC, "op %d is an alloc", 1 + i);
        cr_assert_eq(t.ops[1 + i].bytes, bytes[i], "op %d: %llu bytes, want %llu", 1 + i, U(t.ops[1 + i].bytes), U(bytes[i]));
        cr_assert_eq(t.ops[1 + i].stream, streams[i], "op %d: stream %d", 1 + i, t.ops[1 + i].stream);
    }
    cr_assert_str_eq(t.ops[2].text, "alloc b 4MiB 1", "the step as written, without its comment");
    cr_assert_eq(t.ops[6].kind, CA_TRACE_FREE, "free a");
    cr_assert_eq(t.ops[6].line, 8, "line numbers count blank lines: %d", t.ops[6].line);
    cr_assert_eq(t.ops[7].kind, CA_TRACE_EMPTY_CACHE, "empty_cache (CRLF)");
    ca_trace_free(&t);
}

Test(allocator, trace_parse_errors_name_the_line)
{
    static const struct { const char *text, *want; } cases[] = {
        {"alloc a 10\nfree b\n", "t:2: free b: no live tensor"},
        {"alloc a 10\nalloc a 20\n", "t:2: alloc a: 'a' is already live (allocated on line 1)"},
        {"alloc a 10 8\n", "t:1: alloc a: stream '8': streams are 0 to 7"},
        {"alloc a ten\n", "t:1: alloc a: 'ten' is not a size"},
        {"alloc a 1.5\n", "t:1: alloc a: '1.5' is not a size"},
        {"malloc a 10\n", "t:1: unknown step 'malloc'"},
        {"free\n", "t:1: expected `free NAME`"},
        {"empty_cache now\n", "t:1: empty_cache takes no arguments"},
        {"alloc a 10\nfree a\nfree a\n", "t:3: free a: no live tensor"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ca_trace t;
        char err[256] = "";
        cr_assert_eq(ca_trace_parse(&t, cases[i].text, "t", err, sizeof err), -1, "case %zu parses but must not", i);
        cr_assert(strstr(err, cases[i].want) != NULL, "case %zu: the message should contain \"%s\"; it is: %s", i,
                  cases[i].want, err);
    }
}

/* The lesson's built-in trace, step by step: what torch.cuda.memory_allocated()
 * and memory_reserved() would say after each step (hand-checked: see the
 * comments of ca_trace_default in alloc_trace.c). */
Test(allocator, trace_default_replay_every_step)
{
    static const struct { uint64_t allocated, reserved; int segments; } want[] = {
        {4194304, 20 * MiB, 1},   /*  1 alloc w1 4 MiB: 20 MiB segment (kLargeBuffer) */
        {4198400, 22 * MiB, 2},   /*  2 alloc b1 4096: 2 MiB small segment */
        {4239360, 22 * MiB, 2},   /*  3 alloc w2 40960 */
        {4239872, 22 * MiB, 2},   /*  4 alloc b2 40 -> 512 */
        {21017088, 22 * MiB, 2},  /*  5 alloc x 16 MiB: best fit, w1's free 16 MiB */
        {37794304, 38 * MiB, 3},  /*  6 alloc h 16 MiB: 16 MiB segment (kRoundLarge) */
        {37958144, 38 * MiB, 3},  /*  7 alloc logits 163840 */
        {37958656, 38 * MiB, 3},  /*  8 alloc loss 4 -> 512 */
        {38122496, 38 * MiB, 3},  /*  9 alloc grad_logits */
        {38121984, 38 * MiB, 3},  /* 10 free loss */
        {38162944, 38 * MiB, 3},  /* 11 alloc grad_w2 */
        {54940160, 54 * MiB, 4},  /* 12 alloc grad_h 16 MiB: new segment */
        {54776320, 54 * MiB, 4},  /* 13 free logits */
        {54612480, 54 * MiB, 4},  /* 14 free grad_logits */
        {58806784, 74 * MiB, 5},  /* 15 alloc grad_w1: a second 20 MiB segment */
        {42029568, 74 * MiB, 5},  /* 16 free h */
        {25252352, 74 * MiB, 5},  /* 17 free grad_h */
        {28252672, 74 * MiB, 5},  /* 18 alloc scratch 3000000 -> 3000320 */
        {25252352, 74 * MiB, 5},  /* 19 free scratch */
        {21058048, 74 * MiB, 5},  /* 20 free grad_w1 */
        {21017088, 74 * MiB, 5},  /* 21 free grad_w2 */
        {4239872, 74 * MiB, 5},   /* 22 free x */
        {21017088, 90 * MiB, 6},  /* 23 alloc x_next 16 MiB on stream 1: new segment */
        {21017088, 38 * MiB, 3},  /* 24 empty_cache: 16 + 16 + 20 MiB released */
        {41988608, 58 * MiB, 4},  /* 25 alloc buf 19.5 MiB: 20 MiB segment, not split */
    };
    ca_trace t;
    char err[512];
    cr_assert_eq(ca_trace_parse(&t, ca_trace_default, "default", err, sizeof err), 0, "parse: %s", err);
    cr_assert_eq(t.steps, (int)(sizeof want / sizeof want[0]), "%d steps", t.steps);
    fx f;
    fx_init(&f, 0);
    ca_replay r;
    ca_replay_init(&r, &f.a);
    int step = 0;
    for (int i = 0; i < t.n; i++) {
        if (t.ops[i].kind == CA_TRACE_HEADING)
            continue;
        int st = ca_replay_step(&r, &t.ops[i], err, sizeof err);
        cr_assert_eq(st, CA_OK, "step %d (%s): %s", step + 1, t.ops[i].text, err);
        cr_assert(ca_replay_check(&r, err, sizeof err), "step %d (%s): %s", step + 1, t.ops[i].text, err);
        ca_stats s = ca_get_stats(&f.a);
        cr_assert_eq(s.allocated, want[step].allocated, "step %d (%s): allocated %llu, want %llu", step + 1,
                     t.ops[i].text, U(s.allocated), U(want[step].allocated));
        cr_assert_eq(s.reserved, want[step].reserved, "step %d (%s): reserved %llu, want %llu", step + 1,
                     t.ops[i].text, U(s.reserved), U(want[step].reserved));
        cr_assert_eq(s.segments, want[step].segments, "step %d (%s): %d segments, want %d", step + 1, t.ops[i].text,
                     s.segments, want[step].segments);
        step++;
    }
    ca_stats s = ca_get_stats(&f.a);
    cr_assert_eq(s.requested, 41463848ull, "the callers asked for %llu", U(s.requested));
    cr_assert_eq(s.peak_allocated, 58806784ull, "peak allocated %llu", U(s.peak_allocated));
    cr_assert_eq(s.peak_reserved, 90 * MiB, "peak reserved %llu", U(s.peak_reserved));
    cr_assert_eq(s.cuda_mallocs, 7ul, "7 cudaMalloc");
    cr_assert_eq(s.cuda_frees, 3ul, "3 cudaFree");
    cr_assert_eq(s.largest_free, 16 * MiB, "w1's segment keeps 16 MiB free");
    cr_assert_float_eq(s.fragmentation, 1.0 - 16777216.0 / 18828800.0, 1e-12, "fragmentation %.6f", s.fragmentation);
    const ca_live *xn = ca_replay_find(&r, "x_next");
    cr_assert(xn && xn->block && xn->block->stream == 1, "x_next lives on stream 1");
    ca_replay_free(&r);
    ca_destroy(&f.a);
    ca_trace_free(&t);
}

/* The same trace on a device of 80 MiB (lesson 5 --capacity 80m): at x_next the
 * cudaMalloc fails, the three free segments (52 MiB) are released, the retry
 * succeeds; empty_cache then has nothing left to release. */
Test(allocator, trace_default_capacity_80MiB_retries)
{
    ca_trace t;
    char err[512];
    cr_assert_eq(ca_trace_parse(&t, ca_trace_default, "default", err, sizeof err), 0, "parse: %s", err);
    fx f;
    fx_init(&f, 80 * MiB);
    ca_replay r;
    ca_replay_init(&r, &f.a);
    cr_assert_eq(ca_replay_all(&r, &t, err, sizeof err), 0, "replay: %s", err);
    ca_stats s = ca_get_stats(&f.a);
    cr_assert_eq(s.alloc_retries, 1ul, "one retry");
    cr_assert_eq(s.peak_reserved, 74 * MiB, "the retry kept reserved at 74 MiB at most, not %llu", U(s.peak_reserved));
    cr_assert_eq(s.allocated, 41988608ull, "the same tensors at the end");
    cr_assert_eq(s.reserved, 58 * MiB, "and the same segments");
    ca_replay_free(&r);
    ca_destroy(&f.a);
    ca_trace_free(&t);
}

/* A trace that uses three streams: each stream's frees serve only that stream. */
Test(allocator, trace_streams_replay)
{
    const char *text = "alloc a 6MiB 0\n"  /* 20 MiB segment on stream 0 */
                       "free a\n"
                       "alloc b 6MiB 1\n"  /* stream 1: a new 20 MiB segment */
                       "free b\n"
                       "alloc c 6MiB 2\n"  /* stream 2: another */
                       "alloc d 6MiB 1\n"  /* stream 1 reuses its own */
                       "alloc e 6MiB 0\n"  /* stream 0 reuses its own */
                       "free c\n"
                       "empty_cache\n";    /* stream 2's segment goes */
    ca_trace t;
    char err[512];
    cr_assert_eq(ca_trace_parse(&t, text, "streams", err, sizeof err), 0, "parse: %s", err);
    fx f;
    fx_init(&f, 0);
    ca_replay r;
    ca_replay_init(&r, &f.a);
    cr_assert_eq(ca_replay_all(&r, &t, err, sizeof err), 0, "replay: %s", err);
    ca_stats s = ca_get_stats(&f.a);
    cr_assert_eq(s.peak_reserved, 60 * MiB, "three 20 MiB segments at the peak, not %llu", U(s.peak_reserved));
    cr_assert_eq(s.reserved, 40 * MiB, "stream 2's segment released");
    cr_assert_eq(s.allocated, 12 * MiB, "d and e");
    cr_assert_eq(s.cuda_mallocs, 3ul, "3 cudaMalloc");
    cr_assert_eq(ca_replay_find(&r, "d")->block->stream, 1, "d on stream 1");
    cr_assert_eq(ca_replay_find(&r, "e")->block->stream, 0, "e on stream 0");
    ca_replay_free(&r);
    ca_destroy(&f.a);
    ca_trace_free(&t);
}
