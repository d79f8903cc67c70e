/* sim/launch.h - the simulator's host API: devices, launches, errors, counters.
 *
 * This is the part of the CUDA runtime the simulator models for host code:
 * choosing a device preset, launching a kernel over a grid (through the
 * LAUNCHER functions of sim/kernel.h), reading the last error and the
 * counters of the last launch. Memory lives in sim/memory.h.
 *
 * Every function returns a sim_status; none prints or exits. The text of the
 * last error (with the report of a kernel bug) is sim_last_error().
 */
#ifndef SIMTLAB_LAUNCH_H
#define SIMTLAB_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "simt_cfg.h"

typedef enum sim_status {
    SIM_OK = 0,
    SIM_ERR_INVALID_VALUE,         /* cudaErrorInvalidValue */
    SIM_ERR_INVALID_CONFIGURATION, /* cudaErrorInvalidConfiguration */
    SIM_ERR_MEMORY_ALLOCATION,     /* cudaErrorMemoryAllocation */
    SIM_ERR_INVALID_DEVICE_POINTER,/* cudaErrorInvalidDevicePointer */
    SIM_ERR_ILLEGAL_ADDRESS,       /* cudaErrorIllegalAddress: out of bounds, freed, host pointer */
    SIM_ERR_MISALIGNED_ADDRESS,    /* cudaErrorMisalignedAddress */
    SIM_ERR_BARRIER_DIVERGENCE,    /* a GPU hangs or corrupts; compute-sanitizer synccheck */
    SIM_ERR_WARP_SYNC,             /* a warp intrinsic whose mask cannot be met */
    SIM_ERR_STACK_OVERFLOW,        /* cudaErrorLaunchFailure (stack overflow) */
    SIM_ERR_SHARED_RACE,           /* compute-sanitizer racecheck hazard (detailed mode) */
    SIM_ERR_LAUNCH_ABORTED,        /* an earlier block of this launch failed */
    SIM_ERR_INTEGER_DIVIDE,        /* integer division by zero (a GPU returns garbage; the CPU traps) */
    SIM_ERR_LAUNCH_TIMEOUT,        /* cudaErrorLaunchTimeout: the launch ran past SIMTLAB_TIMEOUT seconds */
    SIM_ERR_ASSERT,                /* cudaErrorAssert: assert() failed in a kernel (sim_kernel_assert) */
    SIM_ERR_TRAP,                  /* cudaErrorLaunchFailure: the kernel stopped itself (__trap(), sim_kernel_trap) */
    SIM_ERR_COUNT
} sim_status;

/* CUDA's name for a status, e.g. "cudaErrorInvalidConfiguration". */
const char *sim_status_name(sim_status s);

/* The message of the last failing call in this process (never NULL). */
const char *sim_last_error(void);
/* Returns the last status and resets it to SIM_OK (cudaGetLastError). */
sim_status sim_get_last_status(void);

/* ---- device presets --------------------------------------------------- */
/* What a kernel can move or compute per second at best (the time model's
 * ceilings, sim/timemodel.c); measured on the chip when `measured`. */
typedef struct sim_ceilings {
    double dram_bytes_per_s;  /* a large copy: bytes read + written */
    double l2_bytes_per_s;    /* reads of a buffer that stays in L2 */
    double smem_bytes_per_s;  /* shared-memory loads + stores, no conflicts */
    double fp32_flops_per_s;  /* FMAs (2 FLOPs) */
    double launch_s;          /* an empty kernel */
    double l2_clean_bytes_per_s; /* dirty lines the L2 writes back while a kernel runs (sim/l2.c) */
    double bg_read_bytes, bg_read_s; /* the chip's own DRAM reads during a kernel after a flush: at most
                                      * bg_read_bytes, approached with time constant bg_read_s (sim/l2.c) */
    int measured;
    double l2_req_scale; /* the L2's request costs (SIM_TM_L2_*, the H100's) on this chip: measured on
                          * the H200 (0.85: scripts/gpu/l2req_probe.cu), scaled by L2 bandwidth for
                          * the presets not measured */
} sim_ceilings;

