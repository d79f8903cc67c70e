/* sim/l2.c - the L2 cache between the simulated SMs and HBM (issue 15).
 *
 * The simulator's "HBM bytes" are what kernels request (L1 sectors x 32). What
 * reaches DRAM is what the L2 misses and the dirty lines it writes back. This
 * file predicts that:
 *
 *  1. Recording (hot path, sim/access.c): every global access appends its
 *     32-byte sector and kind (read, write, atomic) to the worker's trace of
 *     the running block, unless it repeats the entry just appended.
 *  2. Within the block (block end, on the worker, no lock): the block's trace,
 *     in the order of each thread's accesses (see SIM_L2_OCC_SHIFT), goes
 *     through two small hashed, direct-mapped tables, empty at the block's
 *     start and sized per launch: a read of a sector the block read just
 *     before (a table of a quarter of its share of the SM's L1 model, below)
 *     is an L1 hit whatever the other blocks do; a write of a sector the block
 *     already wrote (a table of its share of the whole L1) is merged with it
 *     (a warp writes a sector as one request; rewriting a dirty sector sends
 *     nothing new to DRAM). What is left is the block's trace, its runs of
 *     consecutive sectors one entry each. Atomics always reach L2.
 *  3. A window (under a lock, in block order): on the chip SMs x blocks-per-SM
 *     blocks are resident at once. Their traces are fed interleaved, SIM_L2_RR
 *     reads of each in turn (a write costs 1 / SIM_L2_READ_COST of a read: a
 *     warp waits for its loads, not for its stores), as if they ran side by
 *     side, through the L1 of the block's SM (SIM_L1_KEEP % of what shared
 *     memory leaves of it, SIM_L1_WAYS ways, LRU; reads and writes allocate,
 *     a read that finds its sector is a hit) to the L2; when one
 *     ends, the next block in order takes its place (an SM starts a new block
 *     when one ends). A grid of more than one wave starts its first wave
 *     staggered (block i of n after i / n of the mean block's length): the
 *     chip's waves do not stay in step, so a block's accesses meet those of
 *     blocks at every stage of theirs (standard attention's softmax rereads
 *     rows the others push out; waves in step kept them). The first wave's
 *     blocks on one SM are fed oldest first (quantum_table): the oldest ends
 *     first, as the chip's age-ordered warp schedulers make it, and its writes
 *     meet the others' reads. One worker feeds while the others go on
 *     simulating; it stops where the next block is not done yet, and goes on
 *     when it is. The result does not depend on the
 *     number of workers or on timing: only on the grid and the traces.
 *  4. The L2: SIM_L2_KEEP % of the preset's size, 128-byte lines of four
 *     32-byte sectors, 16 ways, LRU; a line's set is its address, its 1 KB runs
 *     permuted inside 512 KB groups (set_of), modulo the set count.
 *     Sectors carry valid and dirty bits: a read miss fetches the aligned
 *     pair of sectors from DRAM, a write allocates without fetching (the
 *     chip keeps byte masks) and marks it dirty, an atomic fetches if needed
 *     and marks it dirty. A sector its block wrote only in part (sim_l2_wmask,
 *     l1_filter) and L2 does not hold stays partial: a read fetches it, and
 *     written back it is read from DRAM first to merge (the H100's rule,
 *     session 29). A dirty line is written back when evicted (dirty
 *     sectors only), and a set holds at most 10 or 11 dirty lines, one fewer
 *     beside a hot clean line (dirty_cap).
 *
 * By default every launch starts on an empty L2, as Nsight Compute measures
 * a kernel; sim_l2_set_cold(0) (SIMTLAB_L2_COLD=0) keeps it through the
 * program instead: what one kernel or memset leaves in it the next finds, and
 * dirty lines evicted during a kernel count as that kernel's DRAM writes.
 * docs/l2-model.md has the constants and the H200 measurements behind them.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SIM_L2_WAYS 16
#define PEND_SHIFT 4 /* valid[i] >> 4: sectors fetched with their pair's other half, not looked up since */
#define PARTIAL_SHIFT 4 /* dirty[i] >> 4: dirty sectors written only in part, not valid (l2_sector) */
#define SIM_L2_LINE_SHIFT 7 /* 128-byte lines */
#define SIM_L2_RR 16        /* reads each block of the window feeds per turn (a write costs 1 / SIM_L2_READ_COST of one) */
#define SIM_TRACE_CAP ((size_t)1 << 25) /* trace entries a block may keep (256 MB) */
#define SIM_PENDING_MAX ((uint64_t)1 << 27) /* entries of finished blocks waiting to enter the window (1 GiB) */
#define SECTOR_MASK (((uint64_t)1 << (SIM_L2_OCC_SHIFT - 2)) - 1)
#define RUN_MAX ((uint64_t)1 << (64 - SIM_L2_OCC_SHIFT)) /* sectors one entry's run may hold */

/* The model's constants, fitted to the H200 (docs/l2-model.md): */
#ifndef SIM_L2_KEEP
#define SIM_L2_KEEP 70      /* percent of the L2 that holds data a kernel re-reads (two partitions keep some lines twice) */
#endif
#define SIM_L2_FETCH 2     /* a read miss fetches 2 sectors (64 bytes, the aligned pair) from DRAM */
#define SIM_L2_PER_SM_MAX 64 /* blocks an SM may hold (sm_90: 32) */
#ifndef SIM_L2_AGE
#define SIM_L2_AGE 20 /* percent: a first-wave block's share of its SM's feed against the next older one's */
#endif
#define SIM_L2_DIRTY_WAYS 10 /* dirty lines a set may hold, one more in 2 sets of 3, one fewer beside a hot clean line (dirty_cap) */
#define SIM_L2_HASH_SHIFT 12 /* set_of permutes 1 KB runs inside aligned 512 KB groups */
#ifndef SIM_L1_KEEP
#define SIM_L1_KEEP 50 /* percent of an SM's L1 (what shared memory leaves) that keeps what its blocks read */
#endif
#define SIM_L1_WAYS 4       /* the L1 model's ways (LRU) */
#define SIM_L2_READ_COST 16 /* the window's turn: SIM_L2_RR reads of 16 each, a write 1 */

