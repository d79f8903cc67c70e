/* lessons/common/backend.c - the simulator side of backend.h, and the
 * dispatch to cuda/ when this build has it. */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#ifdef SIMTLAB_HAVE_CUDA
#include "cuda_backend.h"
#endif

#define NO_CUDA_MSG                                                                                   \
    "this build has no CUDA backend: install the CUDA Toolkit (nvcc) and reconfigure with "            \
    "-DSIMTLAB_CUDA=ON, then run on a machine with an NVIDIA GPU"

static int fail(backend *be, const char *what)
{
    snprintf(be->err, sizeof be->err, "%s", what);
    return -1;
}

static int sim_fail_msg(backend *be)
{
    snprintf(be->err, sizeof be->err, "%s", sim_last_error());
    sim_get_last_status();
    return -1;
}

int be_open(backend *be, backend_kind kind, const char *arch, int detailed)
{
    memset(be, 0, sizeof *be);
    be->kind = kind;
    be->detailed = detailed;
    be->dev = sim_device_find(arch ? arch : "sm_90");
    if (!be->dev) {
        snprintf(be->err, sizeof be->err, "--arch '%s': unknown device; choose sm_80 (A100), sm_89 (RTX 4090), "
                 "sm_90 (H100) or h200", arch);
        return -1;
    }
    if (kind == BACKEND_SIM) {
        sim_set_device(be->dev);
        sim_set_detailed(detailed);
        sim_set_max_dynamic_shared(be->dev->shared_per_block); /* no opt-in until asked */
        sim_reset_counters();
        return 0;
    }
#ifdef SIMTLAB_HAVE_CUDA
    /* SIMTLAB_NO_COUNTERS=1: no CUPTI in this process, e.g. under Nsight
     * Compute, which holds the profiler itself (scripts/gpu/l2.sh) */
    const char *nc = getenv("SIMTLAB_NO_COUNTERS");
    be->counters = !(nc && !strcmp(nc, "1"));
    return cuda_be_open(be);
#else
    return fail(be, NO_CUDA_MSG);
#endif
}

void be_close(backend *be)
{
    for (int i = be->n_buffers - 1; i >= 0; i--)
        be_free(be, be->buffers[i].ptr);
#ifdef SIMTLAB_HAVE_CUDA
    if (be->kind == BACKEND_CUDA)
        cuda_be_close(be);
#endif
    free(be->kernels);
    be->kernels = NULL;
    be->n_kernels = be->cap_kernels = 0;
}

const char *be_name(const backend *be) { return be->kind == BACKEND_SIM ? "sim" : "cuda"; }

const char *be_device_name(const backend *be)
{
    static char buf[128];
#ifdef SIMTLAB_HAVE_CUDA
    if (be->kind == BACKEND_CUDA)
        return cuda_be_device_name(be);
#endif
    snprintf(buf, sizeof buf, "%s (%s model)", be->dev->name, be->dev->card);
    return buf;
}

int be_malloc(backend *be, void *pp, size_t bytes, const char *name)
{
    void **p = pp;
    if (be->n_buffers == (int)(sizeof be->buffers / sizeof be->buffers[0]))
        return fail(be, "too many buffers for one lesson run (64)");
    if (be->kind == BACKEND_SIM) {
        if (sim_malloc(p, bytes, name))
            return sim_fail_msg(be);
    } else {
#ifdef SIMTLAB_HAVE_CUDA
        if (cuda_be_malloc(be, p, bytes))
            return -1;
#else
        return fail(be, NO_CUDA_MSG);
#endif
    }
    be_buffer *b = &be->buffers[be->n_buffers++];
    b->ptr = *p;
    b->bytes = bytes;
    snprintf(b->name, sizeof b->name, "%s", name);
    return 0;
}

int be_free(backend *be, void *p)
{
    if (!p)
        return 0;
    for (int i = 0; i < be->n_buffers; i++)
        if (be->buffers[i].ptr == p) {
            be->buffers[i] = be->buffers[--be->n_buffers];
            break;
        }
    if (be->kind == BACKEND_SIM)
        return sim_free(p) ? sim_fail_msg(be) : 0;
#ifdef SIMTLAB_HAVE_CUDA
    return cuda_be_free(be, p);
#else
    return fail(be, NO_CUDA_MSG);
#endif
}