typedef struct sim_device {
    const char *name;  /* "sm_90" */
    const char *card;  /* "H100 SXM" */
    int cc_major, cc_minor;
    int sm_count;
    size_t shared_per_block;       /* default limit: 48 KB */
    size_t shared_per_block_optin; /* cudaFuncAttributeMaxDynamicSharedMemorySize maximum */
    size_t l2_bytes;
    double hbm_bytes_per_s;
    double fp32_flops_per_s;
    unsigned max_threads_per_block; /* 1024 */
    unsigned max_block[3];          /* 1024, 1024, 64 */
    unsigned max_grid[3];           /* 2^31-1, 65535, 65535 */
    size_t shared_per_sm;           /* shared memory of one SM (blocks per SM, the L2 model's waves) */
    unsigned max_threads_per_sm, max_blocks_per_sm;
    sim_ceilings ceil;              /* the time model's */
} sim_device;

/* Looks up "sm_80", "sm_89", "sm_90", "h200" (also "80", "a100", "h100",
 * "4090"). Returns NULL for an unknown name. */
const sim_device *sim_device_find(const char *name);
/* The presets, NULL-terminated; for help texts. */
const sim_device *const *sim_device_list(void);
/* Selects the preset later launches are checked against (default sm_90). */
void sim_set_device(const sim_device *dev);
const sim_device *sim_get_device(void);

/* ---- modes ------------------------------------------------------------ */
/* Detailed mode adds warp-level requests: 32-byte sectors of global
 * accesses, shared-memory wavefronts and bank conflicts, and shared-memory
 * race detection. It is several times slower. */
void sim_set_detailed(int on);
/* Detailed mode logs each lane's plain shared accesses and joins them into
 * warp requests at the warp's next synchronisation (on, the default), or
 * joins each access as it comes (off: the slower way, kept for tests that
 * compare the two). Counters are the same either way. */
void sim_set_detail_log(int on);
/* Counting mode samples shared-memory bank conflicts in each launch's first
 * and last blocks, for the time model (sim/launch.c sample_start; about 10 %
 * of flash v1's time at lesson 4's defaults). On by default; a program that
 * does not report the time model may turn it off. SIMTLAB_SAMPLE=0 or 1 in the
 * environment overrides this. */
void sim_set_sample(int on);
int sim_get_detailed(void);
/* 1 when called from a simulated CUDA thread (host code a kernel's thread runs: the
 * constructor or destructor of a by-value kernel parameter's copy), else 0 */
int sim_in_cuda_thread(void);
/* The next launches' argument block [p, p + n): the copy of a launch's arguments its caller
 * keeps (a GPU's parameter space). Kernel code may read it (constant reads, as a GPU reads
 * kernel parameters) and write it (a reference parameter bound to a launch's copy); 0, 0 clears. */
void sim_set_launch_params(const void *p, size_t n);
/* Each CUDA thread's stack (a fiber's) holds at least `bytes` from the next
 * launch on: cudaDeviceSetLimit(cudaLimitStackSize, bytes). The stack is the
 * larger of this and SIMTLAB_STACK_KB (64 KiB unless set). Returns
 * SIM_ERR_INVALID_VALUE, with the message, above SIM_STACK_MAX. */
#define SIM_STACK_MAX ((size_t)64 << 20)
int sim_set_stack_limit(size_t bytes);

/* Dynamic shared memory above 48 KB must be opted into, as with
 * cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n).
 * Applies to every kernel (the simulator has no per-function attributes).
 * Returns SIM_ERR_INVALID_VALUE when n exceeds the preset's opt-in maximum. */
sim_status sim_set_max_dynamic_shared(size_t bytes);
/* The limit in force: the preset's 48 KB default, or what sim_set_max_dynamic_shared set. */
size_t sim_get_max_dynamic_shared(void);

