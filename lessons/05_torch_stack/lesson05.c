/* lessons/05_torch_stack/lesson05.c - lesson 5: the PyTorch CUDA stack.
 *
 * (a) Streams. A pipeline of chunks, each copied to the GPU, worked on by a
 * kernel and copied back, runs on one stream and then on S streams. The
 * simulator does not run streams: it predicts the timeline with the
 * discrete-event model of streams.c (in-order queues, one engine per kind,
 * durations from the preset's roofline and a PCIe figure) and checks on the
 * simulator that the kernel moves the 8 bytes per element the model
 * assumes. On a GPU the same ops run on cudaStreams, timed with events, and
 * the measured timeline is printed beside the model's.
 * (b) The caching allocator. A trace of tensor allocations and frees is
 * replayed through caching_allocator.c (PyTorch's rules); after each step
 * the lesson prints allocated, reserved, what nvidia-smi would show and the
 * fragmentation. On a GPU the segments are real cudaMallocs and
 * cudaMemGetInfo is read beside the allocator's figures.
 *
 * The verdict: PASS when the allocator's invariants hold at every step, the
 * timelines are consistent, and (GPU) the results match the CPU reference
 * and the device's memory grew by what the allocator reserved.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_trace.h"
#include "caching_allocator.h"
#include "lesson.h"
#include "stream_kernels.h"
#include "streams.h"
#include "sweep.h"

#ifdef SIMTLAB_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define PROG "lesson 5"
#define TIMELINE_WIDTH 72

/* PCIe bandwidth per direction that a pinned cudaMemcpyAsync reaches, by
 * preset: ASSUMED figures, about 80 % of the link's 31.5 GB/s (PCIe 4.0 x16:
 * A100, RTX 4090) and 63 GB/s (PCIe 5.0 x16: H100, H200). SXM boards with an
 * NVLink-C2C host (GH200) are much faster; --pcie sets another figure. */
#define PCIE4_X16_BYTES_PER_S 25e9
#define PCIE5_X16_BYTES_PER_S 50e9

/* Device memory as nvidia-smi reports the total, by preset (MiB). */
static uint64_t preset_memory(const sim_device *d)
{
    if (!strcmp(d->name, "sm_80"))
        return 40960 * CA_MIB; /* A100 SXM 40GB */
    if (!strcmp(d->name, "sm_89"))
        return 24564 * CA_MIB; /* RTX 4090 */
    if (!strcmp(d->name, "h200"))
        return 143771 * CA_MIB; /* H200 SXM 141GB */
    return 81559 * CA_MIB;      /* H100 SXM 80GB */
}

static double preset_pcie(const sim_device *d)
{
    return d->cc_major >= 9 ? PCIE5_X16_BYTES_PER_S : PCIE4_X16_BYTES_PER_S;
}

/* The pipeline's input: x[i] depends on i % 1000 only, so the reference of
 * every element comes from a table of 1000 values. */
static float input_value(long long i) { return (float)((i % 1000) - 500) * 0.002f; }

typedef struct params {
    int chunks, streams, iters, n; /* n: floats per chunk */
    double chunk_bytes;
    st_machine m;
    const sim_device *dev;
    int arch_given;
} params;

/* Chunk c runs on stream c % streams: copy in, kernel, copy out. With more
 * than one stream, stream 0 then waits for the others (an event each):
 * PyTorch's torch.cuda.current_stream().wait_stream(s) before using their
 * results. */
static void build_pipeline(st_program *p, const params *a, int streams)
{
    st_init(p);
    const double kbytes = 2.0 * a->chunk_bytes, kflops = 2.0 * a->iters * (double)a->n;
    for (int c = 0; c < a->chunks; c++) {
        int s = c % streams;
        char nm[24];
        snprintf(nm, sizeof nm, "h2d x%d", c);
        st_copy(p, ST_H2D, s, nm, c, a->chunk_bytes);
        snprintf(nm, sizeof nm, "stream_fma y%d", c);
        st_kernel(p, s, nm, c, kbytes, kflops);
        snprintf(nm, sizeof nm, "d2h y%d", c);
        st_copy(p, ST_D2H, s, nm, c, a->chunk_bytes);
    }
    for (int s = 1; s < streams && s < a->chunks; s++) {
        st_record(p, s, s);
        st_wait(p, 0, s);
    }
}

/* ---- the result check ----------------------------------------------------------------- */

/* y (n_total,) against the double reference; pass when every
 * |y - ref| <= atol + rtol |ref|. Each fmaf rounds once (at most 2^-24
 * relative, |v| <= 1), and v = a v + b shrinks earlier errors by a = 0.999
 * per step, so the error of any iters stays below 2^-24 / (1 - a) = 6e-5. */
#define FMA_RTOL 1e-4
#define FMA_ATOL 1e-6
static check_result check_outputs(const float *y, long long n_total, const double *table)
{
    check_result r = {0, 0, FMA_RTOL, FMA_ATOL, 0, 1};
    for (long long i = 0; i < n_total; i++) {
        double ref = table[i % 1000], e = fabs((double)y[i] - ref);
        if (!isfinite(y[i]))
            e = INFINITY;
        if (e > r.max_abs_err) {
            r.max_abs_err = e;
            r.worst = (size_t)i;
        }
        if (fabs(ref) > 0 && e / fabs(ref) > r.max_rel_err)
            r.max_rel_err = e / fabs(ref);
        if (!(e <= FMA_ATOL + FMA_RTOL * fabs(ref)))
            r.pass = 0;
    }
    return r;
}

/* ---- the kernel on the simulator ------------------------------------------------------- */

typedef struct sim_kernel_check {
    int ran, ok;
    int n;
    be_kernel k;
    check_result check;
} sim_kernel_check;

/* Runs stream_fma_v1 on n elements on the simulator: the bytes it moves are
 * what the model charges per element. 0, or 1 with the error printed. */
