/* sim/internal.h - private state of the simulator, shared by the sim sources only.
 *
 * Not included by lessons or kernels. The per-access hot path lives in
 * sim/access.c and reads only: sim_tls_worker, sim_arena, sim_allocs.
 */
#ifndef SIMTLAB_INTERNAL_H
#define SIMTLAB_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "kernel.h" /* the runtime implements what kernels call */
#include "launch.h"
#include "memory.h"

#define SIM_GRANULE_SHIFT 16 /* allocations start on 64 KiB boundaries */
#define SIM_MAX_ALLOCS 65536 /* allocation records per process (reused, oldest freed first, only when fresh ones run out: sim/memory.c) */
#define SIM_MAX_THREADS 1024
#define SIM_MAX_LOCKS 16 /* addresses a block releases through, modelled (sim/access.c, "locks") */

/* ---- memory ----------------------------------------------------------- */
typedef struct sim_alloc {
    uintptr_t begin;    /* first byte */
    uintptr_t live_end; /* begin + bytes while live, begin once freed */
    size_t bytes;
    int freed;
    char name[52];
    uint64_t read_bytes, write_bytes; /* by kernels, since the last reset */
} sim_alloc;

typedef struct sim_arena_t {
    uintptr_t base;  /* reserved address range [base, base + span) */
    uintptr_t span;
    uint32_t *owner; /* granule -> allocation id (0: red zone / never used) */
    uintptr_t next;  /* bump pointer */
    uint32_t n_allocs;
} sim_arena_t;

extern sim_arena_t sim_arena;
extern sim_alloc sim_allocs[SIM_MAX_ALLOCS];
int sim_memory_init(void); /* 0 or -1 (with sim_last_error set) */
void sim_fault_handler_install(void); /* launch.c: faults in kernels become reports (once; sim_memory_init, sim_launch) */

/* ---- fibers ------------------------------------------------------------ */
typedef struct sim_stack {
    char *lo, *hi;   /* usable range; PROT_NONE guard pages sit below lo */
    char *map;       /* mapping start (the guard) */
    unsigned color;  /* bytes left unused above hi (see stack_take) */
    size_t map_len;
    struct sim_stack *next_free;
} sim_stack;

void sim_ctx_switch(void **save_sp, void *to_sp);
uint64_t sim_ctx_park_result(void **save_sp, void *to_sp, const uint64_t *slot); /* switches, then returns *slot */
void *sim_ctx_init(sim_stack *s, void (*fn)(void *), void *arg);

/* ---- threads, warps, blocks --------------------------------------------- */
enum { SIM_T_NEW, SIM_T_READY, SIM_T_RUNNING, SIM_T_BARRIER, SIM_T_WARP, SIM_T_DONE,
       SIM_T_CBAR /* waits for a cuda::barrier's phase (sim/launch.c, sim_cbar_wait) */ };

typedef struct sim_thread {
    /* touched at every switch and barrier: kept in the first 32 bytes */
    void *sp;        /* saved context while switched out */
    int state;
    int site_line;
    const char *site_file; /* barrier or warp intrinsic it waits at */
    /* the rest */
    sim_stack *stack;/* NULL until the thread first runs */
    uint3 tid;
    unsigned linear, lane, warp;
    unsigned async_pending; /* copy_async_float4 copies not yet waited for */
    /* spin detection (volatile reads and atomics only, never the hot path) */
    uint16_t spin_n; /* (SIM_SPIN_LIMIT at most) */
    /* detailed mode's locks (sim/access.c, "locks"): 1 + its releases so far (SIM_REL_MAX at most),
     * the stamp its accesses leave in the race shadows */
    uint16_t rel;
    uintptr_t spin_addr;
    uintptr_t last_pc; /* where it was last seen: its last spin yield, or where a timeout stopped it */
    uint32_t l2_occ;   /* global accesses made so far (sim/l2.c orders a block's trace by it) */
    uint8_t atom_uniform; /* its next atomic's address is warp-uniform (sim_atomic_uniform_next) */
    /* SIM_FENCED: it has run a __threadfence*() (sim_fence): its volatile reads are a protocol's;
     * SIM_FENCE_NEW: one since its last atomic (a release may follow); from SIM_ACQ_SHIFT up: the
     * lock (index + 1) it read with an atomic, acquired at its next fence (sim/access.c, "locks") */
    uint8_t fenced;
    uint16_t cp_groups;   /* cp.async groups it has committed (sim_cp_async_commit), modulo 2^16 */
    uint64_t *log_cur; /* detailed mode: its next entry in its warp's log (sim/access.c; 96 bytes in all) */
} sim_thread;
enum { SIM_FENCED = 1, SIM_FENCE_NEW = 2, SIM_ACQ_SHIFT = 2 }; /* sim_thread.fenced */
_Static_assert(SIM_MAX_LOCKS + 1 < 1 << (8 - SIM_ACQ_SHIFT), "a lock's index + 1 fits sim_thread.fenced");
_Static_assert(sizeof(sim_thread) == 96, "sim_thread: 96 bytes, as the switch's prefetch of the next record expects");

/* Detailed mode: one warp-level request = the accesses of one instruction
 * (pc) in one occurrence by the warp's lanes. */