static struct {
    size_t bytes; /* the preset's L2 */
    uint32_t nsets;
    /* per line (nsets x SIM_L2_WAYS, set-major), in separate arrays so that a
     * lookup reads only the 128 bytes of its set's tags */
    uint64_t *tag; /* line address + 1; 0: empty */
    uint64_t *lru; /* last use (L2.clock) */
    uint8_t *valid, *dirty; /* per sector of the line; valid's high nibble: PEND_SHIFT, dirty's: PARTIAL_SHIFT */
    uint8_t *hot;   /* per line: looked up again (not the lookup just before) since it came in */
    uint8_t *live;  /* per set: touched in this launch (listed in touched) */
    uint32_t *touched;
    size_t n_touched;
    uint64_t clock;
    uint64_t last_line, last_way; /* the last lookup (only a lookup of another line evicts) */
    uint64_t hash_group, hash_xor; /* set_of's last group and its permutation */
    uint64_t dirty_sectors;
    /* this launch's tallies */
    uint64_t rd_sectors, wr_sectors, rd_hits, wr_hits, at_misses, fetched, written_back;
    uint64_t rewrites; /* writes of a sector already dirty (what background cleaning can write back again) */
    int overflow;
    /* blocks done but not yet fed: slot[b % cap] for b in [base, base + cap) */
    pthread_mutex_t lock;
    int feeding;
    uint64_t base, nblocks, wave, first; /* first: the first wave's blocks (min(nblocks, wave)) */
    size_t cap;
    /* base: the next block to enter the window; [base, ready_end) are done */
    struct block_trace { uint64_t *e; size_t n, pos; uint64_t sub, delay; int done, first; unsigned sm, rank; } *slot;
    /* the window: nact blocks being fed (sub: the sector of e[pos]'s run; delay:
     * rounds before a staggered block starts); cur: the slot the feed goes on at */
    struct block_trace *act;
    uint64_t nact, cur, ready_end;
    unsigned sms;         /* the preset's SMs: block b of the first wave is on SM b % sms */
    unsigned *sm_first;   /* per SM: its first-wave blocks still running (ranks 0 .. sm_first - 1, 0 the oldest) */
    unsigned quantum[SIM_L2_PER_SM_MAX + 1][SIM_L2_PER_SM_MAX]; /* [first-wave blocks running][rank]: reads a round (SIM_L2_RR's unit) */
    int started; /* the first wave entered the window */
    uint64_t stored_end; /* 1 + the highest block stored this launch (a failed launch's final feed stops there) */
    uint64_t pending;    /* entries stored and not fed yet (at most SIM_PENDING_MAX) */
    unsigned l1_shift;  /* this launch's write-merge table: 2^l1_shift sectors a block */
    unsigned l1r_shift; /* this launch's in-block read table: 2^l1r_shift sectors a block */
    /* the SMs' L1s (sms x l1_sets x SIM_L1_WAYS, SM-major), fed by the window */
    uint64_t *l1_tag, *l1_lru; /* line + 1 (0: empty); last use (l1_clock) */
    uint8_t *l1_valid;         /* per sector of the line */
    size_t l1_sets, l1_cap;    /* sets an SM this launch; lines allocated */
    uint64_t l1_clock, l1_base; /* l1_base: the clock at this launch's start (older ways are empty) */
    uint64_t l1_last_line, l1_last_way; /* the last L1 lookup (line, way) and its SM */
    unsigned l1_last_sm;
    simt_cfg cfg;       /* this launch's */
    int cold;           /* every launch starts on an empty L2 (sim_l2_set_cold) */
    uint64_t host_fetched, host_written_back; /* outside launches: copies, memsets */
} L2 = {.lock = PTHREAD_MUTEX_INITIALIZER, .last_line = UINT64_MAX, .hash_group = UINT64_MAX, .cold = 1};

/* Runs of 8 consecutive lines go to consecutive sets (the tag arrays are then
 * read in order, which the CPU prefetches); the set counts of the presets are
 * not powers of two, so power-of-two strides still spread over the sets. */
static inline size_t set_of(uint64_t line)
{
    /* The chip hashes addresses to its slices; a row-strided buffer (every row
     * of causal attention's S starts at a multiple of 64 lines) would otherwise
     * pile into a few sets. The runs of 8 lines (1 KB) inside each aligned group
     * of 2^SIM_L2_HASH_SHIFT lines are permuted (XOR with a mix of the group's
     * number): a bijection, so the whole groups of a buffer fill the sets as
     * evenly as the plain modulo (its partial end groups move a line between
     * some sets), and a run's tags stay in consecutive sets. */
    uint64_t g = line >> SIM_L2_HASH_SHIFT;
    if (g != L2.hash_group) { /* lookups come in runs: the group's mix is kept */
        uint64_t h = g ^ g >> 31;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
        L2.hash_group = g;
        L2.hash_xor = (h & (((uint64_t)1 << (SIM_L2_HASH_SHIFT - 3)) - 1)) << 3;
    }
    return (size_t)((line ^ L2.hash_xor) % L2.nsets) * SIM_L2_WAYS;
}

/* Dirty lines the set starting at way index `set` may hold; one more cleans its least
 * recently used dirty line. 10 2/3 a set on average: on the H200 preset 29.4 MB in all,
 * what the probe's pure writes of 32-256 MB left dirty (29.1-29.6 MB; docs/l2-model.md).
 * A set that also holds a clean line looked up again since it came in (a hot input:
 * standard scores' Q and K tiles; the lookup just before does not count, and a line
 * the feed splits between two turns counts too) holds one dirty line fewer
 * (l2_sector): with its inputs hot the H200 kept 26.0-26.6 MB of S dirty, one way of
 * every set less (session 15). */
static inline unsigned dirty_cap(size_t set) { return SIM_L2_DIRTY_WAYS + (set / SIM_L2_WAYS % 3 != 0); }

static inline void write_back(size_t i)
{
    unsigned n = (unsigned)__builtin_popcount(L2.dirty[i] & 15u);
    /* a sector written in part (PARTIAL_SHIFT) is read from DRAM to merge first: on the H100 the
     * fetched bytes follow the partial sectors written back (docs/gpu/s29b-h100-scatter: strided
     * 4-byte stores, 0.7 / 11.6 / 28.0 MB fetched against 0.7 / 10.8 / 25.5 MB written back) */
    L2.fetched += 32u * (unsigned)__builtin_popcount(L2.dirty[i] >> PARTIAL_SHIFT);
    L2.written_back += n * 32u;
    L2.dirty_sectors -= n;
    L2.dirty[i] = 0;
}

/* What one sector of a trace costs of a block's turn in the window: a read or
 * an atomic SIM_L2_READ_COST, a write 1 (a warp waits for its loads, not its
 * stores). kind: 0 read, 1 write, 2 atomic. */
static inline unsigned entry_cost(unsigned kind) { return kind & 1 ? 1 : SIM_L2_READ_COST; } /* writes: 1, 3 */

/* One sector of a block on SM sm through that SM's L1; 1: a read that hits
 * there (the L2 never sees it). Reads and writes allocate (the least recently
 * used way of the set goes), an atomic drops L1's copy of its sector. */
