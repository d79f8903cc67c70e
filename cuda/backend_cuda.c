/* cuda/backend_cuda.c - see cuda_backend.h. Plain C over the CUDA runtime API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda_backend.h"
#include "memory.h"

typedef struct cuda_impl {
    cudaEvent_t ev0, ev1;     /* around one launch (be_launch_begin/end) */
    cudaEvent_t tev0, tev1;   /* around a whole timed callback (be_time): its own pair, since
                                 the launches inside record ev0/ev1 themselves */
    struct cudaDeviceProp prop;
    char name[320];
    void *flush;        /* a buffer of twice the L2, written to evict it */
    size_t flush_bytes;
    cuda_counters *ctr;
    int ctr_tried, ctr_active;
    char ctr_note[512];
} cuda_impl;

/* One checking macro for this API: expression, file and line into be->err. */
#define CUDA_CHECK(be, expr)                                                                          \
    do {                                                                                              \
        cudaError_t e_ = (expr);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            snprintf((be)->err, sizeof (be)->err, "%s: %s: %s (%s:%d)", #expr, cudaGetErrorName(e_),   \
                     cudaGetErrorString(e_), __FILE__, __LINE__);                                     \
            return -1;                                                                                \
        }                                                                                             \
    } while (0)

static cuda_impl *impl(const backend *be) { return (cuda_impl *)be->impl; }

int cuda_be_open(backend *be)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        snprintf(be->err, sizeof be->err,
                 "no CUDA device: cudaGetDeviceCount says %s (%s). --mode cuda and compare need an NVIDIA GPU with "
                 "its driver; --mode sim runs anywhere",
                 e == cudaSuccess ? "0 devices" : cudaGetErrorName(e), e == cudaSuccess ? "none found" : cudaGetErrorString(e));
        return -1;
    }
    cuda_impl *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(be->err, sizeof be->err, "out of host memory");
        return -1;
    }
    be->impl = c;
    CUDA_CHECK(be, cudaSetDevice(0));
    CUDA_CHECK(be, cudaGetDeviceProperties(&c->prop, 0));
    snprintf(c->name, sizeof c->name, "%s (sm_%d%d, %d SMs, %.0f MB L2)", c->prop.name, c->prop.major, c->prop.minor,
             c->prop.multiProcessorCount, c->prop.l2CacheSize / 1e6);
    CUDA_CHECK(be, cudaEventCreate(&c->ev0));
    CUDA_CHECK(be, cudaEventCreate(&c->ev1));
    CUDA_CHECK(be, cudaEventCreate(&c->tev0));
    CUDA_CHECK(be, cudaEventCreate(&c->tev1));
    c->flush_bytes = (size_t)c->prop.l2CacheSize * 2;
    CUDA_CHECK(be, cudaMalloc(&c->flush, c->flush_bytes));
    return 0;
}

void cuda_be_close(backend *be)
{
    cuda_impl *c = impl(be);
    if (!c)
        return;
    if (c->ctr)
        cuda_counters_close(c->ctr);
    cudaFree(c->flush);
    cudaEventDestroy(c->ev0);
    cudaEventDestroy(c->ev1);
    cudaEventDestroy(c->tev0);
    cudaEventDestroy(c->tev1);
    free(c);
    be->impl = NULL;
}

const char *cuda_be_device_name(const backend *be) { return impl(be) ? impl(be)->name : "no CUDA device"; }
const char *cuda_be_counters_note(const backend *be) { return impl(be) ? impl(be)->ctr_note : ""; }

int cuda_be_malloc(backend *be, void **p, size_t bytes)
{
    CUDA_CHECK(be, cudaMalloc(p, bytes));
    return 0;
}

int cuda_be_free(backend *be, void *p)
{
    CUDA_CHECK(be, cudaFree(p));
    return 0;
}

int cuda_be_copy(backend *be, void *dst, const void *src, size_t bytes, int kind)
{
    enum cudaMemcpyKind k = kind == SIM_COPY_H2D   ? cudaMemcpyHostToDevice
                            : kind == SIM_COPY_D2H ? cudaMemcpyDeviceToHost
                                                   : cudaMemcpyDeviceToDevice;
    CUDA_CHECK(be, cudaMemcpy(dst, src, bytes, k));
    return 0;
}

int cuda_be_memset(backend *be, void *d, int value, size_t bytes)
{
    CUDA_CHECK(be, cudaMemset(d, value, bytes));
    return 0;
}

void cuda_be_launch_begin(backend *be)
{
    cuda_impl *c = impl(be);
    c->ctr_active = 0;
    if (be->counters && !c->ctr_tried) {
        c->ctr_tried = 1;
        c->ctr = cuda_counters_open(c->ctr_note, sizeof c->ctr_note);
    }
    if (be->counters && c->ctr)
        c->ctr_active = !cuda_counters_begin(c->ctr, c->ctr_note, sizeof c->ctr_note);
    cudaEventRecord(c->ev0, 0);
}

