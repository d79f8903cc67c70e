/* sim/access.c - every load and store of kernel code arrives here.
 *
 * Kernel translation units are compiled with -fsanitize=thread, which makes
 * gcc call __tsan_readN/__tsan_writeN before each memory access; the
 * sanitizer runtime is not linked, these functions take its place (the
 * technique of the Linux kernel's KCSAN). This file is the simulator's hot
 * path: an access to device memory (HBM) costs one thread-local load, a
 * range test, two table loads, a bounds-and-alignment test, one counter
 * increment and a test of the detailed-mode flag.
 * Everything else (shared memory, stack, constant data, illegal addresses,
 * detailed mode) branches to sim_access_slow.
 *
 * Classification, in order: the device arena (HBM) -> the block's shared
 * memory (SRAM: static __shared__ in the executable's TLS block, or the
 * dynamic buffer) -> the running thread's stack (local) -> the executable's
 * own data (constant) -> anything else is illegal, a report.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void sim_access_slow(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc, int atomic);
_Static_assert(offsetof(sim_counters, sram_write_bytes) == offsetof(sim_counters, sram_read_bytes) + sizeof(uint64_t),
               "the shared fast path indexes sram_read_bytes by wr");
/* [a, a + size) lies in the block's shared memory (static or dynamic). */
static inline int in_shared(const sim_worker *w, uintptr_t a, unsigned size)
{
    return (a >= w->tls_lo && a + size <= w->tls_hi) || (a >= w->dyn_lo && a + size <= w->dyn_hi);
}
static void detail_record(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc, int space);
static inline void spin_note(uintptr_t a, int wr, uintptr_t pc);
/* x rotated right by k bits (one instruction) */
static inline __attribute__((always_inline)) uintptr_t rotr_k(uintptr_t x, unsigned k)
{
    return k ? x >> k | x << (64 - k) : x;
}

/* A plain global write in counting mode: its bytes (sim_l2_wmask), then the L2 trace; out of
 * line, so that the hook calls it last and saves no registers. */
static __attribute__((noinline)) void global_write(sim_worker *w, uintptr_t off, unsigned size)
{
    sim_l2_wmask(w, off, size);
    sim_l2_note(w, off, 1, 1);
}

/* Counting mode's sample (sim/launch.c) takes one more access of its stretch, counted in *n: 0
 * when the stretch passed SIM_SAMPLE_MAX_ACCESSES of them and was dropped (the access is not
 * recorded), so the sample's cost stays bounded. Global accesses have their own count
 * (sample_gn): sample_n, the shared accesses', also bounds the race checks
 * (SIM_SAMPLE_RACE_ACCESSES). */
static inline int sample_take_in(sim_worker *w, uint64_t *n)
{
    if (__builtin_expect(++*n > SIM_SAMPLE_MAX_ACCESSES, 0)) {
        sim_sample_drop(w);
        return 0;
    }
    return 1;
}

/* ---- races on global memory ------------------------------------------------------------
 * Two threads of a block, one writing a global word the other reads, in the same barrier epoch
 * (and, if they are lanes of one warp, with no __syncwarp() or other warp intrinsic between):
 * CUDA promises no order, a converged warp on a GPU makes an instruction's stores before the next
 * one's loads, and here lanes run one after another, so the result can differ from the chip's
 * (HeCBench chacha20: lanes 0-31 write a key that lane 0 then reads, no __syncwarp(); lane 0 runs
 * first here and reads it unwritten: a read before another lane's write, so both orders are
 * checked). compute-sanitizer's racecheck looks at shared memory only; this is a note, never a
 * failure: the launch goes on. Each worker keeps the words its block read or wrote in the current
 * epoch in an open-addressing table (an entry of another epoch is an empty slot, so a barrier
 * clears it for nothing); past SIM_GW_MAX words an epoch, new words are not recorded (the table
 * is bounded, as detailed mode's memory is). Detailed mode checks every plain access (not
 * atomics, volatile ones or asynchronous copies), counting mode the ones its sample takes. */
#define SIM_GW_MAX (1u << 16) /* 48 bytes each, twice as many slots: 6 MiB a worker at most
                               * (test counters::detailed_memory_is_bounded) */
#define SIM_GW_NOBODY 0xfffeu
#define SIM_GW_MULTI 0xffffu
static int synced(sim_worker *w, unsigned other, uint16_t other_wep, uint8_t other_rel, const sim_thread *t);
static void lock_atomic(sim_worker *w, sim_thread *t, uintptr_t a, int wrote, int like);
static void lock_fence(sim_worker *w, sim_thread *t);
static int lock_unfenced(const sim_worker *w);
#define LOCK_FIX                                                                                                   \
    "This thread took a lock (atomicCAS or atomicExch) and has not fenced since: a lock orders its holders' "    \
    "accesses only with a fence after taking it and one before giving it back (__threadfence_block() for shared " \
    "memory, __threadfence() for global), as CUDA's memory model says; without them one holder's stores may not " \
    "be what the next one reads. Put the two fences in"

/* Word x's first slot: a 64-byte line's 16 words in 16 neighbouring slots (a warp's lanes touch
 * neighbouring words: their entries share cache lines), the lines spread by a hash. */
static inline uint32_t gw_hash(uintptr_t x, uint32_t mask)
{
    return ((uint32_t)(((x >> 6) * 0x9E3779B97F4A7C15ull) >> 36) << 4 | (uint32_t)((x >> 2) & 15)) & mask;
}

static int gw_grow(sim_worker *w)
{
    const uint32_t cap = w->gw_cap ? w->gw_cap * 2 : 4096;
    if (cap > SIM_GW_MAX * 2)
        return -1;
    struct sim_gword *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < w->gw_cap; i++) { /* this epoch's entries, rehashed */
        const struct sim_gword *e = &w->gw[i];
        if (e->ep != w->gw_ep)
            continue;
        uint32_t h = gw_hash(e->x, cap - 1);
        while (t[h].ep == w->gw_ep)
            h = (h + 1) & (cap - 1);
        t[h] = *e;
    }
    free(w->gw);
    w->gw = t;
    w->gw_cap = cap;
    return 0;
}

/* Word x's entry of this epoch, made if new (NULL: the table is full). */
static struct sim_gword *gw_entry(sim_worker *w, uintptr_t x)
{
    if (w->gw_ep != w->epoch) {
        w->gw_ep = w->epoch;
        w->gw_n = 0;
    }
    if ((!w->gw || w->gw_n >= w->gw_cap / 2) && gw_grow(w) && (!w->gw || w->gw_n >= w->gw_cap - 1))
        return NULL;
    const uint32_t mask = w->gw_cap - 1;
    uint32_t h = gw_hash(x, mask);
    for (; w->gw[h].ep == w->gw_ep; h = (h + 1) & mask)
        if (w->gw[h].x == x)
            return &w->gw[h];
    if (w->gw_n >= SIM_GW_MAX)
        return NULL;
    w->gw_n++;
    struct sim_gword *e = &w->gw[h];
    e->x = x, e->ep = w->gw_ep, e->blk = (uint32_t)w->block_linear;
    for (unsigned b = 0; b < 4; b++)
        e->w_tid[b] = e->r_tid[b] = SIM_GW_NOBODY;
    return e;
}

static void race_other(sim_worker *w, unsigned other, uintptr_t x, uint8_t bytes, int wr, int my_wr,
                       uintptr_t pc_here, int space);

/* A race on global word x (byte b of it) between this thread's access and other's. Named in the
 * program's order, as a shared one is (race_other, race_text): where the other thread had executed
 * this access's pc more often than this thread when it made its own, its access comes after this
 * one in the program (HeCBench chacha20's lanes write a key and lane 0 reads it: read-after-write,
 * though lane 0 ran first). */
static __attribute__((noinline, cold)) void global_race_seen(sim_worker *w, uintptr_t x, unsigned b, int wr,
                                                             unsigned other, uintptr_t pc)
{
    race_other(w, other /* SIM_GW_MULTI: past the block's threads */, x, (uint8_t)(1u << b), !wr, wr, pc,
               SIM_SPACE_GLOBAL);
    const int ahead = w->other_ahead;
    if (!sim_err_take(w, &w->grace, &w->has_grace, SIM_ERR_SHARED_RACE, pc))
        return;
    const sim_alloc *al = &sim_allocs[sim_arena.owner[(x - sim_arena.base) >> SIM_GRANULE_SHIFT]];
    const int lane = other != SIM_GW_MULTI && other / 32 == w->cur->warp;
    char who[48], how[200];
    if (other == SIM_GW_MULTI)
        snprintf(who, sizeof who, "other threads");
    else
        snprintf(who, sizeof who, "thread %u%s", other, lane ? ", a lane of its warp," : "");
    if (ahead)
        snprintf(how, sizeof how, "and a %s by %s that comes after it in the program (that thread went on past this "
                                  "%s to its %s first)",
                 wr ? "read" : "write", who, wr ? "write" : "read", wr ? "read" : "write");
    else
        snprintf(how, sizeof how, "after %s %s it", who, wr ? "read" : "wrote");
    snprintf(w->grace.text, sizeof w->grace.text,
             "global-memory race (%s hazard) on the word at 0x%llx (allocation '%s', offset %llu): a %s by this "
             "thread %s, with no __syncthreads()%s between them. CUDA promises no order between "
             "threads there; on a GPU a converged warp makes one instruction's stores before the next one's "
             "loads, which such code relies on, but the simulator runs lanes one after another, so this run's "
             "results may not be a GPU's. %s",
             wr != ahead ? "write-after-read" : "read-after-write", (unsigned long long)x, al->name,
             (unsigned long long)(x - al->begin), wr ? "write" : "read", how,
             lane ? " or __syncwarp()" : "",
             lock_unfenced(w) ? LOCK_FIX /* a lock taken with no fence after it: the fences are the fix */
             : lane ? "Put __syncwarp() between the lanes' writes and their reads (read into a register, "
                    "__syncwarp(), then write); where a thread rewrites in place what its neighbours read (a "
                    "stencil, `a[i] = a[i - 1] + a[i + 1]`), write to a second array instead: warps and blocks race "
                    "there too; where threads update one word, use an atomic (atomicAdd)"
                  : "Put __syncthreads() between the writes and the reads; where a thread rewrites in place what "
                    "its neighbours read (a stencil, `a[i] = a[i - 1] + a[i + 1]`), write to a second array "
                    "instead: blocks race there too; where threads update one word, use an atomic (atomicAdd)");
}

/* A plain global access of size bytes at a by the running thread, checked against the block's
 * other accesses of this epoch, byte by byte, and recorded. */
static void global_race(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc)
{
    const sim_thread *t = w->cur;
    if (!t || w->has_grace)
        return;
    const uint16_t me = (uint16_t)t->linear, wep = (uint16_t)w->warps[t->warp].sync_epoch;
    for (uintptr_t x = a & ~(uintptr_t)3; x < a + size; x += 4) {
        struct sim_gword *e = gw_entry(w, x);
        if (!e)
            return;
        if (e->blk != (uint32_t)w->block_linear) /* another block's (a cooperative launch): not checked */
            continue;
        for (unsigned b = 0; b < 4; b++) {
            if (x + b < a || x + b >= a + size)
                continue;
            if (wr) {
                const unsigned r = e->r_tid[b];
                if (r != SIM_GW_NOBODY && r != me &&
                    (r == SIM_GW_MULTI || !synced(w, r, e->r_wep[b], e->r_rel[b], t))) {
                    global_race_seen(w, x, b, 1, r, pc);
                    return;
                }
                e->w_tid[b] = me, e->w_wep[b] = wep, e->w_rel[b] = t->rel;
            } else {
                const unsigned o = e->w_tid[b], r = e->r_tid[b];
                if (o != SIM_GW_NOBODY && o != me && !synced(w, o, e->w_wep[b], e->w_rel[b], t)) {
                    global_race_seen(w, x, b, 0, o, pc);
                    return;
                }
                if (r == SIM_GW_NOBODY || r == me || (r != SIM_GW_MULTI && synced(w, r, e->r_wep[b], e->r_rel[b], t)))
                    e->r_tid[b] = me, e->r_wep[b] = wep, e->r_rel[b] = t->rel;
                else
                    e->r_tid[b] = SIM_GW_MULTI;
            }
        }
    }
}

/* The device heap gave [a, a + n) to the running thread (sim/run/cudart.c: malloc and new in a
 * kernel): other threads' accesses to those bytes this epoch were to an earlier block there, which
 * they freed, and the heap's lock orders them before this allocation: no race with them. Their
 * entries in the block's table are emptied, word by word or, for a range longer than the table
 * has entries, entry by entry. */
void sim_global_forget(uintptr_t a, size_t n)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur || !w->gw || w->gw_ep != w->epoch || !w->gw_n || !n)
        return;
    const uintptr_t lo = a & ~(uintptr_t)3, hi = a + n;
    const uint32_t mask = w->gw_cap - 1;
    if ((hi - lo) / 4 <= w->gw_n) {
        for (uintptr_t x = lo; x < hi; x += 4)
            for (uint32_t h = gw_hash(x, mask); w->gw[h].ep == w->gw_ep; h = (h + 1) & mask)
                if (w->gw[h].x == x) {
                    for (unsigned b = 0; b < 4; b++)
                        w->gw[h].w_tid[b] = w->gw[h].r_tid[b] = SIM_GW_NOBODY;
                    break;
                }
        return;
    }
    for (uint32_t i = 0; i < w->gw_cap; i++)
        if (w->gw[i].ep == w->gw_ep && w->gw[i].x >= lo && w->gw[i].x < hi)
            for (unsigned b = 0; b < 4; b++)
                w->gw[i].w_tid[b] = w->gw[i].r_tid[b] = SIM_GW_NOBODY;
}

/* A global access in detailed mode (or once the watchdog's flag is up: detail_record stops the
 * thread), or in a stretch of counting mode's sample (sim/launch.c): its request and race check,
 * then the L2 trace. */
static inline __attribute__((always_inline)) void global_detailed_inline(sim_worker *w, uintptr_t a, uintptr_t off,
                                                                         unsigned size, int wr, uintptr_t pc, int vol)
{
    if (wr)
        sim_l2_wmask(w, off, size);
    if (__builtin_expect(w->detailed != 0, 1) || (w->sample && sample_take_in(w, &w->sample_gn))) {
        detail_record(w, a, size, wr, pc, SIM_SPACE_GLOBAL);
        if (!vol) /* a volatile access is a flag threads communicate through: never a race */
            global_race(w, a, size, wr, pc);
    }
    sim_l2_note(w, off, (unsigned)wr, 1);
}

static __attribute__((noinline)) void global_detailed(sim_worker *w, uintptr_t a, uintptr_t off, unsigned size, int wr,
                                                      uintptr_t pc)
{
    global_detailed_inline(w, a, off, size, wr, pc, 0);
}

static __attribute__((noinline)) void global_detailed_vol(sim_worker *w, uintptr_t a, uintptr_t off, unsigned size,
                                                          int wr, uintptr_t pc)
{
    global_detailed_inline(w, a, off, size, wr, pc, 1);
}

static void shared_detailed(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc);
static inline void shared_detailed_inline(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc);
/* shared_detailed for one size and direction (the C hooks' sizes; anything else the general one) */
#define SHARED_DETAILED_DECL(n)                                                                       \
    static __attribute__((noinline)) void shared_detailed_r##n(sim_worker *w, uintptr_t a, uintptr_t pc); \
    static __attribute__((noinline)) void shared_detailed_w##n(sim_worker *w, uintptr_t a, uintptr_t pc);
SHARED_DETAILED_DECL(1)
SHARED_DETAILED_DECL(2)
SHARED_DETAILED_DECL(4)
SHARED_DETAILED_DECL(8)
SHARED_DETAILED_DECL(16)
static inline __attribute__((always_inline)) void shared_detailed_sized(sim_worker *w, uintptr_t a, unsigned size,
                                                                        int wr, uintptr_t pc)
{
    switch (size) { /* a constant in the hooks */
    case 1: (wr ? shared_detailed_w1 : shared_detailed_r1)(w, a, pc); return;
    case 2: (wr ? shared_detailed_w2 : shared_detailed_r2)(w, a, pc); return;
    case 4: (wr ? shared_detailed_w4 : shared_detailed_r4)(w, a, pc); return;
    case 8: (wr ? shared_detailed_w8 : shared_detailed_r8)(w, a, pc); return;
    case 16: (wr ? shared_detailed_w16 : shared_detailed_r16)(w, a, pc); return;
    default: shared_detailed(w, a, size, wr, pc);
    }
}

/* vol: a volatile access (a flag threads communicate through): checked and
 * counted, but, like an atomic, never a race (sim_access_slow's last argument).
 * outside: the caller (the kernel units' inline path, sim/inline_as.c) has read the
 * worker, ow (sim_tls_fast: sim_idle_worker when no launch runs), and found the access
 * outside both shared windows: neither is done again. */
static inline __attribute__((always_inline)) void access_inline_from(uintptr_t a, unsigned size, int wr,
                                                                     uintptr_t pc, int vol, int outside,
                                                                     sim_worker *ow)
{
    sim_worker *w = outside ? ow : sim_tls_worker;
    if (__builtin_expect(outside ? w == &sim_idle_worker : w == NULL, 0))
        return; /* no launch running: host code that happens to live in a kernel unit */
    /* shared memory, aligned: in counting mode count and return; in detailed
     * mode, the race check and the request (shared_detailed). The offset
     * rotated right by log2(size) is the access's index in size units when
     * aligned, and at least 2^(64-k) when not (its low bits rotate to the
     * top): one compare a window tests both. Tested before
     * HBM: a kernel that uses shared memory accesses it far more often than
     * HBM (that is what it is for), and the test costs HBM accesses three
     * instructions a window. Dynamic first (the lessons' tiled kernels). */
    /* sim/inline_as.c copies this branch (the windows, the detailed test, the counter) into
     * the kernel units in front of each hook call: change both together (test inline_as). */
    if (__builtin_expect(size <= 16, 1) && !outside) { /* sizes above 16 (sim_access): the slow path */
        const unsigned k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : 4; /* a constant */
        if (rotr_k(a - w->dyn_lo, k) < w->dyn_lim[k] || rotr_k(a - w->tls_lo, k) < w->tls_lim[k]) {
            if (__builtin_expect(w->detailed != 0, 0)) { /* race check and request: no further test */
                if (!vol) {
                    shared_detailed_sized(w, a, size, wr, pc);
                    return;
                }
            } else {
                (&w->c.sram_read_bytes)[wr] += size; /* sram_write_bytes follows sram_read_bytes */
                return;
            }
        }
    }
    uintptr_t off = a - sim_arena.base;
    if (__builtin_expect(off < sim_arena.span, 1)) {
        uint32_t id = sim_arena.owner[off >> SIM_GRANULE_SHIFT];
        const sim_alloc *al = &sim_allocs[id];
        if (__builtin_expect(a >= al->begin && a + size <= al->live_end && !(a & (size - 1)), 1)) {
            w->alloc_ctr[id][wr] += size;
            if (__builtin_expect(w->glob_slow, 0)) {
                (vol ? global_detailed_vol : global_detailed)(w, a, off, size, wr, pc); /* vol: a constant */
                return;
            }
            if (wr) { /* a constant in the hooks: a write's is a tail call too */
                global_write(w, off, size);
                return;
            }
            sim_l2_note(w, off, 0, 1); /* its calls are tail calls: the hook saves no registers */
            return;
        }
    }
    sim_access_slow(w, a, size, wr, pc, vol);
}

static inline __attribute__((always_inline)) void access_inline(uintptr_t a, unsigned size, int wr, uintptr_t pc,
                                                                int vol)
{
    access_inline_from(a, size, wr, pc, vol, 0, NULL);
}

void sim_access(uintptr_t a, unsigned size, int wr, uintptr_t pc) { access_inline(a, size, wr, pc, 0); }

void sim_access_at(uintptr_t a, unsigned size, int wr, uintptr_t pc, const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    w->at_thread = w->cur;
    w->at_file = file;
    w->at_line = line;
    w->at_pc = pc;
    access_inline(a, size, wr, pc, 0);
    w = sim_tls_worker; /* the same worker (a thread resumes on its own), read again after the calls */
    w->at_thread = NULL;
}

/* An atomic read-modify-write: its bytes count as one read and one write,
 * never a race; in detailed mode it is one request of its own kind (global
 * atom/red sectors, shared atom wavefronts), as the GPU counts it. */
/* An atomic on a global word (the arena; shared memory's are the SM's own unit's), in the table of
 * its kind: the L2 serves those on one word one after another. A slot keeps its word while it hits
 * more than the others that map to it. */
static void atom_note(struct sim_atom_word *table, uintptr_t a)
{
    if (a - sim_arena.base >= sim_arena.span)
        return;
    struct sim_atom_word *e = &table[(((uint64_t)(a >> 2) * 0x9e3779b97f4a7c15ull) >> 56) % SIM_FP_ATOM_SLOTS];
    if (e->a == a)
        e->n++;
    else if (e->n == 0 || --e->n == 0)
        e->a = a, e->n = 1;
}