static int l1_hit(unsigned sm, uint64_t sector, unsigned kind)
{
    if (!L2.l1_sets)
        return 0;
    const uint64_t line = sector >> 2, want = line + 1;
    const uint8_t bit = (uint8_t)(1u << (sector & 3));
    size_t i = SIZE_MAX, base;
    if (line == L2.l1_last_line && sm == L2.l1_last_sm) { /* the last lookup's line (a run's next sector) */
        i = L2.l1_last_way;
        base = i - i % SIM_L1_WAYS;
    } else {
        /* the set: the line's hash scaled to the set count (a multiply, not a division) */
        base = ((size_t)sm * L2.l1_sets + (size_t)(((line * 0x9E3779B97F4A7C15ull) >> 32) * L2.l1_sets >> 32)) * SIM_L1_WAYS;
        for (size_t k = base; k < base + SIM_L1_WAYS; k++)
            if (L2.l1_tag[k] == want && L2.l1_lru[k] > L2.l1_base) { /* this launch's */
                i = k;
                break;
            }
    }
    if (kind == 2) {
        if (i != SIZE_MAX)
            L2.l1_valid[i] &= (uint8_t)~bit;
        return 0;
    }
    if (i == SIZE_MAX) {
        i = base;
        for (size_t k = base + 1; k < base + SIM_L1_WAYS; k++)
            if (L2.l1_lru[k] < L2.l1_lru[i])
                i = k;
        L2.l1_tag[i] = want;
        L2.l1_valid[i] = 0;
    }
    L2.l1_last_line = line, L2.l1_last_sm = sm, L2.l1_last_way = i;
    L2.l1_lru[i] = ++L2.l1_clock;
    const int hit = kind == 0 && (L2.l1_valid[i] & bit);
    L2.l1_valid[i] |= bit;
    return hit;
}

/* One sector through the L2. kind: 0 read, 1 write, 2 atomic, 3 a write of part of the sector
 * (its block wrote no more of it: l1_filter); where the L2 does not hold the sector, it stays
 * partial (not valid) until a read fetches it or a whole write covers it, and costs a fetch
 * when written back (write_back). */
static void l2_sector(uint64_t sector, unsigned kind)
{
    const uint64_t line = sector >> 2, want = line + 1;
    const unsigned sub = (unsigned)(sector & 3);
    const uint8_t bit = (uint8_t)(1u << sub);
    size_t i = SIZE_MAX, set;
    if (line == L2.last_line) { /* the line of the last lookup: still in its way */
        i = L2.last_way;
        set = i - i % SIM_L2_WAYS;
    } else {
        set = set_of(line);
        const uint64_t *tags = &L2.tag[set];
        for (unsigned k = 0; k < SIM_L2_WAYS; k++)
            if (tags[k] == want) {
                i = set + k;
                L2.hot[i] = 1;
                break;
            }
    }
    if (i == SIZE_MAX) { /* a miss: the least recently used way goes */
        size_t s = set / SIM_L2_WAYS;
        if (!L2.live[s]) { /* first touch of the set in this launch: it is empty */
            L2.live[s] = 1;
            L2.touched[L2.n_touched++] = (uint32_t)s;
        }
        i = set;
        for (size_t k = set + 1; k < set + SIM_L2_WAYS; k++)
            if (L2.lru[k] < L2.lru[i])
                i = k;
        if (L2.dirty[i])
            write_back(i);
        L2.tag[i] = want;
        L2.valid[i] = 0;
        L2.hot[i] = 0;
    }
    L2.lru[i] = ++L2.clock;
    L2.last_line = line;
    L2.last_way = i;
    int present = (L2.valid[i] & bit) != 0;
    /* A hit to the hit rate: present, and not the other half of a pair a miss
     * fetched that nothing has looked up since (valid's high nibble). The chip
     * looks up a request's sectors of a line together and counts each it lacked
     * as a miss, both halves of a pair (H100, flushed: scale 50 %, add 33 %);
     * here a request's sectors may come in two turns of the window. */
    const uint8_t pend = (uint8_t)(bit << PEND_SHIFT);
    int hit = present && !(L2.valid[i] & pend);
    L2.valid[i] &= (uint8_t)~pend;
    if (kind == 0) {
        L2.rd_sectors++;
        L2.rd_hits += hit;
    } else {
        L2.wr_sectors++;
        L2.wr_hits += present;
        L2.at_misses += kind == 2 && !hit;
    }
    if (!present && kind != 1 && kind != 3) { /* DRAM is read in aligned pairs of sectors */
        uint8_t fetch = (uint8_t)(SIM_L2_FETCH == 2 ? 3u << (sub & 2) : bit) & (uint8_t)~L2.valid[i] & 15u;
        L2.fetched += 32u * (unsigned)__builtin_popcount(fetch);
        L2.valid[i] |= (uint8_t)(fetch | (fetch & ~bit) << PEND_SHIFT);
        L2.dirty[i] &= (uint8_t)~(fetch << PARTIAL_SHIFT); /* the pair's partial half is whole now too */
    }
    const int partial = !present && kind == 3; /* part of a sector L2 does not hold (write_back) */
    if (!partial) {
        L2.valid[i] |= bit;
        L2.dirty[i] &= (uint8_t)~(bit << PARTIAL_SHIFT); /* whole now: written whole, or fetched */
    }
    L2.rewrites += kind != 0 && (L2.dirty[i] & bit);
    if (kind != 0 && !(L2.dirty[i] & bit)) {
        if (!(L2.dirty[i] & 15u) && SIM_L2_DIRTY_WAYS < SIM_L2_WAYS) { /* a line turns dirty: the set's cap (dirty_cap) */
            unsigned nd = 0, hot = 0;
            size_t old = SIZE_MAX;
            for (size_t k = set; k < set + SIM_L2_WAYS; k++)
                if (L2.dirty[k]) {
                    nd++;
                    if (old == SIZE_MAX || L2.lru[k] < L2.lru[old])
                        old = k;
                } else
                    hot |= L2.hot[k] && k != i;
            if (old != SIZE_MAX && nd + hot >= dirty_cap(set))
                write_back(old);
        }
        L2.dirty[i] |= bit;
        L2.dirty_sectors++;
    }
    if (partial) /* after the dirty cap's test, which looks at whole bytes of dirty[] */
        L2.dirty[i] |= (uint8_t)(bit << PARTIAL_SHIFT);
}

/* The L2 of the current preset, allocated once (and again if the preset's
 * size changes); 0 or -1 (out of memory). */
