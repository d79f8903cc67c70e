/* tests/test_backward.c - lesson 7's backward kernels against the CPU
 * reference and their HBM bytes against the closed forms (lessons/07_backward/).
 *
 * Covers: (a) the double-precision reference itself against central finite
 * differences of the loss sum(O * dO) (so the kernels are not checked
 * against a formula that shares their mistake); (b) for a table of shapes
 * (N not a multiple of 64 or of Algorithm 4's tiles, d 16 to 128 and 48,
 * causal off and on, several --sram, v1 tile overrides), every version run
 * through the sim backend by the lesson's own driver (bwd_run): dQ, dK, dV
 * pass the lesson's check (|g - ref| <= BWD_ATOL max|ref| + BWD_RTOL |ref|),
 * the HBM bytes read and written per tensor equal bwd_expected() exactly,
 * and the per-kernel counters summed over the version equal its totals; flash
 * v2 with both dQ strategies (atomicAdd, the separate pass); (c) the closed
 * forms by hand for one shape, and the figures of Theorem 5 they imply
 * (standard ~ N^2, flash v1 ~ 1/M, flash at least 2x below standard at
 * N = 1024); (d) bwd_params_check's refusals.
 * What it is not: a test of the CUDA backend (no GPU here) or of the report.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "lesson07.h"

#define U(x) ((unsigned long long)(x))
static const char *const ver_name[BWD_NVER] = {"standard", "v1", "v2"};

/* ---- (a) the reference against finite differences ---------------------------------- */
/* loss = sum_i O_i . dO_i, O = softmax(scale (q + e_x h) K^T) V in double */
static double loss_of(const double *q, const double *k, const double *v, const float *dout, int N, int d, int causal)
{
    double loss = 0, scale = 1.0 / sqrt((double)d), s[16];
    for (int i = 0; i < N; i++) {
        int len = causal ? i + 1 : N;
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < len; j++) {
            double acc = 0;
            for (int c = 0; c < d; c++)
                acc += q[i * d + c] * k[j * d + c];
            s[j] = acc * scale;
            mx = fmax(mx, s[j]);
        }
        for (int j = 0; j < len; j++)
            sum += (s[j] = exp(s[j] - mx));
        for (int c = 0; c < d; c++) {
            double o = 0;
            for (int j = 0; j < len; j++)
                o += s[j] / sum * v[j * d + c];
            loss += o * dout[i * d + c];
        }
    }
    return loss;
}

Test(backward, reference_matches_finite_differences)
{
    enum { N = 7, D = 5 };
    float q[N * D], k[N * D], v[N * D], dout[N * D];
    uint64_t s = 12345;
    for (int i = 0; i < N * D; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        q[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 2 - 1);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        k[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 2 - 1);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 2 - 1);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        dout[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 2 - 1);
    }
    for (int causal = 0; causal < 2; causal++) {
        double dq[N * D], dk[N * D], dv[N * D], x[3][N * D];
        cr_assert_eq(attn_bwd_cpu_head(dq, dk, dv, NULL, NULL, NULL, NULL, q, k, v, dout, N, D, causal), 0);
        const double *grad[3] = {dq, dk, dv};
        for (int e = 0; e < N * D; e++)
            x[0][e] = q[e], x[1][e] = k[e], x[2][e] = v[e];
        for (int t = 0; t < 3; t++)
            for (int e = 0; e < N * D; e++) {
                const double h = 1e-5, keep = x[t][e];
                x[t][e] = keep + h;
                double up = loss_of(x[0], x[1], x[2], dout, N, D, causal);
                x[t][e] = keep - h;
                double down = loss_of(x[0], x[1], x[2], dout, N, D, causal);
                x[t][e] = keep;
                double fd = (up - down) / (2 * h);
                cr_assert(fabs(fd - grad[t][e]) <= 1e-8 + 1e-6 * fabs(fd),
                          "causal %d, d%c[%d]: reference %.12g, finite difference %.12g", causal, "QKV"[t], e,
                          grad[t][e], fd);
            }
    }
}

/* ---- (b) the kernels: results and exact bytes ---------------------------------------- */
typedef struct bwd_case {
    int B, H, N, d, causal;
    long long sram, br, bc; /* M in bytes; flash v1 tile overrides (0 = from M) */
} bwd_case;

#define K16 (16LL << 10)
#define K48 (48LL << 10)
#define K96 (96LL << 10)
static bwd_case cases[] = {
    {1, 1, 1, 16, 0, K48, 0, 0},    {1, 1, 1, 64, 1, K16, 0, 0},    {1, 2, 17, 32, 0, K96, 0, 0},
    {2, 1, 17, 128, 1, K48, 0, 0},  {1, 1, 63, 64, 0, K16, 0, 0},   {1, 1, 64, 64, 1, K48, 0, 0},
    {1, 2, 65, 16, 1, K96, 0, 0},   {1, 1, 65, 128, 0, K48, 0, 0},  {2, 1, 100, 32, 1, K16, 0, 0},
    {1, 1, 130, 64, 1, K96, 0, 0},  {1, 1, 130, 128, 0, K16, 0, 0}, {1, 1, 200, 16, 0, K48, 0, 0},
    {1, 1, 257, 64, 1, K48, 0, 0},  {1, 1, 257, 32, 0, K96, 0, 0},  {1, 1, 77, 48, 1, K48, 0, 0},
    {1, 1, 100, 64, 1, K48, 17, 7}, {1, 1, 130, 32, 0, K48, 7, 17}, {1, 1, 40, 16, 1, K16, 1, 1},
};