/* ---- counters of one launch ------------------------------------------ */
typedef struct sim_counters {
    uint64_t hbm_read_bytes, hbm_write_bytes;   /* global memory, as requested */
    uint64_t sram_read_bytes, sram_write_bytes; /* shared memory */
    uint64_t local_read_bytes, local_write_bytes; /* thread stack (spilled locals) */
    uint64_t const_read_bytes;                  /* read-only / static data */
    /* detailed mode only (else 0): */
    uint64_t global_ld_requests, global_st_requests;
    uint64_t global_ld_sectors, global_st_sectors;     /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st
                                                          (the GPU's op_ld also holds async_ld_sectors) */
    uint64_t shared_ld_requests, shared_st_requests;
    uint64_t shared_ld_wavefronts, shared_st_wavefronts; /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st */
    uint64_t shared_ld_conflicts, shared_st_conflicts;   /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st */
    /* asynchronous copies, global -> shared (copy_async_float4, cp.async,
     * LDGSTS), kept out of the counters above: the GPU counts them apart
     * (and their sectors inside op_ld as well): */
    uint64_t async_requests;
    uint64_t async_ld_sectors;   /* l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access
                                    (the GPU's op_ld counter includes them too) */
    uint64_t async_st_wavefronts; /* the shared side (no range-profiler counter on the H200) */
    uint64_t async_st_conflicts; /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts */
    /* atomics (atomicAdd & co.), kept out of the load and store counters as
     * the GPU keeps them (its RED and ATOM requests, ATOMS on shared): */
    uint64_t global_atom_requests;
    uint64_t global_atom_sectors;   /* l1tex__t_sectors_pipe_lsu_mem_global_op_atom + _op_red (a RED is an
                                       atomic whose result is unused: the GPU knows, the simulator does not) */
    uint64_t shared_atom_requests;
    uint64_t shared_atom_wavefronts; /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom */
    uint64_t shared_atom_conflicts;
    uint64_t barriers;  /* __syncthreads executed, per block */
    uint64_t threads;   /* threads run */
    /* warp instructions of the intrinsics, one per warp (not per lane), every mode:
     * shuffles (SHFL: SIM_TM_SHFL issue slots each in the time model) and votes
     * (__ballot_sync, __any_sync, __all_sync: VOTE; __reduce_*_sync: REDUX; __match_*_sync:
     * MATCH; the time model does not count them) */
    uint64_t warp_shuffles, warp_votes;
    /* the L2 model (sim/l2.c), every mode: what reaches L2 and DRAM */
    uint64_t l2_read_sectors, l2_write_sectors; /* sectors past the block's L1 (atomics: writes) */
    uint64_t l2_read_hits, l2_write_hits;       /* of those, found valid in L2 */
    uint64_t l2_atom_misses;                    /* of l2_write_sectors, atomics whose sector L2 did not hold
                                                   (a lookup miss on the chip, as a read's; a write's never is) */
    uint64_t dram_read_bytes;  /* predicted: sectors L2 fetched from DRAM during the launch, x 32 */
    uint64_t dram_write_bytes; /* predicted: dirty sectors L2 wrote back during the launch, x 32 */
    uint64_t l2_dirty_bytes;   /* dirty in L2 after the launch: DRAM writes still to come */
    uint64_t l2_incomplete;    /* 1: a block's trace overflowed (sim/l2.c SIM_TRACE_CAP); the L2 figures are low */
    uint64_t dram_background_read_bytes; /* of dram_read_bytes, the chip's own reads, not the kernel's (sim/l2.c) */
    uint64_t dram_background_write_bytes; /* of dram_write_bytes, the chip's background writes (sim/l2.c) */
    /* The blocks as the chip would place them (sim/timemodel.c): each block's
     * work is its shared bytes + 4 x its global accesses; blocks go, in order,
     * to the SM with the least work so far (the block scheduler hands the next
     * block to the first SM with room). 0 in sched_work when the grid had more
     * than SIM_SCHED_MAX_BLOCKS blocks (or no memory): then taken as even. */
    uint64_t sched_work;       /* all blocks' work */
    uint64_t sched_sm_work;    /* the busiest SM's */
    uint64_t sched_sm_blocks;  /* the blocks it ran */
    uint64_t sched_block_work; /* the largest block's */
    uint64_t sched_max_blocks; /* the most blocks one SM ran (block starts: sim/timemodel.c) */
    /* Counting mode's sample of bank conflicts (stretches between barriers of the
     * grid's first and last blocks, told apart by the barrier they start at, down to
     * about 1 in 256 of a kind's, grouped into warp requests as detailed mode does:
     * sim/launch.c; 0 in detailed mode, which counts them all, and without the
     * sample): the sampled blocks' shared bytes and their estimated wavefronts. */
    uint64_t sample_sram_bytes, sample_wavefronts;
    /* The L1 data pipe's wavefronts of plain global loads and stores: one for each 128-byte
     * line a warp request touches (l1tex__data_pipe_lsu_wavefronts less shared memory's, on
     * the H100: docs/gpu/s29-h100-coalescing). Detailed mode counts them; counting mode
     * samples them with the bank conflicts: its sample blocks' global accesses and their
     * estimated wavefronts, and global_accesses, all the launch's. The time model puts
     * them on the pipe with the shared wavefronts. */
    uint64_t global_wavefronts;
    uint64_t sample_global_accesses, sample_global_wavefronts;
    uint64_t global_accesses;
    /* The L2's write requests: plain global stores' 128-byte lines (of global_wavefronts; the
     * L1 writes through, so each store request sends each of its lines to L2 as one request),
     * and their sectors written only in part (partial sectors: the L2 merges them into its copy).
     * Detailed mode counts them; counting mode's sample has the sampled blocks' (with
     * global_st_sectors and global_ld_sectors, which counting mode does not count otherwise),
     * estimated as the wavefronts are. The time model's L2 term (sim/timemodel.c, session 30). */
    uint64_t global_st_lines, global_st_partial;
    uint64_t sample_global_st_lines, sample_global_st_sectors, sample_global_st_partial;
    uint64_t sample_global_ld_sectors; /* and the loads' sectors (their lines that reach L2: sim/timemodel.c) */
    /* every mode: the most floating-point atomics (atomicAdd & co. on float or double) of the
     * launch on one global word, which the L2 serves one after another (sim/timemodel.c); a
     * maximum, not a sum (0 in each worker's counters; set when they are merged). Last, so that
     * the hot counters keep their offsets. */
    uint64_t atom_fp_one_word;
    uint64_t atom_int_one_word; /* the same for integer atomics, as the GPU issues them (one a warp
                                 * where nvcc aggregates them: the rewriter's marks, sim/access.c) */
} sim_counters;
#define SIM_SCHED_MAX_BLOCKS ((uint64_t)1 << 22)

/* The L2 model (sim/l2.c, docs/l2-model.md) fills the l2_* and dram_*
 * counters of every launch, in every mode. One L2 for the process, as on the
 * chip: what a launch, a copy or a memset leaves in it, the next launch finds;
 * dirty lines evicted during a launch are that launch's DRAM writes. With
 * cold starts on, every launch starts on an empty L2 instead (as Nsight
 * Compute measures one kernel by default), and copies bypass it. */
void sim_l2_set_cold(int on);
int sim_l2_get_cold(void);
/* What a launch on an empty L2 reads from DRAM besides its data: its code and
 * constant banks (on the H200, 7.5 KB for the smallest lesson kernels, flash
 * v1's init and lesson 6's add; up to about 40 KB for flash v2's unrolled
 * code, which the simulator cannot see). Added to dram_read_bytes of every
 * launch with cold starts on; with them off the code stays in L2 and a
 * program's data dwarfs it. */
#define SIM_L2_LAUNCH_FETCH_BYTES 7680u
/* A kernel's time predicted from its counters (sim/timemodel.c): the busiest
 * SM's instruction issue, its longest block's chain of instructions, its
 * shared-memory wavefronts, its global memory latency and its block starts, and the launch's
 * DRAM and L2 bandwidth; the largest bounds, SIM_TM_BETA of the others adds. flops:
 * the kernel's FLOPs (the simulator does not count arithmetic; 0 if not
 * known). */
typedef struct sim_time_pred {
    double seconds;
    double t_issue, t_smem, t_latency, t_blocks, t_dram, t_l2; /* each term alone, seconds */
    double warps; /* resident warps on the busiest SM */
    double wavefronts; /* the launch's shared wavefronts: counted (detailed mode) or from the sample */
    double global_wavefronts; /* its global loads' and stores' 128-byte lines, the same way; t_smem is both
                               * on the L1's data pipe, one a cycle an SM */
    double l2_requests; /* the L2's requests: store lines and the load lines that miss L1 (t_l2) */
    double t_atom; /* the atomics on the launch's most-hit global word (the slower kind's), one after another */
    const char *bound; /* "issue", "shared memory", "L1 (global lines)", "memory latency", "block starts",
                        * "DRAM", "L2", "atomics on one word" or "launch" */
} sim_time_pred;
sim_time_pred sim_time_model(const sim_device *dev, const simt_cfg *cfg, const sim_counters *c, double flops);
/* The session-9 roofline (DRAM, L2, shared memory, launch): with the time model, the time
 * sim/l2.c gives the background writes and reads of a launch. */
double sim_time_roofline(const sim_device *dev, const simt_cfg *cfg, const sim_counters *c);
/* The chip's background writes during a launch of t seconds that rewrote `rewrites` dirty
 * sectors: the preset's rate x t (the expected value of whole 256 KiB units), at most 32
 * bytes a rewrite, in whole sectors (sim/l2.c). */
uint64_t sim_l2_background_writes(const sim_device *dev, double t, uint64_t rewrites);
/* The blocks of a launch one SM holds at once: the preset's limits on threads, blocks and
 * dynamic shared memory, and the kernel's __launch_bounds__ blocks (cfg->min_blocks_per_sm,
 * set by the launchers: sim/kernel.h) where lower. Registers and static __shared__ are not
 * known. (sim/l2.c: the L2 model's window of resident blocks; the time model's warps.) */
unsigned sim_blocks_per_sm(const sim_device *dev, const simt_cfg *cfg);
/* Its constants, fitted to the H200's lesson kernels (docs/l2-model.md) and
 * assumed for the other presets: */
#define SIM_TM_P 4.0     /* warp instructions an SM issues a cycle at most (in these units: an access
                            * counts one a 4-byte word, so a float4 counts 4; the chip has 4 schedulers) */
