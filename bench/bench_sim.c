/* bench/bench_sim.c - what the simulator costs, measured in one process.
 *
 *   build/bench/bench_sim [reps] [--json]
 *
 * Every ratio is measured by running its two sides alternately, A B A B ...,
 * `reps` times each (default 5) after one untimed warm-up run of each side,
 * in this one process: a slow spell of the shared machine then hits both
 * sides alike. Reported: median ratio = median(A) / median(B) and min ratio
 * = min(A) / min(B), with the medians and minima of each side. The ratios:
 *
 *   hooks_overhead      flash v2 (d = 64, N = 1024, one head), count mode /
 *                       the same attention.cu built without instrumentation
 *                       (bench_attention_plain), both through sim_launch, 1 worker
 *   detail_over_count   the same instrumented launch, detailed / count mode
 *   shared_over_global  ns per __shared__ load / ns per global load
 *                       (bench_shared_loads, bench_global_loads: one kernel shape), 1 worker
 *   vs_plain_c          flash v2 count mode / plain C attention at -O3
 *                       -march=native (attention_c.c), 1 worker against 1
 *                       thread; vs_plain_c_2_workers: 2 against 2
 *   barrier_ns          ns per thread per __syncthreads (256-thread blocks, 1 worker);
 *                       shuffle_ns, a figure: ns per thread per __shfl_xor_sync, the same grid
 *   speedup_2_workers   lesson 2's scale kernel (n = 2^24), 1 worker / 2 workers,
 *                       against the machine's own ceiling measured in the same
 *                       loop: plain C arithmetic, 1 thread / 2 threads (all
 *                       four interleaved); met when its median reaches 90 %
 *                       of the ceiling's median. With another process on the
 *                       second core the ceiling is near 1 and the row says nothing.
 *
 * barrier_ns and the two figures below have one side: median and minimum of
 * their `reps` runs.
 *
 * and two figures: lesson4_default_s, the wall time of `lesson 4 --mode sim`
 * (this build tree's binary, spawned), and flash_v1_detail_s, flash v1 alone
 * at lesson 4's defaults in detailed mode (what --mode compare spends on its
 * simulator side). Targets are printed beside each figure; a miss is
 * printed, not an error (exit 0; exit 1 only if a run fails or computes a
 * wrong result). Markdown by default, one JSON object with --json (progress
 * goes to stderr).
 */
#define _GNU_SOURCE
#ifndef BENCH_INLINE_HOOKS
#define BENCH_INLINE_HOOKS 0 /* kernel units assembled by simtlab-as (CMakeLists.txt: SIMTLAB_INLINE_HOOKS) */
#endif
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "attention_c.h"
#include "bench_kernels.h"
#include "lesson04.h"
#include "memory.h"
#include "scale.h"

extern char **environ;

/* the uninstrumented twin (bench_attention_plain, attention_plain_names.h) */
int attn_flash_v2_d64_launch_sim_plain(const simt_cfg *cfg, float *O, float *l, float *m, float *part, const float *Q,
                                       const float *K, const float *V, int N, int Bc, float scale, int causal,
                                       int whole, int splits);

#ifndef SIMTLAB_LESSON_BIN
#define SIMTLAB_LESSON_BIN "lesson"
#endif

/* targets (issue 14) */
#define T_HOOKS 3.0
#define T_DETAIL 2.0
#define T_SHARED 1.3
#define T_PLAIN_C 6.0
#define T_BARRIER_NS 5.0
#define T_SPEEDUP_OF_CEILING 0.90
#define T_LESSON4_S 1.5
#define T_V1_DETAIL_S 3.0

#define MAXREPS 100
static int reps = 5;
static int maxw = 1;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void set_workers(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

static void progress(const char *what)
{
    fprintf(stderr, "bench_sim: %s\n", what);
}

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (x) {                                                                                   \
            fprintf(stderr, "bench_sim: %s failed: %s\n", #x, sim_last_error());                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void cpu_model(char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(out, n, "unknown CPU");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c[strcspn(c, "\n")] = 0;
                snprintf(out, n, "%s", c + 2);
            }
            break;
        }
    fclose(f);
}