/* Whether the running lane's execution of a uniform-address atomic at pc joins one that another
 * lane of its warp has made (and counted) already: nvcc aggregates an integer atomic whose address it
 * can prove warp-uniform, and one lane issues it for the warp (docs/gpu/s31-h100-atomics). Lanes
 * run one after another here, so lane l's k-th execution at pc joins the warp's k-th, as detailed
 * mode groups any access (by the lane's count of its pc). An address unlike the latest counted one
 * is counted (the mark was wrong), and so is every execution past SIM_AGG_SLOTS call sites in a
 * block. */
static int atomic_joins(sim_worker *w, uintptr_t a, uintptr_t pc)
{
    const sim_thread *t = w->cur;
    sim_warp *wp = &w->warps[t->warp];
    struct sim_agg *g = NULL;
    for (unsigned i = 0; i < wp->n_agg && !g; i++)
        if (wp->agg[i].pc == pc)
            g = &wp->agg[i];
    if (!g) {
        if (wp->n_agg == SIM_AGG_SLOTS)
            return 0;
        g = &wp->agg[wp->n_agg++];
        memset(g, 0, sizeof *g);
        g->pc = pc;
    }
    const uint32_t k = ++g->k[t->lane];
    if (k <= g->max && (k < g->max || a == g->a))
        return 1;
    if (k > g->max)
        g->max = k;
    g->a = a;
    return 0;
}

void sim_access_atomic(uintptr_t a, unsigned size, uintptr_t pc, int flags)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return;
    if (w->vol_thread) /* before w->async is set: the lockstep may run other threads */
        sim_vol_fire(w, 1);
    const int uniform = w->cur->atom_uniform;
    w->cur->atom_uniform = 0;
    if (uniform && (flags & SIM_ATOMF_AGG) && atomic_joins(w, a, pc)) {
        /* not counted: the lane that counted it checked the same address; a pending write is made
         * as sim_access_slow would */
        if (__builtin_expect(w->waw_n != 0, 0) && w->waw_mode != SIM_WAW_HOLD)
            sim_waw_settle(w, 1);
    } else {
        w->async = SIM_SPACE_ATOM;
        sim_access_slow(w, a, size, 0, pc, 1);
        w->async = SIM_SPACE_SKIP;
        sim_access_slow(w, a, size, 1, pc, 1);
        w->async = 0;
        atom_note(flags & SIM_ATOMF_FP ? w->fp_atom : w->int_atom, a);
    }
    if ((w->detailed || w->sample) && !(flags & SIM_ATOMF_CAS)) /* a lock's acquire or release (a */
        lock_atomic(w, w->cur, a, 1, (flags & SIM_ATOMF_EXCH) != 0); /* compare-and-swap's: sim_atomic_cas_done) */
    spin_note(a, 0, pc); /* atomicCAS spin locks, atomicAdd(&flag, 0) polls */
}

/* The running thread's next atomic has a warp-uniform address (the rewriter marks such calls in
 * kernels, sim/run/rewrite.c). */
void sim_atomic_uniform_next(void)
{
    sim_worker *w = sim_tls_worker;
    if (w && w->cur)
        w->cur->atom_uniform = 1;
}

/* An asynchronous copy of size bytes from global src to shared dst
 * (copy_async_float4, and `simtlab run`'s cp.async: sim/run/include/simtlab_async.h): checked
 * and counted as a global read and a shared write, but, in detailed mode, as its own kind of
 * request, as the GPU counts LDGSTS apart from its stores (its sectors are in op_ld as well).
 * The simulator completes it at once; in detailed mode it stays pending (cp_track) until a wait
 * completes it, and any access to its destination before then is a race. */
static void cp_track(sim_worker *w, uintptr_t d, unsigned size);
static void cp_land(sim_worker *w, const sim_thread *t, unsigned keep, int all);
/* pc: the call site (one per copy in the code). The worker, or NULL in host code of a kernel
 * unit: a plain copy there, as the hooks let it be. lessons: the lessons' copy_async_float4 (its
 * reports name it and its siblings), else `simtlab run`'s cp.async (CUDA's names). */
static sim_worker *copy_async_do(void *dst, const void *src, unsigned size, unsigned src_size, uintptr_t pc,
                                 int lessons)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur) {
        memcpy(dst, src, src_size);
        memset((char *)dst + src_size, 0, size - src_size);
        return NULL;
    }
    uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
    if (src_size && s - sim_arena.base >= sim_arena.span) {
        char where[256];
        sim_describe_address(where, sizeof where, s, size);
        if (lessons)
            sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                     "copy_async_float4 reads global memory only: its source 0x%llx is %s (copy other data with "
                     "load_float4/store_float4)",
                     (unsigned long long)s, where);
        else
            sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                     "cp.async reads global memory only: its source 0x%llx is %s; memcpy_async, "
                     "__pipeline_memcpy_async and cp.async copy from global to shared memory: pass an address in a "
                     "cudaMalloc'd or __device__ array",
                     (unsigned long long)s, where);
        sim_block_abort(w);
    }
    if (!in_shared(w, d, size) && !(d >= w->dyn_win_lo && d < w->dyn_win_hi)) { /* red zones: sim_access_slow says more */
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                 "%s writes shared memory only: its destination 0x%llx is not in the block's shared memory (%s)",
                 lessons ? "copy_async_float4" : "cp.async", (unsigned long long)d,
                 lessons ? "store to global memory with store_float4"
                         : "pass a __shared__ array's element; store to global memory with plain stores");
        sim_block_abort(w);
    }
    if (w->vol_thread) /* before w->async is set: the lockstep may run other threads */
        sim_vol_fire(w, 1);
    w->async = SIM_SPACE_ASYNC;
    if (__builtin_expect(src_size == size, 1))
        sim_access_slow(w, s, size, 0, pc, 0);
    else /* cp.async's zero fill (src-size < cp-size): the bytes read, in aligned pieces */
        for (unsigned o = 0, k; o < src_size; o += k) {
            for (k = 16; k > 1 && (k > src_size - o || (s + o) % k); k /= 2)
                ;
            sim_access_slow(w, s + o, k, 0, pc, 0);
        }
    sim_access_slow(w, d, size, 1, pc, 0);
    w->async = 0;
    memcpy(dst, src, src_size);
    if (src_size != size)
        memset((char *)dst + src_size, 0, size - src_size);
    if (w->detailed & ~SIM_DETAILED_TIMEOUT)
        cp_track(w, d, size);
    return w;
}

/* The lessons' copy_async_float4: pending until copy_async_wait_all, and a barrier reached
 * before that is a report (sim/launch.c, bar_arrive). */
void sim_copy_async(void *dst, const void *src, unsigned size)
{
    sim_worker *w = copy_async_do(dst, src, size, size, (uintptr_t)__builtin_return_address(0), 1);
    if (w && w->cur->async_pending++ == 0)
        w->async_threads++;
}

/* `simtlab run`'s cp.async (cuda::memcpy_async, cg::memcpy_async, __pipeline_memcpy_async):
 * a copy may stay in flight across barriers (a pipeline's later stages), so only an access to
 * its destination before its wait is a report (detailed mode). It goes into the thread's open
 * group, which sim_cp_async_commit closes. */
void sim_cp_async(void *dst, const void *src, unsigned size)
{
    (void)copy_async_do(dst, src, size, size, (uintptr_t)__builtin_return_address(0), 0);
}

/* The same with its call site given: `simtlab run`'s inline PTX (sim/run/ptx.c), whose caller is
 * the kernel's code one frame up */
void sim_cp_async_at(void *dst, const void *src, unsigned size, unsigned src_size, uintptr_t pc)
{
    (void)copy_async_do(dst, src, size, src_size, pc, 0);
}

/* __threadfence(), __threadfence_block(), __threadfence_system(): the thread's volatile reads are
 * a protocol's from now on (vol_race_check) */
void sim_fence(void)
{
    sim_worker *w = sim_tls_worker;
    if (w && w->cur) {
        if (w->detailed || w->sample)
            lock_fence(w, w->cur);
        else
            w->cur->fenced |= SIM_FENCED;
    }
}

/* cp.async.commit_group: the thread's copies since its last commit are a group */
void sim_cp_async_commit(void)
{
    sim_worker *w = sim_tls_worker;
    if (w && w->cur)
        w->cur->cp_groups++;
}

/* cp.async.wait_group n: the thread's committed groups but the n latest have landed (8 at
 * most: CUDA's headers clamp n there) */
void sim_cp_async_wait_prior(unsigned n)
{
    sim_worker *w = sim_tls_worker;
    if (w && w->cur && w->cp_live)
        cp_land(w, w->cur, n < 8 ? n : 8, 0);
}

/* copy_async_wait_all (cp.async.wait_all): all the thread's copies have landed. */
void sim_copy_async_wait(void)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return;
    if (w->cur->async_pending) {
        w->cur->async_pending = 0;
        w->async_threads--;
    }
    if (w->cp_live)
        cp_land(w, w->cur, 0, 1);
}

/* ---- the hooks gcc's ThreadSanitizer instrumentation calls -------------- */
#define RA() ((uintptr_t)__builtin_return_address(0))
/* A thread that waits for another by spinning on a flag (legal since Volta:
 * independent thread scheduling) reads it with volatile loads or atomics.
 * Threads here run until they block, so after SIM_SPIN_LIMIT reads of one
 * address with no volatile store or other volatile/atomic address between,
 * the thread yields to the others of its block (sim_spin_yield). Only
 * volatile and atomic accesses pay for this; plain loads (which the
 * compiler may hoist out of such a loop anyway) never do. */
#define SIM_SPIN_LIMIT 256
static inline void spin_note(uintptr_t a, int wr, uintptr_t pc)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return;
    sim_thread *t = w->cur;
    if (wr || a != t->spin_addr) {
        t->spin_addr = wr ? 0 : a;
        t->spin_n = 0;
        return;
    }
    if (++t->spin_n >= SIM_SPIN_LIMIT) {
        t->spin_n = 0;
        sim_spin_yield(w, pc);
    }
}
void sim_spin_note(uintptr_t a, uintptr_t pc) { spin_note(a, 0, pc); }

static int in_kernel_data(uintptr_t a, unsigned size);
extern uintptr_t sim_params_lo, sim_params_hi; /* sim/launch.c, sim_set_launch_params */

/* A volatile shared or global access waits for the live lanes of its warp to
 * reach one too (an __activemask() rendezvous) before it is made: the warp
 * then moves through its volatile accesses in lockstep, as the legacy
 * warp-synchronous code assumes (`volatile int *s; s[t] += s[t + 16]; ...`
 * without __syncwarp: undefined since Volta, correct in practice on a GPU;
 * in global memory too, as in-place reductions write it). Lanes run one
 * after another here, so without this the last warp of such a reduction sums
 * the wrong values. Lanes waiting at a barrier, at another intrinsic, or
 * exited, are not waited for; a thread's own volatile locals are not
 * lockstepped (no other lane sees them). */
static inline __attribute__((always_inline)) int vol_lockstep(uintptr_t a, unsigned size)
{
    sim_worker *w = sim_tls_worker;
    if (w && w->cur && (in_shared(w, a, size) || a - sim_arena.base < sim_arena.span || in_kernel_data(a, size))) {
        if (w->vol_thread) /* this thread's last access was volatile too, or another's: it meets the warp here */
            sim_vol_fire(w, 0);
        sim_warp_lockstep();
        return 1;
    }
    return 0;
}

/* The second half of the lockstep. A GPU makes a warp's volatile access (one instruction)
 * for every lane before any lane's next instruction: in `idata[t] += vmem[t + 16]` with a
 * plain store (professional-cuda-c-programming's reduceInteger-sync), lane t reads word
 * t + 16 before lane t + 16 writes it. The hook runs before the access it announces, so a
 * lane waits for its warp at its next access instead: after the volatile hook, vol_arm names
 * the thread and closes the fast paths (the shared windows' limits, the L2 trace's), so the
 * next access any thread makes goes out of line, to sim_vol_fire, which opens them again and,
 * for the named thread, waits at a lockstep. A lane whose next access is volatile meets its
 * warp there anyway (vol_lockstep); one that gets to a barrier or an intrinsic first has met
 * it, and does not wait again (the block's and the warp's epochs tell). */
static __attribute__((noinline)) void vol_arm(void)
{
    sim_worker *w = sim_tls_worker;
    if (w->vol_thread) /* another lane's, armed while this one was switched out (spin_note yields) */
        sim_vol_fire(w, 0);
    w->vol_thread = w->cur;
    w->vol_epoch = w->epoch;
    w->vol_wep = w->warps[w->cur->warp].sync_epoch;
    w->vol_l2_lim = w->l2_lim;
    w->vol_l2_last = w->l2_last;
    w->vol_l2_last2 = w->l2_last2;
    w->l2_lim = w->l2_n;                 /* the next entry goes to sim_l2_full */
    w->l2_last = w->l2_last2 = ~0ull;    /* and is not dropped as a repeat (a thread's load and store) */
    sim_shared_fast_off(w);
}

void sim_vol_fire(sim_worker *w, int may_wait)
{
    const sim_thread *t = w->vol_thread;
    w->vol_thread = NULL;
    /* never under l2_n: sim_l2_note tests l2_n == l2_lim, and at l2_n the next entry grows the trace */
    w->l2_lim = w->vol_l2_lim > w->l2_n ? w->vol_l2_lim : w->l2_n;
    w->l2_last = w->vol_l2_last;
    w->l2_last2 = w->vol_l2_last2;
    sim_shared_fast_on(w);
    /* only if no barrier and no warp rendezvous came between (the lane met its warp there: a
     * second meeting would reorder its code after the others' and hide races from the check) */
    if (may_wait && t == w->cur && w->epoch == w->vol_epoch && w->warps[t->warp].sync_epoch == w->vol_wep)
        sim_warp_lockstep();
}

/* A volatile access: the warp meets before it and after it (vol_lockstep, vol_arm). */
static inline __attribute__((always_inline)) void vol_access(uintptr_t a, unsigned size, int wr, uintptr_t pc)
{
    const int lockstepped = vol_lockstep(a, size);
    access_inline(a, size, wr, pc, 1);
    spin_note(a, wr, pc);
    if (lockstepped)
        vol_arm();
}

/* The kernel units' inline path (sim/inline_as.c) calls, from one call instruction, with
 * the worker it has read as the second argument: __simtlab_outside_readN/writeN for
 * accesses it found outside both shared windows, and __simtlab_inside_readN/writeN for
 * those inside one when the worker is not counting (access_inline's detailed branch;
 * shared_detailed sends all but plain detailed mode on). */
#define HOOKS(n)                                                                           \
    void __simtlab_inside_read##n(void *p, sim_worker *w) { shared_detailed_inline(w, (uintptr_t)p, n, 0, RA()); } \
    void __simtlab_inside_write##n(void *p, sim_worker *w) { shared_detailed_inline(w, (uintptr_t)p, n, 1, RA()); } \
    void __simtlab_outside_read##n(void *p, sim_worker *w) { access_inline_from((uintptr_t)p, n, 0, RA(), 0, 1, w); } \
    void __simtlab_outside_write##n(void *p, sim_worker *w) { access_inline_from((uintptr_t)p, n, 1, RA(), 0, 1, w); } \
    void __tsan_read##n(void *p) { access_inline((uintptr_t)p, n, 0, RA(), 0); }               \
    void __tsan_write##n(void *p) { access_inline((uintptr_t)p, n, 1, RA(), 0); }              \
    void __tsan_unaligned_read##n(void *p) { access_inline((uintptr_t)p, n, 0, RA(), 0); }     \
    void __tsan_unaligned_write##n(void *p) { access_inline((uintptr_t)p, n, 1, RA(), 0); }    \
    void __tsan_volatile_read##n(void *p) { vol_access((uintptr_t)p, n, 0, RA()); }              \
    void __tsan_volatile_write##n(void *p) { vol_access((uintptr_t)p, n, 1, RA()); }
void __simtlab_inside_read1(void *p, sim_worker *w) { shared_detailed_inline(w, (uintptr_t)p, 1, 0, RA()); }
void __simtlab_inside_write1(void *p, sim_worker *w) { shared_detailed_inline(w, (uintptr_t)p, 1, 1, RA()); }
void __simtlab_outside_read1(void *p, sim_worker *w) { access_inline_from((uintptr_t)p, 1, 0, RA(), 0, 1, w); }
void __simtlab_outside_write1(void *p, sim_worker *w) { access_inline_from((uintptr_t)p, 1, 1, RA(), 0, 1, w); }
void __tsan_read1(void *p) { access_inline((uintptr_t)p, 1, 0, RA(), 0); }
void __tsan_write1(void *p) { access_inline((uintptr_t)p, 1, 1, RA(), 0); }
void __tsan_volatile_read1(void *p) { vol_access((uintptr_t)p, 1, 0, RA()); }
void __tsan_volatile_write1(void *p) { vol_access((uintptr_t)p, 1, 1, RA()); }
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)
#undef HOOKS

/* Aggregate copies (struct assignment, memcpy lowered by gcc): one access of
 * the whole range, split into 4-byte words the way a GPU would move them. */
static void range_access(uintptr_t a, size_t n, int wr, uintptr_t pc)
{
    sim_worker *w = sim_tls_worker;
    const int hold = wr && w && w->cur && w->waw_mode == 0; /* every word's store comes after the last hook */
    if (hold) {
        if (w->waw_n) /* an earlier access's, whose store is made: settled now, not with this copy's */
            sim_waw_settle(w, 1);
        w->waw_mode = SIM_WAW_HOLD;
    }
    size_t i = 0;
    if (!(a & 3))
        for (; i + 4 <= n; i += 4)
            access_inline(a + i, 4, wr, pc, 0);
    for (; i < n; i++)
        access_inline(a + i, 1, wr, pc, 0);
    if (hold)
        w->waw_mode = 0;
}
void __tsan_read_range(void *p, long n) { range_access((uintptr_t)p, (size_t)n, 0, RA()); }
void __tsan_write_range(void *p, long n) { range_access((uintptr_t)p, (size_t)n, 1, RA()); }
/* C++ code in an instrumented unit (the device pass of `simtlab run` compiles
 * the host code too, and a kernel may construct an object) also calls these:
 * vtable pointers are not memory traffic, and std::atomic operations are done
 * as asked (sequentially consistent) and not counted. */
void __tsan_vptr_update(void **vptr_p, void *new_val) { (void)vptr_p, (void)new_val; }
void __tsan_vptr_read(void **vptr_p) { (void)vptr_p; }
#define TSAN_ATOMICS(bits, T)                                                                                    \
    T __tsan_atomic##bits##_load(const volatile T *a, int mo) { (void)mo; return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int mo) { (void)mo; __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo) { (void)mo; return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo) { (void)mo; return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo) { (void)mo; return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo) { (void)mo; return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo) { (void)mo; return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo) { (void)mo; return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo) { (void)mo; return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST); } \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo)              \
    {                                                                                                        \
        (void)mo, (void)fmo;                                                                                 \
        return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                  \
    }                                                                                                        \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo)                \
    {                                                                                                        \
        (void)mo, (void)fmo;                                                                                 \
        return __atomic_compare_exchange_n(a, c, v, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                  \
    }                                                                                                        \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo)                    \
    {                                                                                                        \
        (void)mo, (void)fmo;                                                                                 \
        __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                        \
        return c;                                                                                            \
    }
TSAN_ATOMICS(8, uint8_t)
TSAN_ATOMICS(16, uint16_t)
TSAN_ATOMICS(32, uint32_t)
TSAN_ATOMICS(64, uint64_t)
#undef TSAN_ATOMICS
void __tsan_atomic_thread_fence(int mo) { (void)mo; __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int mo) { (void)mo; __atomic_signal_fence(__ATOMIC_SEQ_CST); }
void __tsan_init(void) {}
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void *pc) { (void)pc; }

/* ---- the slow path --------------------------------------------------------- */
static struct {
    uintptr_t lo[16], hi[16];
    unsigned flags[16]; /* PF_R / PF_W / PF_X */
    int n;
} exe_data; /* the executable's loaded segments: static data kernels may read */

static int collect_segments(struct dl_phdr_info *info, size_t sz, void *arg)
{
    (void)sz;
    (void)arg;
    for (int i = 0; i < info->dlpi_phnum && exe_data.n < 16; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        exe_data.lo[exe_data.n] = info->dlpi_addr + ph->p_vaddr;
        exe_data.hi[exe_data.n] = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        exe_data.flags[exe_data.n] = ph->p_flags;
        exe_data.n++;
    }
    return 1; /* the first entry is the executable itself */
}

void sim_access_init_segments(void)
{
    if (!exe_data.n)
        dl_iterate_phdr(collect_segments, NULL);
}

/* 0: not the executable's; else its segment's flags | 0x100 */
static unsigned exe_segment(uintptr_t a)
{
    for (int i = 0; i < exe_data.n; i++)
        if (a >= exe_data.lo[i] && a < exe_data.hi[i])
            return exe_data.flags[i] | 0x100;
    return 0;
}