enum {
    SIM_SPACE_GLOBAL = 0,
    SIM_SPACE_SHARED = 1,
    SIM_SPACE_ASYNC = 2, /* or-ed in: a copy_async access */
    SIM_SPACE_ATOM = 4,  /* or-ed in: an atomic (its read; its write is not recorded: SIM_SPACE_SKIP) */
    SIM_SPACE_SKIP = 8
};
/* One warp request being gathered. While every lane that joined it reads
 * or writes size bytes at a0 + (lane - lane0) * stride (a row, a column, a
 * broadcast: nearly always), it is affine and keeps no list; counting it
 * then is looked up by its shape (sim/access.c, req_memo). The first lane
 * that breaks the pattern gives it a list of items in the warp's pool. */
typedef struct sim_request {
    uintptr_t pc;
    uintptr_t a0;    /* lane0's address */
    intptr_t stride; /* bytes from lane to lane (once two lanes joined) */
    uint32_t occ;
    uint32_t k;      /* pc's index in the warp's pcs (stable until the table is flushed) */
    uint32_t lanes;  /* the lanes that joined */
    uint32_t items;  /* !affine: its 32 items at pool[items * 32] */
    uint8_t space, wr, n, size, lane0, affine;
} sim_request;
/* An item of a request's list: address << 16 | lane << 8 | size. */
#define IT_ADDR(x) ((uintptr_t)((x) >> 16))
#define IT_LANE(x) ((unsigned)((x) >> 8) & 0xffu)
#define IT_SIZE(x) ((unsigned)(x) & 0xffu)

/* What counting a request of one shape gave: global sectors and their ideal,
 * or shared wavefronts and their ideal (sim/access.c, req_memo). */
typedef struct sim_req_memo {
    intptr_t stride;
    uint32_t lanes, tag; /* tag 0: empty */
    uint32_t a, b;
} sim_req_memo;
#define SIM_REQ_MEMO 1024
/* The same for requests with a list: the list itself, its addresses taken
 * from a multiple of 128 bytes below the first (sim/access.c, list_memo). */
typedef struct sim_list_memo {
    uint64_t hash;
    uint32_t n, tag; /* tag 0: empty */
    uint32_t a, b;
    uint64_t it[32];
} sim_list_memo;
#define SIM_LIST_MEMO 256

/* A slot of a warp's request index: (pc's index in pcs, occurrence) -> request. */
typedef struct sim_req_slot {
    uint64_t key;  /* pc index << 32 | occurrence */
    uint32_t idx;  /* into reqs */
    uint32_t gen;  /* live when equal to the warp's req_gen */
} sim_req_slot;
#define SIM_PC_HASH 256

typedef struct sim_pcocc {
    uintptr_t pc;
    uint32_t occ[32];
} sim_pcocc;

/* A warp intrinsic some lanes wait at. Lanes of one warp may wait at
 * several at once when their masks are disjoint (CUDA 9+ allows it): up to
 * one a lane (warp-aggregated atomics: __match_any_sync, then a shuffle in
 * each group of lanes with one value, HeCBench atomicAggregate has 16). */
#define SIM_MAX_RDV 32
#define SIM_RDV_REDUCE 24     /* kinds 24-31: __reduce_*_sync, 24 + SIM_COLL_ADD ... SIM_COLL_XOR */
#define SIM_RDV_ACTIVEMASK 32 /* kind of __activemask(): gathers whoever is live */
#define SIM_RDV_MMA 33        /* kind of mma_tf32: the whole warp, val[] a sim_mma_frag * */
#define SIM_RDV_MMA3 34       /* kind of mma_tf32x3 */
#define SIM_RDV_MATCH_ANY 35  /* __match_any_sync: the lanes with the lane's value */
#define SIM_RDV_MATCH_ALL 36  /* __match_all_sync: the mask if every lane's value is the same, else 0 */
#define SIM_RDV_WMMA 37       /* wmma::mma_sync (sim_warp_aligned): the whole warp, val[] a sim_aligned_call * */
/* the whole warp's kinds (.aligned: no mask written, every lane at the same call) */
#define SIM_RDV_ALIGNED(k) ((k) == SIM_RDV_MMA || (k) == SIM_RDV_MMA3 || (k) == SIM_RDV_WMMA)
/* What a lane brings to sim_warp_aligned: the function the last lane calls and the lane's argument. */
typedef struct sim_aligned_call {
    void (*fn)(void *const args[32]);
    void *arg;
} sim_aligned_call;
/* What a lane brings to a warp matrix multiply-add (sim_warp_mma): its
 * fragments of A (4), B (2) and C = D (4), by mma.sync.m16n8k8's layout;
 * as, bs NULL for a single TF32 product. */
typedef struct sim_mma_frag {
    float *d;
    const float *ab, *as, *bb, *bs;
} sim_mma_frag;
typedef struct sim_rdv {
    unsigned mask, arrived;
    int kind, width;
    const char *file;
    int line;
} sim_rdv;

