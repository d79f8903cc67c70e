/* bench/bench_sim.c - what the simulator costs, measured in one run.
 *
 * Prints a Markdown report (docs/bench-sim.md is its committed output):
 *   1. ns per thread per __syncthreads
 *   2. ns per instrumented global access, against the same loop in plain C
 *   3. lesson 2 (y = 2x) at n = 2^24: simulated threads per second with 1
 *      and 2 OpenMP workers, and the speedup
 *   4. lesson 2 against a plain C loop doing the same computation
 *   5. flash v2 (N = 1024, d = 64, one head) against a plain single-threaded
 *      C loop nest computing the same attention
 * Every figure is the best of `reps` runs (default 3): these machines are
 * shared, and the minimum is the least disturbed run. Targets are printed
 * beside the figures; the program does not fail on a miss (it is not a test).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench_kernels.h"
#include "lesson04.h"
#include "memory.h"
#include "scale.h"

static int reps = 3;

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

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (x) {                                                                                   \
            fprintf(stderr, "bench: %s failed: %s\n", #x, sim_last_error());                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* best wall time of the kernel itself (sim_last_launch) over reps launches */
#define BEST_LAUNCH(best, call)                                                                    \
    do {                                                                                           \
        best = 1e300;                                                                              \
        for (int r_ = 0; r_ < reps; r_++) {                                                        \
            CHECK(call);                                                                           \
            if (sim_last_launch()->wall_ms < best)                                                 \
                best = sim_last_launch()->wall_ms;                                                 \
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

/* plain C, no simulator: y = 2x */
__attribute__((noinline)) static void scale_plain(float *y, const float *x, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0f * x[i];
}

/* plain C arithmetic over OpenMP threads (no memory traffic): how well this
 * machine's two cores scale at the moment of the run */
__attribute__((noinline)) static double spin_plain_omp(long iters)
{
    double sum = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : sum)
#endif
    for (long i = 0; i < iters; i++)
        sum += (double)(i % 7) * 1.0000001;
    return sum;
}

/* plain C, single-threaded: the same attention loop nest as the CPU reference, in fp32 */
__attribute__((noinline)) static void attention_plain(float *o, const float *q, const float *k, const float *v, int N,
                                                      int d, float *s)
{
    const float scale = 1.0f / sqrtf((float)d);
    for (int i = 0; i < N; i++) {
        float mx = -INFINITY, sum = 0.0f;
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int c = 0; c < d; c++)
                acc += q[i * d + c] * k[j * d + c];
            s[j] = acc * scale;
            mx = fmaxf(mx, s[j]);
        }
        for (int j = 0; j < N; j++) {
            s[j] = expf(s[j] - mx);
            sum += s[j];
        }
        for (int c = 0; c < d; c++)
            o[i * d + c] = 0.0f;
        for (int j = 0; j < N; j++)
            for (int c = 0; c < d; c++)
                o[i * d + c] += s[j] * v[j * d + c];
        for (int c = 0; c < d; c++)
            o[i * d + c] /= sum;
    }
}