/* Kernel code: the kernel units' .text, renamed simtlab_ktext after
 * compilation (CMakeLists.txt). The watchdog stops a thread at once only
 * there: elsewhere (the simulator, the C library) it may hold state. */
extern char __start_simtlab_ktext[] __attribute__((weak)), __stop_simtlab_ktext[] __attribute__((weak));
int sim_in_kernel_text(uintptr_t pc)
{
    return __start_simtlab_ktext && pc >= (uintptr_t)__start_simtlab_ktext && pc < (uintptr_t)__stop_simtlab_ktext;
}

/* The kernel units' own writable data (__device__ variables), renamed into
 * these sections after compilation (CMakeLists.txt, simtlab_kernels), and the
 * __constant__ variables (sim/kernel.h). Weak: absent sections are NULL. */
extern char __start_simtlab_kdata[] __attribute__((weak)), __stop_simtlab_kdata[] __attribute__((weak));
extern char __start_simtlab_kbss[] __attribute__((weak)), __stop_simtlab_kbss[] __attribute__((weak));
extern char __start_simtlab_kdrel[] __attribute__((weak)), __stop_simtlab_kdrel[] __attribute__((weak));
extern char __start_simtlab_kdrel2[] __attribute__((weak)), __stop_simtlab_kdrel2[] __attribute__((weak));
extern char __start_simtlab_const[] __attribute__((weak)), __stop_simtlab_const[] __attribute__((weak));
extern char __start_simtlab_cro[] __attribute__((weak)), __stop_simtlab_cro[] __attribute__((weak)); /* const ones (simtlab run) */

static int in_range(uintptr_t a, unsigned size, const char *lo, const char *hi)
{
    return lo && a >= (uintptr_t)lo && a + size <= (uintptr_t)hi;
}

static int in_kernel_data(uintptr_t a, unsigned size)
{
    return in_range(a, size, __start_simtlab_kdata, __stop_simtlab_kdata) ||
           in_range(a, size, __start_simtlab_kbss, __stop_simtlab_kbss) ||
           in_range(a, size, __start_simtlab_kdrel, __stop_simtlab_kdrel) ||
           in_range(a, size, __start_simtlab_kdrel2, __stop_simtlab_kdrel2);
}

/* The address space of p for the running thread (simtlab run's __isGlobal, __isShared, __isLocal,
 * __isConstant): 0 global (device memory, a __device__ variable), 1 shared, 2 local (the thread's
 * stack), 3 constant (a __constant__ variable), -1 none of them. */
int sim_space_of(const void *p)
{
    const uintptr_t a = (uintptr_t)p;
    const sim_worker *w = sim_tls_worker;
    if (a - sim_arena.base < sim_arena.span || in_kernel_data(a, 1))
        return 0;
    if (w && w->cur && in_shared(w, a, 1))
        return 1;
    if (w && w->cur && w->cur->stack && a >= (uintptr_t)w->cur->stack->lo && a < (uintptr_t)w->cur->stack->hi)
        return 2;
    if (in_range(a, 1, __start_simtlab_const, __stop_simtlab_const) ||
        in_range(a, 1, __start_simtlab_cro, __stop_simtlab_cro))
        return 3;
    return -1;
}

/* __cvta_generic_to_shared: p's offset in the block's shared memory, as the chip's 32-bit shared
 * addresses count it: the static __shared__ objects from 0, the dynamic buffer after them (at a
 * multiple of 16). A pointer outside shared memory gives what the chip's cvta gives it, an address
 * that means nothing: here its distance from the static window, cut to 32 bits. */
size_t sim_cvta_to_shared(const void *p)
{
    const uintptr_t a = (uintptr_t)p;
    const sim_worker *w = sim_tls_worker;
    if (!w)
        return (uint32_t)a;
    const uintptr_t stat = (w->tls_hi - w->tls_lo + 15) & ~(uintptr_t)15;
    if (a >= w->dyn_lo && a < w->dyn_hi)
        return stat + (a - w->dyn_lo);
    return (uint32_t)(a - w->tls_lo);
}

/* __cvta_shared_to_generic: the inverse. */
void *sim_cvta_from_shared(size_t s)
{
    const sim_worker *w = sim_tls_worker;
    if (!w)
        return (void *)(uintptr_t)s;
    const uintptr_t stat = (w->tls_hi - w->tls_lo + 15) & ~(uintptr_t)15;
    return (void *)(s < stat ? w->tls_lo + s : w->dyn_lo + (s - stat));
}

static void shared_race_check(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc);
static void vol_race_check(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc, int note);

static __attribute__((noinline)) void access_general(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc,
                                                    int atomic);
static inline __attribute__((always_inline)) void race_check_inline(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                                   uintptr_t pc, int note);
static void sample_race_check(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc);
static inline __attribute__((always_inline)) int race_check_fast(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                                 int tls);
static void shared_race_slow(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc);
static inline __attribute__((always_inline)) int record_fast(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                             uintptr_t pc, int space);

/* A shared access of the sample (sample_take_in). */
static inline int sample_take(sim_worker *w) { return sample_take_in(w, &w->sample_n); }

/* ---- the log (detailed mode's plain shared accesses) ----
 * Joining each access to its warp's request as it comes (record_fast, detail_record) cost half of
 * flash v1's detailed time: every lane walks the warp's request table, a shared structure well
 * past L1. Instead each lane appends its shared accesses to a log of its own, 8 bytes an access,
 * and the warp's flush (all its live lanes at a barrier or a warp intrinsic, or done) joins them:
 * when every lane logged the same instructions in the same order (nearly always) the n-th entries
 * of the lanes are one request; otherwise a sort by instruction groups each lane's k-th execution
 * of it, as the table does. Requests are sums, so the order they are counted in changes nothing.
 * A stretch past SIM_LOG_CAP accesses a lane, or an access the entry cannot hold, moves the
 * warp's logs into the table (log_drain) and the stretch goes on there. Atomics, asynchronous
 * copies and global accesses always take the table; their instructions are others. */
#define LOG_ANCHOR ((uintptr_t)&sim_warp_flush) /* entries keep the pc as an int32 offset from it */
#define LOG_OFF_BITS 22
#define LOG_PC(e) (LOG_ANCHOR + (uintptr_t)(intptr_t)(int32_t)(uint32_t)(e))
#define LOG_OFF(e) ((uintptr_t)((e) >> 32) & (((uintptr_t)1 << LOG_OFF_BITS) - 1))
#define LOG_DYN(e) ((unsigned)((e) >> 54) & 1u)
#define LOG_WR(e) ((int)((e) >> 55) & 1)
#define LOG_SIZE(e) ((unsigned)((e) >> 56))
#define LOG_SAME 0xff800000ffffffffull /* the bits a lane in step repeats: pc, direction, size */

#define LOG_BYTES ((uintptr_t)SIM_LOG_CAP * 8u) /* a lane's log, aligned to its size */
/* A lane's cursor at the last slot of its log, or this one, stops appending (log_append's one
 * test): a full log, and a warp that does not log now. Never written to. */
#define LOG_OFF_CUR ((uint64_t *)(LOG_BYTES - 8u))

static inline uintptr_t log_addr(const sim_worker *w, uint64_t e)
{
    return (LOG_DYN(e) ? w->dyn_lo : w->tls_lo) + LOG_OFF(e);
}

static inline uint64_t *log_base(const sim_warp *wp, unsigned lane)
{
    return wp->log + (size_t)lane * SIM_LOG_CAP;
}

/* The entries of lane `lane` of warp k. */
static inline uint32_t log_count(const sim_worker *w, unsigned k, unsigned lane)
{
    const uint64_t *c = w->threads[k * 32 + lane].log_cur;
    return c == LOG_OFF_CUR ? 0 : (uint32_t)(c - log_base(&w->warps[k], lane));
}

/* Points the cursors of warp k's lanes at the start of their logs, or, when it does not log
 * (no log yet, logging off, a stretch in the table), at LOG_OFF_CUR. */
void sim_log_arm(sim_worker *w, unsigned k)
{
    sim_warp *wp = &w->warps[k];
    const int on = wp->log && !wp->log_table && sim_detail_log_on;
    for (unsigned m = wp->exists; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        w->threads[k * 32 + l].log_cur = on ? log_base(wp, l) : LOG_OFF_CUR;
    }
}

/* The running lane's shared access appended to its log: 0 if the warp does not log now, the
 * log is full, or the entry cannot hold it (a pc too far away, a size above 255). */
/* Whether a shared access at a is in the static window (else the dynamic one): one expression
 * for the log, the shadow and the race check, so that gcc computes it once on the hot path. */
static inline __attribute__((always_inline)) int in_tls_window(const sim_worker *w, uintptr_t a)
{
    return a - w->tls_lo < w->tls_hi - w->tls_lo;
}

/* The shadow of shared word x, in the window tls says. */
static inline __attribute__((always_inline)) sim_shadow *shadow_in(sim_worker *w, uintptr_t x, int tls)
{
    return tls ? &w->shadow_tls[(x - w->tls_lo) >> 2] : &w->shadow_dyn[(x - w->dyn_lo) >> 2];
}

static inline __attribute__((always_inline)) int log_append(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                            uintptr_t pc)
{
    sim_thread *t = w->cur;
    uint64_t *c = t->log_cur;
    const intptr_t po = (intptr_t)(pc - LOG_ANCHOR);
    const uint64_t dyn = !in_tls_window(w, a);
    const uintptr_t off = a - (dyn ? w->dyn_lo : w->tls_lo);
    if (__builtin_expect(!(((uintptr_t)c + 8u) & (LOG_BYTES - 1)) || po != (int32_t)po || off >> LOG_OFF_BITS ||
                             size > 255,
                         0))
        return 0;
    *c = (uint32_t)po | (uint64_t)off << 32 | dyn << 54 | ((uint64_t)size << 1 | (uint64_t)wr) << 55;
    t->log_cur = c + 1;
    return 1;
}

static __attribute__((noinline)) void shared_record_slow(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                         uintptr_t pc);

/* Detailed mode's aligned shared access of a thread: count it, log it for
 * its warp's requests, and check it for races. */
static inline __attribute__((always_inline)) void shared_record(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                                uintptr_t pc)
{
    /* which window, once (log_append's test too), before the log's store, after which the
     * worker's fields would be read again (uint64_t and uintptr_t may alias) */
    const int tls = in_tls_window(w, a);
    (&w->c.sram_read_bytes)[wr] += size; /* sram_write_bytes follows sram_read_bytes */
    if (__builtin_expect(!log_append(w, a, size, wr, pc), 0)) {
        shared_record_slow(w, a, size, wr, pc); /* a tail call: the hot path saves no registers for it */
        return;
    }
    if (__builtin_expect(!race_check_fast(w, a, size, wr, tls), 0))
        shared_race_slow(w, a, size, wr, pc); /* likewise */
}

/* Everything the hooks do not finish inline. First, without a stack frame
 * of its own, detailed mode's aligned shared accesses the hook's windows did
 * not catch (sizes above 16; most come through shared_detailed); the rest,
 * checks and reports included, in access_general. */
static void sim_access_slow(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc, int atomic)
{
    /* the pending write's store is made, unless this is a read by its own thread: GCC puts an
     * aggregate copy's store hook before its load hook (`s[i] = s[j]`, `v = c_table[k]`) */
    if (__builtin_expect(w->waw_n != 0, 0) && w->waw_mode != SIM_WAW_HOLD &&
        (wr || atomic || w->async || w->cur != w->waw[0].t))
        sim_waw_settle(w, 1);
    if (__builtin_expect(w->vol_thread != NULL, 0)) /* a volatile access's second half (vol_arm); not inside */
        sim_vol_fire(w, !w->async);                 /* an atomic or a copy: w->async is the worker's */
    if (__builtin_expect(w->detailed == 1, 1) && !atomic && !w->async && w->cur && !(a & (size - 1)) &&
        in_shared(w, a, size)) {
        shared_record(w, a, size, wr, pc);
        return;
    }
    /* counting mode's sample of bank conflicts (sim/launch.c): the same requests, no race checks
     * (detailed == 0: not when the watchdog's flag is up; access_general stops the thread) */
    if (__builtin_expect(w->sample, 0) && w->detailed == 0 && !atomic && !w->async && w->cur && !(a & (size - 1)) &&
        in_shared(w, a, size)) {
        (&w->c.sram_read_bytes)[wr] += size;
        if (sample_take(w)) {
            /* the first race is the note, none looked for after it; and only in a stretch's first
             * SIM_SAMPLE_RACE_ACCESSES accesses (the check costs more than the sample itself) */
            if (!record_fast(w, a, size, wr, pc, SIM_SPACE_SHARED))
                detail_record(w, a, size, wr, pc, SIM_SPACE_SHARED); /* before the check: shared_record */
            if (!w->has_race && w->sample_n <= SIM_SAMPLE_RACE_ACCESSES && w->shadow_tls)
                sample_race_check(w, a, size, wr, pc);
        }
        return;
    }
    access_general(w, a, size, wr, pc, atomic);
}

/* Detailed mode's aligned shared access of a thread, from the hook, which has
 * tested the window and the alignment (its limits: sim/launch.c): the same as
 * sim_access_slow's first branch without its tests. The watchdog's bit in
 * w->detailed sends it the general way (its limits go to 0 as well). */
static inline __attribute__((always_inline)) void shared_detailed_inline(sim_worker *w, uintptr_t a, unsigned size,
                                                                         int wr, uintptr_t pc)
{
    if (__builtin_expect(w->detailed != 1 || w->async || !w->cur, 0)) {
        sim_access_slow(w, a, size, wr, pc, 0);
        return;
    }
    shared_record(w, a, size, wr, pc);
}

/* The C hooks' calls (access_inline_from): out of line, so that their fast path saves no
 * registers, one for each size and direction (shared_detailed_sized) and a general one; the
 * inline path's __simtlab_inside_* entries have their own copies. */
static __attribute__((noinline)) void shared_detailed(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc)
{
    shared_detailed_inline(w, a, size, wr, pc);
}
#define SHARED_DETAILED_DEF(n)                                                                        \
    static void shared_detailed_r##n(sim_worker *w, uintptr_t a, uintptr_t pc) { shared_detailed_inline(w, a, n, 0, pc); } \
    static void shared_detailed_w##n(sim_worker *w, uintptr_t a, uintptr_t pc) { shared_detailed_inline(w, a, n, 1, pc); }
SHARED_DETAILED_DEF(1)
SHARED_DETAILED_DEF(2)
SHARED_DETAILED_DEF(4)
SHARED_DETAILED_DEF(8)
SHARED_DETAILED_DEF(16)

static void access_general(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc, int atomic)
{
    const char *rw = w->async == SIM_SPACE_ATOM ? "atomic" : wr ? "write" : "read"; /* an atomic faults in its read half */
    sim_thread *t = w->cur;
    if (!t) /* instrumented code outside any CUDA thread (not expected: thunks are not instrumented) */
        return;
    if (__builtin_expect(w->detailed & SIM_DETAILED_TIMEOUT, 0))
        sim_timeout_stop(w, pc);
    uintptr_t off = a - sim_arena.base;
    if (off < sim_arena.span) {
        uint32_t id = sim_arena.owner[off >> SIM_GRANULE_SHIFT];
        const sim_alloc *al = &sim_allocs[id];
        if (a >= al->begin && a + size <= al->live_end) {
            if (a & (size - 1)) {
                sim_fail(w, SIM_ERR_MISALIGNED_ADDRESS, pc,
                         "misaligned global %s of %u bytes at 0x%llx (allocation '%s' offset %llu): a GPU needs "
                         "%u-byte alignment",
                         rw, size, (unsigned long long)a, al->name, (unsigned long long)(a - al->begin), size);
                sim_block_abort(w);
            }
            w->alloc_ctr[id][wr] += size; /* atomics come here */
            if (wr && !w->async) /* a plain write: its bytes, sector by sector (sim_l2_wmask) */
                for (uintptr_t x = off, end = off + size; x < end; x = (x | 31) + 1)
                    sim_l2_wmask(w, x, (unsigned)((((x | 31) + 1) < end ? (x | 31) + 1 : end) - x));
            if (w->async != SIM_SPACE_SKIP) /* an atomic: one L2 operation (its read half) */
                sim_l2_note(w, off, w->async == SIM_SPACE_ATOM ? 2u : (unsigned)wr, 0);
            if (w->detailed) {
                detail_record(w, a, size, wr, pc, SIM_SPACE_GLOBAL);
                if (!atomic && !w->async) /* atomic: an atomic's or a volatile access's, never a race */
                    global_race(w, a, size, wr, pc);
            }
            return;
        }
        char where[256];
        sim_describe_address(where, sizeof where, a, size);
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc, "invalid global %s of %u bytes at address 0x%llx: %s", rw, size,
                 (unsigned long long)a, where);
        sim_block_abort(w);
    }
    if (in_shared(w, a, size)) {
        if (a & (size - 1)) {
            sim_fail(w, SIM_ERR_MISALIGNED_ADDRESS, pc, "misaligned shared %s of %u bytes at 0x%llx", rw, size,
                     (unsigned long long)a);
            sim_block_abort(w);
        }
        if (wr)
            w->c.sram_write_bytes += size;
        else
            w->c.sram_read_bytes += size;
        if (w->detailed) {
            detail_record(w, a, size, wr, pc, SIM_SPACE_SHARED); /* before the check: shared_record */
            if (!atomic)
                shared_race_check(w, a, size, wr, pc);
            else if (!w->async) /* a volatile access: a race with plain ones only */
                vol_race_check(w, a, size, wr, pc, 0);
            else if (w->async == SIM_SPACE_SKIP) /* an atomic's write half: as a volatile write (below) */
                vol_race_check(w, a, size, 1, pc, 0);
        } else if (w->sample && w->async != SIM_SPACE_SKIP) { /* counting mode's sample: atomics and async
                                                                 * copies too (their own requests; an atomic's
                                                                 * write half records nothing) */
            if (sample_take(w)) {
                detail_record(w, a, size, wr, pc, SIM_SPACE_SHARED);
                /* a volatile access against the stretch's plain ones (a reduction's unrolled last
                 * warp missing the barrier before it): the note, as for plain accesses above */
                if (atomic && !w->async && !w->has_race && w->sample_n <= SIM_SAMPLE_RACE_ACCESSES && w->shadow_tls)
                    vol_race_check(w, a, size, wr, pc, 1);
            }
        }
        return;
    }
    if (a >= w->dyn_win_lo && a < w->dyn_win_hi) {
        long long rel = (long long)(a - w->dyn_lo);
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                 "invalid shared %s of %u bytes at dynamic shared offset %lld: the launch has %llu bytes of dynamic "
                 "shared memory (%s)",
                 rw, size, rel, (unsigned long long)(w->dyn_hi - w->dyn_lo),
                 rel < 0 ? "before its start" : "past its end");
        sim_block_abort(w);
    }
    if (t->stack && a >= (uintptr_t)t->stack->lo && a + size <= (uintptr_t)t->stack->hi) {
        if (a & (size - 1)) { /* a 16-byte movaps would fault the CPU instead */
            sim_fail(w, SIM_ERR_MISALIGNED_ADDRESS, pc, "misaligned local %s of %u bytes at 0x%llx", rw, size,
                     (unsigned long long)a);
            sim_block_abort(w);
        }
        if (wr)
            w->c.local_write_bytes += size;
        else
            w->c.local_read_bytes += size;
        return;
    }
    if (a >= sim_params_lo && a + size <= sim_params_hi) { /* the launch's argument block */
        if (wr)
            w->c.local_write_bytes += size;
        else
            w->c.const_read_bytes += size;
        return;
    }
    unsigned seg = exe_segment(a);
    if (seg) {
        if (a & (size - 1)) {
            sim_fail(w, SIM_ERR_MISALIGNED_ADDRESS, pc, "misaligned constant %s of %u bytes at 0x%llx", rw, size,
                     (unsigned long long)a);
            sim_block_abort(w);
        }
        if (in_kernel_data(a, size)) { /* a __device__ variable: global memory, as on the GPU */
            if (wr)
                w->c.hbm_write_bytes += size;
            else
                w->c.hbm_read_bytes += size;
            if (w->detailed) {
                detail_record(w, a, size, wr, pc, SIM_SPACE_GLOBAL);
                if (!atomic && !w->async) /* atomic: an atomic's or a volatile access's, never a race */
                    global_race(w, a, size, wr, pc);
            }
            return;
        }
        if (!wr) {
            w->c.const_read_bytes += size;
            return;
        }
        if (in_range(a, size, __start_simtlab_const, __stop_simtlab_const) ||
            in_range(a, size, __start_simtlab_cro, __stop_simtlab_cro)) {
            sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                     "write of %u bytes at 0x%llx to a __constant__ variable: constant memory is read-only in "
                     "kernels (nvcc refuses this code); set it from the host (cudaMemcpyToSymbol) or make it a "
                     "__device__ variable or a cudaMalloc buffer",
                     size, (unsigned long long)a);
            sim_block_abort(w);
        }
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                 "invalid write of %u bytes at address 0x%llx: host memory (%s of the program: a host global or "
                 "static array, a const table or a string literal). A kernel may write only device memory "
                 "(cudaMalloc), shared memory, __device__ variables and its own locals: copy the data to a device "
                 "buffer and pass that",
                 size, (unsigned long long)a, seg & PF_W ? "static data" : "read-only data");
        sim_block_abort(w);
    }
    if (a < 65536) /* no process maps the lowest 64 KiB: NULL, or NULL plus a small index */
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                 "invalid %s of %u bytes at address 0x%llx: a NULL pointer%s (a buffer never allocated, or an "
                 "argument never set: check each cudaMalloc's result and what the launch passes)",
                 rw, size, (unsigned long long)a, a ? " plus an offset" : "");
    else if (a + size > w->tls_hi && a < w->tls_hi + (64u << 10)) /* the TLS block's end: the TCB */
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                 "invalid %s of %u bytes at address 0x%llx: %llu bytes past the end of the static __shared__ "
                 "memory (an index past a __shared__ array's end? the simulator catches it only past the "
                 "program's last __shared__ array: check the indices of every one)",
                 rw, size, (unsigned long long)a, (unsigned long long)(a + size - w->tls_hi));
    else if (a < w->tls_lo && a + (64u << 10) > w->tls_lo)
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                 "invalid %s of %u bytes at address 0x%llx: %llu bytes before the start of the static __shared__ "
                 "memory (a negative index into a __shared__ array?)",
                 rw, size, (unsigned long long)a, (unsigned long long)(w->tls_lo - a));
    else
        sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                 "invalid %s of %u bytes at address 0x%llx: not device memory, shared memory or this thread's stack "
                 "(a host pointer passed to the kernel, or another thread's local variable?)",
                 rw, size, (unsigned long long)a);
    sim_block_abort(w);
}

