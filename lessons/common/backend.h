/* lessons/common/backend.h - the one interface every lesson drives.
 *
 * A backend is the simulator (sim/) or a GPU (cuda/). A lesson allocates,
 * copies, launches and reads counters through these calls only, so the same
 * driver runs in --mode sim, --mode cuda and --mode compare. Each launch is
 * recorded (name, configuration, counters, time) for the report and --json.
 *
 * Every function returns 0 or -1; on -1 the reason is in be->err. None exits.
 */
#ifndef LESSON_BACKEND_H
#define LESSON_BACKEND_H
#include <stddef.h>
#include <stdint.h>

#include "launch.h"
#include "simt_cfg.h"

typedef enum { BACKEND_SIM, BACKEND_CUDA } backend_kind;

/* What the hardware's counters said about one launch (cuda backend). */
typedef struct hw_counters {
    int valid;          /* counters were read */
    uint64_t l1_ld_sectors, l1_st_sectors;       /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st.sum;
                                                    op_ld includes LDGSTS (measured on the H200) */
    uint64_t shared_ld_wavefronts, shared_st_wavefronts;
    uint64_t shared_ld_conflicts, shared_st_conflicts;
    uint64_t ldgsts_sectors;    /* cp.async.ca: l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum,
                                   part of l1_ld_sectors */
    uint64_t ldgsts_conflicts;  /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum */
    int atom_valid;             /* the profiler knew the three atomic metrics */
    uint64_t atom_sectors, red_sectors; /* l1tex__t_sectors_pipe_lsu_mem_global_op_atom/red.sum: atomics with
                                           their result used (ATOM) and unused (RED) */
    uint64_t shared_atom_wavefronts;    /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum */
    uint64_t l2_read_sectors, l2_write_sectors;  /* lts__t_sectors_srcunit_tex_op_read/write.sum */
    int l2_miss_valid;                           /* the profiler knew the lookup-miss metric */
    uint64_t l2_miss_sectors;                    /* lts__t_sectors_srcunit_tex_lookup_miss.sum: of L1's
                                                    sectors, those L2 did not hold (writes never miss) */
    uint64_t dram_read_bytes, dram_write_bytes;  /* dram__bytes_read/write.sum */
    double gpu_time_ns;                          /* gpu__time_duration.sum */
} hw_counters;

typedef struct be_kernel {
    char name[64];
    simt_cfg cfg;
    int status;
    sim_counters sim; /* simulator backend */
    hw_counters hw;   /* cuda backend */
    double time_ms;   /* sim: host wall time; cuda: CUDA events */
    double flops;     /* declared by the lesson; 0 if none */
    int on_gpu;       /* ran on the cuda backend (hw may still be invalid: no counters) */
} be_kernel;

/* One launch's counts as reports show them, from the simulator or, when the
 * launch has hardware counters, from the GPU. Global load sectors include
 * the asynchronous copies' (LDGSTS; the GPU's op_ld counter does) and so do
 * bank conflicts; shared
 * wavefronts are loads and stores only: the range profiler has no counter
 * for LDGSTS wavefronts, so sim.async_st_wavefronts is the simulator's
 * alone (reports print it apart). */
static inline uint64_t be_ld_sectors(const be_kernel *k)
{
    return k->hw.valid ? k->hw.l1_ld_sectors : k->sim.global_ld_sectors + k->sim.async_ld_sectors;
}
static inline uint64_t be_async_ld_sectors(const be_kernel *k) /* the part of be_ld_sectors by LDGSTS */
{
    return k->hw.valid ? k->hw.ldgsts_sectors : k->sim.async_ld_sectors;
}
static inline uint64_t be_st_sectors(const be_kernel *k)
{
    return k->hw.valid ? k->hw.l1_st_sectors : k->sim.global_st_sectors;
}
static inline uint64_t be_wavefronts(const be_kernel *k)
{
    return k->hw.valid ? k->hw.shared_ld_wavefronts + k->hw.shared_st_wavefronts
                       : k->sim.shared_ld_wavefronts + k->sim.shared_st_wavefronts;
}
static inline uint64_t be_conflicts(const be_kernel *k)
{
    return k->hw.valid ? k->hw.shared_ld_conflicts + k->hw.shared_st_conflicts + k->hw.ldgsts_conflicts
                       : k->sim.shared_ld_conflicts + k->sim.shared_st_conflicts + k->sim.async_st_conflicts;
}