static int l2_ready(void)
{
    const sim_device *dev = sim_get_device();
    size_t bytes = dev->l2_bytes;
    if (L2.tag && L2.bytes == bytes)
        return 0;
    uint32_t nsets = (uint32_t)((bytes * SIM_L2_KEEP / 100) >> SIM_L2_LINE_SHIFT) / SIM_L2_WAYS;
    size_t n = (size_t)nsets * SIM_L2_WAYS;
    uint64_t *tag = calloc(n, sizeof *tag), *lru = calloc(n, sizeof *lru);
    uint8_t *valid = calloc(n, 1), *dirty = calloc(n, 1), *hot = calloc(n, 1), *live = calloc(nsets, 1);
    uint32_t *touched = calloc(nsets, sizeof *touched);
    if (!tag || !lru || !valid || !dirty || !hot || !live || !touched) {
        free(tag), free(lru), free(valid), free(dirty), free(hot), free(live), free(touched);
        return -1;
    }
    free(L2.tag), free(L2.lru), free(L2.valid), free(L2.dirty), free(L2.hot), free(L2.live), free(L2.touched);
    L2.tag = tag, L2.lru = lru, L2.valid = valid, L2.dirty = dirty, L2.hot = hot, L2.live = live, L2.touched = touched;
    L2.nsets = nsets;
    L2.n_touched = 0;
    L2.bytes = bytes;
    L2.clock = 0;
    L2.dirty_sectors = 0;
    L2.last_line = UINT64_MAX;
    return 0;
}

/* Empties the L2 (what the last launch touched, set by set): a cold start,
 * as Nsight Compute measures a kernel (--cache-control all). */
static void l2_clear(void)
{
    for (size_t k = 0; k < L2.n_touched; k++) {
        size_t s = L2.touched[k], i = s * SIM_L2_WAYS;
        memset(&L2.tag[i], 0, SIM_L2_WAYS * sizeof *L2.tag);
        memset(&L2.lru[i], 0, SIM_L2_WAYS * sizeof *L2.lru); /* empty ways are the least recently used */
        memset(&L2.valid[i], 0, SIM_L2_WAYS);
        memset(&L2.dirty[i], 0, SIM_L2_WAYS);
        memset(&L2.hot[i], 0, SIM_L2_WAYS);
        L2.live[s] = 0;
    }
    L2.n_touched = 0;
    L2.dirty_sectors = 0;
    L2.clock = 0;
    L2.last_line = UINT64_MAX;
}

/* ---- the hot path's slow side ----------------------------------------- */
static void occurrence_sort(sim_worker *w, uint64_t *e, uint64_t *tmp, size_t n);
static size_t l1_filter(sim_worker *w, uint64_t *e, size_t n);

/* The entries since the last compaction, sorted and filtered now. */
static int compact(sim_worker *w)
{
    size_t tail = w->l2_n - w->l2_done;
    if (w->l2_tmp_n < tail) {
        uint64_t *t = realloc(w->l2_tmp, tail * sizeof *t);
        if (!t)
            return -1;
        w->l2_tmp = t;
        w->l2_tmp_n = tail;
    }
    occurrence_sort(w, w->l2_tr + w->l2_done, w->l2_tmp, tail);
    w->l2_n = w->l2_done + l1_filter(w, w->l2_tr + w->l2_done, tail);
    w->l2_done = w->l2_n;
    return 0;
}

/* The hot path reached l2_lim (sim_l2_full). Every SIM_TRACE_CHUNK entries the new ones
 * are sorted and filtered (what sim_l2_block_done does at the block's end: near
 * rereads dropped, rewrites merged, runs of sectors one entry each); the
 * buffer doubles as needed up to SIM_TRACE_CAP entries. Past that (or out
 * of memory) the newest entries are dropped and the launch's L2 figures are
 * marked incomplete (a lower bound). Memory per worker: SIM_TRACE_CAP + one
 * chunk of entries at most. */
static void sim_l2_grow(sim_worker *w)
{
    if (w->l2_n - w->l2_done >= SIM_TRACE_CHUNK && compact(w))
        w->l2_lost = 1, w->l2_n = w->l2_done; /* no room to sort: the chunk is lost */
    if (w->l2_n == w->l2_alloc) {
        /* straight to a chunk (one allocation, not a cascade of copies), then doubling */
        size_t cap = w->l2_alloc < SIM_TRACE_CHUNK ? SIM_TRACE_CHUNK : w->l2_alloc * 2;
        uint64_t *e = cap <= SIM_TRACE_CAP ? realloc(w->l2_tr, cap * sizeof *e) : NULL;
        if (e) {
            w->l2_tr = e;
            w->l2_alloc = cap;
        } else { /* full: drop the entries not yet sorted, and half the rest if that is not room */
            w->l2_lost = 1;
            w->l2_n = w->l2_done = w->l2_done < w->l2_alloc / 2 ? w->l2_done : w->l2_alloc / 2;
        }
    }
    w->l2_lim = w->l2_done + SIM_TRACE_CHUNK < w->l2_alloc ? w->l2_done + SIM_TRACE_CHUNK : w->l2_alloc;
}

void sim_l2_turn(sim_worker *w) { sim_yield(w, 1); }

void sim_l2_full(sim_worker *w, uint64_t entry, int turn)
{
    if (w->vol_thread) { /* maybe not full: closed after a volatile access (sim/access.c vol_arm) */
        sim_vol_fire(w, turn); /* turn 0: inside an atomic or a copy, no lockstep */
        if (w->vol_thread) /* another lane's, armed while this one waited: open, or sim_l2_grow below */
            sim_vol_fire(w, 0); /* would move l2_lim under a saved one */
        const uint64_t e = entry & (((uint64_t)1 << SIM_L2_OCC_SHIFT) - 1);
        if ((e & 3) != 2 && (e == w->l2_last || e == w->l2_last2)) /* a repeat after all (sim_l2_note) */
            goto turn;
        if (w->l2_n < w->l2_lim)
            goto append;
    }
    sim_l2_grow(w);
append:
    w->l2_last2 = w->l2_last;
    w->l2_last = entry & (((uint64_t)1 << SIM_L2_OCC_SHIFT) - 1);
    w->l2_tr[w->l2_n++] = entry;
turn:
    if (turn && !(((entry >> SIM_L2_OCC_SHIFT) + 1) & (SIM_L2_TURN - 1)) &&
        w->waw_mode == 0) /* not inside a struct copy into shared memory (sim/access.c range_access) */
        sim_l2_turn(w);
}

/* ---- launches ------------------------------------------------------------ */
/* Blocks of one SM at a time: the preset's limits on threads, blocks and
 * shared memory, and the kernel's __launch_bounds__ blocks where it declares
 * them (its registers allow that many: sim/kernel.h; registers themselves are
 * not known, nor is static __shared__). */
unsigned sim_blocks_per_sm(const sim_device *dev, const simt_cfg *cfg)
{
    unsigned threads = cfg->block.x * cfg->block.y * cfg->block.z;
    unsigned warps = (threads + 31) / 32;
    unsigned n = dev->max_blocks_per_sm;
    unsigned by_threads = dev->max_threads_per_sm / (warps * 32);
    if (by_threads < n)
        n = by_threads;
    if (cfg->shared_bytes) {
        size_t per = cfg->shared_bytes + 1024; /* the 1 KB the chip reserves a block */
        unsigned by_shared = (unsigned)(dev->shared_per_sm / per);
        if (by_shared < n)
            n = by_shared;
    }
    if (cfg->min_blocks_per_sm && cfg->min_blocks_per_sm < n)
        n = cfg->min_blocks_per_sm;
    return n ? n : 1;
}