/* ---- statistics ------------------------------------------------------------ */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median_of(const double *x, int n)
{
    double s[MAXREPS];
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}
static double min_of(const double *x, int n)
{
    double m = x[0];
    for (int i = 1; i < n; i++)
        m = x[i] < m ? x[i] : m;
    return m;
}

typedef struct side {
    double t[MAXREPS]; /* ms per run */
    double med, min;
} side;
static void side_stats(side *s)
{
    s->med = median_of(s->t, reps);
    s->min = min_of(s->t, reps);
}

/* One run of a side: returns its time in ms. */
typedef double (*run_fn)(void *ctx);

/* A B A B ... after one warm-up of each */
static void interleave(run_fn fa, void *ca, side *a, run_fn fb, void *cb, side *b)
{
    fa(ca);
    fb(cb);
    for (int r = 0; r < reps; r++) {
        a->t[r] = fa(ca);
        b->t[r] = fb(cb);
    }
    side_stats(a);
    side_stats(b);
}

/* ---- results ----------------------------------------------------------------- */
typedef struct result {
    const char *key;  /* JSON name */
    const char *what; /* table text */
    double median, min;
    double target;
    int at_least;    /* target is a lower bound (speedup) */
    const char *unit; /* "x", " ns", " s" */
    char target_text[96];
    int met;
} result;

static result ratios[8], figures_t[2];
static int n_ratios;

static result *add_result(result *r, const char *key, const char *what, double median, double min, double target,
                          int at_least, const char *unit)
{
    r->key = key;
    r->what = what;
    r->median = median;
    r->min = min;
    r->target = target;
    r->at_least = at_least;
    r->unit = unit;
    snprintf(r->target_text, sizeof r->target_text, "%s %g%s", at_least ? ">=" : "<=", target, unit);
    r->met = at_least ? median >= target : median <= target;
    return r;
}

/* ---- flash v2, one head ------------------------------------------------------- */
typedef struct flash {
    attn_params a;
    float *q, *k, *v; /* host */
    double *ref;
    float *dq, *dk, *dv, *dout, *dl, *dm, *dpart; /* simulator */
    simt_cfg cfg;
    float scale;
    int whole, splits;
    int workers, detailed, plain; /* plain: the uninstrumented twin */
} flash;

static void flash_setup(flash *f)
{
    memset(f, 0, sizeof *f);
    f->a = (attn_params){.B = 1, .H = 1, .N = 1024, .d = 64, .sram = 48 << 10, .versions = 4, .arch = "sm_90"};
    char err[1024];
    if (attn_params_check(&f->a, err, sizeof err)) {
        fprintf(stderr, "bench_sim: %s\n", err);
        exit(1);
    }
    attn_make_inputs(&f->a, &f->q, &f->k, &f->v, &f->ref);
    if (!f->q || !f->k || !f->v || !f->ref)
        exit(1);
    const int N = f->a.N, d = f->a.d;
    const size_t nd = (size_t)N * d;
    attn_shape sh = {.B = 1, .H = 1, .N = N, .d = d, .v2_br = f->a.v2_br, .v2_bc = f->a.v2_bc,
                     .v2_whole = f->a.v2_whole, .v2_splits = f->a.v2_splits};
    const long long tiles = attn_v2_grid(&sh, &f->whole, &f->splits);
    if (f->splits != 1) { /* one head: 6 row tiles, a fraction of one wave, never split */
        fprintf(stderr, "bench_sim: flash v2 planned %d splits of %lld tiles; expected none\n", f->splits, tiles);
        exit(1);
    }
    f->scale = 1.0f / sqrtf((float)d);
    f->cfg = (simt_cfg){.grid = {(unsigned)((N + f->a.v2_br - 1) / f->a.v2_br), 1, 1},
                        .block = {(unsigned)f->a.v2_threads, 1, 1},
                        .shared_bytes = attn_flash_v2_shared_bytes(d, f->a.v2_bc)};
    CHECK(sim_malloc((void **)&f->dq, nd * 4, "Q"));
    CHECK(sim_malloc((void **)&f->dk, nd * 4, "K"));
    CHECK(sim_malloc((void **)&f->dv, nd * 4, "V"));
    CHECK(sim_malloc((void **)&f->dout, nd * 4, "O"));
    CHECK(sim_malloc((void **)&f->dl, (size_t)N * 4, "l"));
    CHECK(sim_malloc((void **)&f->dm, (size_t)N * 4, "m"));
    CHECK(sim_malloc((void **)&f->dpart, 64, "parts")); /* unused: no split tiles */
    CHECK(sim_memcpy(f->dq, f->q, nd * 4, SIM_COPY_H2D));
    CHECK(sim_memcpy(f->dk, f->k, nd * 4, SIM_COPY_H2D));
    CHECK(sim_memcpy(f->dv, f->v, nd * 4, SIM_COPY_H2D));
}