ParameterizedTestParameters(backward, versions)
{
    return cr_make_param_array(bwd_case, cases, sizeof cases / sizeof cases[0]);
}

static bwd_params params_of(const bwd_case *c, int versions, int dq_atomic)
{
    bwd_params a = {.B = c->B, .H = c->H, .N = c->N, .d = c->d, .causal = c->causal, .sram = c->sram,
                    .br_override = c->br, .bc_override = c->bc, .versions = versions, .dq_atomic = dq_atomic,
                    .arch = "sm_90"};
    return a;
}

static void run_case(const bwd_case *c, int dq_atomic)
{
    /* v2 has kernels for d = 16, 32, 64, 128 only; the dQ pass is v2's alone */
    const int v2ok = c->d == 16 || c->d == 32 || c->d == 64 || c->d == 128;
    const int versions = !dq_atomic ? 4 : v2ok ? 7 : 3;
    bwd_params a = params_of(c, versions, dq_atomic);
    char err[1024];
    cr_assert_eq(bwd_params_check(&a, err, sizeof err), 0, "%s", err);
    bwd_inputs in;
    cr_assert_eq(bwd_make_inputs(&a, &in), 0);
    backend be;
    cr_assert_eq(be_open(&be, BACKEND_SIM, "sm_90", 0), 0, "%s", be.err);
    bwd_result res[BWD_NVER];
    cr_assert_eq(bwd_run(&be, &a, &in, res), 0, "%s", be.err);
    for (int ver = 0; ver < BWD_NVER; ver++) {
        if (!(versions & (1 << ver)))
            continue;
        const bwd_result *r = &res[ver];
        const char *what = ver_name[ver];
        cr_assert(r->ran && r->ok, "%s did not run", what);
        cr_expect(r->dq.pass && r->dk.pass && r->dv.pass,
                  "%s N=%d d=%d causal=%d dq=%s: max abs err dQ %g dK %g dV %g", what, c->N, c->d, c->causal,
                  dq_atomic ? "atomic" : "pass", r->dq.max_abs_err, r->dk.max_abs_err, r->dv.max_abs_err);
        bwd_bytes e = bwd_expected(&a, ver);
        for (int t = 0; t < BWD_NTENSORS; t++) {
            cr_expect_eq(r->measured.rd[t], e.rd[t], "%s N=%d d=%d causal=%d: %s read %llu, closed form %llu", what,
                         c->N, c->d, c->causal, bwd_tensor_names[t], U(r->measured.rd[t]), U(e.rd[t]));
            cr_expect_eq(r->measured.wr[t], e.wr[t], "%s N=%d d=%d causal=%d: %s written %llu, closed form %llu",
                         what, c->N, c->d, c->causal, bwd_tensor_names[t], U(r->measured.wr[t]), U(e.wr[t]));
        }
        cr_expect_eq(r->hbm_read, bwd_bytes_read(&e), "%s: kernels read %llu, closed form %llu", what, U(r->hbm_read),
                     U(bwd_bytes_read(&e)));
        cr_expect_eq(r->hbm_write, bwd_bytes_written(&e), "%s: kernels wrote %llu, closed form %llu", what,
                     U(r->hbm_write), U(bwd_bytes_written(&e)));
    }
    be_close(&be);
    bwd_free_inputs(&in);
}

ParameterizedTest(bwd_case *c, backward, versions, .timeout = 60) { run_case(c, 1); }

ParameterizedTestParameters(backward, v2_dq_pass)
{
    return cr_make_param_array(bwd_case, cases, 12); /* the first 12: d = 16 .. 128 */
}
ParameterizedTest(bwd_case *c, backward, v2_dq_pass, .timeout = 60) { run_case(c, 0); }