static int run_sim_kernel(const char *arch, int detail, int n, int iters, const double *table, sim_kernel_check *out)
{
    backend be;
    memset(out, 0, sizeof *out);
    out->n = n;
    if (be_open(&be, BACKEND_SIM, arch, detail)) {
        fprintf(stderr, PROG ": %s\n", be.err);
        return 1;
    }
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y), *d_x = NULL, *d_y = NULL;
    int rc = 1;
    for (int i = 0; x && i < n; i++)
        x[i] = input_value(i);
    simt_cfg cfg = {.grid = {(unsigned)((n + 255) / 256), 1, 1}, .block = {256, 1, 1}};
    if (!x || !y || be_malloc(&be, &d_x, (size_t)n * 4, "x") || be_malloc(&be, &d_y, (size_t)n * 4, "y") ||
        be_upload(&be, d_x, x, (size_t)n * 4) || BE_LAUNCH(&be, stream_fma_v1, &cfg, d_y, d_x, n, iters) ||
        be_download(&be, y, d_y, (size_t)n * 4)) {
        fprintf(stderr, PROG " (sim): %s\n", x && y ? be.err : "out of host memory");
        goto done;
    }
    out->k = *be_last(&be);
    out->k.flops = 2.0 * iters * n;
    out->check = check_outputs(y, n, table);
    out->ran = 1;
    out->ok = out->check.pass && out->k.sim.hbm_read_bytes == 4ull * (uint64_t)n &&
              out->k.sim.hbm_write_bytes == 4ull * (uint64_t)n;
    rc = 0;
done:
    be_close(&be);
    free(x);
    free(y);
    return rc;
}

/* ---- the GPU ----------------------------------------------------------------------------- */

#define NO_CUDA_BACKEND                                                                               \
    "this build has no CUDA backend: install the CUDA Toolkit (nvcc) and reconfigure with "           \
    "-DSIMTLAB_CUDA=ON, then run on a machine with an NVIDIA GPU"

typedef struct gpu_info {
    int open;
    char name[256];
    int major, minor;
    uint64_t total, baseline_used; /* cudaMemGetInfo before the first allocation */
} gpu_info;

typedef struct gpu_stream_run {
    int ran;
    st_program serial, multi;
    check_result check;
    char err[512];
} gpu_stream_run;

#ifdef SIMTLAB_HAVE_CUDA
/* One checking macro for the CUDA runtime calls of this file: expression,
 * file and line into err, then `goto fail`. */
#define CK(expr)                                                                                      \
    do {                                                                                              \
        cudaError_t e_ = (expr);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            snprintf(err, errn, "%s: %s: %s (%s:%d)", #expr, cudaGetErrorName(e_), cudaGetErrorString(e_), \
                     __FILE__, __LINE__);                                                             \
            goto fail;                                                                                \
        }                                                                                             \
    } while (0)

static int gpu_open(gpu_info *g, char *err, size_t errn)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        snprintf(err, errn,
                 "no CUDA device: cudaGetDeviceCount says %s (%s). --mode cuda and compare need an NVIDIA GPU with its "
                 "driver; --mode sim runs anywhere",
                 e == cudaSuccess ? "0 devices" : cudaGetErrorName(e), e == cudaSuccess ? "none found" : cudaGetErrorString(e));
        return -1;
    }
    struct cudaDeviceProp prop;
    size_t fr, tot;
    CK(cudaSetDevice(0));
    CK(cudaFree(0)); /* creates the context now, so the baseline below includes it */
    CK(cudaGetDeviceProperties(&prop, 0));
    CK(cudaMemGetInfo(&fr, &tot));
    snprintf(g->name, sizeof g->name, "%.200s (sm_%d%d, %d SMs)", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
    g->major = prop.major;
    g->minor = prop.minor;
    g->total = tot;
    g->baseline_used = tot - fr;
    g->open = 1;
    return 0;
fail:
    return -1;
}

/* The preset that matches the GPU, for the model beside it. */
static const char *gpu_preset(void)
{
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
        return "sm_90";
    if (strstr(prop.name, "H200"))
        return "h200";
    if (prop.major == 8 && prop.minor == 0)
        return "sm_80";
    if (prop.major == 8 && prop.minor == 9)
        return "sm_89";
    return "sm_90";
}

static int gpu_used(uint64_t *used)
{
    size_t fr, tot;
    if (cudaMemGetInfo(&fr, &tot) != cudaSuccess)
        return -1;
    *used = tot - fr;
    return 0;
}

typedef struct gpu_dev_ctx {
    char err[256];
} gpu_dev_ctx;

/* The caching allocator's device: real cudaMalloc and cudaFree. */
static int gpu_seg_malloc(void *ctx, uint64_t bytes, uint64_t *addr)
{
    gpu_dev_ctx *c = ctx;
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytes);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky error of a failed cudaMalloc */
        if (e != cudaErrorMemoryAllocation)
            snprintf(c->err, sizeof c->err, "cudaMalloc(%llu): %s: %s", (unsigned long long)bytes, cudaGetErrorName(e),
                     cudaGetErrorString(e));
        return -1;
    }
    *addr = (uint64_t)(uintptr_t)p;
    return 0;
}