int cuda_be_launch_end(backend *be, be_kernel *k)
{
    cuda_impl *c = impl(be);
    if (k->status) {
        snprintf(be->err, sizeof be->err, "launch of %s with grid (%u,%u,%u) block (%u,%u,%u) shared %zu: %s: %s",
                 k->name, k->cfg.grid.x, k->cfg.grid.y, k->cfg.grid.z, k->cfg.block.x, k->cfg.block.y, k->cfg.block.z,
                 k->cfg.shared_bytes, cudaGetErrorName((cudaError_t)k->status),
                 cudaGetErrorString((cudaError_t)k->status));
        cudaGetLastError();
        if (c->ctr_active)
            cuda_counters_end(c->ctr, &k->hw, c->ctr_note, sizeof c->ctr_note);
        k->hw.valid = 0;
        return -1;
    }
    /* wait for the kernel; stop the profiler whatever happened, so that a
     * fault does not leave it running into the next launch */
    cudaError_t e = cudaEventRecord(c->ev1, 0);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(c->ev1);
    if (e == cudaSuccess)
        e = cudaGetLastError(); /* faults inside the kernel surface here */
    if (e != cudaSuccess) {
        if (c->ctr_active) {
            hw_counters dummy;
            cuda_counters_end(c->ctr, &dummy, c->ctr_note, sizeof c->ctr_note);
            c->ctr_active = 0;
        }
        snprintf(be->err, sizeof be->err, "%s: %s: %s", k->name, cudaGetErrorName(e), cudaGetErrorString(e));
        return -1;
    }
    float ms = 0;
    CUDA_CHECK(be, cudaEventElapsedTime(&ms, c->ev0, c->ev1));
    k->time_ms = ms;
    if (c->ctr_active) {
        c->ctr_active = 0;
        if (cuda_counters_end(c->ctr, &k->hw, c->ctr_note, sizeof c->ctr_note)) {
            k->hw.valid = 0;
            if (strstr(c->ctr_note, "no range was recorded")) {
                /* under the profiler a launch that never ran (too many registers or
                 * shared memory for the block) can report success: say so */
                snprintf(be->err, sizeof be->err,
                         "launch of %s with grid (%u,%u,%u) block (%u,%u,%u) shared %zu did not run (the profiler "
                         "recorded no range for it): most likely too many resources for the block; re-run with "
                         "--no-counters to see CUDA's error",
                         k->name, k->cfg.grid.x, k->cfg.grid.y, k->cfg.grid.z, k->cfg.block.x, k->cfg.block.y,
                         k->cfg.block.z, k->cfg.shared_bytes);
                return -1;
            }
        }
    }
    /* the kernel's own duration is the better time when the counters ran
     * (the event pair then includes the profiler's replays) */
    if (k->hw.valid && k->hw.gpu_time_ns > 0)
        k->time_ms = k->hw.gpu_time_ns / 1e6;
    return 0;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

int cuda_be_time(backend *be, int (*launch)(backend *be, void *ctx), void *ctx, int warmup, int repeats, int flush_l2)
{
    cuda_impl *c = impl(be);
    int saved_counters = be->counters, first = be->n_kernels;
    be->counters = 0; /* counters replay kernels: never time under them */
    float *t = calloc((size_t)(repeats > 0 ? repeats : 1), sizeof *t);
    int rc = -1;
    if (!t)
        goto done;
    for (int i = 0; i < warmup; i++)
        if (launch(be, ctx))
            goto done;
    for (int i = 0; i < repeats; i++) {
        if (flush_l2 && cudaMemset(c->flush, i & 0xff, c->flush_bytes) != cudaSuccess)
            goto done;
        cudaEventRecord(c->tev0, 0);
        if (launch(be, ctx))
            goto done;
        cudaEventRecord(c->tev1, 0);
        if (cudaEventSynchronize(c->tev1) != cudaSuccess ||
            cudaEventElapsedTime(&t[i], c->tev0, c->tev1) != cudaSuccess)
            goto done;
    }
    qsort(t, (size_t)repeats, sizeof *t, cmp_float);
    rc = 0;
done:
    be->counters = saved_counters;
    be->n_kernels = first; /* the timing launches are not reported one by one */
    if (!rc && repeats > 0)
        be->last_time_ms = repeats % 2 ? t[repeats / 2] : 0.5 * (t[repeats / 2 - 1] + t[repeats / 2]);
    if (rc && !be->err[0])
        snprintf(be->err, sizeof be->err, "timing failed: %s", cudaGetErrorString(cudaGetLastError()));
    free(t);
    return rc;
}