#define SIM_AGG_SLOTS 16 /* call sites of uniform atomics a block's warp keeps apart (more: counted per lane) */
typedef struct sim_warp {
    unsigned exists; /* lanes of this warp that exist in the block */
    unsigned done;   /* lanes that exited */
    unsigned n_rdv;
    sim_rdv rdv[SIM_MAX_RDV]; /* pending rendezvous, n_rdv of them (the fast path: rdv[0] only) */
    int arg[32];
    uint64_t val[32], result[32]; /* per lane: a lane waits at one rendezvous at a time */
    uint32_t sync_epoch; /* completed rendezvous, for race detection */
    /* detailed mode tables, cleared at every flush */
    sim_pcocc *pcs;
    uint32_t pcs_cap, pcs_n;
    uint16_t pc_hash[SIM_PC_HASH]; /* pc -> 1 + its index in pcs (0: empty), for the first SIM_PC_HASH/2 pcs */
    sim_request *reqs;
    uint32_t reqs_cap, reqs_n;
    sim_req_slot *req_index; /* open addressing over reqs, reqs_cap * 2 slots; live when gen == req_gen */
    uint32_t req_gen;        /* bumped to empty the index (a flush) without touching it */
    uint32_t next_req[32];   /* per lane: where its next request is likely to be (lanes run the
                              * same code: lane l's n-th access joins the n-th request) */
    uint64_t *pool;          /* item lists of requests that are not affine, 32 items a list */
    uint32_t pool_cap, pool_n, pool_free; /* in lists; pool_free: 1 + the first freed list, 0: none */
    /* detailed mode's log of plain shared accesses (sim/access.c, "the log"): each lane's since the
     * last flush, in order, joined into requests only at the flush; a lane's cursor is its thread's */
    uint64_t *log;        /* SIM_LOG_CAP entries a lane, each lane's aligned to its size (NULL: none now) */
    int log_table;        /* this stretch went to the table (a full log): until the flush */
    unsigned at_bar;      /* detailed mode: its lanes waiting at the block's barrier (sim_log_barrier) */
    /* integer atomics on a warp-uniform address, one slot a call site (sim/access.c atomic_joins):
     * nvcc's code lets one lane do the warp's; lane l's k-th execution joins the warp's k-th */
    struct sim_agg {
        uintptr_t pc, a; /* the call site, the address of its latest counted execution */
        uint32_t max;    /* executions counted: the most any lane has made */
        uint32_t k[32];  /* each lane's executions */
    } agg[SIM_AGG_SLOTS];
    unsigned n_agg; /* slots in use this block, in order (the block's start sets 0) */
    /* For a race report (sim/access.c hist_find, race_other), after the hot fields: after the flush
     * of a warp whose lanes have all exited, what it counted stays in place (nothing appends again
     * in the block): each lane's log entries (kept), or the table's requests (kept_reqs). hist_bar:
     * the history since the last flush starts at the block's start or its last barrier (not at a
     * warp intrinsic); kept_bar: the kept one's did. */
    enum { SIM_KEPT_NONE, SIM_KEPT_LOG, SIM_KEPT_TABLE } kept_on;
    uint16_t kept[32];
    uint32_t kept_reqs;
    uint8_t hist_bar, kept_bar;
} sim_warp;

/* A lane's log holds this many shared accesses of a stretch, less one (8 bytes each: 512 KB a warp,
 * allocated by its first detailed stretch); a longer stretch goes to the table (sim/access.c). */
#define SIM_LOG_CAP 2048u
extern int sim_detail_log_on; /* sim_set_detail_log */

typedef struct sim_shadow { /* race detection, one per 4-byte shared word */
    uint32_t w_epoch, r_epoch;
    uint16_t w_tid, r_tid, w_wep, r_wep;
    uint8_t w_bytes, r_bytes; /* which bytes of the word the last writer / reader touched */
    uint8_t w_rel, r_rel;     /* the writer's / reader's release stamp then (sim_thread.rel) */
} sim_shadow;
_Static_assert(sizeof(sim_shadow) == 20, "sim_shadow: 20 bytes (detailed mode's hot path)");

#define SIM_DYN_CAP (256u << 10) /* a worker's dynamic shared memory window (sim/launch.c), and its shadows */

typedef struct sim_split { /* one shared word's reader of each byte (sim/access.c byte_readers) */
    uint32_t epoch;           /* the barrier epoch it holds; another: none */
    uint16_t tid[4], wep[4];  /* each byte's reader (SIM_MULTI: several; 0xfffe: none) and its warp epoch;
                               * its shadow's reader is SIM_SPLIT (0xfffd) while it holds the epoch */
} sim_split;

typedef struct sim_err_rec {
    sim_status status;
    uint64_t block_linear;
    uint3 block, thread;
    uintptr_t pc;
    const char *site_file; /* where the source says it happened (sim_access_at), else NULL: pc's line */
    int site_line;
    /* a race's other access, where the report could find it (sim/access.c race_other): its return
     * address (0: not known), thread and direction */
    uintptr_t other_pc;
    uint3 other_tid;
    int other_wr;
    char text[1024]; /* the body; kernel name and pc line are added at the end */
} sim_err_rec;

