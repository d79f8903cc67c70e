/* cuda/cuda_backend.h - the GPU side of lessons/common/backend.h.
 *
 * Called only by backend.c when this build has CUDA (SIMTLAB_HAVE_CUDA).
 * Device memory, copies, launch bookkeeping with CUDA events, timing with
 * warm-up and median, and hardware counters (cuda/counters.c). Every call
 * is checked; errors go to be->err as "<call>: <cudaErrorName>: <text>".
 */
#ifndef SIMTLAB_CUDA_BACKEND_H
#define SIMTLAB_CUDA_BACKEND_H
#include <stddef.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif
int cuda_be_open(backend *be);
void cuda_be_close(backend *be);
const char *cuda_be_device_name(const backend *be);
int cuda_be_malloc(backend *be, void **p, size_t bytes);
int cuda_be_free(backend *be, void *p);
int cuda_be_copy(backend *be, void *dst, const void *src, size_t bytes, int kind); /* sim_copy_kind */
int cuda_be_memset(backend *be, void *d, int value, size_t bytes);
void cuda_be_launch_begin(backend *be);
int cuda_be_launch_end(backend *be, be_kernel *k);
int cuda_be_time(backend *be, int (*launch)(backend *be, void *ctx), void *ctx, int warmup, int repeats, int flush_l2);
/* Why counters are off (empty when they work). */
const char *cuda_be_counters_note(const backend *be);

/* ---- hardware counters through CUPTI's range profiler (counters.c) ---- */
typedef struct cuda_counters cuda_counters;
/* Sets up the profiler for the current context; NULL with the reason in
 * why (e.g. ERR_NVGPUCTRPERM: counters not permitted) when it cannot. */
cuda_counters *cuda_counters_open(char *why, size_t n);
int cuda_counters_begin(cuda_counters *c, char *why, size_t n);
/* Stops, decodes, and fills hw for the one kernel launched since begin. */
int cuda_counters_end(cuda_counters *c, hw_counters *hw, char *why, size_t n);
void cuda_counters_close(cuda_counters *c);
#ifdef __cplusplus
}
#endif
#endif
