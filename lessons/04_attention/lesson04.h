/* lessons/04_attention/lesson04.h - lesson 4's driver pieces, shared with the
 * tests (tests/test_attention.c) and the benchmark (bench/). */
#ifndef LESSON04_H
#define LESSON04_H
#include <stdio.h>

#include "attention.h"
#include "lesson.h"
#include "sweep.h"

/* pass when |O - O_ref| <= ATTN_ATOL + ATTN_RTOL |O_ref| elementwise (fp32 vs double) */
#define ATTN_RTOL 1e-4
#define ATTN_ATOL 1e-5

typedef struct attn_params {
    int B, H, N, d, causal;
    long long sram;                     /* M in bytes */
    long long br_override, bc_override; /* flash v1 --br / --bc, 0 = from M */
    long long splits_override;          /* flash v2 --v2-splits: 0 = attn_v2_plan, 1 = none */
    int versions;                       /* bit 0 standard, 1 v1, 2 v2 */
    const char *arch;
    int repeats;  /* GPU: timed runs per version (median); 0 = no timing */
    int counters; /* GPU: read hardware counters on the checked run */
    /* filled by attn_params_check: */
    int v1_br, v1_bc, v2_br, v2_bc, v2_threads;
    int v2_whole, v2_splits; /* attn_v2_plan for the --arch preset */
} attn_params;

typedef struct attn_version_result {
    int ran, ok;
    check_result check; /* O; its pass also needs lm's (flash v1, v2) */
    check_result lm;    /* l and m against the reference (flash v1, v2; rel err of l, abs err of m) */
    int first_kernel, n_kernels; /* into be->kernels */
    attn_bytes measured;         /* per tensor (simulator only) */
    uint64_t hbm_read, hbm_write;
    sim_counters l2; /* simulator: the L2 model's figures summed over the version's kernels (sim/l2.c) */
    double time_ms;
} attn_version_result;

/* Picks the tiles and validates them against the device; -1 with the reason. */
int attn_params_check(attn_params *a, char *err, size_t n);
int attn_parse_versions(const char *v); /* "all" -> 7, "v1" -> 2, "standard,v2" -> 5, 0 if unknown */
/* Seeded inputs in [-1, 1) and the double-precision reference (caller frees):
 * ref holds O (B*H*N*d), then l and m (B*H*N each), which attn_run checks
 * for flash v1 and v2 too. When attn_spot_check(a) (B*H*N*N*d > 4e9), the
 * reference holds only the first and the last head, and attn_run checks
 * only those. */
int attn_spot_check(const attn_params *a);
/* The reference's row step: 1 up to N = 8192; beyond, N / rows with as many rows (64 to
 * 1024) as 4e10 double flops buy (a full-precision row costs 4 N d). */
int attn_check_step(const attn_params *a);
void attn_make_inputs(const attn_params *a, float **q, float **k, float **v, double **ref);
/* Runs the selected versions on be; 0, or -1 with the error printed. */
int attn_run(backend *be, const attn_params *a, const float *q, const float *k, const float *v, const double *ref,
             attn_version_result out[3]);
attn_bytes attn_expected(const attn_params *a, int ver); /* closed form of a version */
double attn_theorem2_bytes(const attn_params *a, int ver);
/* CSV (sweep.h): one row per version that ran on be, with every counter;
 * attn_csv_write writes the rows of nb backends to path (PATH.tmp, renamed).
 * attn_csv_write returns 0, or -1 with the reason printed. */
void attn_csv_rows(sweep_csv *c, const attn_params *a, backend *be, const attn_version_result res[3]);
int attn_csv_write(const char *path, const attn_params *a, backend *bes, int nb, attn_version_result res[][3]);
#endif