#define SIM_SAMPLE_SKIP 255 /* stretches of a kind skipped between two sampled, on average, at most */
#define SIM_SAMPLE_KINDS 16 /* kinds of stretches told apart (by the barrier they start at) */
#define SIM_SAMPLE_MAX_ACCESSES ((uint64_t)1 << 22) /* a sampled stretch longer than this is dropped */
#define SIM_SAMPLE_RACE_ACCESSES ((uint64_t)1 << 14) /* of a sampled stretch, checked for races (sim/access.c) */
/* Counting mode's sample of bank conflicts (sim/launch.c): the stretches that start at one barrier. */
typedef struct sim_sample_kind {
    const char *file; /* the barrier's site; NULL, 0: the block's start */
    int line;
    uint64_t bytes, seen;  /* all its stretches' shared bytes, and their number */
    uint64_t s_bytes, s_wf; /* the sampled ones' bytes and wavefronts */
    uint64_t gacc, s_gacc, s_gwf; /* the same for plain global accesses (the L1 data pipe's wavefronts) */
    uint64_t s_gst[4];      /* the sampled stores' lines, sectors and partial sectors, loads' sectors (L2 requests) */
    uint64_t skip;         /* stretches to skip before the next sampled */
} sim_sample_kind;

#define SIM_FP_ATOM_SLOTS 256
typedef struct sim_worker {
    /* hot: read by every instrumented access */
    uint64_t *l2_tr;          /* the running block's global sectors, for the L2 model (sim/l2.c) */
    size_t l2_n, l2_lim;      /* entries, and where sim_l2_grow is called next */
    uint64_t l2_last, l2_last2; /* the entries appended last (a repeat of either is not appended again) */
    uint64_t *wm_tag;   /* 2^SIM_WM_SHIFT: the running block's written sectors (sector << 30 | l1_gen) ... */
    uint32_t *wm_mask;  /* ... and the bytes of each it wrote (sim_l2_wmask, for writes only) */
    uint64_t wm_last;   /* the tag sim_l2_wmask took last, and its slot (0: none) */
    size_t wm_last_slot;
    uint64_t l1_gen;    /* the running block's generation in the tables of sim/l2.c (30 bits, never 0) */
    uint64_t (*alloc_ctr)[2]; /* [alloc id][0 read, 1 write] for this launch */
    sim_thread *cur;          /* running CUDA thread; NULL in the scheduler */
    int detailed;
    int glob_slow; /* detailed, or counting mode's sample, or the watchdog's flag: global accesses go to global_detailed (sim/access.c) */
    int async;                  /* SIM_SPACE_ASYNC while sim_copy_async runs, SIM_SPACE_ATOM / _SKIP in an atomic, else 0 */
    unsigned async_threads;     /* threads of the block with copies pending (barriers test this) */
    uintptr_t tls_lo, tls_hi;   /* static __shared__ window (executable TLS) */
    uintptr_t dyn_lo, dyn_hi;   /* dynamic shared memory of this launch */
    /* the hot path's shared test, one subtraction, one rotation and one compare a window: an
     * access of 1 << k bytes at a is in the static window, aligned, when (a - tls_lo) rotated
     * right by k is below tls_lim[k] (the window's size >> k: its aligned places); in detailed
     * mode it goes on to shared_detailed (sim/access.c). 0 sends every shared access to the
     * slow path: counting mode's sample, and the watchdog once it fires (sim_shared_fast_off). */
    uintptr_t tls_lim[5], dyn_lim[5];
    /* counting mode's sample of bank conflicts (sim/launch.c sample_start): stretches
     * of a block's plain shared accesses grouped into warp requests as detailed mode does */
    int sample, sample_block;
    uint64_t sample_sram0, sample_gacc0, sample_rng, sample_n, sample_gn; /* sample_gn: its global accesses */
    unsigned n_kinds;
    sim_sample_kind kinds[SIM_SAMPLE_KINDS], *sample_cur; /* stretches by the barrier they start at */
    uintptr_t dyn_win_lo, dyn_win_hi; /* dyn buffer plus red zones */
    sim_counters c;

    /* the block being run */
    void *sched_sp;
    uint3 block;
    uint64_t block_linear;
    dim3 block_dim, grid_dim;
    unsigned n_threads, next_new, n_done;
    /* on a cache line of their own, whatever the fields above add up to (a field added to
     * sim_counters moved them 8 bytes and cost barriers 10 %: session 19) */
    sim_thread threads[SIM_MAX_THREADS] __attribute__((aligned(64)));
    sim_warp warps[SIM_MAX_THREADS / 32];
    unsigned ready[SIM_MAX_THREADS]; /* runs of threads to resume, first | count << 16 (sim/launch.c next_context) */
    unsigned ready_head, ready_tail;
    uint32_t epoch;
    /* the barrier being gathered: kept as threads arrive, so releasing it
     * costs no scan of the block */
    unsigned n_bar, n_warp_wait, bar_count, bar_and, bar_or;
    unsigned rel_next, rel_end;             /* threads of a released barrier still to resume */
    unsigned last_count, last_and, last_or; /* __syncthreads_count/_and/_or of the last release */
    const char *bar_file;
    int bar_line;
    short bar_mismatch; /* threads wait at different sites */
    short bar_reduce;   /* one called __syncthreads_count/_and/_or (a short pair: the fields after keep their place) */
    void (*thunk)(const void *);
    const void *args;
    int block_failed;

    sim_stack *free_stacks;
    size_t stack_bytes;
    char *dyn_map;
    size_t dyn_cap;
    sim_shadow *shadow_tls, *shadow_dyn;
    void *altstack;
    uintptr_t sched_stack_lo; /* the OS thread's stack (SIMTLAB_SANITIZE: told to ASan at switches) */
    size_t sched_stack_size;

    /* per-instruction counters of this launch (sim_set_line_profile) */
    int pcprof;
    sim_pc_stat *pcs;
    uint32_t pcs_cap, pcs_n; /* open addressing, pcs_cap a power of two */

    int l2_lost;        /* this block's trace overflowed (sim_l2_grow) */
    size_t l2_done;     /* l2_tr[0, l2_done) already sorted and filtered (a compaction) */
    uint64_t *l1_tags;  /* 2^SIM_L1_SHIFT_MAX: the write-merge table of sim/l2.c */
    uint64_t *l1r_tags; /* 2^SIM_L1_SHIFT_MAX: the in-block read table of sim/l2.c */
    size_t l2_alloc;    /* entries l2_tr has room for */
    uint64_t *l2_tmp;   /* l2_tmp_n entries: the occurrence sort's other buffer */
    size_t l2_tmp_n;
    size_t l2_count[2049]; /* the occurrence sort's counters (sim/l2.c) */
    struct sim_l2_done { uint64_t b; uint64_t *e; size_t n; int lost; } l2_batch[32]; /* finished, not handed over */
    unsigned l2_nbatch;
    uint64_t blk_gacc; /* the running block's global accesses (its threads' l2_occ, summed as each ends) */

    sim_req_memo *req_memo;   /* SIM_REQ_MEMO entries, allocated by the first detailed launch */
    uint64_t *log_keys;       /* 2 * 32 * SIM_LOG_CAP: the flush's sort of a log that is not in step */
    uint64_t *log_free[SIM_MAX_THREADS / 32]; /* warps' logs not in use (sim/access.c, sim_log_release) */
    unsigned log_nfree;
    sim_list_memo *list_memo; /* SIM_LIST_MEMO entries, likewise */

    sim_err_rec err; /* first error of this worker in this launch */
    int has_err;
    /* sim_access_at: the thread making an access whose source line the caller knows (a wmma or
     * inline-PTX call: g++ may merge identical calls, so its pc can name another line), and that
     * line; a finding of that thread meanwhile names it (sim_err_take). Cleared after the access
     * and at each block's start (a fault does not return). */
    const sim_thread *at_thread;
    const char *at_file;
    int at_line;
    uintptr_t at_pc; /* the access's pc: a finding of another (an earlier store's deferred race) keeps its own */
    sim_err_rec race; /* counting mode: the first shared-memory race its sample saw (a note, not an error) */
    int has_race;
    sim_err_rec undef; /* the first shuffle that read a lane not taking part (a note: sim/launch.c warp_compute) */
    int has_undef;
    sim_err_rec grace; /* the first global-memory race between threads of a block (a note: sim/access.c global_race) */
    int has_grace;
    /* global words read or written in the current barrier epoch (sim/access.c global_race): detailed
     * mode and counting mode's sampled stretches; an entry of another epoch is an empty slot */
    struct sim_gword {
        uintptr_t x;
        uint32_t ep, blk; /* the barrier epoch and the block of its accesses */
        /* each byte's last writer (SIM_GW_NOBODY: none) and reader (SIM_GW_MULTI: several), with
         * their warps' sync epochs then */
        uint16_t w_tid[4], w_wep[4], r_tid[4], r_wep[4];
        uint8_t w_rel[4], r_rel[4]; /* their release stamps then (sim_thread.rel) */
    } *gw;
    uint32_t gw_cap, gw_n, gw_ep; /* gw_n: entries of epoch gw_ep */

    /* the launch watchdog (SIMTLAB_TIMEOUT) */
    volatile int timed_out;        /* set by the watchdog's signal */
    sim_thread *timeout_thread;    /* the thread a timeout stopped */
    int in_launch;                 /* between a launch's start and end on this worker */
    unsigned long os_thread;       /* pthread_t of the worker */
    unsigned spins_after_fault;    /* this block's spin yields since another block of the launch failed */
    uintptr_t spin_pc;             /* this block's last spin yield (0: none): the watchdog's report */

    /* a volatile access's lockstep, its second half (sim/access.c vol_arm): the thread that made
     * one, which waits for its warp at its next access; NULL when none. While one is named, the
     * fast paths are closed (shared limits 0, l2_lim at l2_n) and these keep the trace's fields. */
    const sim_thread *vol_thread;
    size_t vol_l2_lim;
    uint64_t vol_l2_last, vol_l2_last2;
    uint32_t vol_epoch, vol_wep; /* the block's barriers and the warp's rendezvous at the arming: one since, and the warp has met */

    /* write-after-write hazards waiting for their value (sim/access.c waw_defer): while any
     * wait, the shared windows are closed, and the next shared access (sim_access_slow) or
     * the block's end (sim_waw_settle) tells a same-value write (no hazard) from a race */
    /* words read in parts (sim/access.c byte_readers); at the end, with the hazards below, so that
     * the hot fields above keep their places (a field added to sim_counters once cost barriers 10 %) */
    sim_split *split_tls, *split_dyn; /* allocated at the first word two threads read in parts */
    unsigned waw_n;
    /* 0: settle at the next shared access; SIM_WAW_HOLD: an access of several words whose
     * stores all come after the hook (a struct copy: range_access), settled after it;
     * SIM_WAW_NOW: stores the simulator makes later itself (mma's d): reported at once */
    int waw_mode;
    /* the race being reported involves an atomic or a volatile write (sim/access.c race_text): 1 the
     * other thread's access, 2 this one's; 0 plain accesses */
    int race_how;
    struct sim_waw {
        uintptr_t x, pc;      /* the word, the second write's instruction */
        const sim_thread *t;  /* the thread that made it */
        uint32_t old;         /* the word before it (as the first write left it) */
        uint16_t other;       /* the first writer */
        uint8_t bytes, note;  /* the bytes both wrote; counting mode's sample (a note) */
        uint8_t first;        /* the bytes the first write covered */
        uint8_t how;          /* race_how when it was found */
    } waw[64];                /* a 16-byte access is 4 words; a struct copy of more than 64 conflicting
                               * words (256 bytes) is reported at once */
    /* atomics on global memory, by word (sim/access.c atom_note), floating-point ones and
     * integer ones apart (their costs differ): the L2 serves those on one word one after another,
     * and the time model charges the launch's most-hit word of each (sim_counters.atom_fp_one_word,
     * atom_int_one_word). A slot keeps its word while it hits more than the others that map to it
     * (a count down on a miss): a word most of them hit is counted exactly, others maybe low. */
    struct sim_atom_word {
        uintptr_t a;
        uint64_t n;
    } fp_atom[SIM_FP_ATOM_SLOTS], int_atom[SIM_FP_ATOM_SLOTS];
    /* (last, so that the hot fields above keep their offsets: session 37) */
    /* detailed mode: the block's asynchronous copies no wait has completed yet (sim/access.c, cp_track).
     * Their destination words' shadows name SIM_ASYNC as the writer, so any access to one is a race. */
    struct sim_cp_rec {
        uintptr_t dst;
        uint32_t size, next; /* next: the thread's next copy in flight (or the next free slot) */
        uint16_t tid, group; /* the issuing thread; the cp.async group it went into (its cp_groups then) */
    } *cp;
    uint32_t *cp_first;  /* each thread's latest copy in flight (SIM_MAX_THREADS) */
    const uint64_t **cbar_at; /* the cuda::barrier each SIM_T_CBAR thread waits for (SIM_MAX_THREADS) */
    unsigned cp_live, cp_hi, cp_cap, cp_free; /* copies in flight; slots used; allocated; a free slot */
    uint32_t block_serial; /* blocks this worker has started (a block's cuda::barrier's tag) */
    /* detailed mode's locks (sim/access.c, "locks"): vc[t * vc_n + u] is the release stamp of thread
     * u that thread t has acquired (u's accesses stamped no later happen before t's from then on);
     * lock_at[i] is lock i's address, lock_vc[i * SIM_MAX_THREADS + u] the stamps its releases
     * carry. vc_live: this block released through a lock (the tables are in use). */
    uint8_t *vc, *lock_vc;
    uintptr_t lock_at[SIM_MAX_LOCKS];
    uint32_t lock_ver[SIM_MAX_LOCKS]; /* releases through each lock so far */
    uint32_t *acq_ver;                /* each thread's pending acquire: its lock's lock_ver when read */
    unsigned n_locks, vc_n;
    uint32_t lock_like; /* locks a compare-and-swap or an exchange used (lock_hint) */
    int vc_live;
    /* the race being reported: its other access (race_other), for sim_err_take's record */
    uintptr_t other_pc;
    uint3 other_tid;
    int other_wr;
    int other_ahead; /* its thread had passed this access's pc before making it: the two are the other way round in
                      * the program (race_text) */
    uint8_t race_bytes; /* the bytes of the word both accesses touched (race_word), for race_other */
} sim_worker;