#define SIM_TM_CPI 2.0   /* cycles between a warp's instructions (2.5 before session 17) */
#define SIM_TM_L 1000.0  /* cycles a global access takes */
#define SIM_TM_C 16.0    /* global bytes a thread has in flight */
#define SIM_TM_C_FREE 40.0 /* the same in a kernel without __syncthreads (session 30: fitted to the
                            * H100's column sums and naive matmul, docs/l2-model.md) */
#define SIM_TM_K 200.0   /* cycles an SM spends starting a block */
#define SIM_TM_BETA 0.3  /* how much of the other terms adds to the largest (0.4 before session 29's L1 term) */
#define SIM_TM_SHFL 8.0  /* issue slots a warp shuffle takes: the SM's shuffle unit serves 32 lanes a
                            * cycle where its FMA pipes serve 128 (fitted: session 16, adopted 17, 4;
                            * refitted with the L1 term in session 29) */
/* The L2's own work, measured on the H100 (scripts/gpu/l2req_probe.cu, docs/gpu/s30-h100-l2req:
 * buffers kept in L2, the L1 bypassed, the L2 88-96 % busy), in seconds at the sm_90 preset's L2
 * (the other presets scale it by their L2 bandwidth): a request (one 128-byte line of a warp
 * request, read or written) costs SIM_TM_L2_REQ whatever its sectors, and each sector written
 * costs SIM_TM_L2_WSEC more, SIM_TM_L2_WPART if written only in part (merged into the L2's
 * copy). A coalesced 4-sector read costs about one request (the L2 40 % busy reading 128-byte
 * lines at 5.8 ps a sector): reads' sectors are the bandwidth term's. */