/* one launch; the kernel's own wall time (sim_last_launch), as lesson 4 reports it */
static double flash_run(void *p)
{
    flash *f = p;
    set_workers(f->workers);
    sim_set_detailed(f->detailed);
    CHECK(sim_set_max_dynamic_shared(f->cfg.shared_bytes));
    if (f->plain)
        CHECK(attn_flash_v2_d64_launch_sim_plain(&f->cfg, f->dout, f->dl, f->dm, f->dpart, f->dq, f->dk, f->dv,
                                                 f->a.N, f->a.v2_bc, f->scale, 0, f->whole, f->splits));
    else
        CHECK(attn_flash_v2_d64_launch_sim(&f->cfg, f->dout, f->dl, f->dm, f->dpart, f->dq, f->dk, f->dv, f->a.N,
                                           f->a.v2_bc, f->scale, 0, f->whole, f->splits));
    return sim_last_launch()->wall_ms;
}

/* max |o - ref| relative to the lesson's tolerance; exits when O fails lesson 4's check */
static void check_o(const char *who, const float *o, const double *ref, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs(o[i] - ref[i]) <= ATTN_ATOL + ATTN_RTOL * fabs(ref[i]))) {
            fprintf(stderr, "bench_sim: %s: O[%zu] = %.9g, reference %.9g: wrong result\n", who, i, o[i], ref[i]);
            exit(1);
        }
}

/* runs f once more from a zeroed O and returns O (caller frees) */
static float *flash_output(flash *f)
{
    const size_t nd = (size_t)f->a.N * f->a.d;
    float *o = malloc(nd * sizeof *o);
    CHECK(sim_memset(f->dout, 0, nd * 4));
    flash_run(f);
    CHECK(sim_memcpy(o, f->dout, nd * 4, SIM_COPY_D2H));
    return o;
}

/* ---- plain C attention ---------------------------------------------------------- */
typedef struct plain_attn {
    const flash *f;
    float *o;
    int threads;
} plain_attn;
static double plain_attn_run(void *p)
{
    plain_attn *c = p;
    double t0 = now_ms();
    attention_c(c->o, c->f->q, c->f->k, c->f->v, c->f->a.N, c->f->a.d, c->threads);
    return now_ms() - t0;
}

/* ---- load kernels ------------------------------------------------------------------ */
enum { LD_BLOCKS = 16, LD_THREADS = 256, LD_ITERS = 4096 };
typedef struct loads {
    float *out, *x;
    int shared;
} loads;
static double loads_run(void *p)
{
    loads *c = p;
    set_workers(1);
    sim_set_detailed(0);
    simt_cfg cfg = {.grid = {LD_BLOCKS, 1, 1}, .block = {LD_THREADS, 1, 1}};
    if (c->shared)
        CHECK(bench_shared_loads_launch_sim(&cfg, c->out, c->x, LD_ITERS));
    else
        CHECK(bench_global_loads_launch_sim(&cfg, c->out, c->x, LD_ITERS));
    return sim_last_launch()->wall_ms;
}

/* ---- lesson 2 and the machine's ceiling ------------------------------------------- */
typedef struct scale_ctx {
    float *dy, *dx;
    int n, workers;
} scale_ctx;
static double scale_run(void *p)
{
    scale_ctx *c = p;
    set_workers(c->workers);
    sim_set_detailed(0);
    simt_cfg cfg = {.grid = {(unsigned)((c->n + 255) / 256), 1, 1}, .block = {256, 1, 1}};
    CHECK(scale_v1_launch_sim(&cfg, c->dy, c->dx, c->n));
    return sim_last_launch()->wall_ms;
}