/* worker->detailed has this bit or-ed in by the watchdog: the next access
 * that tests the detailed flag stops the thread (no cost on the hot path) */
#define SIM_DETAILED_TIMEOUT 2
int sim_err_take(sim_worker *w, sim_err_rec *r, int *has, sim_status s, uintptr_t pc); /* launch.c: sim_fail's first half */
void sim_shared_fast_off(sim_worker *w);
void sim_shared_fast_on(sim_worker *w); /* launch.c: the limits back, unless sampling or timed out */
void sim_vol_fire(sim_worker *w, int may_wait); /* access.c: the fast paths open again; the named thread waits */
void sim_waw_settle(sim_worker *w, int in_fiber); /* access.c: the waiting write-after-write hazards decided */
#define SIM_WAW_HOLD 1
#define SIM_WAW_NOW 2

extern _Thread_local sim_worker *sim_tls_worker;
/* The kernel units' inline path reads this one (sim/inline_as.c): sim_tls_worker while a
 * launch runs on the thread, else sim_idle_worker, whose shared windows are empty (all
 * zero), so that the path needs no test for "no launch": its accesses reach the outside
 * entries, which return for it. */
extern _Thread_local sim_worker *sim_tls_fast;
extern sim_worker sim_idle_worker;
extern _Thread_local sim_worker *sim_tls_my_worker;  /* launch.c worker_get (sim/tls.c) */
extern _Thread_local unsigned sim_tls_stacks_made;    /* launch.c stack_take */