/* ---- shared-memory races (detailed mode) ----------------------------------
 * Two accesses to the same 4-byte word by different threads, at least one a
 * write, with no __syncthreads between them (and, for two lanes of one warp,
 * no warp-synchronous intrinsic either), are a hazard, as compute-sanitizer's
 * racecheck defines it. One shadow word per shared word remembers the last
 * writer and reader and the barrier epoch they acted in. */
#define SIM_MULTI 0xffffu
static sim_shadow *shadow_of(sim_worker *w, uintptr_t a) { return shadow_in(w, a, in_tls_window(w, a)); }

/* ---- locks: acquire and release through atomics and fences (detailed mode) ----
 * A spin lock (`while (atomicCAS(&lock, 0, 1) != 0); __threadfence(); ...; __threadfence();
 * atomicExch(&lock, 0);`) orders its holders' plain accesses one after another, with no barrier
 * between them: the PTX memory model's release (a fence, then an atomic write) and acquire (an
 * atomic read of what a release wrote, then a fence). The race check followed barriers and warp
 * intrinsics only, so such a lock around `sum += 1` was reported as a race (a correct program
 * failed under --detail). Now each thread carries a release stamp (sim_thread.rel, left in the
 * shadows beside the warp epoch) and a vector of the stamps it has acquired (w->vc, one row a
 * thread); a release joins the thread's vector and stamp into its lock's (w->lock_vc), an acquire
 * joins the lock's into the thread's, and an access of another thread stamped no later than what
 * this thread acquired of it is ordered (vc_ordered). Without the fences nothing is ordered and
 * the race stays reported: on a GPU the holder's stores may not be visible to the next holder
 * (on an H100 a fenceless global lock summed 128 of 512: docs/gpu/s40-h100). A lock is an address
 * a compare-and-swap or an exchange used; a fence starts a new stamp, and a write-type atomic on a
 * lock releases the stamps before the thread's last fence; an atomic on a lock (but a give-back,
 * one after a fence since the thread's previous atomic) is read, acquired at the thread's next
 * fence unless the lock was released again in between (lock_ver). SIM_MAX_LOCKS addresses and
 * SIM_REL_MAX - 1 fences a thread are followed a barrier epoch (a barrier starts the tables
 * afresh: sim_lock_reset); past them a thread's later accesses are ordered by no lock (reports as
 * before this model: never a missed race). A stamp is one byte of the shadow's padding, which
 * keeps detailed mode's hot path as it was. Words read in parts by several threads (sim_split)
 * keep no stamp: SIM_NO_REL, never ordered by a lock. Not followed: a thread holding two locks
 * with one fence before giving both back (the second give-back releases nothing: a report). */
#define SIM_NO_REL 0xffu
#define SIM_REL_MAX 0xfeu /* a thread's stamps: 1 .. SIM_REL_MAX (one byte in the shadows) */
static inline int vc_ordered(const sim_worker *w, unsigned other, uint8_t other_rel, const sim_thread *t)
{
    return other < w->vc_n && other_rel <= w->vc[(size_t)t->linear * w->vc_n + other];
}

/* Lock a's index, made if new and make (-1: not a lock, or no room). */
static int lock_index(sim_worker *w, uintptr_t a, int make)
{
    for (unsigned i = 0; i < w->n_locks; i++)
        if (w->lock_at[i] == a)
            return (int)i;
    if (!make || w->n_locks == SIM_MAX_LOCKS)
        return -1;
    if (!w->vc) { /* 1 MB, 16 KB and 4 KB, once a worker; calloc's pages stay untouched until used */
        w->vc = calloc((size_t)SIM_MAX_THREADS * SIM_MAX_THREADS, sizeof *w->vc);
        w->lock_vc = calloc((size_t)SIM_MAX_LOCKS * SIM_MAX_THREADS, sizeof *w->lock_vc);
        w->acq_ver = calloc(SIM_MAX_THREADS, sizeof *w->acq_ver);
        if (!w->vc || !w->lock_vc || !w->acq_ver) { /* no memory: locks are not modelled (reports as before) */
            free(w->vc), free(w->lock_vc), free(w->acq_ver);
            w->vc = w->lock_vc = NULL;
            w->acq_ver = NULL;
            return -1;
        }
    }
    w->vc_n = w->n_threads;
    w->lock_ver[w->n_locks] = 0;
    w->lock_at[w->n_locks] = a;
    return (int)w->n_locks++;
}

/* Thread t's atomic on a, after it was made (wrote: it changed memory; like: a compare-and-swap or
 * an exchange, a lock's operations, which make a a lock). On a lock: a write releases what t did
 * before its last fence (the stamps below t->rel: a fence starts a new one, lock_fence), and t
 * acquires at its next fence what the lock holds now, unless this atomic gave the lock back (t
 * fenced since its previous atomic: `__threadfence(); atomicExch(&lock, 0)`). */
static __attribute__((noinline)) void lock_atomic(sim_worker *w, sim_thread *t, uintptr_t a, int wrote, int like)
{
    const int give_back = (t->fenced & SIM_FENCE_NEW) != 0;
    unsigned acq = 0;
    const int i = lock_index(w, a, like);
    if (i >= 0) {
        if (like)
            w->lock_like |= 1u << i;
        if (wrote && t->rel > 1) { /* a release of the stamps before t's last fence */
            const unsigned n = w->vc_n, me = t->linear;
            uint8_t *l = &w->lock_vc[(size_t)i * SIM_MAX_THREADS];
            const uint8_t *mine = &w->vc[(size_t)me * n];
            for (unsigned u = 0; u < n; u++)
                if (mine[u] > l[u])
                    l[u] = mine[u];
            if (t->rel - 1 > l[me])
                l[me] = (uint8_t)(t->rel - 1);
            w->lock_ver[i]++;
            w->vc_live = 1;
        }
        if (!give_back) { /* what the lock holds now, acquired at the next fence if no release comes first */
            acq = (unsigned)i + 1;
            w->acq_ver[t->linear] = w->lock_ver[i];
        }
    }
    t->fenced = (uint8_t)((t->fenced & SIM_FENCED) | acq << SIM_ACQ_SHIFT);
}

/* Thread t fences: it acquires what the lock its last atomic read held then (if another thread has
 * released it since, nothing: not what this thread read), and its later accesses take a new stamp,
 * which a release through an atomic before its next fence does not cover. */
static void lock_fence(sim_worker *w, sim_thread *t)
{
    const unsigned acq = t->fenced >> SIM_ACQ_SHIFT;
    t->fenced = SIM_FENCED | SIM_FENCE_NEW;
    if (acq && w->vc_live && w->lock_ver[acq - 1] == w->acq_ver[t->linear]) {
        const unsigned n = w->vc_n;
        const uint8_t *l = &w->lock_vc[(size_t)(acq - 1) * SIM_MAX_THREADS];
        uint8_t *mine = &w->vc[(size_t)t->linear * n];
        for (unsigned u = 0; u < n; u++)
            if (l[u] > mine[u])
                mine[u] = l[u];
    }
    if (t->rel < SIM_REL_MAX) /* past SIM_REL_MAX its accesses after a fence stay unreleased */
        t->rel++;
}

/* Whether the running thread took a lock (an atomicCAS or atomicExch on an address others wrote
 * so) and has not fenced since: then a race report says what the lock lacks (LOCK_FIX). */
static int lock_unfenced(const sim_worker *w)
{
    const sim_thread *t = w->cur;
    const unsigned acq = t ? t->fenced >> SIM_ACQ_SHIFT : 0;
    return acq && (w->lock_like >> (acq - 1) & 1);
}

/* A block's start, and each barrier (after it every access of the block is ordered anyway): no
 * lock, every thread's stamp 1 again and nothing acquired (the tables emptied), so that the
 * limits (SIM_MAX_LOCKS, SIM_REL_MAX) are a barrier epoch's. */
void sim_lock_reset(sim_worker *w)
{
    if (w->vc_live) {
        memset(w->vc, 0, (size_t)w->vc_n * w->vc_n * sizeof *w->vc);
        for (unsigned i = 0; i < w->n_locks; i++)
            memset(&w->lock_vc[(size_t)i * SIM_MAX_THREADS], 0, w->vc_n * sizeof *w->lock_vc);
    }
    for (unsigned i = 0; i < w->next_new; i++) { /* started threads (the others start so) */
        w->threads[i].rel = 1;
        w->threads[i].fenced &= SIM_FENCED | SIM_FENCE_NEW;
    }
    w->n_locks = 0;
    w->lock_like = 0;
    w->vc_live = 0;
}

/* After a compare-and-swap (sim/launch.c): whether it wrote. */
void sim_atomic_cas_done(uintptr_t a, int wrote)
{
    sim_worker *w = sim_tls_worker;
    if (w && w->cur && (w->detailed || w->sample))
        lock_atomic(w, w->cur, a, wrote, 1);
}

/* Whether thread t's access is ordered after thread other's, whose warp epoch and release stamp
 * were other_wep and other_rel then (the barrier epoch is the same): a warp intrinsic of their
 * warp between them, or a lock other released after it and t has acquired since (vc_ordered). */
static int synced(sim_worker *w, unsigned other, uint16_t other_wep, uint8_t other_rel, const sim_thread *t)
{
    return (other / 32 == t->warp && other_wep != (uint16_t)w->warps[t->warp].sync_epoch) ||
           (__builtin_expect(w->vc_live, 0) && vc_ordered(w, other, other_rel, t));
}

/* ---- readers of parts of a word ----
 * A shadow word keeps one reader: once a second thread reads the word it says "several" for all
 * its bytes. For whole words that is exact, but a short, __half or char array puts two or four
 * threads' elements in one word, and then a thread writing the element only it read (`s[t] +=
 * s[t + h]` on shorts) was a write-after-read race. So a word read in parts by two threads keeps
 * each byte's reader in a sim_split beside its shadow (valid in the epoch it was written), and a
 * write to such a word asks it. The shadow's reader says which words have one: SIM_SPLIT (in the
 * shadow's epoch), so whole words read by several (the flash kernels' tiles) cost one compare. */
#define SIM_NOBODY 0xfffeu
#define SIM_SPLIT 0xfffdu
static sim_split *split_of(sim_worker *w, uintptr_t x)
{
    if (!w->split_tls) {
        w->split_tls = calloc((w->tls_hi - w->tls_lo) / 4 + 1, sizeof(sim_split));
        w->split_dyn = calloc(SIM_DYN_CAP / 4, sizeof(sim_split));
        if (!w->split_tls || !w->split_dyn) { /* no memory: words read by several are "several", as before */
            free(w->split_tls);
            free(w->split_dyn);
            w->split_tls = w->split_dyn = NULL;
            return NULL;
        }
    }
    if (x >= w->tls_lo && x < w->tls_hi)
        return &w->split_tls[(x - w->tls_lo) >> 2];
    return &w->split_dyn[(x - w->dyn_lo) >> 2];
}

/* Thread me reads bytes of word x, which another thread (or several) read in this epoch. */
static __attribute__((noinline)) void byte_readers(sim_worker *w, sim_shadow *s, uintptr_t x, uint8_t bytes,
                                                   uint16_t me, uint16_t wep, const sim_thread *t)
{
    const uint32_t ep = w->epoch;
    sim_split *p = split_of(w, x);
    if (p) {
        if (p->epoch != ep) { /* its first split in this epoch: the shadow's reader had its bytes */
            p->epoch = ep;
            for (unsigned b = 0; b < 4; b++) {
                p->tid[b] = s->r_bytes >> b & 1 ? s->r_tid : SIM_NOBODY;
                p->wep[b] = s->r_wep;
            }
        }
        for (unsigned b = 0; b < 4; b++) {
            if (!(bytes >> b & 1))
                continue;
            const unsigned o = p->tid[b];
            if (o == SIM_NOBODY || o == me || (o != SIM_MULTI && synced(w, o, p->wep[b], SIM_NO_REL, t))) {
                p->tid[b] = me;
                p->wep[b] = wep;
            } else {
                p->tid[b] = SIM_MULTI;
            }
        }
    }
    s->r_tid = p ? SIM_SPLIT : SIM_MULTI; /* no memory for it: "several", as whole words */
    s->r_bytes |= bytes;
}

/* Thread me writes bytes of word x, read by several in this epoch: the reader it races with
 * (SIM_MULTI: several), or SIM_NOBODY when only it read those bytes (or its warp has met
 * the readers since). */
static __attribute__((noinline)) unsigned byte_write_race(sim_worker *w, uintptr_t x, uint8_t bytes, uint16_t me,
                                                          const sim_thread *t)
{
    const sim_split *p = split_of(w, x);
    if (!p || p->epoch != w->epoch) /* whole words read by several */
        return SIM_MULTI;
    for (unsigned b = 0; b < 4; b++) {
        const unsigned o = p->tid[b];
        if ((bytes >> b & 1) && o != SIM_NOBODY && o != me && (o == SIM_MULTI || !synced(w, o, p->wep[b], SIM_NO_REL, t)))
            return o;
    }
    return SIM_NOBODY;
}

/* ---- asynchronous copies in flight (detailed mode) ----
 * The simulator's copies land at once, but on a GPU a cp.async lands some time before the wait
 * that completes it: an access to its destination before that wait (by its own thread, or by
 * another before a barrier after the wait) reads either value, and a student's missing
 * __pipeline_wait_prior or consumer_wait would pass here unnoticed. So the destination words'
 * shadows name SIM_ASYNC as their writer while the copy is pending: every access to one is a race
 * (race_word, race_text), and the wait makes the issuing thread their writer, so that the usual
 * barrier rule holds for the other threads. A pending copy outlives barriers (a pipeline's later
 * stages): each barrier's new epoch is stamped on its words (sim_cp_restamp). */
#define SIM_ASYNC 0xfffcu
#define SIM_CP_CAP (1u << 17) /* copies in flight a block tracks (3 MB); past it, a copy is not tracked */
#define SIM_CP_NONE 0xffffffffu

void sim_cp_reset(sim_worker *w)
{
    if (w->cp_live && w->cp_first) /* a failed block's */
        for (unsigned i = 0; i < SIM_MAX_THREADS; i++)
            w->cp_first[i] = SIM_CP_NONE;
    w->cp_live = w->cp_hi = 0;
    w->cp_free = SIM_CP_NONE;
}

static void cp_track(sim_worker *w, uintptr_t d, unsigned size)
{
    if (!w->cp_first) {
        if (!(w->cp_first = malloc(SIM_MAX_THREADS * sizeof *w->cp_first)))
            return; /* untracked: it has landed, as in counting mode */
        for (unsigned i = 0; i < SIM_MAX_THREADS; i++)
            w->cp_first[i] = SIM_CP_NONE;
        w->cp_free = SIM_CP_NONE;
    }
    uint32_t k = w->cp_free;
    if (k != SIM_CP_NONE) {
        w->cp_free = w->cp[k].next;
    } else {
        if (w->cp_hi == w->cp_cap) {
            const unsigned cap = w->cp_cap ? 2 * w->cp_cap : 256;
            struct sim_cp_rec *p = cap <= SIM_CP_CAP ? realloc(w->cp, cap * sizeof *p) : NULL;
            if (!p)
                return;
            w->cp = p;
            w->cp_cap = cap;
        }
        k = w->cp_hi++;
    }
    const sim_thread *t = w->cur;
    w->cp[k] = (struct sim_cp_rec){d, size, w->cp_first[t->linear], (uint16_t)t->linear, t->cp_groups};
    w->cp_first[t->linear] = k;
    w->cp_live++;
    for (uintptr_t x = d & ~(uintptr_t)3; x < d + size; x += 4) {
        sim_shadow *s = shadow_of(w, x);
        s->w_epoch = w->epoch;
        s->w_tid = SIM_ASYNC;
        s->w_bytes = 0xf;
    }
}

/* Thread t's copies land: all, or (cp.async.wait_group keep) those of its committed groups
 * but the keep latest. Their words' writer becomes t, now. */
static void cp_land(sim_worker *w, const sim_thread *t, unsigned keep, int all)
{
    const uint16_t me = (uint16_t)t->linear, wep = (uint16_t)w->warps[t->warp].sync_epoch;
    uint32_t *link = &w->cp_first[t->linear];
    while (*link != SIM_CP_NONE) {
        const uint32_t k = *link;
        struct sim_cp_rec *r = &w->cp[k];
        if (!(all || (uint16_t)(t->cp_groups - r->group) > keep)) {
            link = &r->next;
            continue;
        }
        for (uintptr_t x = r->dst & ~(uintptr_t)3; x < r->dst + r->size; x += 4) {
            sim_shadow *s = shadow_of(w, x);
            if (s->w_tid == SIM_ASYNC && s->w_epoch == w->epoch) { /* else another access took it (reported) */
                s->w_tid = me;
                s->w_wep = wep;
                s->w_rel = t->rel;
                s->w_bytes = 0xf;
            }
        }
        *link = r->next;
        r->tid = SIM_ASYNC; /* a free slot */
        r->next = w->cp_free;
        w->cp_free = k;
        w->cp_live--;
    }
}

void sim_cp_restamp(sim_worker *w)
{
    for (unsigned i = 0; i < w->cp_hi; i++)
        if (w->cp[i].tid != SIM_ASYNC)
            for (uintptr_t x = w->cp[i].dst & ~(uintptr_t)3; x < w->cp[i].dst + w->cp[i].size; x += 4) {
                sim_shadow *s = shadow_of(w, x);
                if (s->w_tid == SIM_ASYNC)
                    s->w_epoch = w->epoch;
            }
}

/* A thread that exits with copies in flight: they land (a GPU does not end the warp first). */
void sim_cp_thread_done(sim_worker *w, sim_thread *t)
{
    cp_land(w, t, 0, 1);
}

/* The copy in flight to word x, for the report: its thread, or -1 */
static int cp_issuer(const sim_worker *w, uintptr_t x)
{
    for (unsigned i = 0; i < w->cp_hi; i++)
        if (w->cp[i].tid != SIM_ASYNC && x + 4 > w->cp[i].dst && x < w->cp[i].dst + w->cp[i].size)
            return w->cp[i].tid;
    return -1;
}

/* A race's text: which hazard, where, and between whom. */
/* A volatile write's or an atomic's mark in a shadow word's w_bytes (vol_race_check), and a plain
 * write's (shadow_wrote: the writer's plain write stays seen once its own atomic follows it), which
 * the plain checks' byte masks (0xf) never test */
#define SIM_VOL_W 0x10u
#define SIM_PLAIN_W 0x20u

/* Thread t's latest access of [lo, hi) in space that wrote (wr) or read, in its warp's history
 * since the warp's last flush: its lane's log, or, when the warp's stretch is in the request table
 * (it made a global access, an atomic, ...), the latest request of its lane that covers the bytes;
 * after the flush of a warp whose lanes have all exited, what that flush kept. 1 with its pc and
 * how many times the thread had executed pc_here before it (requests in the order the table got
 * them: the order a lane that runs the warp's code straight makes them); 0 when the history does
 * not hold it (the warp flushed since: a barrier, a warp intrinsic; volatile accesses are not
 * kept). */