#define SIM_TM_L2_REQ 8.1e-12
#define SIM_TM_L2_WSEC 6.9e-12
#define SIM_TM_L2_WPART 8.8e-12
/* A floating-point atomicAdd on a global word another atomic holds waits for it: 8388608 float
 * atomicAdds on one word took 14.74 ms on the H100, 1.757 ns each (the OLCF training series'
 * atomic_red, session 31: docs/gpu/s31c-h100-courses). */
#define SIM_TM_ATOM_FP 1.757e-9
/* Integer atomics on one global word (those that reach the L2: one a warp where nvcc aggregates
 * them): 262144 atomicAdds on one word from loaded addresses (not aggregated) took 194.3 us on the
 * H100, 0.741 ns each (tests/run/atomic_one_word.cu int_data, session 32:
 * docs/gpu/s32-h100-atomics). */
#define SIM_TM_ATOM_INT 0.741e-9

/* DRAM bytes that copies and memsets moved through the L2 model so far. */
void sim_l2_host_totals(uint64_t *dram_read_bytes, uint64_t *dram_write_bytes);

typedef struct sim_launch_info {
    char kernel[64];
    simt_cfg cfg;
    sim_status status;
    double wall_ms; /* host wall time of the simulated launch */
    sim_counters c;
    /* counting mode: a shared-memory race its sample of the first and last blocks saw (the
     * launch still succeeds; detailed mode fails it), as a report like sim_last_error()'s; "" if none */
    char race_note[3072];
    /* either mode: the first shuffle that read a lane not taking part in it (an exited lane, one
     * past the block's end, or one outside the mask), whose value CUDA leaves undefined: the
     * reader got 0, as on the H100, and the launch went on (a GPU does not fault either); "" if none */
    char undef_note[2048];
    /* detailed mode (and counting mode's sample): the first read of a global word that another
     * thread of the block wrote with no __syncthreads() (or, in its warp, __syncwarp()) between: a
     * data race a converged warp may hide on a GPU, whose result differs here; "" if none */
    char global_race_note[3072];
} sim_launch_info;