/* The sectors a block of the first wave feeds per round, by its age on its SM
 * (docs/l2-model.md "The first wave, oldest first"): the blocks of a first wave
 * start together, and an SM's warp schedulers favour the oldest warps, so of
 * its k first-wave blocks the oldest runs ahead and ends first; its writes then
 * meet the others' reads (the H200 writes back a share of what a single wave
 * writes at its blocks' ends; fed in step, the model wrote back none). Rank r
 * of k gets RR k g^r / (1 + g + ... + g^(k-1)) reads (at least 1), so an SM
 * feeds about RR k a round whatever its blocks' ages; g = SIM_L2_AGE / 100
 * (1: plain round robin). Blocks that replace ended ones arrive one by one,
 * already apart, and get RR each: ranking them too drove blocks that share
 * tiles apart (standard attention's pv, causal, d = 128: +38 % DRAM read). */
static void quantum_table(unsigned per_sm)
{
    const double g = SIM_L2_AGE / 100.0;
    if (per_sm > SIM_L2_PER_SM_MAX)
        per_sm = SIM_L2_PER_SM_MAX;
    for (unsigned k = 1; k <= per_sm; k++) {
        double sum = 0, w = 1;
        for (unsigned r = 0; r < k; r++, w *= g)
            sum += w;
        w = 1;
        for (unsigned r = 0; r < k; r++, w *= g) {
            double q = SIM_L2_RR * (double)k * w / sum + 0.5;
            L2.quantum[k][r] = q < 1 ? 1 : (unsigned)q;
        }
    }
}

int sim_l2_launch_begin(const simt_cfg *cfg, uint64_t nblocks)
{
    if (l2_ready())
        return -1;
    if (L2.cold)
        l2_clear();
    L2.rd_sectors = L2.wr_sectors = L2.rd_hits = L2.wr_hits = L2.at_misses = L2.fetched = L2.written_back = L2.rewrites = 0;
    L2.cfg = *cfg;
    L2.overflow = 0;
    L2.base = 0;
    L2.nblocks = nblocks;
    const sim_device *dev = sim_get_device();
    unsigned per_sm = sim_blocks_per_sm(dev, cfg);
    L2.wave = (uint64_t)dev->sm_count * per_sm;
    L2.first = nblocks < L2.wave ? nblocks : L2.wave;
    /* L1 and shared memory are one array of shared_per_sm + 28 KB an SM (256 KB
     * on sm_90); what the resident blocks' shared memory leaves is L1 (static
     * __shared__ is not known: counted as none). The write-merge table is a
     * block's share of all of it; the SM's L1 model keeps SIM_L1_KEEP % (the
     * H200's L1 passed 92-97 % of the rereads of 32 KB rows with 8 blocks an SM
     * and 224 KB of L1: scripts/gpu/softmax_probe.cu); a block's own read table
     * a quarter of its share of that. */
    size_t l1 = dev->shared_per_sm + (28 << 10), used = (size_t)per_sm * (cfg->shared_bytes + (cfg->shared_bytes ? 1024 : 0));
    size_t left = used < l1 ? l1 - used : 0, sectors = left / per_sm / 32;
    size_t kept = left * SIM_L1_KEEP / 100, rsectors = kept / per_sm / 32 / 4;
    L2.l1_shift = L2.l1r_shift = 5; /* at least 32 sectors */
    while (L2.l1_shift < SIM_L1_SHIFT_MAX && ((size_t)2 << L2.l1_shift) <= sectors)
        L2.l1_shift++;
    while (L2.l1r_shift < SIM_L1_SHIFT_MAX && ((size_t)2 << L2.l1r_shift) <= rsectors)
        L2.l1r_shift++;
    L2.l1_sets = kept / 128 / SIM_L1_WAYS;
    size_t lines = L2.l1_sets * SIM_L1_WAYS * dev->sm_count;
    if (L2.l1_cap < lines) {
        free(L2.l1_tag), free(L2.l1_lru), free(L2.l1_valid);
        L2.l1_tag = calloc(lines, sizeof *L2.l1_tag), L2.l1_lru = calloc(lines, sizeof *L2.l1_lru);
        L2.l1_valid = calloc(lines, 1);
        L2.l1_cap = L2.l1_tag && L2.l1_lru && L2.l1_valid ? lines : 0;
        if (!L2.l1_cap)
            return -1;
    }
    /* the chip's L1 starts every kernel empty: ways last used before now count as
     * empty (l1_hit), so nothing is cleared, whatever the launch's size */
    L2.l1_base = L2.l1_clock;
    L2.l1_last_line = UINT64_MAX;
    L2.feeding = 0;
    size_t want = (size_t)L2.wave * 4;
    if (L2.cap < want) {
        struct block_trace *s = realloc(L2.slot, want * sizeof *s);
        if (!s)
            return -1;
        L2.slot = s;
        L2.cap = want;
    }
    memset(L2.slot, 0, L2.cap * sizeof *L2.slot);
    struct block_trace *act = realloc(L2.act, L2.wave * sizeof *act);
    if (!act)
        return -1;
    L2.act = act;
    unsigned *first = realloc(L2.sm_first, dev->sm_count * sizeof *first);
    if (!first)
        return -1;
    L2.sm_first = first;
    memset(first, 0, dev->sm_count * sizeof *first);
    L2.sms = dev->sm_count;
    quantum_table(per_sm);
    L2.nact = L2.cur = L2.ready_end = 0;
    L2.started = 0;
    L2.stored_end = 0;
    L2.pending = 0;
    return 0;
}

/* What the block catches itself; the rest goes on to the window (its SM's L1,
 * then L2). In place. A read of a sector the block read just before (still in
 * its small read table) is an L1 hit whatever the SM's other blocks do; a
 * write of a sector the block already wrote (its write table) is merged with it
 * (on the chip, a warp's lanes write a sector as one request, and rewriting a
 * dirty sector changes nothing L2 sends to DRAM); an atomic drops the sector
 * from both. */