static int hist_find(const sim_worker *w, const sim_thread *t, uintptr_t lo, uintptr_t hi, int wr, int space,
                     uintptr_t pc_here, uintptr_t *pc, uint32_t *before)
{
    const sim_warp *wp = &w->warps[t->warp];
    const unsigned lane = t->lane;
    if (wp->log_table || (w->sample && !w->detailed) || wp->kept_on == SIM_KEPT_TABLE) { /* counting mode's sample: the table */
        for (uint32_t i = wp->kept_on == SIM_KEPT_TABLE ? wp->kept_reqs : wp->reqs_n; i-- > 0;) {
            const sim_request *r = &wp->reqs[i];
            if (!(r->lanes >> lane & 1) || r->wr != wr || (r->space & ~SIM_SPACE_ASYNC) != space)
                continue;
            uintptr_t a = 0;
            unsigned size = r->size;
            if (r->affine) {
                a = r->a0 + (uintptr_t)((intptr_t)((int)lane - (int)r->lane0) * r->stride);
            } else {
                const uint64_t *it = &wp->pool[(size_t)r->items * 32];
                for (unsigned k = 0; k < r->n && !a; k++)
                    if (IT_LANE(it[k]) == lane)
                        a = IT_ADDR(it[k]), size = IT_SIZE(it[k]);
            }
            if (a && a < hi && a + size > lo) {
                uint32_t n = 0;
                for (uint32_t j = 0; j < i; j++)
                    n += wp->reqs[j].pc == pc_here && (wp->reqs[j].lanes >> lane & 1);
                *pc = r->pc;
                *before = n;
                return 1;
            }
        }
        return 0;
    }
    if (space != SIM_SPACE_SHARED || !wp->log || (t->log_cur == LOG_OFF_CUR && wp->kept_on != SIM_KEPT_LOG))
        return 0;
    const uint64_t *b = log_base(wp, lane), *end = wp->kept_on == SIM_KEPT_LOG ? b + wp->kept[lane] : t->log_cur;
    if (end < b || end > b + SIM_LOG_CAP)
        return 0;
    for (const uint64_t *e = end; e-- > b;)
        if (LOG_WR(*e) == wr && log_addr(w, *e) < hi && log_addr(w, *e) + LOG_SIZE(*e) > lo) {
            uint32_t n = 0;
            for (const uint64_t *f = b; f < e; f++)
                n += LOG_PC(*f) == pc_here;
            *pc = LOG_PC(*e);
            *before = n;
            return 1;
        }
    return 0;
}

/* The other side of a race on word x: thread other's latest access of x that wrote (wr) or read
 * (hist_find), kept in the worker for the finding's record (sim_err_take), which names its line.
 * And whether it comes after this access in the program (other_ahead): the other thread had
 * executed this access's pc more times than this thread has, before making its own, so it ran
 * ahead of this thread past this point (the order the simulator ran them; in the program this
 * access is first). Only where the two histories start at one point: one warp, or both warps'
 * at the block's last barrier (not after a warp intrinsic flushed one). Costs nothing until a
 * race is reported. */
static void race_other(sim_worker *w, unsigned other, uintptr_t x, uint8_t bytes, int wr, int my_wr,
                       uintptr_t pc_here, int space)
{
    w->other_pc = 0;
    w->other_ahead = 0;
    /* the bytes the two accesses share: an entry of the other thread must cover one of them (its
     * store to another byte of the word is no conflict) */
    const uintptr_t lo = x + (unsigned)__builtin_ctz(bytes), hi = x + 32 - (unsigned)__builtin_clz(bytes);
    if (other >= w->n_threads || !w->cur)
        return;
    const sim_thread *o = &w->threads[other], *t = w->cur;
    uintptr_t pc = 0, mine = 0;
    uint32_t o_runs = 0, my_runs = 0;
    if (!hist_find(w, o, lo, hi, wr, space, pc_here, &pc, &o_runs))
        return;
    w->other_pc = pc;
    w->other_tid = o->tid;
    w->other_wr = wr;
    const sim_warp *ow = &w->warps[o->warp], *tw = &w->warps[t->warp];
    const int same_start = o->warp == t->warp || (tw->hist_bar && (ow->kept_on ? ow->kept_bar : ow->hist_bar));
    /* this thread's own access, just recorded: how often it had executed its pc before. Not two
     * writes (the name stays), nor where a lock was taken since the barrier: its holders run one
     * after another, in the order the simulator ran them (`sum += 1` under a lock missing a fence) */
    if (same_start && !(wr && my_wr) && !w->n_locks &&
        hist_find(w, t, lo, hi, my_wr, space, pc_here, &mine, &my_runs))
        w->other_ahead = o_runs > my_runs;
}

static void race_text(sim_worker *w, char *out, size_t n, const char *kind, uintptr_t x, int wr, unsigned other,
                      uintptr_t pc)
{
    char who[48], at[300];
    const uint8_t bytes = w->race_bytes & 0xf ? w->race_bytes & 0xf : 0xf; /* the shared bytes (race_word) */
    w->race_bytes = 0;
    race_other(w, other, x, bytes, strcmp(kind, "write-after-read") != 0, wr, pc, /* the other access wrote, or read */
               SIM_SPACE_SHARED);
    sim_describe_shared(at, sizeof at, w, x);
    const int how = w->race_how;
    w->race_how = 0;
    if (other == SIM_ASYNC) {
        const int o = cp_issuer(w, x);
        const sim_thread *it = o >= 0 ? &w->threads[o] : NULL;
        if (it == w->cur)
            snprintf(who, sizeof who, "this thread");
        else if (it)
            snprintf(who, sizeof who, "thread (%u,%u,%u)", it->tid.x, it->tid.y, it->tid.z);
        else
            snprintf(who, sizeof who, "a thread");
        snprintf(out, n,
                 "shared-memory race on the word at %s: %s of this thread while the asynchronous copy "
                 "(cp.async: memcpy_async, __pipeline_memcpy_async, inline PTX, copy_async_float4) that %s issued to it is in "
                 "flight, no wait having completed it. On a GPU the copy lands some time before its wait returns, "
                 "so this %s races with it: wait first (__pipeline_wait_prior, pipeline.consumer_wait() after "
                 "producer_commit(), cg::wait, cp.async.wait_group, copy_async_wait_all)%s",
                 at, wr ? "a write" : "a read", who, wr ? "write" : "read",
                 it == w->cur ? "" : ", then __syncthreads() so that the other threads see what it wrote");
        return;
    }
    if (other == SIM_MULTI)
        snprintf(who, sizeof who, "several other threads");
    else
        snprintf(who, sizeof who, "thread %u", other);
    if (!how && lock_unfenced(w)) /* a lock taken with no fence after it: the fences are the fix */
        snprintf(out, n,
                 "shared-memory race (%s hazard) on the word at %s: %s of this thread and an access by %s with no "
                 "__syncthreads() between them. %s",
                 kind, at, wr ? "a write" : "a read", who, LOCK_FIX);
    else if (how) /* an atomic (or a volatile write) on one side: a barrier is the fix, in a warp too */
        snprintf(out, n,
                 "shared-memory race (%s hazard) on the word at %s: %s of this thread and %s by %s with no "
                 "__syncthreads() between them. Atomics are ordered among themselves, not with other threads' plain "
                 "accesses to the same word (the zeroing before them, the read after them): on a GPU either may "
                 "come first; put __syncthreads() between the plain accesses and the atomics",
                 kind, at, how == 2 ? "an atomic (or volatile write)" : wr ? "a write" : "a read",
                 how == 1 ? "an atomic (or volatile write)" : "an access", who);
    else if (w->other_ahead) {
        /* The other thread had passed this access's pc more often than this thread when it made its own
         * (race_other): in the program this access comes first, and the hazard is named in that order, not
         * in the order the simulator ran them (a missing barrier between a write and a read is
         * read-after-write whichever thread ran first). */
        const int lane = other / 32 == w->cur->warp;
        char fix[300];
        if (lane && !wr) /* a lane's read, then another's write: dxtc's `s[i] += s[i ^ 8]` */
            snprintf(fix, sizeof fix, "A GPU makes one instruction's loads for the whole warp before its stores, but "
                                      "CUDA promises no order between lanes since Volta: read into a register, "
                                      "__syncwarp() (or tile.sync()), then write; where a loop refills shared memory, "
                                      "put __syncthreads() at the end of its body");
        else if (!wr)
            snprintf(fix, sizeof fix, "Put __syncthreads() between this read and that write: where a loop refills "
                                      "shared memory, at the end of its body");
        else
            snprintf(fix, sizeof fix, "Put __syncthreads() between this write and that read%s",
                     lane ? " (__syncwarp() where only the warp's lanes share the data)" : "");
        snprintf(out, n,
                 "shared-memory race (%s hazard) on the word at %s: a %s of this thread and a %s by %s%s that comes "
                 "after it in the program: that thread went on past this %s to its %s with no barrier between them "
                 "(the simulator ran it first; on a GPU either may come first). %s",
                 wr ? "read-after-write" : "write-after-read", at, wr ? "write" : "read", wr ? "read" : "write", who,
                 lane ? ", a lane of its warp," : "", wr ? "write" : "read", wr ? "read" : "write", fix);
    } else if (other != SIM_MULTI && other / 32 == w->cur->warp) { /* two lanes of one warp (dxtc's `s[i] += s[i ^ 8]`) */
        const int raw = !strcmp(kind, "read-after-write"); /* a lane's write, then another's read */
        snprintf(out, n,
                 "shared-memory race (%s hazard) on the word at %s: %s of this thread and an access by %s, a "
                 "lane of its warp, with no __syncthreads() or __syncwarp() between them. %sCUDA promises no order "
                 "between lanes since Volta, and the simulator runs lanes one after another (counting mode "
                 "computes another result): %s",
                 kind, at, wr ? "a write" : "a read", who,
                 raw ? "" : "A GPU makes one instruction's loads for the whole warp before its stores, which such code "
                            "relies on, but ",
                 raw ? "put __syncwarp() between the write and the read (__syncthreads() where other warps read it too)"
                     : "read into a register, __syncwarp() (or tile.sync()), then write");
    } else /* survey 20: the note named no fix (a warp-synchronous reduction without volatile or __syncwarp()) */
        snprintf(out, n,
                 "shared-memory race (%s hazard) on the word at %s: %s of this thread and an access by %s "
                 "with no __syncthreads() between them. Put __syncthreads() between them; where only a warp's "
                 "lanes share the data (a reduction's last steps), __syncwarp() between the steps",
                 kind, at, wr ? "a write" : "a read", who);
}

/* A race found: the report, and the block ends. */
static __attribute__((noinline, cold, noreturn)) void race_report(sim_worker *w, const char *kind, uintptr_t x, int wr,
                                                                 unsigned other, uintptr_t pc)
{
    char text[1024];
    race_text(w, text, sizeof text, kind, x, wr, other, pc);
    sim_fail(w, SIM_ERR_SHARED_RACE, pc, "%s", text);
    sim_block_abort(w);
}

/* Counting mode's sample saw a race: kept as a note (the first of the worker's launch, lowest
 * block first), the launch goes on (sim_launch puts it in sim_launch_info.race_note). */
static __attribute__((noinline, cold)) void race_seen(sim_worker *w, const char *kind, uintptr_t x, int wr,
                                                     unsigned other, uintptr_t pc)
{
    char text[sizeof w->race.text];
    race_text(w, text, sizeof text, kind, x, wr, other, pc); /* first: it finds the other access for the record */
    if (sim_err_take(w, &w->race, &w->has_race, SIM_ERR_SHARED_RACE, pc))
        memcpy(w->race.text, text, sizeof text);
}

/* note: counting mode's sample keeps it (race_seen); detailed mode fails the block (race_report) */
static inline __attribute__((always_inline)) void race_found(sim_worker *w, int note, const char *kind, uintptr_t x,
                                                             int wr, unsigned other, uintptr_t pc)
{
    if (note)
        race_seen(w, kind, x, wr, other, pc);
    else
        race_report(w, kind, x, wr, other, pc);
}

/* ---- same-value writes ----
 * Two threads writing one word with no barrier between them is a write-after-write hazard,
 * but compute-sanitizer's racecheck says nothing when the second write stores what the word
 * already holds (every thread setting `found = 1`, or `s_n = n`: on the H100, with
 * --racecheck-report all too, docs/gpu/h100-partial-warp/survey7_confirm.txt). The hook runs
 * before its store, so the value is not known yet: the hazard waits in w->waw with the word
 * as the first write left it, the shared windows close, and the next shared access of the
 * block (sim_access_slow) or the block's end compares the bytes both wrote. Only another
 * thread of the block can change the word in between, and its access comes through there
 * first. */
static __attribute__((noinline, cold)) void waw_defer(sim_worker *w, uintptr_t x, uint8_t bytes, uint8_t first,
                                                      unsigned other, uintptr_t pc, int note)
{
    if (w->waw_mode == SIM_WAW_NOW || w->waw_n == sizeof w->waw / sizeof w->waw[0]) { /* its store is not the */
        race_found(w, note, "write-after-write", x, 1, other, pc);                      /* program's next step */
        return;
    }
    struct sim_waw *p = &w->waw[w->waw_n++];
    memcpy(&p->old, (const void *)x, 4);
    p->x = x;
    p->pc = pc;
    p->t = w->cur;
    p->other = (uint16_t)other;
    p->bytes = bytes;
    p->first = first;
    p->how = (uint8_t)w->race_how;
    w->race_how = 0;
    p->note = (uint8_t)note;
    sim_shared_fast_off(w);
}

/* The waiting write-after-write hazards: a race where a byte both wrote changed. in_fiber: from
 * a thread's access (a race ends the block there), else the block's end (the block fails). The
 * report names the thread that made the second write, as an immediate one would. */
void sim_waw_settle(sim_worker *w, int in_fiber)
{
    const unsigned n = w->waw_n;
    w->waw_n = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct sim_waw *p = &w->waw[i];
        uint32_t now, mask = 0;
        memcpy(&now, (const void *)p->x, 4);
        for (unsigned b = 0; b < 4; b++)
            if (p->bytes >> b & 1)
                mask |= 0xffu << 8 * b;
        if (!((now ^ p->old) & mask) || w->block_failed) { /* the same value: no hazard (or the block has failed) */
            sim_shadow *s = shadow_of(w, p->x);
            if (s->w_epoch == w->epoch) { /* but both wrote it: a later read races with either */
                if (p->other == SIM_MULTI || p->other / 32 != p->t->warp)
                    s->w_tid = SIM_MULTI; /* several warps: nothing orders a read with all of them */
                /* else lanes of one warp: the second stays the writer, so __syncwarp orders it */
                s->w_bytes |= p->first;
            }
            continue;
        }
        sim_thread *cur = w->cur;
        w->cur = (sim_thread *)p->t; /* the report's thread: sim_err_take, race_text */
        w->race_how = p->how;
        if (p->note) {
            race_seen(w, "write-after-write", p->x, 1, p->other, p->pc);
            w->cur = cur;
            continue;
        }
        char text[1024];
        w->race_bytes = p->bytes;
        race_text(w, text, sizeof text, "write-after-write", p->x, 1, p->other, p->pc);
        sim_fail(w, SIM_ERR_SHARED_RACE, p->pc, "%s", text);
        w->cur = cur;
        w->block_failed = 1;
        if (in_fiber)
            sim_block_abort(w);
        break;
    }
    if (!w->vol_thread)
        sim_shared_fast_on(w);
}

/* A shadow word's updates after a write, and after a read by a thread that is the word's only
 * reader in the epoch (or whose warp has met the last reader since): race_word and race_word_fast */
static inline __attribute__((always_inline)) void shadow_wrote(sim_shadow *s, uint32_t ep, uint16_t me, uint16_t wep,
                                                               uint8_t rel, uint8_t bytes)
{
    s->w_bytes = (uint8_t)((s->w_epoch == ep && s->w_tid == me ? s->w_bytes | bytes : bytes) | SIM_PLAIN_W);
    s->w_epoch = ep;
    s->w_tid = me;
    s->w_wep = wep;
    s->w_rel = rel;
}
static inline __attribute__((always_inline)) void shadow_read_alone(sim_shadow *s, uint32_t ep, uint16_t me,
                                                                    uint16_t wep, uint8_t rel, uint8_t bytes)
{
    s->r_bytes = s->r_epoch == ep && s->r_tid == me ? (uint8_t)(s->r_bytes | bytes) : bytes;
    s->r_epoch = ep;
    s->r_tid = me;
    s->r_wep = wep;
    s->r_rel = rel;
}

/* A read's trace in word x's shadow (race_word, vol_race_check) */
static inline __attribute__((always_inline)) void shadow_read(sim_worker *w, sim_shadow *s, uintptr_t x, uint32_t ep,
                                                              uint16_t me, uint16_t wep, uint8_t bytes,
                                                              const sim_thread *t)
{
    if (s->r_epoch != ep || s->r_tid == me || synced(w, s->r_tid, s->r_wep, s->r_rel, t))
        shadow_read_alone(s, ep, me, wep, t->rel, bytes);
    else if (__builtin_expect((bytes & s->r_bytes) == 0xf && s->r_tid != SIM_SPLIT, 1))
        s->r_tid = SIM_MULTI; /* whole words, several readers */
    else
        byte_readers(w, s, x, bytes, me, wep, t); /* in parts: each byte's reader */
}

/* One 4-byte word x of an access by thread t that covers its bytes (a mask
 * of 4 bits): threads writing different bytes of one word (a char array)
 * do not race. */
static inline __attribute__((always_inline)) void race_word(sim_worker *w, const sim_thread *t, uint16_t me,
                                                            uint16_t wep, uintptr_t x, uint8_t bytes, int wr,
                                                            uintptr_t pc, int note)
{
    sim_shadow *s = shadow_of(w, x);
    const uint32_t ep = w->epoch;
    if (s->w_epoch == ep && s->w_tid != me && (s->w_bytes & bytes) && !synced(w, s->w_tid, s->w_wep, s->w_rel, t)) {
        w->race_how = s->w_bytes & SIM_VOL_W ? 1 : 0; /* after an atomic or a volatile write */
        if (s->w_tid == SIM_ASYNC) /* a copy in flight: whatever the values */
            race_found(w, note, "read-after-write", x, wr, SIM_ASYNC, pc);
        else if (wr)
            waw_defer(w, x, (uint8_t)(s->w_bytes & bytes), s->w_bytes, s->w_tid, pc, note);
        else
            w->race_bytes = s->w_bytes & bytes & 0xf, race_found(w, note, "read-after-write", x, wr, s->w_tid, pc);
    }
    if (wr) {
        if (s->r_epoch == ep && (s->r_bytes & bytes)) {
            unsigned other = SIM_NOBODY;
            if (s->r_tid == SIM_MULTI)
                other = SIM_MULTI;
            else if (s->r_tid == SIM_SPLIT) /* read in parts this epoch: by whom? */
                other = byte_write_race(w, x, s->r_bytes & bytes, me, t);
            else if (s->r_tid != me && !synced(w, s->r_tid, s->r_wep, s->r_rel, t))
                other = s->r_tid;
            if (other != SIM_NOBODY)
                w->race_bytes = s->r_bytes & bytes & 0xf, race_found(w, note, "write-after-read", x, wr, other, pc);
        }
        shadow_wrote(s, ep, me, wep, t->rel, bytes);
    } else {
        shadow_read(w, s, x, ep, me, wep, bytes, t);
    }
}

/* The race check of an aligned shared access (every one that gets here: a
 * misaligned one was reported before): one word for 1, 2 or 4 bytes. note: counting
 * mode's sample, which keeps a race as a note (race_seen) where detailed mode fails. */
static inline __attribute__((always_inline)) void race_check_inline(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                                   uintptr_t pc, int note)
{
    const sim_thread *t = w->cur;
    const uint16_t me = (uint16_t)t->linear, wep = (uint16_t)w->warps[t->warp].sync_epoch;
    if (size <= 4) {
        race_word(w, t, me, wep, a & ~(uintptr_t)3, (uint8_t)(((1u << size) - 1) << (a & 3)), wr, pc, note);
        return;
    }
    for (uintptr_t x = a; x < a + size; x += 4)
        race_word(w, t, me, wep, x, 0xf, wr, pc, note);
}

/* The race check's common cases, inline in detailed mode's shared path: no hazard, and a word of
 * one reader, or whole words read by several. Anything else (a hazard to report or to defer, a
 * word read in parts) returns 0 first, and shared_race_slow does the whole access again with
 * race_word: what this changed for the words before is the same there. Kept apart because
 * race_word's calls that return (waw_defer, byte_readers) made the hot path save two more
 * registers a call (flash v1 detailed +3 %). s is word's shadow; ep the worker's epoch; rel points
 * at the thread's release stamp (sim_thread.rel, or the caller's copy of it). */