/* launch.c */
void sim_fail(sim_worker *w, sim_status s, uintptr_t pc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void sim_block_abort(sim_worker *w) __attribute__((noreturn));
void sim_copy_async(void *dst, const void *src, unsigned size); /* kernel.h's copy_async_float4 */
void sim_copy_async_wait(void);                                 /* kernel.h's copy_async_wait_all */
void sim_cp_restamp(sim_worker *w);                    /* access.c: a barrier's new epoch for pending copies */
void sim_cp_thread_done(sim_worker *w, sim_thread *t); /* access.c: an exiting thread's copies land */
void sim_cp_reset(sim_worker *w);                      /* access.c: a new block, none in flight */
void sim_set_error(sim_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_timeout_stop(sim_worker *w, uintptr_t pc) __attribute__((noreturn)); /* at a safe point */
void sim_spin_yield(sim_worker *w, uintptr_t pc); /* a thread spins: let the others run */
int sim_yield(sim_worker *w, int prefer_new); /* run another thread of the block first (prefer_new: one not
                                                started yet, if any); 0 if there is none */

/* access.c */
int sim_in_kernel_text(uintptr_t pc);
void sim_warp_lockstep(void); /* launch.c: the warp's live lanes meet (volatile shared accesses) */
void sim_pc_merge(sim_worker *w, sim_pc_stat **all, uint32_t *n, uint32_t *cap); /* under the launch's merge lock */

/* l2.c: the L2 model. The hot path appends a global access's sector and kind
 * (0 read, 1 write, 2 atomic) to the block's trace, skipping a repeat of
 * either of the last two entries (atomics excepted), with
 * the thread's count of global accesses so far (its occurrence): at the
 * block's end the trace is put in occurrence order, the order in which warps
 * that move together would make those accesses (threads run here one after
 * another between barriers). Entry: occurrence << 35 | sector << 2 | kind. */
#define SIM_L2_OCC_SHIFT 35
#define SIM_TRACE_MIN 4096               /* entries a worker's trace always has room for */
#define SIM_TRACE_CHUNK ((size_t)1 << 18) /* sorted and filtered this many at a time (sim_l2_grow) */
#define SIM_L1_SHIFT_MAX 13 /* a block's own read and write-merge tables (sim/l2.c): at most 2^13 sectors (256 KB); sized per launch */
/* Every SIM_L2_TURN global accesses a thread lets the others of its block run
 * (new ones first): threads then move through long loops in step, so a
 * block's trace sorted a chunk at a time is in warp order and its streams
 * are runs (sim/l2.c); CUDA promises no order between barriers. Only at
 * plain accesses (turn = 1), never inside an atomic or a copy. */
#define SIM_L2_TURN 1024
void sim_l2_full(sim_worker *w, uint64_t entry, int turn); /* the trace is at l2_lim: make room, append */
void sim_l2_turn(sim_worker *w);
static inline __attribute__((always_inline)) void sim_l2_note(sim_worker *w, uintptr_t arena_off, unsigned kind,
                                                              int turn)
{
    /* the calls out are the last thing done (tail calls): nothing stays live
     * across them, so the hooks need no callee-saved registers for this */
    uint64_t e = (uint64_t)(arena_off >> 5) << 2 | kind;
    uint64_t occ = w->cur->l2_occ++;
    /* a repeat of either of the last two entries is dropped (a thread's load and store, then the
     * next thread's), but never an atomic: each one is made at L2 */
    if (kind == 2 || (e != w->l2_last && e != w->l2_last2)) {
        if (__builtin_expect(w->l2_n == w->l2_lim, 0)) {
            sim_l2_full(w, occ << SIM_L2_OCC_SHIFT | e, turn);
            return;
        }
        w->l2_last2 = w->l2_last;
        w->l2_last = e;
        w->l2_tr[w->l2_n++] = occ << SIM_L2_OCC_SHIFT | e;
    }
    if (turn && __builtin_expect(!((occ + 1) & (SIM_L2_TURN - 1)), 0))
        sim_l2_turn(w);
}
/* A plain global write of size bytes at arena offset off: its bytes in the block's table of
 * written sectors, so that sim/l2.c can tell a sector the block leaves partial (the chip
 * fetches such a sector from DRAM to merge it: docs/l2-model.md, "Partial-sector writes").
 * A slot taken by another sector of the block loses the first one's bytes: that sector counts
 * as whole (no fetch), and one whose entry was lost and made again by its later words looks
 * partial. Aligned accesses of up to 16 bytes never cross a sector. Its cost is a streaming
 * kernel's: a cache miss for each new sector, which the prefetch of the next sector's slots
 * hides in part: lesson 2 +8 % (bench_sim's lesson2_1w_ms; +20 % without the prefetch).
 * Groups of 8 neighbouring sectors in 8 neighbouring slots cost +11 % without it, but lost
 * more to collisions, and the test l2/hot_reads_leave_one_dirty_line_fewer_a_set read 591 KB
 * too much from sectors made again. */
#define SIM_WM_SHIFT 15
/* The sector's pair of slots (2 ways: a block's sectors collide less), the first's index. */
static inline __attribute__((always_inline)) size_t sim_wm_slot(uint64_t sector)
{
    return (size_t)((sector * 0x9E3779B97F4A7C15ull) >> (64 - SIM_WM_SHIFT)) & ~(size_t)1;
}
static inline __attribute__((always_inline)) void sim_l2_wmask(sim_worker *w, uintptr_t off, unsigned size)
{
    const uint64_t s = off >> 5, t = s << 30 | w->l1_gen;
    const unsigned lo = (unsigned)(off & 31);
    const uint32_t m = (size >= 32 ? ~0u : ((1u << size) - 1)) << lo;
    if (t == w->wm_last) { /* the sector the last write took (a warp's lanes, one after another) */
        w->wm_mask[w->wm_last_slot] |= m;
        return;
    }
    size_t h = sim_wm_slot(s);
    if (w->wm_tag[h] == t) {
        w->wm_mask[h] |= m;
    } else if (w->wm_tag[h + 1] == t) {
        w->wm_mask[++h] |= m;
    } else { /* new in the block: the second way if the first holds another of the block's */
        h += (w->wm_tag[h] & (((uint64_t)1 << 30) - 1)) == w->l1_gen;
        w->wm_tag[h] = t;
        w->wm_mask[h] = m;
        /* a stream's next sector: its slots fetched now, while the kernel goes on */
        const size_t n = sim_wm_slot(s + 1);
        __builtin_prefetch(&w->wm_tag[n], 1);
        __builtin_prefetch(&w->wm_mask[n], 1);
    }
    w->wm_last = t;
    w->wm_last_slot = h;
}
/* 1 when the running block wrote part of sector s only (sim/l2.c l1_filter); a sector the table
 * lost, or never had, counts whole */
static inline int sim_wm_partial(const sim_worker *w, uint64_t s)
{
    const size_t h = sim_wm_slot(s);
    const uint64_t t = s << 30 | w->l1_gen;
    return (w->wm_tag[h] == t && w->wm_mask[h] != ~0u) || (w->wm_tag[h + 1] == t && w->wm_mask[h + 1] != ~0u);
}
void sim_sample_drop(sim_worker *w); /* sim/launch.c: a sampled stretch too long to finish, dropped */
int sim_l2_launch_begin(const simt_cfg *cfg, uint64_t nblocks); /* 0 or -1 (out of memory) */
void sim_l2_block_done(sim_worker *w, uint64_t b);
#define SIM_L2_BATCH 32 /* finished blocks a worker hands over at once (sim_l2_worker_flush) */
void sim_l2_worker_flush(sim_worker *w); /* hands over what sim_l2_block_done kept: before a worker leaves a launch */
void sim_l2_launch_end(sim_counters *c);
void sim_l2_host_access(uintptr_t arena_off, size_t n, int wr); /* memsets and copies to the device (memory.c) */

/* access.c */
void sim_access(uintptr_t a, unsigned size, int wr, uintptr_t pc);
void sim_access_at(uintptr_t a, unsigned size, int wr, uintptr_t pc, const char *file, int line);
/* flags SIM_ATOMF_FP: a floating-point atomic (else an integer one), which on a global word is
 * also counted in the worker's table of most-hit words of its kind (sim_worker.fp_atom, int_atom:
 * the time model's atomics on one word);
 * SIM_ATOMF_AGG: an operation nvcc aggregates when its address is warp-uniform, which it is if the
 * thread's atom_uniform is set (the rewriter's mark, sim_atomic_uniform_next): then only the
 * warp's first lane to make each execution counts it (sim/access.c atomic_joins) */
/* SIM_ATOMF_CAS, SIM_ATOMF_EXCH: a compare-and-swap (its write, if any, is sim_atomic_cas_done's),
 * an exchange: a lock's operations (sim/access.c, "locks") */
void sim_access_atomic(uintptr_t a, unsigned size, uintptr_t pc, int flags);
enum { SIM_ATOMF_FP = 1, SIM_ATOMF_AGG = 2, SIM_ATOMF_CAS = 4, SIM_ATOMF_EXCH = 8 };
void sim_atomic_cas_done(uintptr_t a, int wrote); /* after a compare-and-swap: whether it wrote (a release) */
void sim_lock_reset(sim_worker *w);                /* a block's start: no lock released yet */
void sim_warp_flush(sim_worker *w, sim_warp *wp);
void sim_log_arm(sim_worker *w, unsigned warp); /* the log's cursors at a block's start (sim/access.c) */
void sim_log_barrier(sim_worker *w, sim_warp *wp); /* a lane of wp reached the barrier (sim/access.c) */
void sim_describe_address(char *out, size_t n, uintptr_t a, unsigned size);
/* A shared-memory address for a report: its __shared__ array and byte there (the executable's TLS
 * symbols), or extern __shared__'s byte, else the address alone (sim/shared_names.c) */
void sim_describe_shared(char *out, size_t n, const sim_worker *w, uintptr_t x);

#endif /* SIMTLAB_INTERNAL_H */