static int gpu_seg_free(void *ctx, uint64_t addr, uint64_t bytes)
{
    gpu_dev_ctx *c = ctx;
    cudaError_t e = cudaFree((void *)(uintptr_t)addr);
    (void)bytes;
    if (e != cudaSuccess) {
        snprintf(c->err, sizeof c->err, "cudaFree: %s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

typedef struct gpu_pipe {
    float *h_x, *h_y;                 /* pinned host memory: (chunks * n,) */
    float *d_x[64], *d_y[64];         /* (n,) each */
    cudaStream_t s[ST_MAX_STREAMS];
    cudaEvent_t t0, ev0[ST_MAX_OPS], ev1[ST_MAX_OPS], user[ST_MAX_EVENTS];
    int n_streams;
} gpu_pipe;

/* Issues the program's ops on their streams in issue order, an event pair
 * around each, and reads the times back relative to t0 (recorded on stream
 * 0, which every other stream waits for first). */
static int gpu_run_program(gpu_pipe *g, st_program *p, const params *a, char *err, size_t errn)
{
    const size_t n = (size_t)a->n, bytes = n * sizeof(float);
    CK(cudaEventRecord(g->t0, g->s[0]));
    for (int s = 1; s < p->n_streams; s++)
        CK(cudaStreamWaitEvent(g->s[s], g->t0, 0));
    for (int i = 0; i < p->n; i++) {
        st_op *o = &p->op[i];
        cudaStream_t st = g->s[o->stream];
        CK(cudaEventRecord(g->ev0[i], st));
        switch (o->kind) {
        case ST_H2D: /* LESSON: asynchronous only from pinned (page-locked) host memory */
            CK(cudaMemcpyAsync(g->d_x[o->chunk], g->h_x + (size_t)o->chunk * n, bytes, cudaMemcpyHostToDevice, st));
            break;
        case ST_D2H:
            CK(cudaMemcpyAsync(g->h_y + (size_t)o->chunk * n, g->d_y[o->chunk], bytes, cudaMemcpyDeviceToHost, st));
            break;
        case ST_KERNEL: {
            simt_cfg cfg = {.grid = {(unsigned)((n + 255) / 256), 1, 1}, .block = {256, 1, 1}, .stream = st};
            CK((cudaError_t)stream_fma_v1_launch_cuda(&cfg, g->d_y[o->chunk], g->d_x[o->chunk], a->n, a->iters));
            break;
        }
        case ST_RECORD:
            CK(cudaEventRecord(g->user[o->event], st));
            break;
        case ST_WAIT:
            CK(cudaStreamWaitEvent(st, g->user[o->event], 0));
            break;
        }
        CK(cudaEventRecord(g->ev1[i], st));
    }
    CK(cudaDeviceSynchronize());
    CK(cudaGetLastError());
    p->makespan = 0;
    for (int i = 0; i < p->n; i++) {
        float t0 = 0, t1 = 0;
        CK(cudaEventElapsedTime(&t0, g->t0, g->ev0[i]));
        CK(cudaEventElapsedTime(&t1, g->t0, g->ev1[i]));
        p->op[i].start = t0 * 1e-3;
        p->op[i].end = t1 * 1e-3;
        if (p->op[i].end > p->makespan)
            p->makespan = p->op[i].end;
    }
    return 0;
fail:
    return -1;
}

static int cmp_makespan(const void *x, const void *y)
{
    double a = ((const st_program *)x)->makespan, b = ((const st_program *)y)->makespan;
    return a < b ? -1 : a > b;
}

/* Runs both programs on the GPU: one warm-up of each, then three timed runs
 * each; keeps the run with the median makespan. */
static int gpu_streams(const params *a, const st_program *serial, const st_program *multi, const double *table,
                       gpu_stream_run *out)
{
    char *err = out->err;
    size_t errn = sizeof out->err;
    gpu_pipe g;
    memset(&g, 0, sizeof g);
    const size_t n = (size_t)a->n, total = n * (size_t)a->chunks;
    static st_program runs[3]; /* large: not on the stack */
    int rc = -1;
    CK(cudaMallocHost((void **)&g.h_x, total * sizeof(float)));
    CK(cudaMallocHost((void **)&g.h_y, total * sizeof(float)));
    for (size_t i = 0; i < total; i++)
        g.h_x[i] = input_value((long long)i);
    for (int c = 0; c < a->chunks; c++) {
        CK(cudaMalloc((void **)&g.d_x[c], n * sizeof(float)));
        CK(cudaMalloc((void **)&g.d_y[c], n * sizeof(float)));
    }
    for (int s = 0; s < ST_MAX_STREAMS; s++)
        CK(cudaStreamCreateWithFlags(&g.s[s], cudaStreamNonBlocking));
    CK(cudaEventCreate(&g.t0));
    for (int i = 0; i < ST_MAX_OPS; i++) {
        CK(cudaEventCreate(&g.ev0[i]));
        CK(cudaEventCreate(&g.ev1[i]));
    }
    for (int i = 0; i < ST_MAX_EVENTS; i++)
        CK(cudaEventCreateWithFlags(&g.user[i], cudaEventDisableTiming));
    for (int which = 0; which < 2; which++) {
        const st_program *src = which ? multi : serial;
        st_program *dst = which ? &out->multi : &out->serial;
        *dst = *src;
        if (gpu_run_program(&g, dst, a, err, errn)) /* warm-up: module load, clocks */
            goto fail;
        for (int r = 0; r < 3; r++) {
            runs[r] = *src;
            if (gpu_run_program(&g, &runs[r], a, err, errn))
                goto fail;
        }
        qsort(runs, 3, sizeof runs[0], cmp_makespan);
        *dst = runs[1];
    }
    memset(g.h_y, 0, total * sizeof(float));
    {
        st_program last = *multi; /* once more, from a cleared output, for the result check */
        if (gpu_run_program(&g, &last, a, err, errn))
            goto fail;
    }
    out->check = check_outputs(g.h_y, (long long)total, table);
    out->ran = 1;
    rc = 0;
fail:
    for (int c = 0; c < a->chunks; c++) {
        cudaFree(g.d_x[c]);
        cudaFree(g.d_y[c]);
    }
    cudaFreeHost(g.h_x);
    cudaFreeHost(g.h_y);
    for (int s = 0; s < ST_MAX_STREAMS; s++)
        if (g.s[s])
            cudaStreamDestroy(g.s[s]);
    if (g.t0)
        cudaEventDestroy(g.t0);
    for (int i = 0; i < ST_MAX_OPS; i++) {
        if (g.ev0[i])
            cudaEventDestroy(g.ev0[i]);
        if (g.ev1[i])
            cudaEventDestroy(g.ev1[i]);
    }
    for (int i = 0; i < ST_MAX_EVENTS; i++)
        if (g.user[i])
            cudaEventDestroy(g.user[i]);
    return rc;
}
#undef CK
#endif /* SIMTLAB_HAVE_CUDA */

/* ---- the allocator replay ---------------------------------------------------------------- */

typedef struct alloc_step {
    int op;           /* index into the trace */
    ca_stats st;
    char note[320];
    char map[1024];   /* --detail: the segments and their blocks */
    int64_t gpu_used; /* cuda: cudaMemGetInfo used - baseline */
} alloc_step;

typedef struct alloc_run {
    int ran;
    int gpu;
    alloc_step *steps;
    int n;
    int ok;           /* invariants held at every step */
    int partial_checks; /* steps checked incrementally (ca_replay_check_step), not in full */
    int oom_step;     /* -1, or the step where the device ran out of memory */
    int memory_ok;    /* cuda: used - baseline == reserved at every step */
    int failed;       /* an error other than OOM */
    uint64_t capacity;
    char why[512];    /* the first broken invariant or the error */
} alloc_run;

/* "#1 [w1 4.00 MiB|free 16.00 MiB] #2 [...]" */
static void segment_map(const ca_replay *r, char *buf, size_t n)
{
    size_t k = 0;
    char b1[32];
    buf[0] = 0;
    for (const ca_segment *s = r->a->segments; s && k < n; s = s->next) {
        char on[16] = "";
        if (s->stream)
            snprintf(on, sizeof on, " (stream %d)", s->stream);
        k += (size_t)snprintf(buf + k, n - k, "%s#%u%s [", k ? " " : "", s->id, on);
        for (const ca_block *b = s->head; b && k < n; b = b->next) {
            const char *name = "free";
            for (int i = 0; i < r->n_live; i++)
                if (r->live[i].block == b)
                    name = r->live[i].name;
            k += (size_t)snprintf(buf + k, n > k ? n - k : 0, "%s%s %s", b == s->head ? "" : "|", name,
                                  ca_mib(b->size, b1, sizeof b1));
        }
        if (k < n)
            k += (size_t)snprintf(buf + k, n - k, "]");
    }
}

/* Replays the trace over dev; records every step. Returns 0, or -1 when
 * something other than the allocator failed (host memory). */
static int replay(const ca_trace *t, const ca_device *dev, int gpu, const gpu_info *gi, int detail, alloc_run *out)
{
    ca_allocator a;
    ca_replay r;
    memset(out, 0, sizeof *out);
    out->gpu = gpu;
    out->ok = out->memory_ok = 1;
    out->oom_step = -1;
    out->steps = calloc((size_t)(t->steps > 0 ? t->steps : 1), sizeof *out->steps);
    if (!out->steps)
        return -1;
    ca_init(&a, dev);
    ca_replay_init(&r, &a);
    for (int i = 0; i < t->n; i++) {
        const ca_trace_op *op = &t->ops[i];
        if (op->kind == CA_TRACE_HEADING)
            continue;
        char err[512];
        int st = ca_replay_step(&r, op, err, sizeof err);
        alloc_step *s = &out->steps[out->n++];
        s->op = i;
        s->st = ca_get_stats(&a);
        ca_action_str(&a.last, s->note, sizeof s->note);
        if (detail)
            segment_map(&r, s->map, sizeof s->map);
        s->gpu_used = -1;
#ifdef SIMTLAB_HAVE_CUDA
        uint64_t used;
        if (gpu && !gpu_used(&used)) {
            s->gpu_used = (int64_t)used - (int64_t)gi->baseline_used;
            if (s->gpu_used != (int64_t)s->st.reserved)
                out->memory_ok = 0;
        }
#else
        (void)gi;
#endif
        if (st == CA_ERR_OOM) {
            out->oom_step = out->n - 1;
            snprintf(out->why, sizeof out->why, "%s", err);
            break;
        }
        if (st) {
            out->failed = 1;
            out->ok = 0;
            snprintf(out->why, sizeof out->why, "%s", err);
            break;
        }
        char why[256];
        int full = ca_replay_full_check_due(&r, out->n - 1, t->steps);
        out->partial_checks += !full;
        if (out->ok && !ca_replay_check_step(&r, full, why, sizeof why)) {
            out->ok = 0;
            snprintf(out->why, sizeof out->why, "step %d (line %d, %s): %s", out->n, op->line, op->text, why);
        }
    }
    ca_replay_free(&r);
    if (ca_destroy(&a) && !out->failed) {
        out->failed = 1;
        out->ok = 0;
        snprintf(out->why, sizeof out->why, "freeing the segments at the end failed");
    }
    out->ran = 1;
    return 0;
}

static const char *mib0(uint64_t b, char *buf, size_t n)
{
    snprintf(buf, n, "%.2f", (double)b / (double)CA_MIB);
    return buf;
}

static void print_alloc_run(const ca_trace *t, const alloc_run *run, const alloc_run *sim_beside, uint64_t context,
                            int detail)
{
    char a1[32], a2[32], a3[32], a4[32], a5[32];
    printf("    %4s  %-28s %11s %11s %11s %6s %5s%s\n", "step", "op", "allocated", "reserved", "nvidia-smi", "frag", "segs",
           run->gpu ? "   GPU used - baseline (cudaMemGetInfo)" : "");
    printf("    %4s  %-28s %11s %11s %11s %6s %5s%s\n", "", "", "MiB", "MiB", "MiB", "", "",
           run->gpu ? "   MiB" : "");
    int step = 0;
    for (int i = 0; i < t->n && step < run->n; i++) {
        const ca_trace_op *op = &t->ops[i];
        if (op->kind == CA_TRACE_HEADING) {
            printf("    -- %s\n", op->text);
            continue;
        }
        const alloc_step *s = &run->steps[step];
        char gpu[96] = "";
        if (run->gpu && s->gpu_used >= 0)
            snprintf(gpu, sizeof gpu, "   %9.2f %s", (double)s->gpu_used / (double)CA_MIB,
                     s->gpu_used == (int64_t)s->st.reserved ? "= reserved" : "!= reserved");
        if (sim_beside && step < sim_beside->n &&
            (sim_beside->steps[step].st.allocated != s->st.allocated || sim_beside->steps[step].st.reserved != s->st.reserved))
            snprintf(gpu + strlen(gpu), sizeof gpu - strlen(gpu), "  (sim: %s / %s)",
                     mib0(sim_beside->steps[step].st.allocated, a1, sizeof a1),
                     mib0(sim_beside->steps[step].st.reserved, a2, sizeof a2));
        printf("    %4d  %-28s %11s %11s %11s %6.3f %5d%s\n", step + 1, op->text, mib0(s->st.allocated, a1, sizeof a1),
               mib0(s->st.reserved, a2, sizeof a2), mib0(s->st.reserved + context, a3, sizeof a3), s->st.fragmentation,
               s->st.segments, gpu);
        printf("          %s\n", s->note);
        if (detail)
            printf("          segments: %s\n", s->map[0] ? s->map : "(none)");
        step++;
    }
    if (run->n) {
        const ca_stats *e = &run->steps[run->n - 1].st;
        printf("    at the end: memory_allocated %s (the tensors asked for %s), memory_reserved %s,\n"
               "      nvidia-smi %s (= reserved + %s context)\n",
               ca_mib(e->allocated, a1, sizeof a1), ca_mib(e->requested, a5, sizeof a5),
               ca_mib(e->reserved, a2, sizeof a2), ca_mib(e->reserved + context, a3, sizeof a3),
               ca_mib(context, a4, sizeof a4));
        printf("      the gap: %s cached in free blocks (fragmentation %.3f: the largest free block is %s) + the context;\n"
               "      peak allocated %s, peak reserved %s; %lu cudaMalloc, %lu cudaFree, %lu OOM retr%s\n",
               ca_mib(e->free, a1, sizeof a1), e->fragmentation, ca_mib(e->largest_free, a2, sizeof a2),
               ca_mib(e->peak_allocated, a3, sizeof a3), ca_mib(e->peak_reserved, a4, sizeof a4), e->cuda_mallocs,
               e->cuda_frees, e->alloc_retries, e->alloc_retries == 1 ? "y" : "ies");
    }
    if (run->oom_step >= 0)
        printf("    the trace stopped at step %d: %s\n", run->oom_step + 1, run->why);
}

/* ---- output helpers ------------------------------------------------------------------- */

static void print_op_table(const st_program *model, const st_program *gpu, const st_machine *m)
{
    printf("      %-16s %6s  %-9s %10s %10s", "op", "stream", "engine", "start ms", "end ms");
    if (gpu)
        printf(" %12s %10s %10s %14s", "| GPU start", "end ms", "ms", "rate");
    printf("\n");
    for (int i = 0; i < model->n; i++) {
        const st_op *o = &model->op[i];
        if (o->kind == ST_RECORD || o->kind == ST_WAIT) {
            if (o->kind == ST_WAIT)
                printf("      %-16s %6d  %-9s %10.3f %10.3f", "wait (event)", o->stream, "-", o->start * 1e3, o->end * 1e3);
            else
                continue;
        } else {
            printf("      %-16s %6d  %-9s %10.3f %10.3f", o->name, o->stream, st_engine_name(st_engine_of(o->kind)),
                   o->start * 1e3, o->end * 1e3);
        }
        if (gpu) {
            const st_op *g = &gpu->op[i];
            double d = g->end - g->start;
            char rate[32] = "";
            if (o->kind == ST_KERNEL && d > 0)
                snprintf(rate, sizeof rate, "%.1f TFLOP/s", o->flops / d / 1e12);
            else if ((o->kind == ST_H2D || o->kind == ST_D2H) && d > 0)
                snprintf(rate, sizeof rate, "%.1f GB/s", o->bytes / d / 1e9);
            printf("   %10.3f %10.3f %10.3f %14s", g->start * 1e3, g->end * 1e3, d * 1e3, rate);
        }
        printf("\n");
    }
    (void)m;
}

static int gantt_rows(sweep_csv *f, const char *source, const char *run, const st_program *p, int row0)
{
    for (int i = 0; i < p->n; i++) {
        const st_op *o = &p->op[i];
        if (st_engine_of(o->kind) == ST_ENG_NONE)
            continue;
        char label[64];
        snprintf(label, sizeof label, "%s %s s%d", source, run, o->stream);
        sweep_csv_str(f, "source", source);
        sweep_csv_str(f, "run", run);
        sweep_csv_int(f, "row", row0 + o->stream);
        sweep_csv_str(f, "row_label", label);
        sweep_csv_int(f, "stream", o->stream);
        sweep_csv_str(f, "op", o->name);
        sweep_csv_str(f, "kind", o->kind == ST_KERNEL ? "kernel" : o->kind == ST_H2D ? "H2D" : "D2H");
        sweep_csv_int(f, "chunk", o->chunk);
        sweep_csv_num(f, "start_ms", o->start * 1e3);
        sweep_csv_num(f, "end_ms", o->end * 1e3);
        sweep_csv_num(f, "dur_ms", (o->end - o->start) * 1e3);
        sweep_csv_num(f, "bytes", o->bytes);
        sweep_csv_num(f, "flops", o->flops);
        sweep_csv_end_row(f);
    }
    return row0 + p->n_streams;
}

static void json_program(json *j, const char *key, const st_program *p)
{
    json_obj(j, key);
    json_num(j, "makespan_ms", p->makespan * 1e3);
    json_int(j, "streams", p->n_streams);
    json_arr(j, "ops");
    for (int i = 0; i < p->n; i++) {
        const st_op *o = &p->op[i];
        json_obj(j, NULL);
        json_str(j, "name", o->name);
        json_str(j, "kind", o->kind == ST_KERNEL ? "kernel" : o->kind == ST_H2D ? "H2D" : o->kind == ST_D2H ? "D2H"
                                                   : o->kind == ST_RECORD        ? "record"
                                                                                 : "wait");
        json_int(j, "stream", o->stream);
        json_int(j, "chunk", o->chunk);
        json_num(j, "bytes", o->bytes);
        json_num(j, "flops", o->flops);
        json_num(j, "start_ms", o->start * 1e3);
        json_num(j, "end_ms", o->end * 1e3);
        json_end(j);
    }
    json_end_arr(j);
    json_end(j);
}

static void json_alloc_run(json *j, const char *key, const ca_trace *t, const alloc_run *run, uint64_t context)
{
    json_obj(j, key);
    json_uint(j, "context_bytes", context);
    json_uint(j, "capacity_bytes", run->capacity);
    json_bool(j, "invariants", run->ok);
    json_int(j, "oom_step", run->oom_step >= 0 ? run->oom_step + 1 : 0);
    if (run->gpu)
        json_bool(j, "used_equals_reserved", run->memory_ok);
    json_arr(j, "steps");
    for (int i = 0; i < run->n; i++) {
        const alloc_step *s = &run->steps[i];
        json_obj(j, NULL);
        json_int(j, "step", i + 1);
        json_int(j, "line", t->ops[s->op].line);
        json_str(j, "op", t->ops[s->op].text);
        json_uint(j, "allocated", s->st.allocated);
        json_uint(j, "requested", s->st.requested);
        json_uint(j, "reserved", s->st.reserved);
        json_uint(j, "nvidia_smi", s->st.reserved + context);
        json_uint(j, "free", s->st.free);
        json_uint(j, "largest_free", s->st.largest_free);
        json_num(j, "fragmentation", s->st.fragmentation);
        json_int(j, "segments", s->st.segments);
        if (run->gpu)
            json_int(j, "gpu_used_minus_baseline", s->gpu_used);
        json_str(j, "what_happened", s->note);
        json_end(j);
    }
    json_end_arr(j);
    json_end(j);
}

/* ---- the lesson ------------------------------------------------------------------------ */

int lesson05_main(int argc, char **argv)
{
    lesson_common c = {.mode = "sim"};
    static const char *const parts[] = {"all", "streams", "allocator", NULL};
    const char *part = "all", *trace_path = NULL, *gantt = NULL;
    long long chunks = 4, chunk_bytes = 64 * CA_MIB, streams = 2, iters = 1024, pcie = 0, capacity = 0;
    const lesson_opt opts[] = {
        {"part", OPT_CHOICE, &part, "all|streams|allocator", "which half of the lesson runs (default all)", 0, 0, parts},
        {"chunks", OPT_INT, &chunks, "N", "streams: chunks in the pipeline, each H2D -> kernel -> D2H (default 4)", 1, 64, NULL},
        {"chunk-bytes", OPT_SIZE, &chunk_bytes, "BYTES", "streams: bytes per chunk, a multiple of 4 (default 64m)", 4096,
         1LL << 30, NULL},
        {"streams", OPT_INT, &streams, "S", "streams: chunk c runs on stream c % S (default 2)", 1, ST_MAX_STREAMS, NULL},
        {"iters", OPT_INT, &iters, "K", "streams: fmaf steps per element, 2K flops per 8 bytes (default 1024)", 1, 65536, NULL},
        {"pcie", OPT_INT, &pcie, "GB/s", "streams: PCIe bandwidth per direction (default 25 on sm_80/sm_89, 50 on sm_90/h200)",
         1, 1000, NULL},
        {"gantt", OPT_STR, &gantt, "FILE", "streams: write the timelines as CSV (plots/lesson5_gantt.gp draws it)", 0, 0, NULL},
        {"trace", OPT_STR, &trace_path, "FILE", "allocator: replay FILE (alloc NAME BYTES [STREAM] / free NAME / empty_cache)",
         0, 0, NULL},
        {"capacity", OPT_SIZE, &capacity, "BYTES", "allocator, sim: device memory for segments (default: the preset's - context)",
         1LL << 20, 1LL << 50, NULL},
        LESSON_COMMON_OPTS(c),
        {0},
    };
    char err[1024];
    if (cli_parse(argc, argv, 1, opts, err, sizeof err))
        return lesson_usage_error(PROG, opts, err);
    if (c.help) {
        cli_usage(stdout, PROG, opts, 1);
        return LESSON_PASS;
    }
    if (c.arch && !sim_device_find(c.arch)) {
        snprintf(err, sizeof err, "--arch '%s': unknown device; choose sm_80 (A100), sm_89 (RTX 4090), sm_90 (H100) or h200",
                 c.arch);
        return lesson_usage_error(PROG, opts, err);
    }
    if (gantt && sweep_csv_check_dest("--gantt", gantt, err, sizeof err)) /* fail now, not after the run */
        return lesson_usage_error(PROG, opts, err);
    if (chunk_bytes % 4) {
        snprintf(err, sizeof err, "--chunk-bytes %lld is not a multiple of 4 (a chunk is whole floats)", chunk_bytes);
        return lesson_usage_error(PROG, opts, err);
    }
    if (chunks * chunk_bytes > 8LL << 30) {
        snprintf(err, sizeof err, "--chunks %lld x --chunk-bytes %lld = %lld bytes: the pipeline is limited to 8 GiB in all",
                 chunks, chunk_bytes, chunks * chunk_bytes);
        return lesson_usage_error(PROG, opts, err);
    }
    const int do_streams = strcmp(part, "allocator") != 0, do_alloc = strcmp(part, "streams") != 0;
    const int want_sim = strcmp(c.mode, "cuda") != 0, want_gpu = strcmp(c.mode, "sim") != 0;
    if (!want_sim && capacity) {
        snprintf(err, sizeof err, "--capacity applies to the simulated device; on the GPU cudaMalloc decides (--mode sim or compare)");
        return lesson_usage_error(PROG, opts, err);
    }

    ca_trace trace;
    memset(&trace, 0, sizeof trace);
    if (do_alloc) {
        int bad = trace_path ? ca_trace_load(&trace, trace_path, err, sizeof err)
                             : ca_trace_parse(&trace, ca_trace_default, "default trace", err, sizeof err);
        if (bad)
            return lesson_usage_error(PROG, opts, err);
    }

    /* the GPU first: its memory baseline must be read before anything is allocated */
    gpu_info gi;
    memset(&gi, 0, sizeof gi);
    if (want_gpu) {
#ifdef SIMTLAB_HAVE_CUDA
        if (gpu_open(&gi, err, sizeof err)) {
            fprintf(stderr, PROG ": --mode %s: %s\n", c.mode, err);
            ca_trace_free(&trace);
            return LESSON_USAGE;
        }
        if (!c.arch)
            c.arch = gpu_preset();
#else
        fprintf(stderr, PROG ": --mode %s: %s\n", c.mode, NO_CUDA_BACKEND);
        ca_trace_free(&trace);
        return LESSON_USAGE;
#endif
    }

    params a;
    memset(&a, 0, sizeof a);
    a.dev = sim_device_find(c.arch ? c.arch : "sm_90");
    a.chunks = (int)chunks;
    a.streams = (int)streams;
    a.iters = (int)iters;
    a.n = (int)(chunk_bytes / 4);
    a.chunk_bytes = (double)chunk_bytes;
    a.m.hbm_bytes_per_s = a.dev->hbm_bytes_per_s;
    a.m.fp32_flops_per_s = a.dev->fp32_flops_per_s;
    a.m.pcie_bytes_per_s = pcie ? (double)pcie * 1e9 : preset_pcie(a.dev);

    double table[1000];
    for (int i = 0; i < 1000; i++)
        table[i] = stream_fma_cpu(input_value(i), a.iters);

    int pass = 1;
    /* ---- (b) the allocator: sim, then the GPU ---- */
    const uint64_t total_mem = preset_memory(a.dev);
    alloc_run sim_run, gpu_run;
    memset(&sim_run, 0, sizeof sim_run);
    memset(&gpu_run, 0, sizeof gpu_run);
    if (do_alloc && want_gpu) {
#ifdef SIMTLAB_HAVE_CUDA
        gpu_dev_ctx gctx = {{0}};
        ca_device dev = {gpu_seg_malloc, gpu_seg_free, &gctx};
        if (replay(&trace, &dev, 1, &gi, c.detail, &gpu_run)) {
            fprintf(stderr, PROG ": out of host memory\n");
            return LESSON_FAIL;
        }
        gpu_run.capacity = gi.total - gi.baseline_used;
        if (gctx.err[0]) {
            gpu_run.failed = 1;
            snprintf(gpu_run.why, sizeof gpu_run.why, "%s", gctx.err);
        }
        pass &= gpu_run.ok && !gpu_run.failed && gpu_run.memory_ok;
#endif
    }
    if (do_alloc && want_sim) {
        ca_sim_device sd;
        ca_device dev;
        uint64_t cap = capacity ? (uint64_t)capacity : total_mem - CA_CONTEXT_BYTES;
        ca_sim_device_init(&sd, cap, &dev);
        if (replay(&trace, &dev, 0, NULL, c.detail, &sim_run)) {
            fprintf(stderr, PROG ": out of host memory\n");
            return LESSON_FAIL;
        }
        sim_run.capacity = cap;
        pass &= sim_run.ok && !sim_run.failed;
    }

    /* ---- (a) streams: the model, the kernel on the simulator, the GPU ---- */
    static st_program serial, multi;
    char why_serial[256] = "", why_multi[256] = "", why_gpu[256] = "";
    int model_ok = 1, gpu_timeline_ok = 1;
    sim_kernel_check kc;
    memset(&kc, 0, sizeof kc);
    gpu_stream_run gsr;
    memset(&gsr, 0, sizeof gsr);
    if (do_streams) {
        build_pipeline(&serial, &a, 1);
        build_pipeline(&multi, &a, a.streams);
        st_simulate(&serial, &a.m);
        st_simulate(&multi, &a.m);
        model_ok = st_check(&serial, &a.m, 1, 1e-12, why_serial, sizeof why_serial) &&
                   st_check(&multi, &a.m, 1, 1e-12, why_multi, sizeof why_multi);
        pass &= model_ok;
        if (want_sim) {
            int n_check = (1 << 24) / a.iters;
            n_check = n_check < 256 ? 256 : n_check > 16384 ? 16384 : n_check;
            if (n_check > a.n)
                n_check = a.n;
            if (run_sim_kernel(c.arch, c.detail, n_check, a.iters, table, &kc))
                pass = 0;
            pass &= kc.ok;
        }
        if (want_gpu) {
#ifdef SIMTLAB_HAVE_CUDA
            if (gpu_streams(&a, &serial, &multi, table, &gsr)) {
                pass = 0;
            } else {
                /* event timestamps have about 0.5 us resolution */
                gpu_timeline_ok = st_check(&gsr.serial, &a.m, 0, 2e-6, why_gpu, sizeof why_gpu) &&
                                  st_check(&gsr.multi, &a.m, 0, 2e-6, why_gpu, sizeof why_gpu);
                pass &= gpu_timeline_ok && gsr.check.pass;
            }
#endif
        }
    }

    /* ---- --gantt ---- */
    if (do_streams && gantt) {
        sweep_csv f;
        if (sweep_csv_open(&f, gantt)) {
            fprintf(stderr, PROG ": --gantt: %s\n", f.err);
            pass = 0;
        } else {
            char run[32];
            snprintf(run, sizeof run, "%d streams", a.streams);
            int row = gantt_rows(&f, "model", "1 stream", &serial, 0);
            row = gantt_rows(&f, "model", run, &multi, row);
            if (gsr.ran) {
                row = gantt_rows(&f, "gpu", "1 stream", &gsr.serial, row);
                gantt_rows(&f, "gpu", run, &gsr.multi, row);
            }
            if (sweep_csv_commit(&f)) {
                fprintf(stderr, PROG ": --gantt: %s\n", f.err);
                pass = 0;
            } else if (!c.json) {
                fprintf(stderr, PROG ": wrote %s (gnuplot -e \"dir='plots'; csv='%s'; out='lesson5_gantt'\" "
                        "plots/lesson5_gantt.gp)\n", gantt, gantt);
            }
        }
    }

    const uint64_t context_sim = CA_CONTEXT_BYTES, context_gpu = gi.baseline_used;
    char b1[32], b2[32];
    if (c.json) {
        json j;
        json_open(&j, stdout);
        json_int(&j, "lesson", 5);
        json_obj(&j, "params");
        json_str(&j, "mode", c.mode);
        json_str(&j, "arch", a.dev->name);
        json_str(&j, "part", part);
        json_int(&j, "chunks", a.chunks);
        json_num(&j, "chunk_bytes", a.chunk_bytes);
        json_int(&j, "streams", a.streams);
        json_int(&j, "iters", a.iters);
        json_num(&j, "pcie_bytes_per_s", a.m.pcie_bytes_per_s);
        json_num(&j, "hbm_bytes_per_s", a.m.hbm_bytes_per_s);
        json_num(&j, "fp32_flops_per_s", a.m.fp32_flops_per_s);
        json_str(&j, "trace", trace_path ? trace_path : "default");
        json_end(&j);
        if (do_streams) {
            json_obj(&j, "streams");
            json_program(&j, "model_serial", &serial);
            json_program(&j, "model_streams", &multi);
            json_bool(&j, "model_consistent", model_ok);
            if (gsr.ran) {
                json_program(&j, "gpu_serial", &gsr.serial);
                json_program(&j, "gpu_streams", &gsr.multi);
                json_bool(&j, "gpu_consistent", gpu_timeline_ok);
            }
            json_end(&j);
        }
        if (do_alloc) {
            json_obj(&j, "allocator");
            if (sim_run.ran)
                json_alloc_run(&j, "sim", &trace, &sim_run, context_sim);
            if (gpu_run.ran)
                json_alloc_run(&j, "cuda", &trace, &gpu_run, context_gpu);
            json_end(&j);
        }
        json_arr(&j, "kernels");
        if (kc.ran)
            lesson_json_kernel(&j, &kc.k, c.detail);
        json_end_arr(&j);
        if (kc.ran)
            lesson_json_check(&j, &kc.check);
        else if (gsr.ran)
            lesson_json_check(&j, &gsr.check);
        json_bool(&j, "pass", pass);
        json_close(&j);
    } else {
        printf("lesson 5: the PyTorch CUDA stack: streams, and the caching allocator\n");
        if (do_streams) {
            const st_op *k = &multi.op[1];
            printf("\n(a) streams: %d chunk%s of %s, each an H2D copy -> stream_fma_v1 (%d fmaf per element) -> a D2H copy\n",
                   a.chunks, a.chunks == 1 ? "" : "s", ca_mib((uint64_t)chunk_bytes, b1, sizeof b1), a.iters);
            printf("    the model (%s, %s): PCIe %.0f GB/s per direction (%s), one copy engine each way;\n"
                   "    HBM %.2f TB/s, fp32 %.1f TFLOP/s; kernels one at a time (each fills the GPU)\n",
                   a.dev->name, a.dev->card, a.m.pcie_bytes_per_s / 1e9,
                   pcie ? "--pcie" : a.dev->cc_major >= 9 ? "assumed: PCIe 5.0 x16" : "assumed: PCIe 4.0 x16",
                   a.m.hbm_bytes_per_s / 1e12, a.m.fp32_flops_per_s / 1e12);
            printf("    per chunk: H2D %.3f ms | kernel max(%.1f MB / HBM = %.3f ms, %.2f GFLOP / fp32 = %.3f ms) = %.3f ms, "
                   "%s-bound | D2H %.3f ms\n",
                   a.chunk_bytes / a.m.pcie_bytes_per_s * 1e3, k->bytes / 1e6, k->bytes / a.m.hbm_bytes_per_s * 1e3,
                   k->flops / 1e9, k->flops / a.m.fp32_flops_per_s * 1e3, st_duration(&a.m, k) * 1e3,
                   st_compute_bound(&a.m, k) ? "compute" : "memory", a.chunk_bytes / a.m.pcie_bytes_per_s * 1e3);
            double bound = 0;
            st_engine be = ST_ENG_COMPUTE;
            for (int e = 0; e < ST_NENGINES; e++)
                if (st_engine_busy(&multi, (st_engine)e) > bound) {
                    bound = st_engine_busy(&multi, (st_engine)e);
                    be = (st_engine)e;
                }
            printf("\n    model, 1 stream : %.3f ms (every op after the last)\n", serial.makespan * 1e3);
            st_print_timeline(stdout, &serial, serial.makespan, TIMELINE_WIDTH, "      ");
            printf("    model, %d stream%s: %.3f ms, %.2fx faster; no schedule beats %.3f ms (the %s engine's work)\n",
                   a.streams, a.streams == 1 ? " " : "s", multi.makespan * 1e3, serial.makespan / multi.makespan,
                   bound * 1e3, st_engine_name(be));
            st_print_timeline(stdout, &multi, serial.makespan, TIMELINE_WIDTH, "      ");
            if (gsr.ran) {
                printf("    GPU %s, 1 stream : %.3f ms\n", gi.name, gsr.serial.makespan * 1e3);
                st_print_timeline(stdout, &gsr.serial, gsr.serial.makespan, TIMELINE_WIDTH, "      ");
                printf("    GPU, %d stream%s: %.3f ms, %.2fx faster (the model: %.2fx)\n", a.streams,
                       a.streams == 1 ? " " : "s", gsr.multi.makespan * 1e3, gsr.serial.makespan / gsr.multi.makespan,
                       serial.makespan / multi.makespan);
                st_print_timeline(stdout, &gsr.multi, gsr.serial.makespan, TIMELINE_WIDTH, "      ");
            }
            printf("    (H/h host-to-device copy, K/k kernel, D/d device-to-host copy; capitals for even chunks)\n");
            printf("\n    the %d-stream schedule%s:\n", a.streams, gsr.ran ? ", model and GPU (CUDA events)" : "");
            print_op_table(&multi, gsr.ran ? &gsr.multi : NULL, &a.m);
            printf("    model timelines consistent (in order per stream, one op per engine at a time, durations = "
                   "roofline): %s\n", model_ok ? "OK" : why_serial[0] ? why_serial : why_multi);
            if (gsr.ran)
                printf("    GPU timelines in order per stream, waits after their events: %s\n",
                       gpu_timeline_ok ? "OK" : why_gpu);
            if (want_gpu && !gsr.ran && gsr.err[0])
                printf("    [cuda] %s\n", gsr.err);
            if (kc.ran) {
                printf("    [sim] stream_fma_v1 at n = %d on the simulator: HBM read %llu B + write %llu B = %.2f bytes "
                       "per element (the model: 8)%s\n",
                       kc.n, (unsigned long long)kc.k.sim.hbm_read_bytes, (unsigned long long)kc.k.sim.hbm_write_bytes,
                       (double)(kc.k.sim.hbm_read_bytes + kc.k.sim.hbm_write_bytes) / kc.n,
                       kc.k.sim.hbm_read_bytes + kc.k.sim.hbm_write_bytes == 8ull * (uint64_t)kc.n ? "" : " DIFFERS");
                if (c.detail)
                    printf("          %llu + %llu sectors in %llu + %llu warp requests\n",
                           (unsigned long long)kc.k.sim.global_ld_sectors, (unsigned long long)kc.k.sim.global_st_sectors,
                           (unsigned long long)kc.k.sim.global_ld_requests, (unsigned long long)kc.k.sim.global_st_requests);
                printf("          check vs CPU reference (double): max abs err %.3g, max rel err %.3g -> %s\n",
                       kc.check.max_abs_err, kc.check.max_rel_err, kc.check.pass ? "PASS" : "FAIL");
            }
            if (gsr.ran)
                printf("    [cuda] results of all %lld elements vs CPU reference: max abs err %.3g, max rel err %.3g -> %s\n",
                       (long long)a.n * a.chunks, gsr.check.max_abs_err, gsr.check.max_rel_err,
                       gsr.check.pass ? "PASS" : "FAIL");
        }
        if (do_alloc) {
            printf("\n(b) the caching allocator (PyTorch 2.x rules): %s, %d steps\n",
                   trace_path ? trace_path : "the built-in trace", trace.steps);
            if (sim_run.ran) {
                printf("    [sim] a %s device of %.0f MiB (nvidia-smi's total), %.0f MiB for segments; CUDA context "
                       "assumed %.0f MiB\n          (CA_CONTEXT_BYTES: it varies with the driver and the GPU; "
                       "--mode cuda measures it)\n",
                       a.dev->name, (double)total_mem / CA_MIB, (double)sim_run.capacity / CA_MIB,
                       (double)context_sim / CA_MIB);
                print_alloc_run(&trace, &sim_run, NULL, context_sim, c.detail);
                printf("    invariants (allocated <= reserved, blocks tile their segments, free neighbours merged, each "
                       "live tensor owns one block) at every step: %s\n", sim_run.ok ? "OK" : sim_run.why);
                if (sim_run.partial_checks)
                    printf("    (with more than %d segments or %d blocks, %d steps were checked incrementally: the step's tensor owns "
                           "its block, the totals match; every invariant at steps 1, 2, 4, 8, ... and the last)\n",
                           CA_REPLAY_FULL_CHECK_SEGMENTS, CA_REPLAY_FULL_CHECK_BLOCKS, sim_run.partial_checks);
            }
            if (gpu_run.ran) {
                printf("    [cuda] %s: before the first cudaMalloc cudaMemGetInfo says %s used of %s: the context (and "
                       "anything else on the GPU)\n",
                       gi.name, ca_mib(gi.baseline_used, b1, sizeof b1), ca_mib(gi.total, b2, sizeof b2));
                print_alloc_run(&trace, &gpu_run, sim_run.ran ? &sim_run : NULL, context_gpu, c.detail);
                printf("    invariants at every step: %s; the device's used memory grew by exactly what is reserved: %s\n",
                       gpu_run.ok && !gpu_run.failed ? "OK" : gpu_run.why, gpu_run.memory_ok ? "OK" : "NO (see the GPU column)");
            }
        }
        printf("\n%s\n", pass ? "PASS" : "FAIL");
    }
    free(sim_run.steps);
    free(gpu_run.steps);
    ca_trace_free(&trace);
    return pass ? LESSON_PASS : LESSON_FAIL;
}