static inline __attribute__((always_inline)) int race_word_fast(sim_worker *w, const sim_thread *t, uint16_t me,
                                                                uint16_t wep, uint32_t ep, const uint16_t *rel,
                                                                sim_shadow *s, uint8_t bytes, int wr)
{
    if (s->w_epoch == ep && s->w_tid != me && (s->w_bytes & bytes) && !synced(w, s->w_tid, s->w_wep, s->w_rel, t))
        return 0;
    if (wr) {
        if (s->r_epoch == ep && (s->r_bytes & bytes) &&
            (s->r_tid >= SIM_SPLIT || (s->r_tid != me && !synced(w, s->r_tid, s->r_wep, s->r_rel, t)))) /* SPLIT, NOBODY, MULTI */
            return 0;
        shadow_wrote(s, ep, me, wep, (uint8_t)*rel, bytes);
    } else if (s->r_epoch == ep && s->r_tid == SIM_MULTI) {
        /* read by several already (the tiles of a tiled kernel): no thread is SIM_MULTI, and
         * nothing orders it with "several" (synced), so only the bytes can send it the slow way */
        return (bytes & s->r_bytes) == 0xf;
    } else if (s->r_epoch != ep || s->r_tid == me || synced(w, s->r_tid, s->r_wep, s->r_rel, t)) {
        shadow_read_alone(s, ep, me, wep, (uint8_t)*rel, bytes);
    } else if ((bytes & s->r_bytes) == 0xf && s->r_tid != SIM_SPLIT) {
        s->r_tid = SIM_MULTI; /* whole words, several readers */
    } else {
        return 0;
    }
    return 1;
}

/* tls: the access is in the static window (else the dynamic one); aligned (the callers test
 * it), so a 4-byte access is its word, whole, and a longer one its words' consecutive shadows.
 * What the words' checks read of the worker and the thread is read once, before the first
 * shadow store: the shadows' byte fields may alias anything, and the compiler would read it all
 * again after each. */
static inline __attribute__((always_inline)) int race_check_fast(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                                 int tls)
{
    const sim_thread *t = w->cur;
    const uint16_t me = (uint16_t)t->linear, wep = (uint16_t)w->warps[t->warp].sync_epoch;
    if (size <= 4) /* one word: as it comes (holding the stamp in a register costs this path a push) */
        return race_word_fast(w, t, me, wep, w->epoch, &t->rel, shadow_in(w, a & ~(uintptr_t)3, tls),
                              size == 4 ? 0xf : (uint8_t)(((1u << size) - 1) << (a & 3)), wr);
    const uint32_t ep = w->epoch;
    const uint16_t rel = t->rel;
    sim_shadow *s = shadow_in(w, a, tls);
#pragma GCC unroll 4 /* a float4's four words, straight: flash v2 detailed -5 % instructions */
    for (unsigned i = 0; i < (size + 3) / 4; i++) /* the words from a (4-aligned: a size above 4 is 8 or 16) */
        if (!race_word_fast(w, t, me, wep, ep, &rel, s + i, 0xf, wr))
            return 0;
    return 1;
}

static __attribute__((noinline)) void shared_race_slow(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                       uintptr_t pc)
{
    race_check_inline(w, a, size, wr, pc, 0);
}

static void shared_race_check(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc)
{
    race_check_inline(w, a, size, wr, pc, 0);
}

/* A volatile shared access, or a shared atomic (its write half: detailed mode). Atomics are no
 * race with each other, but a plain access of another thread with no barrier between is (a
 * histogram whose bins' zeroing or final read misses its __syncthreads(): the counts came out
 * wrong with no report); so an atomic is checked and leaves its trace as a volatile write does.
 * Volatile accesses are how legacy warp-synchronous
 * code (`volatile float *v = s; v[t] += v[t + 16]; ...`) and flags hand data over, and between
 * themselves they are no race; but against a plain access of another thread with no barrier
 * between they are, as racecheck says: the unrolled last warp of a reduction that misses its
 * __syncthreads() reads a plain store of another warp (survey 16: ENCCS's reduction_gpu_7 summed
 * wrong, silently), and `s[t] += v[t + 16]` reads what another lane stores plainly. So a volatile
 * access is checked against a plain writer (a volatile write is marked SIM_VOL_W in w_bytes) and
 * leaves its own trace in the shadow as a plain access does, which plain accesses then check;
 * a volatile write is not checked against earlier readers (a plain read before it is missed). */
static __attribute__((noinline)) void vol_race_check(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc,
                                                      int note)
{
    const sim_thread *t = w->cur;
    if (!wr && (t->fenced & SIM_FENCED)) /* a flag and fence protocol's read (data written, fence, flag; flag, fence, data): */
        return;           /* ordered by the PTX memory model, which the epochs cannot follow */
    const uint16_t me = (uint16_t)t->linear, wep = (uint16_t)w->warps[t->warp].sync_epoch;
    const uint32_t ep = w->epoch;
    for (uintptr_t x = a & ~(uintptr_t)3; x < a + size; x += 4) {
        const uint8_t bytes = size < 4 ? (uint8_t)(((1u << size) - 1) << (a & 3)) : 0xf;
        sim_shadow *s = shadow_of(w, x);
        if (s->w_epoch == ep && s->w_tid != me && (s->w_bytes & bytes) &&
            (!(s->w_bytes & SIM_VOL_W) || (s->w_bytes & SIM_PLAIN_W)) && !synced(w, s->w_tid, s->w_wep, s->w_rel, t)) {
            w->race_how = wr ? 2 : 0; /* this access is the atomic or the volatile write */
            if (wr && s->w_tid != SIM_ASYNC)
                waw_defer(w, x, (uint8_t)(s->w_bytes & bytes), s->w_bytes, s->w_tid, pc, note);
            else
                w->race_bytes = s->w_bytes & bytes & 0xf, race_found(w, note, "read-after-write", x, wr, s->w_tid, pc);
        }
        if (wr && w->async == SIM_SPACE_SKIP && s->r_epoch == ep && (s->r_bytes & bytes) && s->r_tid != me &&
            s->r_tid != SIM_NOBODY && s->r_tid != SIM_SPLIT &&
            (s->r_tid == SIM_MULTI || !synced(w, s->r_tid, s->r_wep, s->r_rel, t))) { /* an atomic after another's read */
            w->race_how = 2;
            w->race_bytes = s->r_bytes & bytes & 0xf, race_found(w, note, "write-after-read", x, 1, s->r_tid, pc);
        }
        if (wr) {
            /* another thread's atomic or volatile write in this epoch, not ordered with this one: the word
             * has several such writers, and a plain access of any of them races with the others' */
            const int several = s->w_epoch == ep && (s->w_bytes & SIM_VOL_W) && s->w_tid != me &&
                                (s->w_tid == SIM_MULTI || !synced(w, s->w_tid, s->w_wep, s->w_rel, t));
            /* this thread's own plain write before it stays seen, with its warp epoch (a __syncwarp
             * between them orders it for the warp's lanes); another writer's was checked just above */
            const int own_plain = s->w_epoch == ep && s->w_tid == me && (s->w_bytes & SIM_PLAIN_W);
            s->w_bytes = (uint8_t)((s->w_epoch == ep && (s->w_tid == me || several) ? s->w_bytes & 0xf : 0) |
                                   (own_plain ? SIM_PLAIN_W : 0) | bytes | SIM_VOL_W);
            s->w_epoch = ep;
            s->w_tid = several ? SIM_MULTI : me;
            s->w_rel = own_plain ? s->w_rel : t->rel;
            s->w_wep = own_plain ? s->w_wep : wep;
        } else {
            shadow_read(w, s, x, ep, me, wep, bytes, t);
        }
    }
}

/* Counting mode's sampled stretches look for races too, and keep the first as a note. */
static __attribute__((noinline)) void sample_race_check(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc)
{
    race_check_inline(w, a, size, wr, pc, 1);
}

/* ---- warp-level requests (detailed mode) ------------------------------------
 * A lane's n-th execution of the instruction at pc since its warp last
 * synchronised is matched with the other lanes' n-th execution: together
 * they are one request, as the hardware issues one instruction for the
 * converged warp. */
/* Out of host memory for detailed mode's tables: the launch fails (the
 * tables keep their old, consistent contents); the process goes on. */
static void detail_oom(void)
{
    sim_worker *w = sim_tls_worker;
    sim_fail(w, SIM_ERR_MEMORY_ALLOCATION, 0,
             "out of host memory for detailed mode's warp-request tables; run without --detail or with fewer "
             "accesses between barriers");
    sim_block_abort(w);
}

static void *grow(void *p, uint32_t *cap, size_t elem, uint32_t min)
{
    uint32_t n = *cap ? *cap * 2 : min;
    void *q = realloc(p, (size_t)n * elem);
    if (!q)
        detail_oom();
    *cap = n;
    return q;
}

static uint32_t hash_pc(uintptr_t pc, uint32_t occ) { return (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> 40) ^ (occ * 0x85EBCA6Bu); }
static uint32_t hash_key(uint64_t key) { return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32); }

/* The index of pc in wp->pcs, or -1: a small hash for the first
 * SIM_PC_HASH / 2 memory instructions of a stretch, a scan past that. */
static int pc_find(const sim_warp *wp, uintptr_t pc)
{
    if (__builtin_expect(wp->pcs_n <= SIM_PC_HASH / 2, 1)) {
        for (uint32_t h = hash_pc(pc, 0) & (SIM_PC_HASH - 1); wp->pc_hash[h]; h = (h + 1) & (SIM_PC_HASH - 1))
            if (wp->pcs[wp->pc_hash[h] - 1].pc == pc)
                return wp->pc_hash[h] - 1;
        return -1;
    }
    for (uint32_t i = 0; i < wp->pcs_n; i++)
        if (wp->pcs[i].pc == pc)
            return (int)i;
    return -1;
}

/* The lane's occurrence count at pc, then incremented; *k: pc's index. */
static uint32_t next_occ(sim_warp *wp, uintptr_t pc, unsigned lane, uint32_t *k)
{
    int i = pc_find(wp, pc);
    if (i >= 0) {
        *k = (uint32_t)i;
        return wp->pcs[i].occ[lane]++;
    }
    if (wp->pcs_n == wp->pcs_cap)
        wp->pcs = grow(wp->pcs, &wp->pcs_cap, sizeof *wp->pcs, 16);
    *k = wp->pcs_n;
    sim_pcocc *e = &wp->pcs[wp->pcs_n++];
    memset(e, 0, sizeof *e);
    e->pc = pc;
    e->occ[lane] = 1;
    if (wp->pcs_n <= SIM_PC_HASH / 2) {
        uint32_t h = hash_pc(pc, 0) & (SIM_PC_HASH - 1);
        while (wp->pc_hash[h])
            h = (h + 1) & (SIM_PC_HASH - 1);
        wp->pc_hash[h] = (uint16_t)wp->pcs_n;
    }
    return 0;
}

/* Empties the request index in O(1): slots of an older generation are free. */
static void index_clear(sim_warp *wp)
{
    if (++wp->req_gen == 0) { /* wrapped: really clear, once in 2^32 */
        if (wp->req_index)
            memset(wp->req_index, 0, (size_t)wp->reqs_cap * 2 * sizeof *wp->req_index);
        wp->req_gen = 1;
    }
}

static void index_put(sim_warp *wp, uint64_t key, uint32_t idx)
{
    uint32_t mask = wp->reqs_cap * 2 - 1, h = hash_key(key) & mask;
    while (wp->req_index[h].gen == wp->req_gen)
        h = (h + 1) & mask;
    wp->req_index[h] = (sim_req_slot){key, idx, wp->req_gen};
}

static uint64_t req_key(const sim_warp *wp, const sim_request *r)
{
    int k = pc_find(wp, r->pc);
    return (uint64_t)(uint32_t)k << 32 | r->occ;
}

/* Doubles the request table and rebuilds its index; on out-of-memory the
 * table is left exactly as it was (detail_oom does not return). */
static void grow_requests(sim_warp *wp)
{
    uint32_t cap = wp->reqs_cap ? wp->reqs_cap * 2 : 64;
    sim_req_slot *idx = calloc((size_t)cap * 2, sizeof *idx);
    sim_request *reqs = idx ? realloc(wp->reqs, (size_t)cap * sizeof *reqs) : NULL;
    if (!reqs) {
        free(idx);
        detail_oom();
    }
    free(wp->req_index);
    wp->reqs = reqs;
    wp->reqs_cap = cap;
    wp->req_index = idx;
    wp->req_gen = 1;
    for (uint32_t i = 0; i < wp->reqs_n; i++)
        index_put(wp, req_key(wp, &wp->reqs[i]), i);
}

static void count_request(sim_worker *w, const sim_warp *wp, const sim_request *r);

/* Fills out[] with the items of an affine request of the given lanes, its
 * lanes' addresses base + lane * stride. */
static unsigned affine_items(uint64_t *out, uintptr_t base, intptr_t stride, unsigned size, uint32_t lanes)
{
    unsigned n = 0;
    for (; lanes; lanes &= lanes - 1) {
        const unsigned l = (unsigned)__builtin_ctz(lanes);
        out[n++] = (uint64_t)(base + (uintptr_t)((intptr_t)l * stride)) << 16 | (uint64_t)l << 8 | size;
    }
    return n;
}

/* A list of 32 items from the warp's pool (a freed one first). */
static uint32_t pool_take(sim_warp *wp)
{
    if (wp->pool_free) {
        const uint32_t b = wp->pool_free - 1;
        wp->pool_free = (uint32_t)wp->pool[(size_t)b * 32];
        return b;
    }
    if (wp->pool_n == wp->pool_cap) {
        uint32_t cap = wp->pool_cap ? wp->pool_cap * 2 : 16;
        uint64_t *p = realloc(wp->pool, (size_t)cap * 32 * sizeof *p);
        if (!p)
            detail_oom();
        wp->pool = p;
        wp->pool_cap = cap;
    }
    return wp->pool_n++;
}

static void pool_give(sim_warp *wp, uint32_t b)
{
    wp->pool[(size_t)b * 32] = wp->pool_free;
    wp->pool_free = b + 1;
}

/* Detailed mode's memory bound. Threads run one after another, so a warp's
 * first lane records every request of the stretch to the next barrier
 * before the others join them: without a bound the table grows with the
 * accesses between two barriers (~280 bytes a request). Past SIM_REQ_CAP
 * requests, the requests every lane that can still join has passed are
 * counted and dropped (sim_warp_flush_done); if that frees too little, the
 * thread first lets the other threads of its block run (sim_yield), so that
 * its warp's other lanes catch up. Lanes waiting at __syncthreads() join no
 * request of this stretch (the barrier flushes the table). Only when no
 * lane can move (a lane diverged into a long loop while the rest of its warp
 * waits at a warp intrinsic) does the table grow past the bound. */
#define SIM_REQ_CAP 4096u

/* The lanes of wp that may still join a request: live, and not waiting at
 * a barrier (threads not started yet count, and so do threads of a released
 * barrier not resumed yet: rel_next..rel_end). */
static unsigned joinable_lanes(const sim_worker *w, const sim_warp *wp)
{
    unsigned live = wp->exists & ~wp->done, m = 0;
    unsigned base = (unsigned)(wp - w->warps) * 32;
    for (unsigned l = 0; l < 32; l++)
        if (live >> l & 1) {
            unsigned i = base + l;
            if (i >= w->next_new || w->threads[i].state != SIM_T_BARRIER || (i >= w->rel_next && i < w->rel_end))
                m |= 1u << l;
        }
    return m;
}

/* Counts and drops the requests every joinable lane has passed. */
static void sim_warp_flush_done(sim_worker *w, sim_warp *wp)
{
    unsigned lanes = joinable_lanes(w, wp);
    /* per pc: the smallest occurrence count over the joinable lanes; a
     * request (pc, occ) is complete when occ is below it */
    uint32_t lo[64], any = 0;
    if (wp->pcs_n > 64)
        return;
    for (uint32_t k = 0; k < wp->pcs_n; k++) {
        lo[k] = UINT32_MAX;
        for (unsigned l = 0; l < 32; l++)
            if ((lanes >> l & 1) && wp->pcs[k].occ[l] < lo[k])
                lo[k] = wp->pcs[k].occ[l];
        any |= lo[k];
    }
    if (!any) /* a lane that can still join has not begun: nothing is complete */
        return;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < wp->reqs_n; i++) {
        sim_request *r = &wp->reqs[i];
        int k = pc_find(wp, r->pc);
        if (k >= 0 && r->occ < lo[k]) {
            count_request(w, wp, r);
            if (!r->affine)
                pool_give(wp, r->items);
        } else if (keep != i)
            wp->reqs[keep++] = *r;
        else
            keep++;
    }
    if (keep == wp->reqs_n)
        return;
    wp->reqs_n = keep;
    index_clear(wp);
    for (uint32_t i = 0; i < keep; i++)
        index_put(wp, req_key(wp, &wp->reqs[i]), i);
}

/* Whether the lane's next access at pc joins a request already open (a full
 * table needs room only for a new one). */
static int joins_request(const sim_warp *wp, uintptr_t pc, unsigned lane, int space, int wr)
{
    int k = pc_find(wp, pc);
    if (k < 0)
        return 0;
    uint64_t key = (uint64_t)(uint32_t)k << 32 | wp->pcs[k].occ[lane];
    uint32_t mask = wp->reqs_cap * 2 - 1;
    for (uint32_t h = hash_key(key) & mask; wp->req_index[h].gen == wp->req_gen; h = (h + 1) & mask) {
        const sim_req_slot *sl = &wp->req_index[h];
        if (sl->key != key)
            continue;
        const sim_request *c = &wp->reqs[sl->idx];
        if (c->space == space && c->wr == wr && c->n < 32)
            return 1;
    }
    return 0;
}

static void make_room(sim_worker *w, sim_warp *wp)
{
    sim_warp_flush_done(w, wp);
    /* let the other lanes catch up; not inside a struct copy or mma's d (waw_mode: words checked,
     * not stored yet; the table grows instead). Hazards other lanes left wait for values stored
     * by now: settled before this lane's check (its access records its request first) */
    if (wp->reqs_n >= SIM_REQ_CAP / 2 && w->waw_mode == 0 && sim_yield(w, 1)) {
        if (w->waw_n)
            sim_waw_settle(w, 1);
        sim_warp_flush_done(w, wp);
    }
}

/* A lane breaks its request's pattern: the request gets a list, holding
 * the items of the lanes that joined so far. */
static __attribute__((noinline)) void req_to_list(sim_warp *wp, sim_request *r)
{
    const uint32_t b = pool_take(wp);
    affine_items(&wp->pool[(size_t)b * 32], r->a0 - (uintptr_t)((intptr_t)r->lane0 * r->stride), r->stride, r->size,
                 r->lanes);
    r->items = b;
    r->affine = 0;
}

/* The common case of detail_record: the lane joins the request its cursor
 * points at, an affine one that the lane's address continues or one with a
 * list. No side effect when it returns 0 (detail_record then goes the whole
 * way). */
static inline __attribute__((always_inline)) int record_fast(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                             uintptr_t pc, int space)
{
    const sim_thread *t = w->cur;
    sim_warp *wp = &w->warps[t->warp];
    const unsigned lane = t->lane;
    const uint32_t c = wp->next_req[lane];
    if (c >= wp->reqs_n)
        return 0;
    sim_request *q = &wp->reqs[c];
    if (q->pc != pc || q->space != (uint8_t)space || q->wr != (uint8_t)wr || q->n >= 32)
        return 0;
    if (q->affine && (q->n < 2 || q->size != size ||
                      (intptr_t)(a - q->a0) != ((intptr_t)lane - (intptr_t)q->lane0) * q->stride))
        return 0;
    uint32_t *occ = &wp->pcs[q->k].occ[lane];
    if (*occ != q->occ)
        return 0;
    (*occ)++;
    wp->next_req[lane] = c + 1;
    if (!q->affine) /* a list already: the item appended */
        wp->pool[(size_t)q->items * 32 + q->n] = (uint64_t)a << 16 | (uint64_t)lane << 8 | size;
    q->lanes |= 1u << lane;
    q->n++;
    return 1;
}

static inline __attribute__((always_inline)) void detail_join(sim_warp *wp, unsigned lane, uintptr_t a,
                                                              unsigned size, int wr, uintptr_t pc, int space);

static void log_drain(sim_worker *w, sim_warp *wp);

static void detail_record(sim_worker *w, uintptr_t a, unsigned size, int wr, uintptr_t pc, int space)
{
    if (__builtin_expect(w->detailed & SIM_DETAILED_TIMEOUT, 0))
        sim_timeout_stop(w, pc); /* the watchdog's flag; detailed mode itself never sets this bit */
    space |= w->async;
    if (space & SIM_SPACE_SKIP)
        return;
    sim_thread *t = w->cur;
    sim_warp *wp = &w->warps[t->warp];
    /* a stretch that reaches the table (a global access, an atomic, an async copy, a shared access
     * the log did not take) stays there to its flush, the logs moved in first: a lane's k-th
     * execution of a pc is one count over every space (a generic pointer, shared in some
     * iterations or lanes and global in others, makes one instruction both), which the log alone
     * cannot keep once the table has some of a lane's executions */
    if (__builtin_expect(w->detailed && !wp->log_table, 0)) {
        if (wp->log)
            log_drain(w, wp);
        wp->log_table = 1;
    }
    if (wp->reqs_n >= SIM_REQ_CAP && wp->reqs_n == wp->reqs_cap && !joins_request(wp, pc, t->lane, space, wr)) {
        make_room(w, wp);
        /* the other lanes it let run may have ended counting mode's sampled stretch (a long one is
         * dropped by whichever lane gets past SIM_SAMPLE_MAX_ACCESSES: sim_sample_drop empties the
         * table): this access is not sampled then, and must not wait in the table for the next
         * sampled stretch, another block's perhaps (test counters/sample_drop_leaves_no_request) */
        if (!w->detailed && !w->sample)
            return;
    }
    detail_join(wp, t->lane, a, size, wr, pc, space);
}