static size_t l1_filter(sim_worker *w, uint64_t *e, size_t n)
{
    uint64_t *wtags = w->l1_tags, *rtags = w->l1r_tags; /* sector << 31 | gen << 1; gen: the block's (30 bits, never 0) */
    size_t k = 0;
    const uint64_t gen = w->l1_gen << 1;
    for (size_t i = 0; i < n; i++) {
        e[i] &= ((uint64_t)1 << SIM_L2_OCC_SHIFT) - 1; /* the occurrence has done its work */
        uint64_t s = e[i] >> 2, t = s << 31 | gen, h = s * 0x9E3779B97F4A7C15ull; /* hashed: strides spread */
        uint64_t *rslot = &rtags[h >> (64 - L2.l1r_shift)];
        unsigned kind = (unsigned)(e[i] & 3);
        if (kind == 0) {
            if (*rslot == t)
                continue; /* an L1 hit */
            *rslot = t;
        } else {
            uint64_t *wslot = &wtags[h >> (64 - L2.l1_shift)];
            if (kind == 1) {
                if (*wslot == t)
                    continue; /* merged with the block's earlier write */
                *wslot = t;
                if (sim_wm_partial(w, s)) /* part of the sector only, so far: L2 will fetch the rest */
                    e[i] |= 3;
            } else {
                *wslot = 0; /* an atomic is made at L2: L1's copy is stale */
                if (*rslot == t)
                    *rslot = 0;
            }
        }
        /* runs of consecutive sectors of one kind are one entry: the run's
         * length - 1 in the bits the occurrence had (a stream is a few entries) */
        if (k) {
            uint64_t prev = e[k - 1], len = prev >> SIM_L2_OCC_SHIFT;
            if ((prev & 3) == (e[i] & 3) && (prev >> 2 & SECTOR_MASK) + len + 1 == s && len + 1 < RUN_MAX) {
                e[k - 1] += (uint64_t)1 << SIM_L2_OCC_SHIFT;
                continue;
            }
        }
        e[k++] = e[i];
    }
    return k;
}

/* Under the lock: block b's trace, moved out of its slot into *t. */
static void take_locked(uint64_t b, struct block_trace *t)
{
    struct block_trace *s = &L2.slot[b % L2.cap];
    *t = (struct block_trace){.e = s->done ? s->e : NULL, .n = s->done ? s->n : 0};
    L2.pending -= t->n;
    memset(s, 0, sizeof *s);
}

/* The next block in order for a window slot whose block ended: 1 (in *t), -1 none
 * left, 0 not done yet; then the caller stops feeding, and gives up the feeder's
 * role under the same lock as the check, so that the worker storing that block
 * takes the role over (store_locked). final: a block that never ran is empty,
 * and none past the last one that ran is walked (a failed launch). */
static int take_next(int final, struct block_trace *t)
{
    pthread_mutex_lock(&L2.lock);
    uint64_t b = L2.base;
    int r = 1;
    if (b >= L2.nblocks || (final && b >= L2.stored_end))
        r = -1;
    else if (!final && b >= L2.ready_end)
        r = 0, L2.feeding = 0;
    else {
        take_locked(b, t);
        L2.base = b + 1;
        if (L2.ready_end < L2.base)
            L2.ready_end = L2.base;
    }
    pthread_mutex_unlock(&L2.lock);
    return r;
}

/* Under the lock, once the first wave's blocks are done: they enter the window. */
static void start_window(int final)
{
    uint64_t n = L2.first;
    if (final && n > L2.stored_end)
        n = L2.stored_end;
    for (uint64_t b = 0; b < n; b++) {
        take_locked(b, &L2.act[b]);
        struct block_trace *t = &L2.act[b];
        t->sm = (unsigned)(b % L2.sms); /* the chip deals the first wave round the SMs */
        t->first = L2.sm_first[t->sm] < SIM_L2_PER_SM_MAX; /* past the table's size: round robin */
        if (t->first)
            t->rank = L2.sm_first[t->sm]++;
    }
    L2.nact = n;
    L2.cur = 0;
    L2.base = n;
    if (L2.ready_end < n)
        L2.ready_end = n;
    L2.started = 1;
}

/* The feeder, outside the lock (the window is its own), before the first round:
 * a grid of more than one wave starts its first wave staggered, block i of n
 * after i / n of their mean length: on the chip the waves do not stay in step
 * (a block starts when one ends, and blocks drift apart), so a block's accesses
 * meet those of blocks at every stage of theirs (docs/l2-model.md "Blocks in a
 * sliding window"). One wave alone starts in step, as it does on the chip. */
static void stagger_window(void)
{
    const uint64_t n = L2.nact;
    if (L2.nblocks <= L2.wave || !n)
        return;
    uint64_t cost = 0; /* in the window's turns' units (entry_cost) */
    for (uint64_t b = 0; b < n; b++)
        for (size_t k = 0; k < L2.act[b].n; k++) {
            uint64_t e = L2.act[b].e[k];
            cost += ((e >> SIM_L2_OCC_SHIFT) + 1) * entry_cost((unsigned)(e & 3));
        }
    const uint64_t rounds = cost / n / SIM_L2_RR / SIM_L2_READ_COST;
    for (uint64_t b = 0; b < n; b++)
        L2.act[b].delay = rounds * b / n;
}

/* The first-wave block of slot t ended: the younger first-wave blocks of its SM
 * move up a rank. */
static void leave_first(struct block_trace *t)
{
    for (uint64_t x = 0; x < L2.nact; x++) {
        struct block_trace *o = &L2.act[x];
        o->rank -= o->first && o->sm == t->sm && o->rank > t->rank;
    }
    L2.sm_first[t->sm]--;
    t->first = 0;
}

/* Feeds the window round by round, from where the last call stopped: each block
 * in it its share in turn (a first-wave block its quantum_table share, the others
 * SIM_L2_RR reads, a write costing 1 / SIM_L2_READ_COST of one), each sector
 * through its SM's L1 (l1_hit) to the L2, as if they ran side by side; a block that
 * ends is replaced, in its place, by the next block in order (as an SM takes a
 * new block when one ends). 1: the window is empty (every block fed); 0: a
 * replacement is not done yet (take_next gave the feeder's role up). */
static int feed_window(int final)
{
    while (L2.nact) {
        while (L2.cur < L2.nact) {
            struct block_trace *t = &L2.act[L2.cur];
            if (t->delay) {
                t->delay--;
                L2.cur++;
                continue;
            }
            unsigned budget = SIM_L2_READ_COST * (t->first ? L2.quantum[L2.sm_first[t->sm]][t->rank] : SIM_L2_RR);
            while (budget && t->pos < t->n) {
                uint64_t e = t->e[t->pos], len = (e >> SIM_L2_OCC_SHIFT) + 1, sector = (e >> 2 & SECTOR_MASK) + t->sub;
                const unsigned kind = (unsigned)(e & 3), cost = entry_cost(kind);
                budget = budget > cost ? budget - cost : 0;
                if (!l1_hit(t->sm, sector, kind))
                    l2_sector(sector, kind);
                if (++t->sub == len)
                    t->sub = 0, t->pos++;
            }
            int r = 1;
            while (t->pos >= t->n && r > 0) { /* ended (or empty): the next block in order, the SM's youngest */
                if (t->first)
                    leave_first(t);
                const unsigned sm = t->sm;
                free(t->e);
                *t = (struct block_trace){.sm = sm};
                r = take_next(final, t);
                if (r != 0)
                    t->sm = sm; /* take_next wrote the whole record (0: the slot is another feeder's now) */
            }
            if (r == 0)
                return 0; /* resumed here: the slot is empty and asks again */
            if (r < 0) {
                *t = L2.act[--L2.nact]; /* none left: the last slot moves here (fed in this round) */
                continue;
            }
            L2.cur++;
        }
        L2.cur = 0;
    }
    return 1;
}