static int copy(backend *be, void *dst, const void *src, size_t n, int kind)
{
    if (be->kind == BACKEND_SIM)
        return sim_memcpy(dst, src, n, (sim_copy_kind)kind) ? sim_fail_msg(be) : 0;
#ifdef SIMTLAB_HAVE_CUDA
    return cuda_be_copy(be, dst, src, n, kind);
#else
    return fail(be, NO_CUDA_MSG);
#endif
}

int be_upload(backend *be, void *d, const void *h, size_t n) { return copy(be, d, h, n, SIM_COPY_H2D); }
int be_download(backend *be, void *h, const void *d, size_t n) { return copy(be, h, d, n, SIM_COPY_D2H); }

int be_memset(backend *be, void *d, int v, size_t n)
{
    if (be->kind == BACKEND_SIM)
        return sim_memset(d, v, n) ? sim_fail_msg(be) : 0;
#ifdef SIMTLAB_HAVE_CUDA
    return cuda_be_memset(be, d, v, n);
#else
    return fail(be, NO_CUDA_MSG);
#endif
}

int be_buffer_counts(backend *be, const void *d, uint64_t *rd, uint64_t *wr)
{
    sim_alloc_info info;
    if (be->kind != BACKEND_SIM)
        return fail(be, "per-buffer counts exist only in the simulator");
    if (sim_alloc_query(d, &info))
        return sim_fail_msg(be);
    *rd = info.read_bytes;
    *wr = info.write_bytes;
    return 0;
}

void be_reset_counts(backend *be)
{
    if (be->kind == BACKEND_SIM)
        sim_reset_counters();
}

void be_clear_kernels(backend *be) { be->n_kernels = 0; }

int be_set_max_dynamic_shared(backend *be, size_t bytes)
{
    if (be->kind == BACKEND_SIM)
        return sim_set_max_dynamic_shared(bytes) ? sim_fail_msg(be) : 0;
    return 0; /* the CUDA launchers call cudaFuncSetAttribute for launches above 48 KB */
}

const char *be_counters_note(const backend *be)
{
#ifdef SIMTLAB_HAVE_CUDA
    if (be->kind == BACKEND_CUDA)
        return cuda_be_counters_note(be);
#endif
    (void)be;
    return "";
}

be_kernel *be_last(backend *be) { return be->n_kernels ? &be->kernels[be->n_kernels - 1] : NULL; }

void be_launch_begin(backend *be)
{
#ifdef SIMTLAB_HAVE_CUDA
    if (be->kind == BACKEND_CUDA)
        cuda_be_launch_begin(be);
#else
    (void)be;
#endif
}

int be_launch_end(backend *be, const char *kernel, const simt_cfg *cfg, int status)
{
    if (be->n_kernels == be->cap_kernels) {
        int cap = be->cap_kernels ? be->cap_kernels * 2 : 16;
        be_kernel *k = realloc(be->kernels, (size_t)cap * sizeof *k);
        if (!k)
            return fail(be, "out of host memory for launch records");
        be->kernels = k;
        be->cap_kernels = cap;
    }
    be_kernel *k = &be->kernels[be->n_kernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", kernel);
    k->cfg = *cfg;
    k->status = status;
    k->on_gpu = be->kind == BACKEND_CUDA;
    if (be->kind == BACKEND_SIM) {
        const sim_launch_info *li = sim_last_launch();
        k->cfg = li->cfg; /* as launched: with the kernel's __launch_bounds__ blocks (sim/kernel.h) */
        k->sim = li->c;
        k->time_ms = li->wall_ms;
        if (status) {
            snprintf(be->err, sizeof be->err, "%s", sim_last_error());
            sim_get_last_status();
            return -1;
        }
        return 0;
    }
#ifdef SIMTLAB_HAVE_CUDA
    return cuda_be_launch_end(be, k);
#else
    return fail(be, NO_CUDA_MSG);
#endif
}

int be_time(backend *be, int (*launch)(backend *be, void *ctx), void *ctx, int warmup, int repeats, int flush_l2)
{
    if (be->kind == BACKEND_SIM) { /* deterministic: one run is the measurement */
        int first = be->n_kernels, rc = launch(be, ctx);
        be->last_time_ms = 0;
        for (int i = first; i < be->n_kernels; i++)
            be->last_time_ms += be->kernels[i].time_ms;
        be->n_kernels = first;
        return rc;
    }
#ifdef SIMTLAB_HAVE_CUDA
    return cuda_be_time(be, launch, ctx, warmup, repeats, flush_l2);
#else
    (void)warmup;
    (void)repeats;
    (void)flush_l2;
    return fail(be, NO_CUDA_MSG);
#endif
}