/* Lane `lane` of wp joins the request of its access (a, size, wr) at pc, or opens it. */
static inline __attribute__((always_inline)) void detail_join(sim_warp *wp, unsigned lane, uintptr_t a,
                                                              unsigned size, int wr, uintptr_t pc, int space)
{
    sim_request *r = NULL;
    /* Lanes run the same code one after another, so lane l's n-th access
     * nearly always joins the request after the one its previous access
     * joined: try that first (a sequential walk of the table), and look up the
     * pc and probe the index only when it is not. (The probe was the hot spot
     * of detailed mode: a random slot, then a random request, each a cache
     * miss once a stretch's table outgrew the caches.) The request knows its
     * pc's index, and the lane's occurrence count there must be the request's.
     * There is one open request per (pc, occurrence, space, direction), so
     * both ways find the same. */
    uint32_t c = wp->next_req[lane];
    if (c < wp->reqs_n) {
        sim_request *q = &wp->reqs[c];
        if (q->pc == pc && q->space == (uint8_t)space && q->wr == (uint8_t)wr && q->n < 32 &&
            wp->pcs[q->k].occ[lane] == q->occ) {
            wp->pcs[q->k].occ[lane]++;
            r = q;
            goto append;
        }
    }
    uint32_t k;
    const uint32_t occ = next_occ(wp, pc, lane, &k);
    if (!wp->reqs_cap)
        grow_requests(wp);
    const uint64_t key = (uint64_t)k << 32 | occ;
    uint32_t mask = wp->reqs_cap * 2 - 1;
    uint32_t h = hash_key(key) & mask;
    while (wp->req_index[h].gen == wp->req_gen) { /* the slot holds the key: no request read to probe */
        const sim_req_slot *sl = &wp->req_index[h];
        if (sl->key == key) {
            sim_request *q = &wp->reqs[sl->idx];
            if (q->space == space && q->wr == wr && q->n < 32) {
                r = q;
                break;
            }
        }
        h = (h + 1) & mask;
    }
    if (!r && wp->reqs_n == wp->reqs_cap) /* grown only for a new request; the index is rebuilt */
        grow_requests(wp);
    if (!r) {
        index_put(wp, key, wp->reqs_n);
        r = &wp->reqs[wp->reqs_n++];
        r->pc = pc;
        r->occ = occ;
        r->k = k;
        r->space = (uint8_t)space;
        r->wr = (uint8_t)wr;
        r->n = 0;
        r->lanes = 0;
        r->affine = 1;
    }
append:
    wp->next_req[lane] = (uint32_t)(r - wp->reqs) + 1;
    if (r->affine) {
        if (r->n == 0) {
            r->a0 = a;
            r->stride = 0; /* until a second lane joins */
            r->lane0 = (uint8_t)lane;
            r->size = (uint8_t)size;
            r->lanes = 1u << lane;
            r->n = 1;
            return;
        }
        const intptr_t dl = (intptr_t)lane - (intptr_t)r->lane0, da = (intptr_t)(a - r->a0);
        if (r->n == 1 && size == r->size && dl == 1 && da > -((intptr_t)1 << 34) && da < (intptr_t)1 << 34) {
            r->stride = da; /* the next lane: nearly always */
        } else if (r->n == 1 && size == r->size && dl != 0 && da % dl == 0 && da / dl > -((intptr_t)1 << 34) &&
                   da / dl < (intptr_t)1 << 34) {
            r->stride = da / dl;
        } else if (!(r->n >= 2 && size == r->size && da == dl * r->stride)) {
            req_to_list(wp, r);
            goto listed;
        }
        r->lanes |= 1u << lane;
        r->n++;
        return;
    }
listed:
    wp->pool[(size_t)r->items * 32 + r->n] = (uint64_t)a << 16 | (uint64_t)lane << 8 | size; /* addresses < 2^47 */
    r->lanes |= 1u << lane;
    r->n++;
}

/* The warp starts logging: its buffer (and the worker's sort buffer) allocated by its first
 * detailed stretch, and its lanes' cursors armed. 0: no log (turned off, or no memory: the
 * table serves). */
static int log_enable(sim_worker *w, sim_warp *wp)
{
    if (!sim_detail_log_on || wp->log_table || wp->log)
        return 0;
    if (!w->log_keys && !(w->log_keys = malloc(2 * 32 * (size_t)SIM_LOG_CAP * sizeof *w->log_keys)))
        return 0;
    if (w->log_nfree)
        wp->log = w->log_free[--w->log_nfree];
    else if (!(wp->log = aligned_alloc(LOG_BYTES, 32 * LOG_BYTES)))
        return 0;
    sim_log_arm(w, (unsigned)(wp - w->warps));
    return 1;
}

/* A flushed warp's log back to the worker's free ones, for the next warp that logs. */
static void log_release(sim_worker *w, sim_warp *wp)
{
    if (!wp->log)
        return;
    w->log_free[w->log_nfree++] = wp->log; /* at most one a warp: never more than the array holds */
    wp->log = NULL;
    sim_log_arm(w, (unsigned)(wp - w->warps));
}

/* A lane of wp waits at the block's barrier (detailed mode). Once all its live lanes do, none of
 * them makes another access before the release: its requests are complete, so the warp is
 * flushed now rather than at the release, and its log goes back for the next warp. Between two
 * barriers the warps of a block then take turns with one log, which stays in the cache (eight
 * warps' logs of flash v1's stretches were 2.4 MB, past this machine's L2). */
void sim_log_barrier(sim_worker *w, sim_warp *wp)
{
    const unsigned live = wp->exists & ~wp->done;
    if (++wp->at_bar == (unsigned)__builtin_popcount(live)) {
        /* a short stretch keeps its log: taking one back costs more than its lines (flash v2) */
        const int big = wp->log && log_count(w, (unsigned)(wp - w->warps), (unsigned)__builtin_ctz(live)) >= 256;
        sim_warp_flush(w, wp);
        wp->hist_bar = 1; /* its lanes wait at the barrier: the next history starts there */
        if (big)
            log_release(w, wp);
    }
}

/* Every lane's log into the table, in each lane's order, and the table takes the rest of the
 * stretch (until the flush). In the running lane's context: a full table grows here (make_room
 * could let lanes run whose logs are half moved); the caller's detail_record makes room after. */
static __attribute__((noinline)) void log_drain(sim_worker *w, sim_warp *wp)
{
    const unsigned k = (unsigned)(wp - w->warps);
    for (unsigned m = wp->log ? wp->exists : 0; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        const uint64_t *e = log_base(wp, l);
        const uint32_t n = log_count(w, k, l);
        for (uint32_t i = 0; i < n; i++)
            detail_join(wp, l, log_addr(w, e[i]), LOG_SIZE(e[i]), LOG_WR(e[i]), LOG_PC(e[i]), SIM_SPACE_SHARED);
    }
    wp->log_table = 1;
    sim_log_arm(w, k);
}

/* shared_record's access when the lane's log does not take it: the warp's first detailed
 * stretch (no log yet), a full log, an entry the log cannot hold, or a stretch already in the
 * table; then the race check (after the request: make_room may let other lanes run, which must
 * not come between this access's check and its store). */
static __attribute__((noinline)) void shared_record_slow(sim_worker *w, uintptr_t a, unsigned size, int wr,
                                                         uintptr_t pc)
{
    sim_warp *wp = &w->warps[w->cur->warp];
    if (!(log_enable(w, wp) && log_append(w, a, size, wr, pc))) {
        if (!wp->log_table)
            log_drain(w, wp); /* the stretch is the table's now (log_table) */
        if (!record_fast(w, a, size, wr, pc, SIM_SPACE_SHARED)) /* the table's own fast path */
            detail_record(w, a, size, wr, pc, SIM_SPACE_SHARED);
    }
    if (__builtin_expect(!race_check_fast(w, a, size, wr, in_tls_window(w, a)), 0))
        shared_race_slow(w, a, size, wr, pc);
}

/* Distinct values of v[0..n) (sorted in place). A request's items (at most
 * 136) mostly arrive in order, lane after lane: insertion sort is linear
 * then, and has no call per comparison (qsort was a third of detailed mode). */