/* Feeds what the done blocks allow; one feeder at a time (the others only
 * store their blocks and go on). */
static void feed_ready(int final)
{
    pthread_mutex_lock(&L2.lock);
    if (L2.feeding || (!L2.started && !final && L2.ready_end < L2.first)) {
        pthread_mutex_unlock(&L2.lock);
        return;
    }
    int fresh = !L2.started;
    if (fresh)
        start_window(final);
    L2.feeding = 1;
    pthread_mutex_unlock(&L2.lock);
    if (fresh)
        stagger_window();
    if (feed_window(final)) {
        pthread_mutex_lock(&L2.lock);
        L2.feeding = 0;
        pthread_mutex_unlock(&L2.lock);
    }
}

/* Entries in occurrence order (stable: threads in the order they ran), by
 * an LSD radix sort over the occurrence bits in use; tmp holds n entries. */
static void occurrence_sort(sim_worker *w, uint64_t *e, uint64_t *tmp, size_t n)
{
    uint64_t max = 0, prev = 0;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t o = e[i] >> SIM_L2_OCC_SHIFT;
        sorted &= o >= prev;
        prev = o;
        max |= o;
    }
    if (sorted)
        return;
    uint64_t *src = e, *dst = tmp;
    size_t *count = w->l2_count; /* not on the stack: compact runs on a CUDA thread's small one */
    for (unsigned shift = 0; max >> shift; shift += 11) {
        /* counters only for the digits in use: a block whose threads make a few
         * accesses each sorts over a few counters, not 2048 */
        size_t digits = (max >> shift) < 2047 ? (size_t)(max >> shift) + 1 : 2048;
        memset(count, 0, (digits + 1) * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[((src[i] >> SIM_L2_OCC_SHIFT >> shift) & 2047) + 1]++;
        for (size_t d = 0; d < digits; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i] >> SIM_L2_OCC_SHIFT >> shift) & 2047]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != e) /* an odd number of passes */
        memcpy(e, src, n * sizeof *e);
}

void sim_l2_block_done(sim_worker *w, uint64_t b)
{
    int lost = w->l2_lost;
    if (compact(w)) { /* no memory to sort the last entries: dropped */
        lost = 1;
        w->l2_n = w->l2_done;
    }
    if (++w->l1_gen == (uint64_t)1 << 30) { /* the next block's L1 starts empty; at the wrap, really */
        memset(w->l1_tags, 0, sizeof(uint64_t) << SIM_L1_SHIFT_MAX);
        memset(w->l1r_tags, 0, sizeof(uint64_t) << SIM_L1_SHIFT_MAX);
        memset(w->wm_tag, 0, sizeof(uint64_t) << SIM_WM_SHIFT);
        w->wm_last = 0;
        w->l1_gen = 1;
    }
    size_t n = w->l2_n;
    uint64_t *keep = NULL; /* the block's trace: a copy, or (a long one) the buffer itself */
    if (n && n <= SIM_TRACE_MIN) {
        keep = malloc(n * sizeof *keep);
        if (keep)
            memcpy(keep, w->l2_tr, n * sizeof *keep);
    } else if (n) {
        uint64_t *fresh = malloc(SIM_TRACE_MIN * sizeof *fresh);
        if (fresh) {
            keep = realloc(w->l2_tr, n * sizeof *keep); /* shrinks: never fails in practice */
            keep = keep ? keep : w->l2_tr;
            w->l2_tr = fresh;
            w->l2_alloc = SIM_TRACE_MIN;
        }
    }
    lost |= n && !keep;
    w->l2_n = w->l2_done = 0;
    w->l2_lim = w->l2_alloc < SIM_TRACE_CHUNK ? w->l2_alloc : SIM_TRACE_CHUNK;
    w->l2_last = w->l2_last2 = ~0ull;
    w->l2_lost = 0;
    /* handed over in batches: one lock for SIM_L2_BATCH blocks, not one each */
    w->l2_batch[w->l2_nbatch++] = (struct sim_l2_done){b, keep, n, lost};
    if (w->l2_nbatch == SIM_L2_BATCH)
        sim_l2_worker_flush(w);
}

/* Under the lock: stores one finished block's trace; 1 if the feed can go on
 * (the first wave is done, or the next block for the window). */
static int store_locked(uint64_t b, uint64_t *keep, size_t n, int lost)
{
    if (lost)
        L2.overflow = 1;
    while (b - L2.base >= L2.cap) { /* a worker far ahead of another: more slots */
        size_t cap = L2.cap * 2;
        struct block_trace *s = calloc(cap, sizeof *s);
        if (!s) { /* out of memory: the block is fed (empty) only at the launch's end */
            L2.overflow = 1;
            free(keep);
            return 0;
        }
        for (uint64_t x = L2.base; x < L2.base + L2.cap; x++)
            s[x % cap] = L2.slot[x % L2.cap];
        free(L2.slot);
        L2.slot = s;
        L2.cap = cap;
    }
    if (keep && L2.pending + n > SIM_PENDING_MAX) {
        /* blocks behind a slow one wait to enter the window: past this, their traces are dropped and the
         * launch's figures marked incomplete (a lower bound) rather than memory growing with the grid */
        free(keep);
        keep = NULL;
        L2.overflow = 1;
    }
    L2.pending += keep ? n : 0;
    L2.slot[b % L2.cap] = (struct block_trace){.e = keep, .n = keep ? n : 0, .done = 1};
    if (b + 1 > L2.stored_end)
        L2.stored_end = b + 1;
    while (L2.ready_end < L2.nblocks && L2.ready_end - L2.base < L2.cap && L2.slot[L2.ready_end % L2.cap].done)
        L2.ready_end++;
    return L2.started ? L2.ready_end > L2.base : L2.ready_end >= L2.first;
}

void sim_l2_worker_flush(sim_worker *w)
{
    if (!w->l2_nbatch)
        return;
    int ready = 0;
    pthread_mutex_lock(&L2.lock);
    for (unsigned i = 0; i < w->l2_nbatch; i++)
        ready |= store_locked(w->l2_batch[i].b, w->l2_batch[i].e, w->l2_batch[i].n, w->l2_batch[i].lost);
    pthread_mutex_unlock(&L2.lock);
    w->l2_nbatch = 0;
    if (ready)
        feed_ready(0);
}