/* Atomics, counted apart from loads and stores on both sides: global
 * sectors (the GPU's RED + ATOM) and shared atom wavefronts. */
static inline uint64_t be_atom_sectors(const be_kernel *k)
{
    return k->hw.valid ? k->hw.atom_sectors + k->hw.red_sectors : k->sim.global_atom_sectors;
}
static inline uint64_t be_shared_atom_wavefronts(const be_kernel *k)
{
    return k->hw.valid ? k->hw.shared_atom_wavefronts : k->sim.shared_atom_wavefronts;
}

typedef struct be_buffer {
    void *ptr;
    size_t bytes;
    char name[32];
} be_buffer;

typedef struct backend {
    backend_kind kind;
    const sim_device *dev;
    int detailed;
    int counters;      /* cuda: read hardware counters on each launch */
    be_kernel *kernels;
    int n_kernels, cap_kernels;
    be_buffer buffers[64];
    int n_buffers;
    void *impl;        /* cuda backend state */
    double last_time_ms; /* the median of the last be_time */
    char err[4096];
} backend;

/* Opens a backend. arch names the simulator's device preset (NULL: sm_90).
 * For BACKEND_CUDA fails with a clear reason if this build or machine has
 * no CUDA (no backend compiled, no driver, no device). */
int be_open(backend *be, backend_kind kind, const char *arch, int detailed);
void be_close(backend *be);
const char *be_name(const backend *be);      /* "sim" or "cuda" */
const char *be_device_name(const backend *be); /* "sm_90 (H100 SXM)", "NVIDIA H200 (sm_90)" */

int be_malloc(backend *be, void *pp, size_t bytes, const char *name);
int be_free(backend *be, void *p);
int be_upload(backend *be, void *d, const void *h, size_t bytes);
int be_download(backend *be, void *h, const void *d, size_t bytes);
int be_memset(backend *be, void *d, int value, size_t bytes);

/* Kernel bytes read/written of one buffer since be_reset_counts (sim only;
 * the hardware has no per-buffer counters: returns -1). */
int be_buffer_counts(backend *be, const void *d, uint64_t *read_bytes, uint64_t *write_bytes);
void be_reset_counts(backend *be);
/* Drops the recorded launches. */
void be_clear_kernels(backend *be);

/* Launch through a kernel file's LAUNCHER functions:
 *   BE_LAUNCH(be, scale_v1, &cfg, d_y, d_x, n)
 * evaluates to 0 or -1 and records the launch (be->kernels). */
void be_launch_begin(backend *be);
int be_launch_end(backend *be, const char *kernel, const simt_cfg *cfg, int status);
#ifdef SIMTLAB_HAVE_CUDA
#define BE_CUDA_LAUNCH_(k, cfg, ...) k##_launch_cuda((cfg), __VA_ARGS__)
#else
#define BE_CUDA_LAUNCH_(k, cfg, ...) (-1)
#endif
#define BE_LAUNCH(be, k, cfg, ...)                                                                  \
    (be_launch_begin(be),                                                                           \
     be_launch_end((be), #k, (cfg),                                                                 \
                   (be)->kind == BACKEND_SIM ? k##_launch_sim((cfg), __VA_ARGS__)                   \
                                             : BE_CUDA_LAUNCH_(k, cfg, __VA_ARGS__)))

/* Opts kernels into more than 48 KB of dynamic shared memory, as
 * cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n)
 * does; fails above the device's opt-in maximum. */
int be_set_max_dynamic_shared(backend *be, size_t bytes);

/* Why the GPU's hardware counters are off ("" when they work or on the sim). */
const char *be_counters_note(const backend *be);

/* The most recent launch record (NULL if none). */
be_kernel *be_last(backend *be);

/* Times a launch on the GPU: `warmup` untimed runs, then the median of
 * `repeats` timed runs (CUDA events), flushing L2 between runs if flush_l2.
 * On the simulator runs once. The callback performs one launch (BE_LAUNCH)
 * and returns 0 or -1. Stores the median in be->last_time_ms; the timing
 * launches are not added to be->kernels. */
int be_time(backend *be, int (*launch)(backend *be, void *ctx), void *ctx, int warmup, int repeats, int flush_l2);
#endif