static unsigned distinct(uint64_t *v, unsigned n)
{
    if (!n)
        return 0;
    for (unsigned i = 1; i < n; i++) {
        uint64_t x = v[i];
        unsigned j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    unsigned d = 1;
    for (unsigned i = 1; i < n; i++)
        d += v[i] != v[i - 1];
    return d;
}

/* ---- per-instruction counters (sim_set_line_profile; detailed mode only) ---- */
static void pc_add(sim_worker *w, const sim_request *r, sim_pc_kind kind, uint64_t sectors, uint64_t ideal_sectors,
                   uint64_t wf, uint64_t ideal_wf)
{
    if (w->pcs_n * 2 >= w->pcs_cap) { /* grow (and rehash) at half full */
        uint32_t cap = w->pcs_cap ? w->pcs_cap * 2 : 256;
        sim_pc_stat *t = calloc(cap, sizeof *t);
        if (!t)
            return; /* the profile loses entries, the counters do not */
        for (uint32_t i = 0; i < w->pcs_cap; i++)
            if (w->pcs[i].pc) {
                uint32_t h = hash_pc(w->pcs[i].pc, w->pcs[i].kind) & (cap - 1);
                while (t[h].pc)
                    h = (h + 1) & (cap - 1);
                t[h] = w->pcs[i];
            }
        free(w->pcs);
        w->pcs = t;
        w->pcs_cap = cap;
    }
    uint32_t h = hash_pc(r->pc, kind) & (w->pcs_cap - 1);
    while (w->pcs[h].pc && !(w->pcs[h].pc == r->pc && w->pcs[h].kind == kind))
        h = (h + 1) & (w->pcs_cap - 1);
    sim_pc_stat *e = &w->pcs[h];
    if (!e->pc) {
        e->pc = r->pc;
        e->kind = kind;
        w->pcs_n++;
    }
    e->requests++;
    e->sectors += sectors;
    e->ideal_sectors += ideal_sectors;
    e->wavefronts += wf;
    e->ideal_wavefronts += ideal_wf;
}

void sim_pc_merge(sim_worker *w, sim_pc_stat **all, uint32_t *n, uint32_t *cap)
{
    for (uint32_t i = 0; i < w->pcs_cap; i++) {
        const sim_pc_stat *e = &w->pcs[i];
        if (!e->pc)
            continue;
        uint32_t j = 0;
        while (j < *n && !((*all)[j].pc == e->pc && (*all)[j].kind == e->kind))
            j++;
        if (j == *n) {
            if (*n == *cap) {
                uint32_t c = *cap ? *cap * 2 : 64;
                sim_pc_stat *t = realloc(*all, c * sizeof *t);
                if (!t)
                    continue;
                *all = t;
                *cap = c;
            }
            (*all)[(*n)++] = *e;
            continue;
        }
        sim_pc_stat *d = &(*all)[j];
        d->requests += e->requests;
        d->sectors += e->sectors;
        d->ideal_sectors += e->ideal_sectors;
        d->wavefronts += e->wavefronts;
        d->ideal_wavefronts += e->ideal_wavefronts;
    }
    if (w->pcs_cap)
        memset(w->pcs, 0, w->pcs_cap * sizeof *w->pcs);
    w->pcs_n = 0;
}

/* The sectors the items' bytes would take, contiguous and aligned. */
static uint64_t ideal_sectors_of(const uint64_t *it, unsigned n)
{
    uint64_t a[32];
    unsigned width = 0;
    for (unsigned i = 0; i < n; i++) {
        a[i] = IT_ADDR(it[i]);
        if (IT_SIZE(it[i]) > width)
            width = IT_SIZE(it[i]);
    }
    return ((uint64_t)distinct(a, n) * width + 31) / 32;
}

/* A global request's measure, packed in 10-bit fields of *out_a (measure). */
#define MEAS_STORE 0x100 /* or-ed into measure's space: a plain global store (its partial sectors counted) */
#define MEAS_FIELD 0x3ffu
#define MEAS_PARTIAL_SHIFT 10
#define MEAS_LINES_SHIFT 20

/* The bytes of sector s (32 bytes, one bit each) that an access of size bytes at a covers. */
static inline uint32_t sector_bytes(uintptr_t a, unsigned size, uint64_t s)
{
    const uint64_t lo = (uint64_t)a > s << 5 ? (uint64_t)a - (s << 5) : 0;
    const uint64_t hi = (uint64_t)a + size - 1 < (s << 5) + 31 ? (uint64_t)a + size - 1 - (s << 5) : 31;
    return (uint32_t)((2ull << hi) - (1ull << lo));
}

/* Measures the request of n items it[] in the given space: *out_a, *out_b
 * are global sectors (MEAS_FIELD bits of *out_a), those of them the request
 * writes only in part (a partial sector: the L2 merges it into what it holds,
 * at a cost: sim/timemodel.c), and the 128-byte lines they lie in (the L1 data
 * pipe's wavefronts, one a line, as the H100 counts them: docs/NOTES.md,
 * session 29; and the L2's requests) and the ideal sectors (only with
 * want_ideal), or shared wavefronts and their ideal. A function of the items' relative
 * addresses, sizes and lanes and of the first address modulo 128 only
 * (sectors are 32 bytes, banks 32 words): req_memo relies on it. */
static void measure(const uint64_t *it, unsigned cnt, int space, int want_ideal, uint32_t *out_a, uint32_t *out_b)
{
    uint64_t items[32 * 4 + 8];
    unsigned n = 0;
    if (!(space & SIM_SPACE_SHARED)) {
        /* distinct 32-byte sectors the request touches: a bitmask when they
         * lie within 64 sectors of each other (nearly always), else sorted */
        uint64_t smin = UINT64_MAX, smax = 0, sectors, lines = 0, partial = 0;
        for (unsigned i = 0; i < cnt; i++) {
            uint64_t lo = IT_ADDR(it[i]) >> 5, hi = (IT_ADDR(it[i]) + IT_SIZE(it[i]) - 1) >> 5;
            smin = lo < smin ? lo : smin;
            smax = hi > smax ? hi : smax;
        }
        const int store = (space & MEAS_STORE) != 0; /* partial sectors: a store's only */
        if (cnt && smax - smin < 64) {
            uint64_t mask = 0;
            uint32_t cov[64]; /* a store's bytes of each sector, one bit a byte */
            for (unsigned i = 0; i < cnt; i++)
                for (uint64_t s = IT_ADDR(it[i]) >> 5; s <= (IT_ADDR(it[i]) + IT_SIZE(it[i]) - 1) >> 5; s++) {
                    if (store)
                        cov[s - smin] = (mask >> (s - smin) & 1 ? cov[s - smin] : 0) |
                                        sector_bytes(IT_ADDR(it[i]), IT_SIZE(it[i]), s);
                    mask |= 1ull << (s - smin);
                }
            sectors = (uint64_t)__builtin_popcountll(mask);
            for (uint64_t m = mask, last = UINT64_MAX; m; m &= m - 1) { /* 128-byte lines, in order */
                const uint64_t line = (smin + (uint64_t)__builtin_ctzll(m)) >> 2;
                lines += line != last;
                last = line;
                partial += store && cov[__builtin_ctzll(m)] != 0xffffffffu;
            }
        } else {
            /* a store's: each (sector, its bytes of it) as (sector - smin) << 32 | bytes, so
             * that, sorted, a sector's entries are neighbours and their bytes OR together
             * (lanes more than 2^31 sectors apart, 64 GB: each sector's bytes from every item) */
            const int keyed = store && smax - smin < ((uint64_t)1 << 31);
            for (unsigned i = 0; i < cnt; i++)
                for (uint64_t s = IT_ADDR(it[i]) >> 5; s <= (IT_ADDR(it[i]) + IT_SIZE(it[i]) - 1) >> 5; s++)
                    items[n++] = keyed ? (s - smin) << 32 | sector_bytes(IT_ADDR(it[i]), IT_SIZE(it[i]), s) : s;
            distinct(items, n);
            sectors = 0;
            uint32_t b = 0;
            for (unsigned i = 0; i < n; i++) { /* sorted now */
                const uint64_t s = keyed ? (items[i] >> 32) + smin : items[i];
                const uint64_t prev = !i ? UINT64_MAX : keyed ? (items[i - 1] >> 32) + smin : items[i - 1];
                if (s != prev) {
                    partial += i && keyed && b != 0xffffffffu; /* the sector before, complete now */
                    sectors++;
                    lines += !i || s >> 2 != prev >> 2;
                    b = 0;
                    if (store && !keyed) {
                        for (unsigned j = 0; j < cnt; j++)
                            if (IT_ADDR(it[j]) >> 5 <= s && s <= (IT_ADDR(it[j]) + IT_SIZE(it[j]) - 1) >> 5)
                                b |= sector_bytes(IT_ADDR(it[j]), IT_SIZE(it[j]), s);
                        partial += b != 0xffffffffu;
                    }
                }
                if (keyed)
                    b |= (uint32_t)items[i];
            }
            partial += n && keyed && b != 0xffffffffu;
        }
        if (space & SIM_SPACE_ATOM) {
            /* Lanes of one atomic request that hit the same address are
             * served one after another: the request takes as many passes as
             * its most-hit address has lanes, and each pass its distinct
             * sectors; summed, each sector costs its most-hit address's lane
             * count (the H200, docs/parity-h200.md: 32 lanes on one word =
             * 32 sectors; scattered bins: exact) */
            n = 0;
            for (unsigned i = 0; i < cnt; i++)
                items[n++] = IT_ADDR(it[i]);
            distinct(items, n); /* sorted: equal addresses adjacent, sectors in order */
            sectors = 0;
            uint64_t sec_max = 0, run = 0;
            for (unsigned i = 0; i < n; i++) {
                run = i && items[i] == items[i - 1] ? run + 1 : 1;
                if (i && items[i] >> 5 != items[i - 1] >> 5) {
                    sectors += sec_max;
                    sec_max = 0;
                }
                if (run > sec_max)
                    sec_max = run;
            }
            sectors += sec_max;
        }
        *out_a = (uint32_t)(sectors | partial << MEAS_PARTIAL_SHIFT | lines << MEAS_LINES_SHIFT);
        *out_b = want_ideal ? (uint32_t)ideal_sectors_of(it, cnt) : 0;
        return;
    }
    /* shared: 32 banks of 4-byte words. A wavefront serves at most one word
     * per bank (lanes reading the same word share it: broadcast), so a pass
     * over some lanes takes as many wavefronts as its busiest bank has
     * distinct words. 32-bit accesses: one pass over the warp. Wider ones, as
     * the H200 counts them (scripts/gpu/lds_patterns.cu, 16 lane patterns per
     * width, docs/parity-h200.md): when every quad of lanes (4k .. 4k+3) asks
     * for at most two distinct 8- or 16-byte items, 64-bit accesses take one
     * pass and 128-bit ones two (half-warps); otherwise 64-bit take two
     * (half-warps) and 128-bit four (quarter-warps). Even a full warp's
     * broadcast LDS.128 is two wavefronts. Measured: full-warp loads and
     * consecutive 128-bit stores; partial warps and other store patterns
     * follow the same rule unmeasured (a half-warp request is one pass). */
    unsigned width = 0;
    for (unsigned i = 0; i < cnt; i++)
        if (IT_SIZE(it[i]) > width)
            width = IT_SIZE(it[i]);
    unsigned passes = 1;
    if (width >= 8) {
        /* every quad asks for <= 2 distinct items: one walk over the items,
         * the first two distinct items of each quad kept */
        uint64_t seen[8][2];
        unsigned k[8] = {0};
        int narrow = 1;
        for (unsigned i = 0; i < cnt && narrow; i++) {
            const unsigned q = IT_LANE(it[i]) / 4;
            const uint64_t item = IT_ADDR(it[i]) / width;
            if ((k[q] > 0 && seen[q][0] == item) || (k[q] > 1 && seen[q][1] == item))
                continue;
            if (k[q] == 2)
                narrow = 0;
            else
                seen[q][k[q]++] = item;
        }
        passes = width == 8 ? (narrow ? 1 : 2) : (narrow ? 2 : 4);
    }
    /* the words of each pass within 64 consecutive words (nearly always): a
     * bank holds at most two of them (word j and j + 32 from the first), so
     * a 64-bit mask gives the wavefronts without a sort. One walk for the
     * bounds of every pass, one for the masks. */
    uint64_t wmin[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX}, wmax[4] = {0, 0, 0, 0}, mask[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < cnt; i++) {
        const unsigned pass = IT_LANE(it[i]) * passes / 32;
        const uint64_t lo = IT_ADDR(it[i]) >> 2, hi = (IT_ADDR(it[i]) + IT_SIZE(it[i]) - 1) >> 2;
        wmin[pass] = lo < wmin[pass] ? lo : wmin[pass];
        wmax[pass] = hi > wmax[pass] ? hi : wmax[pass];
    }
    for (unsigned i = 0; i < cnt; i++) {
        const unsigned pass = IT_LANE(it[i]) * passes / 32;
        if (wmax[pass] - wmin[pass] >= 64)
            continue;
        for (uint64_t x = IT_ADDR(it[i]) >> 2; x <= (IT_ADDR(it[i]) + IT_SIZE(it[i]) - 1) >> 2; x++)
            mask[pass] |= 1ull << (x - wmin[pass]);
    }
    unsigned wf = 0, ideal = 0;
    for (unsigned pass = 0; pass < passes; pass++) {
        if (wmin[pass] == UINT64_MAX)
            continue;
        if (wmax[pass] - wmin[pass] < 64) {
            wf += (mask[pass] & (mask[pass] >> 32) & 0xffffffffu) ? 2 : 1;
            ideal += ((unsigned)__builtin_popcountll(mask[pass]) + 31) / 32;
            continue;
        }
        n = 0;
        for (unsigned i = 0; i < cnt; i++)
            if (IT_LANE(it[i]) * passes / 32 == pass)
                for (uint64_t x = IT_ADDR(it[i]) >> 2; x <= (IT_ADDR(it[i]) + IT_SIZE(it[i]) - 1) >> 2; x++)
                    items[n++] = x;
        if (!n)
            continue;
        unsigned words = distinct(items, n);
        unsigned per_bank[32] = {0}, most = 1;
        for (unsigned i = 0; i < n; i++)
            if (i == 0 || items[i] != items[i - 1]) {
                unsigned b = (unsigned)(items[i] & 31);
                if (++per_bank[b] > most)
                    most = per_bank[b];
            }
        wf += most;
        ideal += (words + 31) / 32;
    }
    *out_a = wf;
    *out_b = ideal;
}

/* A request's space for measure: MEAS_STORE added for a plain global store. */
static inline int meas_space(const sim_request *r)
{
    return r->space | (r->wr && !(r->space & (SIM_SPACE_SHARED | SIM_SPACE_ATOM | SIM_SPACE_ASYNC)) ? MEAS_STORE : 0);
}

/* The memos' kind of a request: shared, a global atomic, a plain global store, another global one. */
static inline unsigned meas_kind(int space)
{
    return (space & SIM_SPACE_SHARED) ? 1u : (space & SIM_SPACE_ATOM) ? 2u : (space & MEAS_STORE) ? 4u : 3u;
}

/* An affine request's measure by its shape: what decides it is the kind of
 * space (shared, global atomic, plain global store, other global: meas_kind), the size, the lanes, the
 * stride and where lane 0's address would fall within 128 bytes. The shape
 * is measured once, on items placed at 2^40 + that offset (measure
 * depends on nothing else), and remembered per worker (a direct-mapped
 * table: a miss measures again). */
static void req_memo(sim_worker *w, const sim_request *r, uint32_t *out_a, uint32_t *out_b)
{
    const int space = meas_space(r);
    const unsigned kind = meas_kind(space);
    const uintptr_t base = r->a0 - (uintptr_t)((intptr_t)r->lane0 * r->stride);
    const uint32_t tag = kind << 16 | (uint32_t)r->size << 8 | (uint32_t)(base & 127u);
    const uint64_t x = ((uint64_t)r->stride ^ (uint64_t)r->lanes << 20 ^ (uint64_t)tag << 44) * 0x9E3779B97F4A7C15ull;
    const uint32_t h = (uint32_t)(x >> 54) & (SIM_REQ_MEMO - 1); /* the top 10 bits: every input reaches them */
    if (__builtin_expect(!w->req_memo, 0) && !(w->req_memo = calloc(SIM_REQ_MEMO, sizeof *w->req_memo))) {
        /* no memory for the memo: measure every time (this may run on the
         * scheduler's stack, where a block cannot be aborted) */
        uint64_t it[32];
        const unsigned n = affine_items(it, r->a0 - (uintptr_t)((intptr_t)r->lane0 * r->stride), r->stride, r->size,
                                        r->lanes);
        measure(it, n, space, 1, out_a, out_b);
        return;
    }
    sim_req_memo *e = &w->req_memo[h];
    if (e->tag == tag && e->lanes == r->lanes && e->stride == r->stride) {
        *out_a = e->a;
        *out_b = e->b;
        return;
    }
    uint64_t it[32];
    const unsigned n = affine_items(it, ((uintptr_t)1 << 40) + (base & 127u), r->stride, r->size, r->lanes);
    measure(it, n, space, 1, out_a, out_b);
    *e = (sim_req_memo){r->stride, r->lanes, tag, *out_a, *out_b};
}

/* A request with a list, measured by its list: the items with their
 * addresses taken from the first one's rounded down to 128 bytes (measure
 * gives the same for any such shift). Looked up by a hash, then compared
 * item by item (a hit is exact); a miss measures and takes the entry. */
static void list_memo(sim_worker *w, const uint64_t *it, unsigned n, int space, uint32_t *out_a, uint32_t *out_b)
{
    if (__builtin_expect(!w->list_memo, 0) && !(w->list_memo = calloc(SIM_LIST_MEMO, sizeof *w->list_memo))) {
        measure(it, n, space, 1, out_a, out_b); /* no memory for the memo (see req_memo) */
        return;
    }
    const uint32_t tag = meas_kind(space);
    const uint64_t base = (uint64_t)(IT_ADDR(it[0]) & ~(uintptr_t)127) << 16;
    uint64_t x[32], h = (uint64_t)n << 8 | tag;
    for (unsigned i = 0; i < n; i++) {
        x[i] = it[i] - base;
        h = (h ^ x[i]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    sim_list_memo *e = &w->list_memo[h >> 56 & (SIM_LIST_MEMO - 1)];
    if (e->hash == h && e->n == n && e->tag == tag && !memcmp(e->it, x, n * sizeof x[0])) {
        *out_a = e->a;
        *out_b = e->b;
        return;
    }
    measure(it, n, space, 1, out_a, out_b);
    e->hash = h;
    e->n = n;
    e->tag = tag;
    e->a = *out_a;
    e->b = *out_b;
    memcpy(e->it, x, n * sizeof x[0]);
}

/* Counts one request measured as a, b (measure): sectors for global, wavefronts and conflicts
 * for shared. */
static void count_measured(sim_worker *w, const sim_request *r, uint32_t a, uint32_t b)
{
    if (!(r->space & SIM_SPACE_SHARED)) {
        const uint64_t sectors = a & MEAS_FIELD, lines = a >> MEAS_LINES_SHIFT & MEAS_FIELD;
        if (r->space & SIM_SPACE_ATOM) {
            w->c.global_atom_requests++;
            w->c.global_atom_sectors += sectors;
        } else if (r->space & SIM_SPACE_ASYNC) {
            w->c.async_requests++;
            w->c.async_ld_sectors += sectors;
        } else if (r->wr) {
            w->c.global_st_requests++;
            w->c.global_st_sectors += sectors;
            w->c.global_wavefronts += lines;
            w->c.global_st_lines += lines;
            w->c.global_st_partial += a >> MEAS_PARTIAL_SHIFT & MEAS_FIELD;
        } else {
            w->c.global_ld_requests++;
            w->c.global_ld_sectors += sectors;
            w->c.global_wavefronts += lines;
        }
        if (__builtin_expect(w->pcprof, 0))
            pc_add(w, r,
                   (r->space & SIM_SPACE_ATOM) ? SIM_PC_GLOBAL_ATOM
                   : (r->space & SIM_SPACE_ASYNC) ? SIM_PC_ASYNC
                   : r->wr                        ? SIM_PC_GLOBAL_ST
                                                  : SIM_PC_GLOBAL_LD,
                   sectors, b, 0, 0);
        return;
    }
    const unsigned wf = a, ideal = b;
    if (__builtin_expect(w->pcprof, 0))
        pc_add(w, r,
               (r->space & SIM_SPACE_ATOM) ? SIM_PC_SHARED_ATOM
               : (r->space & SIM_SPACE_ASYNC) ? SIM_PC_ASYNC
               : r->wr                        ? SIM_PC_SHARED_ST
                                              : SIM_PC_SHARED_LD,
               0, 0, wf, ideal);
    if (r->space & SIM_SPACE_ATOM) {
        w->c.shared_atom_requests++;
        w->c.shared_atom_wavefronts += wf;
        w->c.shared_atom_conflicts += wf - ideal;
    } else if (r->space & SIM_SPACE_ASYNC) {
        w->c.async_st_wavefronts += wf;
        w->c.async_st_conflicts += wf - ideal;
    } else if (r->wr) {
        w->c.shared_st_requests++;
        w->c.shared_st_wavefronts += wf;
        w->c.shared_st_conflicts += wf - ideal;
    } else {
        w->c.shared_ld_requests++;
        w->c.shared_ld_wavefronts += wf;
        w->c.shared_ld_conflicts += wf - ideal;
    }
}

/* Counts one request of the table. */
static void count_request(sim_worker *w, const sim_warp *wp, const sim_request *r)
{
    uint32_t a, b;
    if (r->affine)
        req_memo(w, r, &a, &b);
    else
        list_memo(w, &wp->pool[(size_t)r->items * 32], r->n, meas_space(r), &a, &b);
    count_measured(w, r, a, b);
}

/* Counts the plain shared request of the n items it[] (lanes ascending) at pc: as an affine
 * request when the lanes' addresses are (the table's test), else by its list. */
static void count_logged(sim_worker *w, const uint64_t *it, unsigned n, uintptr_t pc, int wr)
{
    sim_request r = {.pc = pc, .space = SIM_SPACE_SHARED, .wr = (uint8_t)wr, .n = (uint8_t)n, .affine = 1};
    const uintptr_t a0 = IT_ADDR(it[0]);
    const unsigned l0 = IT_LANE(it[0]), size = IT_SIZE(it[0]);
    intptr_t stride = 0;
    if (n > 1) {
        const intptr_t dl = (intptr_t)IT_LANE(it[1]) - (intptr_t)l0, da = (intptr_t)(IT_ADDR(it[1]) - a0);
        if (da % dl == 0 && da / dl > -((intptr_t)1 << 34) && da / dl < (intptr_t)1 << 34)
            stride = da / dl;
        else
            r.affine = 0;
    }
    uint32_t lanes = 0;
    for (unsigned i = 0; i < n; i++) {
        lanes |= 1u << IT_LANE(it[i]);
        if (IT_SIZE(it[i]) != size ||
            (intptr_t)(IT_ADDR(it[i]) - a0) != ((intptr_t)IT_LANE(it[i]) - (intptr_t)l0) * stride)
            r.affine = 0;
    }
    uint32_t a, b;
    if (r.affine) {
        r.a0 = a0;
        r.stride = stride;
        r.lanes = lanes;
        r.lane0 = (uint8_t)l0;
        r.size = (uint8_t)size;
        req_memo(w, &r, &a, &b);
    } else {
        list_memo(w, it, n, SIM_SPACE_SHARED, &a, &b);
    }
    count_measured(w, &r, a, b);
}

static inline uint64_t log_item(const sim_worker *w, uint64_t e, unsigned lane)
{
    return (uint64_t)log_addr(w, e) << 16 | (uint64_t)lane << 8 | LOG_SIZE(e);
}

/* The logs of wp joined into requests and counted (at its flush: every live lane is at the
 * same barrier or warp intrinsic, or done). Allocates nothing and never lets a lane run: this
 * may be the scheduler's stack.
 *
 * While every lane's i-th entry is the same instruction (pc, direction and size: the lanes in
 * step, nearly always) the i-th entries are one request, tested for an affine shape on the raw
 * entries (lane k's entry minus the first lane's is its offset's difference, shifted). From the
 * first entry where the lanes part, the rest goes the general way (log_resolve_rest). */
static __attribute__((noinline)) void log_resolve_rest(sim_worker *w, sim_warp *wp, unsigned lanes,
                                                       const uint32_t *cnt, uint32_t from);
/* noinline, as the rest: a flush may run on a fiber's stack (a lane's barrier arrival) */
static __attribute__((noinline)) void log_resolve(sim_worker *w, sim_warp *wp, unsigned lanes, const uint32_t *cnt)
{
    const uint64_t *lg[32];
    unsigned ln[32], nl = 0;
    uint32_t n = SIM_LOG_CAP;
    lg[0] = log_base(wp, (unsigned)__builtin_ctz(lanes)); /* lanes != 0 */
    for (unsigned m = lanes; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        lg[nl] = log_base(wp, l);
        ln[nl++] = l;
        n = cnt[l] < n ? cnt[l] : n;
    }
    /* Lane by lane, so that each pass reads two logs in order (32 logs at once defeat the
     * prefetcher): the stride of each entry from the first two lanes (shifted to the offset's
     * place), then whether every lane's entry is the first lane's plus its multiple of the
     * stride. bad[i]: entry i is no affine request of the lanes in step (or they part there). */
    int64_t *sh = (int64_t *)w->log_keys;
    uint8_t *bad = (uint8_t *)(sh + SIM_LOG_CAP);
    const uint64_t *l0 = lg[0];
    if (nl > 1) {
        const uint64_t *l1 = lg[1];
        const int64_t dl = (int64_t)(ln[1] - ln[0]);
        for (uint32_t i = 0; i < n; i++) {
            const int64_t da = (int64_t)LOG_OFF(l1[i]) - (int64_t)LOG_OFF(l0[i]);
            sh[i] = (int64_t)((uint64_t)(da / dl) << 32);
            bad[i] = (uint8_t)(((l1[i] ^ l0[i]) & (LOG_SAME | 1ull << 54)) != 0 || da % dl != 0);
        }
        for (unsigned k = 2; k < nl; k++) {
            const uint64_t *lk = lg[k];
            const uint64_t dk = ln[k] - ln[0];
#pragma omp simd
            for (uint32_t i = 0; i < n; i++)
                bad[i] |= (lk[i] - l0[i] != dk * (uint64_t)sh[i]) | ((lk[i] ^ l0[i]) >> 54 != 0);
        }
    } else {
        memset(sh, 0, n * sizeof *sh);
        memset(bad, 0, n);
    }
    uint32_t i = 0;
    uint64_t it[32];
    for (; i < n; i++) {
        const uint64_t e0 = l0[i];
        sim_request r = {.pc = LOG_PC(e0), .space = SIM_SPACE_SHARED, .wr = (uint8_t)LOG_WR(e0), .n = (uint8_t)nl};
        uint32_t a, b;
        if (!bad[i]) {
            r.affine = 1;
            r.a0 = log_addr(w, e0);
            r.stride = (intptr_t)(sh[i] >> 32);
            r.lanes = lanes;
            r.lane0 = (uint8_t)ln[0];
            r.size = (uint8_t)LOG_SIZE(e0);
            req_memo(w, &r, &a, &b);
        } else {
            for (unsigned q = 1; q < nl; q++)
                if ((lg[q][i] ^ e0) & LOG_SAME)
                    goto rest; /* the lanes part here */
            for (unsigned q = 0; q < nl; q++)
                it[q] = log_item(w, lg[q][i], ln[q]);
            list_memo(w, it, nl, SIM_SPACE_SHARED, &a, &b);
        }
        count_measured(w, &r, a, b);
    }
rest:
    for (unsigned q = 0; q < nl; q++)
        if (cnt[ln[q]] > i) {
            log_resolve_rest(w, wp, lanes, cnt, i);
            break;
        }
}

/* The lanes' entries from `from` on, where they are no longer in step: keys (pc, lane, index)
 * sorted by pc, stable (an LSD radix sort over the pc's four bytes; the keys are made in lane
 * and index order), so a pc's entries come lane after lane, each lane's in its order. The k-th
 * of each lane at a pc are one request, split by direction, as the table's (pc, occurrence)
 * match; the entries before `from` hold the same instructions in every lane, so counting
 * occurrences from there changes no match. */
static __attribute__((noinline)) void log_resolve_rest(sim_worker *w, sim_warp *wp, unsigned lanes,
                                                       const uint32_t *cnt, uint32_t from)
{
    uint64_t *key = w->log_keys, *tmp = key + 32 * (size_t)SIM_LOG_CAP, it[32];
    size_t total = 0;
    for (unsigned m = lanes; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        const uint64_t *e = log_base(wp, l);
        for (uint32_t i = from; i < cnt[l]; i++)
            key[total++] = (uint64_t)(uint32_t)e[i] << 32 | (uint64_t)l << 16 | i;
    }
    for (unsigned shift = 32; shift < 64; shift += 8) {
        uint32_t at[257] = {0}; /* total < 2^16 */
        for (size_t j = 0; j < total; j++)
            at[(key[j] >> shift & 0xff) + 1]++;
        for (unsigned d = 0; d < 256; d++)
            at[d + 1] += at[d];
        for (size_t j = 0; j < total; j++)
            tmp[at[key[j] >> shift & 0xff]++] = key[j];
        uint64_t *x = key;
        key = tmp;
        tmp = x;
    }
    for (size_t j = 0; j < total;) { /* one pc: key[j, end) */
        size_t end = j;
        uint32_t start[32], len[32] = {0}, most = 0;
        while (end < total && key[end] >> 32 == key[j] >> 32)
            end++;
        for (size_t x = j; x < end; x++) {
            const unsigned l = (unsigned)(key[x] >> 16 & 0xff);
            if (!len[l]++)
                start[l] = (uint32_t)x;
            most = len[l] > most ? len[l] : most;
        }
        for (uint32_t k = 0; k < most; k++)
            for (int wr = 0; wr <= 1; wr++) {
                unsigned c = 0;
                uint64_t e = 0;
                for (unsigned l = 0; l < 32; l++) {
                    if (len[l] <= k)
                        continue;
                    const uint64_t x = log_base(wp, l)[key[start[l] + k] & 0xffff];
                    if (LOG_WR(x) == wr) {
                        it[c++] = log_item(w, x, l);
                        e = x;
                    }
                }
                if (c)
                    count_logged(w, it, c, LOG_PC(e), wr);
            }
        j = end;
    }
}

void sim_warp_flush(sim_worker *w, sim_warp *wp)
{
    wp->at_bar = 0; /* a flush comes when every live lane waits (or the block ends), or at the release */
    /* every lane has exited: nothing appends to its log or table again in this block, so what this
     * flush counts stays where it is; else lanes that run on write over it */
    const int fin = wp->done == wp->exists;
    const uint8_t from_bar = wp->hist_bar; /* the history this flush counts starts at a barrier */
    wp->hist_bar = 0; /* the next one starts here; a barrier's flush sets it again */
    if (!fin)
        wp->kept_on = SIM_KEPT_NONE;
    if (wp->log && w->detailed) { /* each lane's entries counted and its cursor armed again, in one pass
                                   * (counting mode's sample flushes too: its cursors are not armed) */
        sim_thread *th = &w->threads[(size_t)(wp - w->warps) * 32];
        const int on = sim_detail_log_on;
        uint32_t cnt[32];
        unsigned lanes = 0;
        for (unsigned m = wp->exists; m; m &= m - 1) {
            const unsigned l = (unsigned)__builtin_ctz(m);
            uint64_t *base = log_base(wp, l), *c = th[l].log_cur;
            cnt[l] = c == LOG_OFF_CUR ? 0 : (uint32_t)(c - base);
            lanes |= (unsigned)(cnt[l] != 0) << l;
            th[l].log_cur = on ? base : LOG_OFF_CUR;
        }
        if (lanes)
            log_resolve(w, wp, lanes, cnt);
        if (fin && lanes) { /* the warp's last entries: they stay readable (race_other) */
            for (unsigned m = wp->exists; m; m &= m - 1)
                wp->kept[__builtin_ctz(m)] = (uint16_t)cnt[__builtin_ctz(m)];
            wp->kept_on = SIM_KEPT_LOG;
            wp->kept_bar = from_bar;
        }
    }
    if (fin && (wp->log_table || (w->sample && !w->detailed)) && wp->reqs_n) { /* its last requests, likewise (counted below, left in place) */
        wp->kept_reqs = wp->reqs_n;
        wp->kept_on = SIM_KEPT_TABLE;
        wp->kept_bar = from_bar;
    }
    wp->log_table = 0;
    for (uint32_t i = 0; i < wp->reqs_n; i++)
        count_request(w, wp, &wp->reqs[i]);
    if (wp->reqs_n) {
        wp->reqs_n = 0;
        index_clear(wp);
    }
    wp->pool_n = wp->pool_free = 0;
    if (wp->pcs_n) {
        memset(wp->pc_hash, 0, sizeof wp->pc_hash);
        wp->pcs_n = 0;
    }
}