/* Runs every block of the grid to completion (launches are synchronous).
 * Called by the generated k_launch_sim functions (sim/kernel.h declares it
 * for them too); rarely directly.
 * Returns SIM_OK, a configuration error (nothing ran), or the first kernel
 * bug found (lowest block index), whose report is sim_last_error(). */
int sim_launch(const simt_cfg *cfg, const char *kernel, void (*thunk)(const void *args), const void *args);

/* A failed assert() in a kernel: reports it (expression, file, line, the
 * thread) and ends the block; the launch returns SIM_ERR_ASSERT. Returns 0
 * without doing anything when no simulated thread is running (host code). */
int sim_kernel_assert(const char *expr, const char *file, unsigned line, const char *func);
/* The kernel stopped itself (__trap(), __brkpt(), a cooperative group of an impossible size):
 * reports what (at file:line; file NULL: no line) and ends the block; the launch returns SIM_ERR_TRAP, which a CUDA
 * program sees as cudaErrorLaunchFailure. Returns 0 in host code. */
int sim_kernel_trap(const char *what, const char *file, unsigned line);
/* A fault a runtime function found in the kernel's use of it (wmma's misaligned pointer): reports
 * the formatted text at pc, a return address in kernel code (0: the caller's), and ends the
 * block; the launch returns s. 0 in host code. */