__attribute__((noinline)) static float loads_plain(const float *x, int threads, int iters, int window)
{
    float total = 0.0f;
    for (int t = 0; t < threads; t++) {
        float acc = 0.0f;
        for (int i = 0; i < iters; i++)
            acc += x[(t + i) & (window - 1)];
        total += acc;
    }
    return total;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        reps = atoi(argv[1]) > 0 ? atoi(argv[1]) : 3;
    char cpu[128];
    cpu_model(cpu, sizeof cpu);
    struct utsname u;
    uname(&u);
    time_t tt = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&tt));
    int maxw = sim_worker_count();
    printf("# simtlab simulator benchmark\n\n");
    printf("%s; %s, %d OpenMP workers available; %s %s; gcc %d.%d; best of %d runs.\n\n", date, cpu, maxw,
           u.sysname, u.machine, __GNUC__, __GNUC_MINOR__, reps);
    printf("| measure | figure | target |\n|---|---|---|\n");

    /* 1. barriers: 64 blocks x 256 threads x 200 barriers on one worker */
    set_workers(1);
    int *d_out;
    CHECK(sim_malloc((void **)&d_out, 64, "out"));
    {
        const int blocks = 64, threads = 256, iters = 200;
        simt_cfg cfg = {.grid = {blocks, 1, 1}, .block = {threads, 1, 1}};
        double best;
        BEST_LAUNCH(best, bench_barriers_launch_sim(&cfg, d_out, iters));
        double ns = best * 1e6 / ((double)blocks * threads * iters);
        printf("| `__syncthreads`, 256-thread blocks, 1 worker | %.2f ns per thread per barrier | <= 10 ns |\n", ns);
    }

    /* 2. instrumented loads against the same loop in plain C */
    {
        const int blocks = 16, threads = 256, iters = 4096, window = 1024;
        float *d_x, *d_y, *h = calloc(window, sizeof *h);
        CHECK(sim_malloc((void **)&d_x, window * sizeof(float), "x"));
        CHECK(sim_malloc((void **)&d_y, (size_t)blocks * threads * sizeof(float), "y"));
        CHECK(sim_memcpy(d_x, h, window * sizeof(float), SIM_COPY_H2D));
        simt_cfg cfg = {.grid = {blocks, 1, 1}, .block = {threads, 1, 1}};
        double best;
        BEST_LAUNCH(best, bench_loads_launch_sim(&cfg, d_y, d_x, iters, window));
        double accesses = (double)blocks * threads * (iters + 1);
        double plain = 1e300;
        volatile float sink = 0;
        for (int r = 0; r < reps; r++) {
            double t0 = now_ms();
            sink += loads_plain(h, blocks * threads, iters, window);
            double t = now_ms() - t0;
            plain = t < plain ? t : plain;
        }
        (void)sink;
        printf("| instrumented global access, 1 worker | %.2f ns per access (plain C loop: %.2f ns per element) | <= 5 ns |\n",
               best * 1e6 / accesses, plain * 1e6 / ((double)blocks * threads * iters));
        sim_free(d_x);
        sim_free(d_y);
        free(h);
    }

    /* 3, 4. lesson 2 at n = 2^24 */
    {
        const int n = 1 << 24;
        float *d_x, *d_y, *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
        for (int i = 0; i < n; i++)
            x[i] = (float)(i % 1000);
        CHECK(sim_malloc((void **)&d_x, (size_t)n * 4, "x"));
        CHECK(sim_malloc((void **)&d_y, (size_t)n * 4, "y"));
        CHECK(sim_memcpy(d_x, x, (size_t)n * 4, SIM_COPY_H2D));
        CHECK(sim_memset(d_y, 0, (size_t)n * 4));
        simt_cfg cfg = {.grid = {(n + 255) / 256, 1, 1}, .block = {256, 1, 1}};
        /* 1 and 2 workers alternate, so that a slow spell of the shared machine
         * hits both alike; the best of each is kept */
        double t1 = 1e300, t2 = 1e300;
        for (int r = 0; r < 3 * reps; r++) /* more pairs than elsewhere: the ratio needs two quiet runs */
            for (int w = 1; w <= 2; w++) {
                set_workers(w == 2 && maxw >= 2 ? 2 : 1);
                CHECK(scale_v1_launch_sim(&cfg, d_y, d_x, n));
                double *t = w == 1 ? &t1 : &t2;
                *t = sim_last_launch()->wall_ms < *t ? sim_last_launch()->wall_ms : *t;
            }
        double plain = 1e300;
        for (int r = 0; r < reps; r++) {
            double t0 = now_ms();
            scale_plain(y, x, n);
            double t = now_ms() - t0;
            plain = t < plain ? t : plain;
        }
        printf("| lesson 2, n = 2^24, 1 worker | %.1f ms = %.1f M simulated threads/s | |\n", t1, n / (t1 * 1e3));
        printf("| lesson 2, n = 2^24, 2 workers | %.1f ms = %.1f M simulated threads/s | |\n", t2, n / (t2 * 1e3));
        printf("| lesson 2 speedup, 2 workers over 1 | %.2fx | >= 1.7x |\n", t1 / t2);
        /* the machine's own ceiling, measured the same way: plain C arithmetic on 1 and 2 threads */
        double p1 = 1e300, p2 = 1e300;
        volatile double sink2 = 0;
        for (int r = 0; r < reps; r++)
            for (int w = 1; w <= 2; w++) {
                set_workers(w == 2 && maxw >= 2 ? 2 : 1);
                double t0 = now_ms();
                sink2 += spin_plain_omp(200000000L);
                double t = now_ms() - t0, *b = w == 1 ? &p1 : &p2;
                *b = t < *b ? t : *b;
            }
        (void)sink2;
        printf("| the machine itself: plain C arithmetic, 2 threads over 1 | %.2fx | (its ceiling now) |\n", p1 / p2);
        printf("| lesson 2 simulated / plain C loop (%.2f ms) | %.1fx (1 worker), %.1fx (2 workers) | |\n", plain,
               t1 / plain, t2 / plain);
        sim_free(d_x);
        sim_free(d_y);
        free(x);
        free(y);
    }

    /* 5. flash v2, N = 1024, d = 64, one head, against a plain C loop nest */
    {
        attn_params a = {.B = 1, .H = 1, .N = 1024, .d = 64, .sram = 48 << 10, .versions = 4};
        char err[512];
        if (attn_params_check(&a, err, sizeof err)) {
            fprintf(stderr, "bench: %s\n", err);
            return 1;
        }
        float *q, *k, *v;
        double *ref;
        attn_make_inputs(&a, &q, &k, &v, &ref);
        backend be;
        if (be_open(&be, BACKEND_SIM, "sm_90", 0))
            return 1;
        double sim1 = 1e300, sim2 = 1e300, plain = 1e300;
        for (int w = 1; w <= (maxw >= 2 ? 2 : 1); w++) {
            set_workers(w);
            for (int r = 0; r < reps; r++) {
                attn_version_result res[3];
                be_clear_kernels(&be);
                if (attn_run(&be, &a, q, k, v, ref, res) || !res[2].check.pass) {
                    fprintf(stderr, "bench: flash v2 failed\n");
                    return 1;
                }
                double *best = w == 1 ? &sim1 : &sim2;
                *best = res[2].time_ms < *best ? res[2].time_ms : *best;
            }
        }
        float *o = malloc((size_t)a.N * a.d * 4), *s = malloc((size_t)a.N * 4);
        for (int r = 0; r < reps; r++) {
            double t0 = now_ms();
            attention_plain(o, q, k, v, a.N, a.d, s);
            double t = now_ms() - t0;
            plain = t < plain ? t : plain;
        }
        printf("| flash v2, N = 1024, d = 64, 1 head, 1 worker | %.1f ms | |\n", sim1);
        if (maxw >= 2)
            printf("| flash v2, N = 1024, d = 64, 1 head, 2 workers | %.1f ms | |\n", sim2);
        printf("| plain single-threaded C attention loop nest | %.1f ms | |\n", plain);
        printf("| flash v2 simulated / plain C | %.1fx (1 worker), %.1fx (2 workers) | <= 20x |\n", sim1 / plain,
               (maxw >= 2 ? sim2 : sim1) / plain);
        be_close(&be);
        free(o);
        free(s);
        free(q);
        free(k);
        free(v);
        free(ref);
    }
    sim_free(d_out);
    return 0;
}