/* Background writes: while a kernel runs, the H200 writes to DRAM at a steady
 * rate (flash v1, which rewrites O in L2 again and again, wrote 0.79, 12.6 and
 * 50.3 MB in 42, 672 and 2690 ms: 18.7 MB/s each time), in 256 KiB units. A
 * kernel that stores nothing wrote at the same rate (18.5 MB/s, docs/gpu/idle-probe),
 * so these are not only its lines cleaned; the model adds them where the kernel
 * rewrites dirty sectors, at most one write-back per rewrite, and nothing for
 * other kernels. The units come one every 14 ms with a random phase: a launch of
 * t shows floor(t / 14 ms) units or one more, one more with the probability of
 * the fraction (21 repeated launches of 2-42 ms, docs/l2-model.md "Background
 * writes come in units"). The model gives the expected value, rate x t, in whole
 * sectors, not the likeliest count: where the two counts differ by less than a
 * fifth of the launch's traffic, it is within 10 % of both, and the nearest whole
 * count, tried in session 21, was within 10 % of as many of the repeated runs (11
 * of 15) while it turns on the time model's error at every half unit. */
uint64_t sim_l2_background_writes(const sim_device *dev, double t, uint64_t rewrites)
{
    const double bytes = dev->ceil.l2_clean_bytes_per_s * t, cap = 32.0 * (double)rewrites;
    return (uint64_t)(bytes < cap ? bytes : cap) / 32 * 32;
}

void sim_l2_launch_end(sim_counters *c)
{
    feed_ready(1); /* blocks that never ran (a failed launch) count as empty */
    c->l2_read_sectors = L2.rd_sectors;
    c->l2_write_sectors = L2.wr_sectors;
    c->l2_read_hits = L2.rd_hits;
    c->l2_write_hits = L2.wr_hits;
    c->l2_atom_misses = L2.at_misses;
    c->dram_read_bytes = L2.fetched;
    c->dram_write_bytes = L2.written_back;
    c->l2_dirty_bytes = L2.dirty_sectors * 32;
    c->l2_incomplete = (uint64_t)L2.overflow;
    /* Background writes (sim_l2_background_writes). The kernel's time: the
     * larger of the roofline the rate was fitted with (sim_time_roofline) and the
     * time model's (without FLOPs, which the L2 does not know: the kernels that
     * rewrite much are bound by shared memory). */
    const sim_device *dev = sim_get_device();
    double t = sim_time_roofline(dev, &L2.cfg, c), tm = sim_time_model(dev, &L2.cfg, c, 0).seconds;
    t = tm > t ? tm : t;
    c->dram_background_write_bytes = sim_l2_background_writes(dev, t, L2.rewrites);
    c->dram_write_bytes += c->dram_background_write_bytes;
    /* on an empty L2 the launch's code comes from DRAM too (after the times above: the
     * roofline would spread it over the blocks) */
    c->dram_read_bytes += L2.cold ? SIM_L2_LAUNCH_FETCH_BYTES : 0;
    /* The chip's own reads: after a flush, while any kernel runs, units other than the
     * SMs read DRAM. A kernel that loads nothing read 3-297 KB on the H200 (2 to 40 ms;
     * docs/gpu/idle-probe), none of it missed by TEX, L1 or the L2 fabric (GCC, its
     * code, 191 sectors; the code is SIM_L2_LAUNCH_FETCH_BYTES above). Their
     * expected value, fitted on those idle launches alone: bg_read_bytes (1 - e^(-t /
     * bg_read_s)). Cold starts only: it was measured after flushes. */
    uint64_t bg = 0;
    if (L2.cold && dev->ceil.bg_read_s > 0)
        bg = (uint64_t)(dev->ceil.bg_read_bytes * -expm1(-t / dev->ceil.bg_read_s)) / 32 * 32;
    c->dram_read_bytes += bg;
    c->dram_background_read_bytes = bg;
}

/* ---- outside launches ------------------------------------------------------ */
void sim_l2_set_cold(int on) { L2.cold = on != 0; }
int sim_l2_get_cold(void) { return L2.cold; }

/* A copy or memset of n bytes at arena offset a, as the H200 treats them
 * (docs/gpu/l2-run2): a memset is a kernel that writes through L2 (its lines
 * stay there, dirty); so is a copy to the device from pageable host memory
 * (the lessons' first kernels found Q, K and V in L2 on the H200: DRAM reads
 * of 0.01-0.24 MB for 1-4 MB of inputs); a copy from pinned memory was not
 * found there by the probe, which the simulator cannot tell apart (memory.c
 * passes every copy as pageable). wr: 1 written through L2, 2 the range
 * dropped from L2 (written to DRAM directly), 0 nothing the model keeps
 * (device to host). Not in cold mode. */
/* SIMTLAB_L2_COLD as sim_launch reads it (launch.c env_settings), read here
 * too: copies before a program's first launch must see it. A bad value is
 * left for the launch to report. */
static void cold_from_env(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    const char *v = getenv("SIMTLAB_L2_COLD");
    if (v && (!strcmp(v, "0") || !strcmp(v, "1")))
        L2.cold = v[0] == '1';
}

void sim_l2_host_access(uintptr_t a, size_t n, int wr)
{
    cold_from_env();
    if (!n || L2.cold || !wr || l2_ready())
        return;
    pthread_mutex_lock(&L2.lock);
    uint64_t f = L2.fetched, wb = L2.written_back, rs = L2.rd_sectors, ws = L2.wr_sectors, rh = L2.rd_hits,
             wh = L2.wr_hits;
    if (wr == 1) {
        for (uint64_t s = a >> 5; s <= (a + n - 1) >> 5; s++)
            l2_sector(s, 1);
    } else {
        for (uint64_t line = a >> SIM_L2_LINE_SHIFT; line <= (a + n - 1) >> SIM_L2_LINE_SHIFT; line++) {
            size_t set = set_of(line);
            for (size_t k = set; k < set + SIM_L2_WAYS; k++)
                if (L2.tag[k] == line + 1) {
                    L2.dirty_sectors -= (unsigned)__builtin_popcount(L2.dirty[k] & 15u);
                    L2.tag[k] = 0, L2.valid[k] = L2.dirty[k] = L2.hot[k] = 0, L2.lru[k] = 0;
                }
        }
        L2.last_line = UINT64_MAX;
    }
    L2.host_fetched += L2.fetched - f;
    L2.host_written_back += L2.written_back - wb;
    L2.fetched = f, L2.written_back = wb, L2.rd_sectors = rs, L2.wr_sectors = ws, L2.rd_hits = rh, L2.wr_hits = wh;
    pthread_mutex_unlock(&L2.lock);
}

void sim_l2_host_totals(uint64_t *dram_read_bytes, uint64_t *dram_write_bytes)
{
    *dram_read_bytes = L2.host_fetched;
    *dram_write_bytes = L2.host_written_back;
}
