/* lessons/07_backward/lesson07.h - lesson 7's driver pieces, shared with the
 * tests (tests/test_backward.c). */
#ifndef LESSON07_H
#define LESSON07_H
#include <stdio.h>

#include "backward.h"
#include "lesson.h"
#include "sweep.h"

/* A gradient passes when |g - g_ref| <= BWD_ATOL * max|g_ref| + BWD_RTOL |g_ref|
 * elementwise (fp32 against double): the absolute part is relative to the
 * gradient's own scale, because dS = P * (dP - D) cancels, and an element of
 * dQ or dK near zero is a sum of terms much larger than itself. */
#define BWD_RTOL 5e-4
#define BWD_ATOL 5e-5

enum { BWD_VER_STD, BWD_VER_V1, BWD_VER_V2, BWD_NVER };

typedef struct bwd_params {
    int B, H, N, d, causal;
    long long sram;                     /* M in bytes (flash v1's tiles) */
    long long br_override, bc_override; /* flash v1 --br / --bc, 0 = from M */
    int versions;                       /* bit 0 standard, 1 v1, 2 v2 */
    int dq_atomic;                      /* v2: dQ by atomicAdd (1) or the separate pass (0) */
    const char *arch;
    int repeats;  /* GPU: timed runs per version (median); 0 = no timing */
    int counters; /* GPU: read hardware counters on the checked run */
    int v1_br, v1_bc; /* filled by bwd_params_check */
} bwd_params;

typedef struct bwd_inputs {
    float *q, *k, *v, *dout;      /* (BH, N, d) */
    float *o, *l, *m, *p;         /* the forward's outputs, from the double reference: O, l, m, P (BH, N, N) */
    double *dq, *dk, *dv;         /* the reference gradients (of the checked heads) */
    int spot;                     /* only heads 0 and B*H-1 have reference gradients (bwd_spot_check) */
} bwd_inputs;

typedef struct bwd_result {
    int ran, ok;
    check_result dq, dk, dv; /* each against the reference */
    int pass;
    int first_kernel, n_kernels; /* into be->kernels */
    bwd_bytes measured;          /* per tensor (simulator only) */
    uint64_t hbm_read, hbm_write;
    sim_counters l2; /* the L2 model's figures summed over the version's kernels */
    double time_ms;
} bwd_result;

int bwd_params_check(bwd_params *a, char *err, size_t n);
/* Big problems (B*H*N*N*d > 4e9, more than 2 heads) check the gradients of
 * heads 0 and B*H-1 only: the reference of every head would take minutes.
 * The forward's outputs (inputs of the kernels) are computed for every head. */
int bwd_spot_check(const bwd_params *a);
/* "standard", "v1", "v2", "all" or a comma list ("standard,v2") -> bit mask; 0 if not one */
int bwd_parse_versions(const char *v);
bwd_shape bwd_shape_of(const bwd_params *a);
/* Seeded inputs in [-1, 1), the forward's outputs and the reference
 * gradients. 0, or -1 when out of host memory (bwd_free_inputs frees either way). */
int bwd_make_inputs(const bwd_params *a, bwd_inputs *in);
void bwd_free_inputs(bwd_inputs *in);
/* Runs the selected versions on be; 0, or -1 with the error printed. */
int bwd_run(backend *be, const bwd_params *a, const bwd_inputs *in, bwd_result out[BWD_NVER]);
bwd_bytes bwd_expected(const bwd_params *a, int ver); /* closed form of a version's kernels */
double bwd_theorem5_bytes(const bwd_params *a, int ver);
double bwd_flops(const bwd_params *a, int ver);
#endif