/* ---- (c) the closed forms by hand, and Theorem 5 -------------------------------------- */
Test(backward, closed_forms_by_hand)
{
    /* N = 128, d = 64, one head, not causal; v1 at 48 KB: Br = Bc = 48, 3 key tiles */
    bwd_shape s = {.B = 1, .H = 1, .N = 128, .d = 64, .causal = 0, .v1_br = 48, .v1_bc = 48};
    const uint64_t N = 128, d = 64, nn = 4 * N * N, nd = 4 * N * d;
    bwd_bytes b = bwd_std_dv_bytes(&s); /* 2 x 1 tiles of dV: each reads 64 keys x N of P and N x 64 of dO */
    cr_expect_eq(b.rd[BWD_P], nn);
    cr_expect_eq(b.rd[BWD_DO], 2 * nd);
    cr_expect_eq(b.wr[BWD_DV], nd);
    b = bwd_std_dp_bytes(&s); /* 2 x 2 tiles: 64 rows of dO and 64 keys of V each */
    cr_expect_eq(b.rd[BWD_DO], 2 * nd);
    cr_expect_eq(b.rd[BWD_V], 2 * nd);
    cr_expect_eq(b.wr[BWD_DP], nn);
    b = bwd_std_ds_bytes(&s);
    cr_expect_eq(b.rd[BWD_P], 2 * nn);
    cr_expect_eq(b.rd[BWD_DP], 2 * nn);
    cr_expect_eq(b.wr[BWD_DS], nn);
    b = bwd_v1_bytes(&s);
    cr_expect_eq(b.rd[BWD_Q], 3 * nd); /* every query row once per key tile */
    cr_expect_eq(b.rd[BWD_DQ], 3 * nd);
    cr_expect_eq(b.wr[BWD_DQ], 3 * nd);
    cr_expect_eq(b.rd[BWD_K], nd);
    cr_expect_eq(b.rd[BWD_L], 3 * 4 * N);
    b = bwd_v2_bytes(&s, 1); /* 2 key tiles of 64 */
    cr_expect_eq(b.rd[BWD_Q], 2 * nd);
    cr_expect_eq(b.rd[BWD_DQ], 2 * nd);
    cr_expect_eq(b.wr[BWD_DQ], 2 * nd);
    cr_expect_eq(b.rd[BWD_LSE], 2 * 4 * N);
    b = bwd_v2_dq_bytes(&s); /* 2 query tiles, each reads every key */
    cr_expect_eq(b.rd[BWD_K], 2 * nd);
    cr_expect_eq(b.wr[BWD_DQ], nd);
}

static double total(const bwd_params *a, int ver)
{
    bwd_bytes e = bwd_expected(a, ver);
    return (double)(bwd_bytes_read(&e) + bwd_bytes_written(&e));
}

Test(backward, theorem5_figures)
{
    bwd_params a = {.B = 1, .H = 1, .N = 1024, .d = 64, .sram = K48, .versions = 7, .dq_atomic = 1, .arch = "sm_90"};
    char err[512];
    cr_assert_eq(bwd_params_check(&a, err, sizeof err), 0, "%s", err);
    /* standard ~ N^2: doubling N about quadruples its bytes */
    bwd_params b = a;
    b.N = 2048;
    bwd_params_check(&b, err, sizeof err);
    double r = total(&b, BWD_VER_STD) / total(&a, BWD_VER_STD);
    cr_expect(r > 3.8 && r < 4.1, "standard at 2N / at N = %.3f, Theorem 5 says ~4", r);
    /* flash v1 ~ N^2 d^2 / M: doubling M halves the inner loop's share */
    bwd_params c = a;
    c.sram = 2 * K48;
    bwd_params_check(&c, err, sizeof err);
    r = total(&a, BWD_VER_V1) / total(&c, BWD_VER_V1);
    cr_expect(r > 1.6 && r < 2.1, "flash v1 at M / at 2M = %.3f, Theorem 5 says ~2", r);
    /* the point of the lesson: both flash versions move far fewer bytes */
    cr_expect(total(&a, BWD_VER_STD) / total(&a, BWD_VER_V1) > 1.8, "standard / v1 = %.2f",
              total(&a, BWD_VER_STD) / total(&a, BWD_VER_V1));
    cr_expect(total(&a, BWD_VER_STD) / total(&a, BWD_VER_V2) > 3, "standard / v2 = %.2f",
              total(&a, BWD_VER_STD) / total(&a, BWD_VER_V2));
}

/* ---- (d) refusals ----------------------------------------------------------------- */
Test(backward, params_refused)
{
    char err[1024];
    bwd_params a = {.B = 1, .H = 1, .N = 100, .d = 48, .sram = K48, .versions = 4, .dq_atomic = 1, .arch = "sm_90"};
    cr_expect_eq(bwd_params_check(&a, err, sizeof err), -1);
    cr_expect(strstr(err, "--d 48") && strstr(err, "16, 32, 64 and 128"), "%s", err);
    a.versions = 2;
    a.d = 64;
    a.br_override = a.bc_override = 200; /* 4 * (4*200*64*2 + 2*200*200 + 600) floats: over 227 KB */
    cr_expect_eq(bwd_params_check(&a, err, sizeof err), -1);
    cr_expect(strstr(err, "Br = 200") && strstr(err, "--br"), "%s", err);
    bwd_params b = {.B = 70000, .H = 1, .N = 16, .d = 64, .sram = K48, .versions = 1, .arch = "sm_90"};
    cr_expect_eq(bwd_params_check(&b, err, sizeof err), -1);
    cr_expect(strstr(err, "70000") && strstr(err, "65535"), "%s", err);
}