/* plain C arithmetic on `threads` OpenMP threads, no memory traffic: how well
 * this machine's cores scale at the moment of the run */
static volatile double spin_sink;
__attribute__((noinline)) static double spin_run(void *p)
{
    const int threads = *(const int *)p;
    const long iters = 100000000L;
    double t0 = now_ms(), sum = 0;
    (void)threads;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
#endif
    for (long i = 0; i < iters; i++)
        sum += (double)(i % 7) * 1.0000001;
    spin_sink = sum;
    return now_ms() - t0;
}

/* ---- lesson 4's default run, spawned ------------------------------------------------ */
static double lesson4_run(void)
{
    char *argv[] = {"lesson", "4", "--mode", "sim", NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double t0 = now_ms();
    int rc = posix_spawn(&pid, SIMTLAB_LESSON_BIN, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        fprintf(stderr, "bench_sim: cannot run %s: %s\n", SIMTLAB_LESSON_BIN, strerror(rc));
        exit(1);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench_sim: %s 4 --mode sim failed (status 0x%x)\n", SIMTLAB_LESSON_BIN, st);
        exit(1);
    }
    return (now_ms() - t0) / 1e3;
}

/* ---- output --------------------------------------------------------------------------- */
typedef struct figure {
    const char *key, *what;
    double median, min;
} figure;
static figure figs[32];
static int n_figs;
static void add_fig(const char *key, const char *what, const side *s, double scale)
{
    figs[n_figs++] = (figure){key, what, s->med * scale, s->min * scale};
}

static void print_ratio_md(const result *r)
{
    char tgt[128];
    snprintf(tgt, sizeof tgt, "%s", r->target_text);
    if (r->met)
        printf("| %s | %.3g%s | %.3g%s | %s | yes |\n", r->what, r->median, r->unit, r->min, r->unit, tgt);
    else
        printf("| %s | %.3g%s | %.3g%s | %s | no: %s by %.0f %% |\n", r->what, r->median, r->unit, r->min, r->unit,
               tgt, r->at_least ? "under" : "over",
               100.0 * (r->at_least ? (r->target - r->median) / r->target : (r->median - r->target) / r->target));
}

static void json_result(const result *r, const char *extra, int last)
{
    printf("    \"%s\": {\"median\": %.6g, \"min\": %.6g, %s\"target\": %.6g, \"target_is\": \"%s\", \"met\": %s}%s\n",
           r->key, r->median, r->min, extra ? extra : "", r->target, r->at_least ? "min" : "max",
           r->met ? "true" : "false", last ? "" : ",");
}

/* ---- ns per thread per barrier or shuffle: 64 blocks x 256 threads x 200 each ---- */
enum { PT_BLOCKS = 64, PT_THREADS = 256, PT_ITERS = 200 };
typedef int (*pt_launch)(const simt_cfg *cfg, void *out);
static int launch_barriers(const simt_cfg *cfg, void *out) { return bench_barriers_launch_sim(cfg, out, PT_ITERS); }
static int launch_shuffles(const simt_cfg *cfg, void *out) { return bench_shuffles_launch_sim(cfg, out, PT_ITERS); }
static void per_thread_ns(side *s, pt_launch launch)
{
    void *d_out;
    CHECK(sim_malloc(&d_out, 64, "out"));
    simt_cfg cfg = {.grid = {PT_BLOCKS, 1, 1}, .block = {PT_THREADS, 1, 1}};
    set_workers(1);
    sim_set_detailed(0);
    CHECK(launch(&cfg, d_out)); /* warm-up */
    for (int r = 0; r < reps; r++) {
        CHECK(launch(&cfg, d_out));
        s->t[r] = sim_last_launch()->wall_ms * 1e6 / ((double)PT_BLOCKS * PT_THREADS * PT_ITERS); /* ns */
    }
    side_stats(s);
    sim_free(d_out);
}

int main(int argc, char **argv)
{
    int as_json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            as_json = 1;
        else if (atoi(argv[i]) > 0)
            reps = atoi(argv[i]) < MAXREPS ? atoi(argv[i]) : MAXREPS;
        else {
            fprintf(stderr, "usage: bench_sim [reps (default 5)] [--json]\n");
            return 2;
        }
    }
    char cpu[128];
    cpu_model(cpu, sizeof cpu);
    struct utsname u;
    uname(&u);
    time_t tt = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
    maxw = sim_worker_count();
    int w2 = maxw >= 2 ? 2 : 1;
    double t_start = now_ms();

    /* ---- flash v2, N = 1024, d = 64, one head ---- */
    progress("flash v2 inputs and reference");
    flash inst, twin, det;
    flash_setup(&inst);
    inst.workers = 1;
    twin = inst;
    twin.plain = 1;
    det = inst;
    det.detailed = 1;
    const size_t nd = (size_t)inst.a.N * inst.a.d;
    float *o_inst = flash_output(&inst), *o_twin = flash_output(&twin), *o_det = flash_output(&det);
    check_o("flash v2 (count mode)", o_inst, inst.ref, nd);
    check_o("flash v2 (uninstrumented twin)", o_twin, inst.ref, nd);
    check_o("flash v2 (detailed)", o_det, inst.ref, nd);
    double twin_diff = 0;
    for (size_t i = 0; i < nd; i++)
        twin_diff = fmax(twin_diff, fabs((double)o_inst[i] - o_twin[i]));
    const int twin_same = !memcmp(o_inst, o_twin, nd * sizeof *o_inst);
    /* the twin counts nothing: check that it really ran without hooks */
    flash_run(&twin);
    const uint64_t twin_bytes = sim_last_launch()->c.hbm_read_bytes + sim_last_launch()->c.sram_read_bytes;
    flash_run(&inst);
    const uint64_t inst_bytes = sim_last_launch()->c.hbm_read_bytes + sim_last_launch()->c.sram_read_bytes;

    progress("hooks_overhead: count mode / uninstrumented twin");
    side s_inst, s_twin;
    interleave(flash_run, &inst, &s_inst, flash_run, &twin, &s_twin);
    add_result(&ratios[n_ratios++], "hooks_overhead",
               "hooks_overhead: flash v2 d64, N 1024, 1 head, count mode / uninstrumented twin, 1 worker",
               s_inst.med / s_twin.med, s_inst.min / s_twin.min, T_HOOKS, 0, "x");

    progress("detail_over_count: detailed / count mode");
    side s_det, s_cnt;
    interleave(flash_run, &det, &s_det, flash_run, &inst, &s_cnt);
    add_result(&ratios[n_ratios++], "detail_over_count", "detail_over_count: the same launch, detailed / count mode",
               s_det.med / s_cnt.med, s_det.min / s_cnt.min, T_DETAIL, 0, "x");

    /* ---- shared against global loads ---- */
    progress("shared_over_global");
    loads ls = {0}, lg = {0};
    CHECK(sim_malloc((void **)&ls.out, LD_BLOCKS * LD_THREADS * 4, "out"));
    CHECK(sim_malloc((void **)&ls.x, (size_t)LD_BLOCKS * BENCH_WINDOW * 4, "x"));
    lg = ls;
    ls.shared = 1;
    side s_sh, s_gl;
    interleave(loads_run, &ls, &s_sh, loads_run, &lg, &s_gl);
    const double loads_n = (double)LD_BLOCKS * LD_THREADS * LD_ITERS;
    /* the same loads on both sides, counted where they went */
    loads_run(&ls);
    const uint64_t sh_rd = sim_last_launch()->c.sram_read_bytes, sh_hbm = sim_last_launch()->c.hbm_read_bytes;
    loads_run(&lg);
    const uint64_t gl_rd = sim_last_launch()->c.hbm_read_bytes, gl_sram = sim_last_launch()->c.sram_read_bytes;
    if (sh_rd != (uint64_t)loads_n * 4 || gl_rd != (uint64_t)loads_n * 4 || sh_hbm || gl_sram) {
        fprintf(stderr, "bench_sim: load kernels counted shared %llu / global %llu bytes read, want %llu each\n",
                (unsigned long long)sh_rd, (unsigned long long)gl_rd, (unsigned long long)loads_n * 4);
        return 1;
    }
    add_result(&ratios[n_ratios++], "shared_over_global",
               "shared_over_global: ns per shared load / ns per global load, 1 worker", s_sh.med / s_gl.med,
               s_sh.min / s_gl.min, T_SHARED, 0, "x");

    /* ---- against plain C attention ---- */
    progress("vs_plain_c: 1 worker / 1 thread, 2 workers / 2 threads");
    plain_attn p1 = {&inst, malloc(nd * sizeof(float)), 1}, p2 = p1;
    p2.o = malloc(nd * sizeof(float));
    p2.threads = w2;
    flash inst2 = inst;
    inst2.workers = w2;
    side s_v1, s_p1, s_v2, s_p2;
    interleave(flash_run, &inst, &s_v1, plain_attn_run, &p1, &s_p1);
    interleave(flash_run, &inst2, &s_v2, plain_attn_run, &p2, &s_p2);
    check_o("plain C attention, 1 thread", p1.o, inst.ref, nd);
    check_o("plain C attention, 2 threads", p2.o, inst.ref, nd);
    add_result(&ratios[n_ratios++], "vs_plain_c",
               "vs_plain_c: flash v2 count mode / plain C -O3 -march=native, 1 worker / 1 thread",
               s_v1.med / s_p1.med, s_v1.min / s_p1.min, T_PLAIN_C, 0, "x");
    add_result(&ratios[n_ratios++], "vs_plain_c_2_workers",
               w2 == 2 ? "vs_plain_c, 2 workers / 2 threads" : "vs_plain_c, 1 worker / 1 thread (no second core)",
               s_v2.med / s_p2.med, s_v2.min / s_p2.min, T_PLAIN_C, 0, "x");

    /* ---- barriers and shuffles: 64 blocks x 256 threads x 200 of them, one worker ---- */
    progress("barrier_ns, shuffle_ns");
    side s_bar, s_shfl;
    per_thread_ns(&s_bar, launch_barriers);
    per_thread_ns(&s_shfl, launch_shuffles); /* a figure, no target */
    add_result(&ratios[n_ratios++], "barrier_ns", "barrier_ns: ns per thread per __syncthreads, 256-thread blocks, 1 worker",
               s_bar.med, s_bar.min, T_BARRIER_NS, 0, " ns");

    /* ---- 2 workers over 1, and the machine's own ceiling, all four interleaved ---- */
    progress("speedup_2_workers and the machine's ceiling");
    side s_sc1, s_sc2, s_sp1, s_sp2;
    {
        const int n = 1 << 24;
        scale_ctx c1 = {0}, c2;
        float *x = malloc((size_t)n * 4);
        for (int i = 0; i < n; i++)
            x[i] = (float)(i % 1000);
        CHECK(sim_malloc((void **)&c1.dx, (size_t)n * 4, "x"));
        CHECK(sim_malloc((void **)&c1.dy, (size_t)n * 4, "y"));
        CHECK(sim_memcpy(c1.dx, x, (size_t)n * 4, SIM_COPY_H2D));
        c1.n = n;
        c1.workers = 1;
        c2 = c1;
        c2.workers = w2;
        int one = 1;
        scale_run(&c1), scale_run(&c2), spin_run(&one), spin_run((void *)&w2);
        for (int r = 0; r < reps; r++) {
            s_sc1.t[r] = scale_run(&c1);
            s_sc2.t[r] = scale_run(&c2);
            s_sp1.t[r] = spin_run(&one);
            s_sp2.t[r] = spin_run((void *)&w2);
        }
        side_stats(&s_sc1), side_stats(&s_sc2), side_stats(&s_sp1), side_stats(&s_sp2);
        float *y = malloc((size_t)n * 4);
        CHECK(sim_memcpy(y, c1.dy, (size_t)n * 4, SIM_COPY_D2H));
        for (int i = 0; i < n; i++)
            if (y[i] != 2.0f * x[i]) {
                fprintf(stderr, "bench_sim: lesson 2's y[%d] = %g, want %g\n", i, y[i], 2.0f * x[i]);
                return 1;
            }
        free(x), free(y);
        sim_free(c1.dx), sim_free(c1.dy);
    }
    const double ceiling_med = s_sp1.med / s_sp2.med, ceiling_min = s_sp1.min / s_sp2.min;
    result *sp = add_result(&ratios[n_ratios++], "speedup_2_workers", "speedup_2_workers: lesson 2 (n = 2^24), 1 worker / 2 workers",
                            s_sc1.med / s_sc2.med, s_sc1.min / s_sc2.min, T_SPEEDUP_OF_CEILING * ceiling_med, 1, "x");
    snprintf(sp->target_text, sizeof sp->target_text, ">= 90 %% of the machine's %.2fx = %.2fx", ceiling_med,
             sp->target);

    /* ---- lesson 4 ---- */
    progress("lesson4_default_s: lesson 4 --mode sim, spawned");
    side s_l4;
    lesson4_run(); /* warm-up: page cache */
    for (int r = 0; r < reps; r++)
        s_l4.t[r] = lesson4_run();
    side_stats(&s_l4);
    add_result(&figures_t[0], "lesson4_default_s",
               "lesson4_default_s: `lesson 4 --mode sim` (B 1, H 2, N 1024, d 64; all versions), wall time", s_l4.med,
               s_l4.min, T_LESSON4_S, 0, " s");

    progress("flash_v1_detail_s: flash v1 alone at lesson 4's defaults, detailed");
    side s_v1d;
    {
        attn_params a = {.B = 1, .H = 2, .N = 1024, .d = 64, .sram = 48 << 10, .versions = 2, .arch = "sm_90"};
        char err[1024];
        if (attn_params_check(&a, err, sizeof err)) {
            fprintf(stderr, "bench_sim: %s\n", err);
            return 1;
        }
        float *q, *k, *v;
        double *ref;
        attn_make_inputs(&a, &q, &k, &v, &ref);
        backend be;
        if (be_open(&be, BACKEND_SIM, "sm_90", 1))
            return 1;
        set_workers(maxw); /* as the lesson runs: every worker */
        for (int r = 0; r < reps; r++) {
            attn_version_result res[3];
            be_clear_kernels(&be);
            sim_set_detailed(1);
            if (attn_run(&be, &a, q, k, v, ref, res) || !res[1].ok || !res[1].check.pass) {
                fprintf(stderr, "bench_sim: flash v1 (detailed) failed\n");
                return 1;
            }
            s_v1d.t[r] = res[1].time_ms / 1e3; /* attn_flash_v1_init + attn_flash_v1 */
        }
        side_stats(&s_v1d);
        be_close(&be);
        free(q), free(k), free(v), free(ref);
    }
    add_result(&figures_t[1], "flash_v1_detail_s",
               "flash_v1_detail_s: flash v1 at lesson 4's defaults, detailed (compare --detail's sim part), 2 workers",
               s_v1d.med, s_v1d.min, T_V1_DETAIL_S, 0, " s");
    sim_set_detailed(0);
    const double total_s = (now_ms() - t_start) / 1e3;

    add_fig("flash_v2_count_1w_ms", "flash v2, count mode, 1 worker", &s_inst, 1);
    add_fig("flash_v2_plain_twin_1w_ms", "flash v2, uninstrumented twin, 1 worker", &s_twin, 1);
    add_fig("flash_v2_detailed_1w_ms", "flash v2, detailed mode, 1 worker", &s_det, 1);
    add_fig("flash_v2_count_2w_ms", "flash v2, count mode, 2 workers", &s_v2, 1);
    add_fig("plain_c_attention_1t_ms", "plain C attention, 1 thread", &s_p1, 1);
    add_fig("plain_c_attention_2t_ms", "plain C attention, 2 threads", &s_p2, 1);
    add_fig("shared_load_ns", "ns per shared load (bench_shared_loads), 1 worker", &s_sh, 1e6 / loads_n);
    add_fig("global_load_ns", "ns per global load (bench_global_loads), 1 worker", &s_gl, 1e6 / loads_n);
    add_fig("barrier_ns", "ns per thread per __syncthreads, 1 worker", &s_bar, 1);
    add_fig("shuffle_ns", "ns per thread per __shfl_xor_sync, 256-thread blocks, 1 worker", &s_shfl, 1);
    add_fig("lesson2_1w_ms", "lesson 2, n = 2^24, 1 worker", &s_sc1, 1);
    add_fig("lesson2_2w_ms", "lesson 2, n = 2^24, 2 workers", &s_sc2, 1);
    add_fig("spin_1t_ms", "plain C arithmetic, 1 thread", &s_sp1, 1);
    add_fig("spin_2t_ms", "plain C arithmetic, 2 threads", &s_sp2, 1);
    add_fig("lesson4_default_s", "lesson 4 --mode sim, wall time (s)", &s_l4, 1);
    add_fig("flash_v1_detail_s", "flash v1, detailed, lesson 4 defaults (s)", &s_v1d, 1);

    if (as_json) {
        printf("{\n  \"date\": \"%s\",\n  \"cpu\": \"%s\",\n  \"system\": \"%s %s\",\n  \"gcc\": \"%d.%d\",\n"
               "  \"inline_hooks\": %s,\n  \"workers\": %d,\n  \"reps\": %d,\n  \"total_s\": %.1f,\n",
               date, cpu, u.sysname, u.machine, __GNUC__, __GNUC_MINOR__, BENCH_INLINE_HOOKS ? "true" : "false", maxw,
               reps, total_s);
        printf("  \"ratio_is\": \"median: median(A) / median(B); min: min(A) / min(B); A and B interleaved\",\n");
        printf("  \"ratios\": {\n");
        for (int i = 0; i < n_ratios; i++) {
            char extra[128] = "";
            if (!strcmp(ratios[i].key, "speedup_2_workers"))
                snprintf(extra, sizeof extra, "\"ceiling_median\": %.6g, \"ceiling_min\": %.6g, ", ceiling_med,
                         ceiling_min);
            json_result(&ratios[i], extra, i + 1 == n_ratios);
        }
        printf("  },\n  \"figures\": {\n");
        for (int i = 0; i < n_figs; i++) {
            const result *t = !strcmp(figs[i].key, figures_t[0].key)   ? &figures_t[0]
                              : !strcmp(figs[i].key, figures_t[1].key) ? &figures_t[1]
                                                                       : NULL;
            if (t) /* the two figures with a target */
                json_result(t, NULL, i + 1 == n_figs);
            else
                printf("    \"%s\": {\"median\": %.6g, \"min\": %.6g}%s\n", figs[i].key, figs[i].median,
                       figs[i].min, i + 1 < n_figs ? "," : "");
        }
        printf("  },\n  \"twin_output_identical\": %s,\n  \"twin_output_max_abs_diff\": %.3g,\n"
               "  \"twin_bytes_counted\": %llu,\n  \"count_mode_bytes_read\": %llu\n}\n",
               twin_same ? "true" : "false", twin_diff, (unsigned long long)twin_bytes,
               (unsigned long long)inst_bytes);
        return 0;
    }
    printf("# simtlab simulator benchmark\n\n");
    printf("%s; %s, %d OpenMP workers; %s %s; gcc %d.%d; hooks %s. Each ratio: its two sides run alternately "
           "(A B A B ...), %d times each after one warm-up, in one process; median = median(A) / median(B), min = "
           "min(A) / min(B). Whole run %.0f s.\n\n",
           date, cpu, maxw, u.sysname, u.machine, __GNUC__, __GNUC_MINOR__,
           BENCH_INLINE_HOOKS ? "inlined (simtlab-as)" : "called", reps, total_s);
    printf("| measure | median | min | target | met |\n|---|---|---|---|---|\n");
    for (int i = 0; i < n_ratios; i++)
        print_ratio_md(&ratios[i]);
    print_ratio_md(&figures_t[0]);
    print_ratio_md(&figures_t[1]);
    printf("\nThe machine's own 2-thread ceiling (plain C arithmetic, 1 thread / 2 threads, interleaved with "
           "lesson 2's runs): median %.2fx, min %.2fx.\n",
           ceiling_med, ceiling_min);
    printf("The uninstrumented twin's O %s the instrumented run's (max |diff| %.3g); it counted %llu bytes read "
           "(count mode: %llu).\n\n",
           twin_same ? "is bitwise equal to" : "differs from", twin_diff, (unsigned long long)twin_bytes,
           (unsigned long long)inst_bytes);
    printf("| figure (ms unless stated) | median | min |\n|---|---|---|\n");
    for (int i = 0; i < n_figs; i++)
        printf("| %s | %.4g | %.4g |\n", figs[i].what, figs[i].median, figs[i].min);
    return 0;
}