int sim_kernel_fault(sim_status s, uintptr_t pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* libcu++'s cuda::barrier<thread_scope_block> (sim/run/include/cuda/barrier): its 8 bytes in the
 * program's memory, touched only by these (no traffic counted, no race checked). init sets the
 * arrivals a phase expects (1 to 2^20 - 1); arrive counts n of them (drop: and one fewer from the
 * next phase on) and returns the phase's token; wait parks the thread until the phase of token
 * has completed. Misuse (before init, more arrivals than are missing, a count out of range) is
 * reported at file:line and ends the block; threads that wait for a phase no thread can complete
 * are reported when the block can go no further. Return 0 / nothing in host code. */
int sim_cbar_init(uint64_t *b, long long expected, const char *file, int line);
uint64_t sim_cbar_arrive(uint64_t *b, long long n, int drop, const char *file, int line);
void sim_cbar_wait(const uint64_t *b, uint64_t token, const char *file, int line);
void sim_cbar_wait_parity(const uint64_t *b, int parity, const char *file, int line); /* a pipeline's:
                                                    while the phase's parity is parity */
uint64_t sim_cbar_count(uint64_t *b, int op); /* a count in a barrier's word before its init (a
                                                 pipeline's producers): op 0 clears it, 1 adds one, 2 reads it */
/* The running thread's access of size bytes at a, a read (wr 0) or a write, made at pc (a return
 * address in kernel code): checked and counted as the instrumented code's own (sim/access.c).
 * An illegal one is reported and ends the block: it does not return. */
void sim_access(uintptr_t a, unsigned size, int wr, uintptr_t pc);
/* The same, for a call whose source file and line the caller knows (a wmma or inline-PTX call,
 * from __FILE__ and __LINE__): a report names them rather than pc's line, which g++ may have
 * merged with an identical call's elsewhere. */
void sim_access_at(uintptr_t a, unsigned size, int wr, uintptr_t pc, const char *file, int line);
/* cp.async of size bytes (4, 8 or 16, both addresses aligned to it) from global memory at src to
 * shared memory at dst, made at pc (a return address in kernel code): the first src_size bytes
 * copied, the rest zeroed (src not read when src_size is 0), counted as an asynchronous copy
 * (LDGSTS), and in detailed mode in flight in the thread's open group until a wait (sim/access.c;
 * simtlab run's inline PTX, sim/run/ptx.c). Faults are reported and end the block. */
void sim_cp_async_at(void *dst, const void *src, unsigned size, unsigned src_size, uintptr_t pc);
void sim_cp_async_commit(void);
void sim_cp_async_wait_prior(unsigned n);
/* A whole-warp operation (.aligned) of a runtime function: every lane of the warp calls it at the
 * same call site (file, line); the last to arrive calls fn with the lanes' args in lane order
 * before any goes on. Misuse (a partial warp, lanes at different calls) is reported as for mma. */
void sim_warp_aligned(void *arg, void (*fn)(void *const args[32]), const char *file, int line);
/* The running thread's lane in its warp (0-31). */
unsigned sim_lane_id(void);
/* A float as the tensor cores read a TF32 operand: sign, exponent and 10 significant bits, the
 * rest cut (a NaN stays a NaN): mma_tf32's and wmma's tf32 fragments'. */
float sim_tf32_operand(float x);
/* simtlab run's address-space intrinsics (sim/access.c): the space of p (0 global, 1 shared, 2
 * local, 3 constant, -1 none), and a shared address as the chip's 32-bit offset and back. */
int sim_space_of(const void *p);
size_t sim_cvta_to_shared(const void *p);
void *sim_cvta_from_shared(size_t s);

/* Info of the last launch (also a failed one). */
const sim_launch_info *sim_last_launch(void);
/* The signal (SIGINT, SIGTERM) that stopped the last launch, or 0 (sim/launch.c, on_interrupt):
 * the launch returned SIM_ERR_LAUNCH_TIMEOUT with its report; the caller should end the run. */
int sim_interrupted(void);
/* SIGINT and SIGTERM in host code too, from now on (simtlab run's runtime, at its first call):
 * the first one calls stop(sig) on a thread of the simulator's own, as ordinary code (it may
 * print, lock and allocate), which should end the program; sim_interrupted() says the signal
 * from then on and later launches are refused. The thread the signal interrupted waits in the
 * handler meanwhile (2 s at most), unless may_wait (NULL: always) returns 0 there (called in the
 * handler: it must be async-signal-safe), e.g. when that thread holds a lock stop takes. During a
 * launch the signals do what they did before (they stop it; see sim_interrupted). A signal with
 * a handler or SIG_IGN already is left to the program, as is one it handles later (outside
 * launches). SIM_OK, or an error (sim_last_error) when the thread cannot start. */
sim_status sim_interrupt_hook(void (*stop)(int sig), int (*may_wait)(void));

/* ---- per-instruction counters (detailed mode; `simtlab run --lines`) ---- */
/* With the profile on, each launch in detailed mode also counts, per
 * instruction (the return address of its instrumentation hook), what
 * count_request counts per request: sim_last_pc_stats() returns them, one
 * entry per (instruction, kind). Ideal sectors: the sectors the request's
 * bytes would take if they were contiguous and aligned (ceil(distinct lanes x
 * width / 32)); ideal wavefronts: one per 32 distinct words of each pass. */
typedef enum sim_pc_kind {
    SIM_PC_GLOBAL_LD, SIM_PC_GLOBAL_ST, SIM_PC_GLOBAL_ATOM, SIM_PC_ASYNC,
    SIM_PC_SHARED_LD, SIM_PC_SHARED_ST, SIM_PC_SHARED_ATOM, SIM_PC_KINDS
} sim_pc_kind;
typedef struct sim_pc_stat {
    uintptr_t pc;
    sim_pc_kind kind;
    uint64_t requests;
    uint64_t sectors, ideal_sectors;       /* global kinds (SIM_PC_ASYNC: its global side) */
    uint64_t wavefronts, ideal_wavefronts; /* shared kinds (SIM_PC_ASYNC: its shared side) */
} sim_pc_stat;
void sim_set_line_profile(int on);
/* The last launch's entries (none unless detailed mode and the profile were
 * on); valid until the next launch. */
size_t sim_last_pc_stats(const sim_pc_stat **stats);
/* Source of an instruction address: function (demangled), file (as the
 * compiler saw it) and line, via addr2line on the executable or library
 * holding it; 0, or -1 (empty strings, line 0) when unknown. One addr2line
 * process serves all n addresses of one call. */
typedef struct sim_pc_source {
    char fn[160];
    char file[256];
    int line;
} sim_pc_source;
int sim_resolve_pcs(const uintptr_t *pcs, size_t n, sim_pc_source *out);
/* The name of the kernel function starting at p, without return type and parameters
 * ("scale<int>"): 0, or -1 when p is not the start of a function in kernel code. */
int sim_kernel_name_at(const void *p, char *out, size_t n);

/* Number of OpenMP workers launches use (1 without OpenMP). */
int sim_worker_count(void);
/* 1 when the caller is a simulated CUDA thread (a kernel's code), 0 in host code. */
int sim_in_thread(void);
/* The device heap gave [a, a + n) to the running thread (malloc or new in a kernel): earlier
 * accesses of the block's other threads to those bytes, to a block they freed, are no race with
 * this thread's. Nothing in host code. */
void sim_global_forget(uintptr_t a, size_t n);
/* A simulated thread waits on the clock (clock64() in a loop): the block's other threads run
 * meanwhile, not yet started ones first, so a block's threads wait together as a GPU's do;
 * the watchdog (SIMTLAB_TIMEOUT) may stop it here. pc: the caller's. Nothing in host code. */
void sim_clock_yield(uintptr_t pc);

#endif /* SIMTLAB_LAUNCH_H */
