/* lessons/07_backward/lesson07.c - lesson 7: attention's backward pass,
 * standard against FlashAttention (recomputation).
 *
 * Takes Q, K, V and an output gradient dO, and the forward's outputs (O,
 * each row's l and m, and for the standard backward P, from the
 * double-precision reference: lesson 4 measures the forward); runs the
 * standard backward (Algorithm 3: P, dP, dS through HBM), flash backward v1
 * (Algorithm 4, loop for loop) and v2 (FlashAttention-2's order); checks dQ,
 * dK, dV against the double-precision reference; and sets the HBM bytes each
 * moved, per kernel and per tensor, beside the exact closed forms
 * (traffic.c) and Theorem 5, with what the forward had to save for each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h" /* attn_v1_tiles: Algorithm 4 picks its tiles as Algorithm 1 does */
#include "backward.h"
#include "lesson.h"
#include "lesson07.h"

static const char *const ver_names[BWD_NVER] = {"standard", "v1", "v2"};
static const char *const dq_choices[] = {"atomic", "pass", NULL};

bwd_shape bwd_shape_of(const bwd_params *a)
{
    bwd_shape s = {.B = a->B, .H = a->H, .N = a->N, .d = a->d, .causal = a->causal, .v1_br = a->v1_br,
                   .v1_bc = a->v1_bc};
    return s;
}

int bwd_params_check(bwd_params *a, char *err, size_t n)
{
    const sim_device *dev = sim_device_find(a->arch ? a->arch : "sm_90");
    if (!dev)
        dev = sim_device_find("sm_90");
    attn_v1_tiles(a->sram, a->d, &a->v1_br, &a->v1_bc);
    if (a->br_override)
        a->v1_br = (int)a->br_override;
    if (a->bc_override)
        a->v1_bc = (int)a->bc_override;
    const long long BH = (long long)a->B * a->H;
    if ((a->versions & 4) && a->d != 16 && a->d != 32 && a->d != 64 && a->d != 128) {
        snprintf(err, n,
                 "flash backward v2 has kernels for d = 16, 32, 64 and 128 (d is a compile-time constant of its "
                 "register tiles); got --d %d. Use one of those, or --version standard / v1",
                 a->d);
        return -1;
    }
    if ((a->versions & 4) && bwd_v2_shared_bytes(a->d) > dev->shared_per_block_optin) {
        snprintf(err, n,
                 "flash backward v2 at d = %d needs %llu bytes of shared memory per block (K_j, V_j, Q_i, dO_i, P, dS "
                 "tiles of 64); %s allows %zu. Use a smaller --d, --version standard,v1, or an --arch with more "
                 "(sm_90: %zu)",
                 a->d, (unsigned long long)bwd_v2_shared_bytes(a->d), dev->name, dev->shared_per_block_optin,
                 sim_device_find("sm_90")->shared_per_block_optin);
        return -1;
    }
    if ((a->versions & 1) && BH > dev->max_grid[2]) {
        snprintf(err, n,
                 "B*H = %lld heads: the standard backward puts the heads on the grid's z, which %s limits to %u; "
                 "use fewer --batch or --heads (or --version v1 / v2)",
                 BH, dev->name, dev->max_grid[2]);
        return -1;
    }
    if ((a->versions & 4) && BH > dev->max_grid[1]) {
        snprintf(err, n,
                 "B*H = %lld heads: flash backward v2 puts the heads on the grid's y, which %s limits to %u; use "
                 "fewer --batch or --heads",
                 BH, dev->name, dev->max_grid[1]);
        return -1;
    }
    if (a->versions & 2) {
        uint64_t need = bwd_v1_shared_bytes(a->d, a->v1_br, a->v1_bc);
        if (need > dev->shared_per_block_optin) {
            int t = 1; /* the largest square tile that fits */
            while (bwd_v1_shared_bytes(a->d, t + 1, t + 1) <= dev->shared_per_block_optin)
                t++;
            snprintf(err, n,
                     "flash backward v1 tiles Br = %d, Bc = %d with d = %d need %llu bytes of shared memory per block "
                     "(K_j, V_j, dK_j, dV_j, Q_i, O_i, dO_i, dQ_i, P_ij, dS_ij, l, m, D); %s allows %zu bytes. "
                     "Largest tile that fits at d = %d: Br = Bc = %d (--br %d --bc %d, or a smaller --sram)",
                     a->v1_br, a->v1_bc, a->d, (unsigned long long)need, dev->name, dev->shared_per_block_optin, a->d,
                     t, t, t);
            return -1;
        }
    }
    return 0;
}

/* ---- inputs and the reference ---------------------------------------------------- */
int bwd_spot_check(const bwd_params *a)
{
    return (double)a->B * a->H * a->N * a->N * a->d > 4e9 && a->B * a->H > 2;
}

void bwd_free_inputs(bwd_inputs *in)
{
    free(in->q), free(in->k), free(in->v), free(in->dout), free(in->o), free(in->l), free(in->m), free(in->p);
    free(in->dq), free(in->dk), free(in->dv);
    memset(in, 0, sizeof *in);
}

int bwd_make_inputs(const bwd_params *a, bwd_inputs *in)
{
    const size_t BH = (size_t)a->B * a->H, head = (size_t)a->N * a->d, nd = BH * head, nr = BH * a->N;
    memset(in, 0, sizeof *in);
    in->q = malloc(nd * sizeof(float)), in->k = malloc(nd * sizeof(float));
    in->v = malloc(nd * sizeof(float)), in->dout = malloc(nd * sizeof(float)), in->o = malloc(nd * sizeof(float));
    in->l = malloc(nr * sizeof(float)), in->m = malloc(nr * sizeof(float));
    in->dq = calloc(nd, sizeof(double)), in->dk = calloc(nd, sizeof(double)), in->dv = calloc(nd, sizeof(double));
    in->spot = bwd_spot_check(a);
    if (a->versions & 1) /* only the standard backward reads P */
        in->p = malloc(BH * (size_t)a->N * a->N * sizeof(float));
    if (!in->q || !in->k || !in->v || !in->dout || !in->o || !in->l || !in->m || !in->dq || !in->dk || !in->dv ||
        ((a->versions & 1) && !in->p))
        return -1;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < nd; i++) {
        in->q[i] = lesson_rnd(&s);
        in->k[i] = lesson_rnd(&s);
        in->v[i] = lesson_rnd(&s);
        in->dout[i] = lesson_rnd(&s);
    }
    int failed = 0;
    /* heads are independent: one per core */
#pragma omp parallel for schedule(dynamic, 1) reduction(| : failed)
    for (size_t h = 0; h < BH; h++) {
        double *o = malloc(head * sizeof *o), *l = malloc((size_t)a->N * sizeof *l), *m = malloc((size_t)a->N * sizeof *m);
        const size_t off = h * head;
        const int grads = !in->spot || h == 0 || h == BH - 1; /* the forward only for the other heads */
        if (!o || !l || !m ||
            attn_bwd_cpu_head(grads ? in->dq + off : NULL, in->dk + off, in->dv + off, o, l, m,
                              in->p ? in->p + h * (size_t)a->N * a->N : NULL, in->q + off, in->k + off, in->v + off,
                              in->dout + off, a->N, a->d, a->causal)) {
            failed = 1;
        } else {
            for (size_t e = 0; e < head; e++)
                in->o[off + e] = (float)o[e];
            for (int i = 0; i < a->N; i++) {
                in->l[h * a->N + i] = (float)l[i];
                in->m[h * a->N + i] = (float)m[i];
            }
        }
        free(o), free(l), free(m);
    }
    return failed ? -1 : 0;
}

/* ---- closed forms, Theorem 5, FLOPs ------------------------------------------------ */
bwd_bytes bwd_expected(const bwd_params *a, int ver)
{
    bwd_shape s = bwd_shape_of(a);
    bwd_bytes t, k;
    memset(&t, 0, sizeof t);
    if (ver == BWD_VER_STD) {
        bwd_bytes (*const f[])(const bwd_shape *) = {bwd_std_dv_bytes, bwd_std_dp_bytes, bwd_std_ds_bytes,
                                                     bwd_std_dq_bytes, bwd_std_dk_bytes};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            k = f[i](&s), bwd_bytes_add(&t, &k);
    } else if (ver == BWD_VER_V1) {
        k = bwd_v1_init_bytes(&s), bwd_bytes_add(&t, &k);
        k = bwd_v1_bytes(&s), bwd_bytes_add(&t, &k);
    } else {
        k = bwd_v2_pre_bytes(&s), bwd_bytes_add(&t, &k);
        k = bwd_v2_bytes(&s, a->dq_atomic), bwd_bytes_add(&t, &k);
        if (!a->dq_atomic)
            k = bwd_v2_dq_bytes(&s), bwd_bytes_add(&t, &k);
    }
    return t;
}

/* Theorem 5: standard Theta(N d + N^2), flash Theta(N^2 d^2 / M) HBM accesses,
 * here with constant 1, in bytes (4 per float), over B*H heads. */
double bwd_theorem5_bytes(const bwd_params *a, int ver)
{
    double N = a->N, d = a->d, M = (double)a->sram / 4.0, heads = (double)a->B * a->H;
    return 4.0 * heads * (ver == BWD_VER_STD ? N * d + N * N : N * N * d * d / M);
}

/* 2 FLOPs a multiply-add, over the visible pairs: standard 4 products (dV, dP,
 * dQ, dK), flash 5 (S recomputed), v2 with the dQ pass 7 (S, dP again) */
double bwd_flops(const bwd_params *a, int ver)
{
    bwd_shape s = bwd_shape_of(a);
    int products = ver == BWD_VER_STD ? 4 : ver == BWD_VER_V1 || a->dq_atomic ? 5 : 7;
    return 2.0 * products * a->d * bwd_pairs(&s);
}

/* ---- running a version -------------------------------------------------------------- */
typedef struct dev_bufs {
    float *q, *k, *v, *o, *dout, *l, *m, *p, *dp, *ds, *lse, *D, *dq, *dk, *dv;
} dev_bufs;

typedef struct timing_ctx {
    int ver;
    const bwd_params *a;
    const dev_bufs *b;
} timing_ctx;

/* Launches one version's kernels. Returns 0 or -1 (error in be->err). */
static int launch_version(backend *be, int ver, const bwd_params *a, const dev_bufs *b)
{
    const int BH = a->B * a->H, N = a->N, d = a->d;
    const long long nd = (long long)N * d, nn = (long long)N * N;
    const float scale = 1.0f / sqrtf((float)d);
    if (ver == BWD_VER_STD) {
        /* LESSON: four matrix products and one row kernel; P (saved by the
         * forward), dP and dS are N x N matrices in HBM */
        const unsigned T = (unsigned)((N + 63) / 64), Td = (unsigned)((d + 63) / 64);
        simt_cfg cd = {.grid = {Td, T, (unsigned)BH}, .block = {16, 16, 1}};    /* C is N x d */
        simt_cfg cn = {.grid = {T, T, (unsigned)BH}, .block = {16, 16, 1}};     /* C is N x N */
        simt_cfg cs = {.grid = {(unsigned)((long long)BH * N), 1, 1}, .block = {256, 1, 1}};
        const int from_row = a->causal ? BWD_MM_K_FROM_ROW : BWD_MM_FULL;
        return BE_LAUNCH(be, attn_bwd_std_mm, &cd, b->dv, b->p, b->dout, N, d, N, N, d, 1, 0, nn, nd, nd, 1.0f,
                         from_row) || /* dV = P^T dO */
                       BE_LAUNCH(be, attn_bwd_std_mm, &cn, b->dp, b->dout, b->v, N, N, d, d, d, 0, 1, nd, nd, nn, 1.0f,
                                 a->causal ? BWD_MM_SKIP_UPPER : BWD_MM_FULL) || /* dP = dO V^T */
                       BE_LAUNCH(be, attn_bwd_std_ds, &cs, b->ds, b->p, b->dp, N, a->causal) ||
                       BE_LAUNCH(be, attn_bwd_std_mm, &cd, b->dq, b->ds, b->k, N, d, N, N, d, 0, 0, nn, nd, nd, scale,
                                 a->causal ? BWD_MM_K_TO_ROW : BWD_MM_FULL) || /* dQ = scale dS K */
                       BE_LAUNCH(be, attn_bwd_std_mm, &cd, b->dk, b->ds, b->q, N, d, N, N, d, 1, 0, nn, nd, nd, scale,
                                 from_row) /* dK = scale dS^T Q */
                   ? -1
                   : 0;
    }
    if (ver == BWD_VER_V1) {
        const uint64_t shared = bwd_v1_shared_bytes(d, a->v1_br, a->v1_bc);
        if (be_set_max_dynamic_shared(be, shared))
            return -1;
        long long blocks = (long long)BH * nd / 256 + 1;
        simt_cfg c0 = {.grid = {(unsigned)(blocks < 65535 ? blocks : 65535), 1, 1}, .block = {256, 1, 1}};
        simt_cfg c1 = {.grid = {(unsigned)BH, 1, 1}, .block = {256, 1, 1}, .shared_bytes = shared};
        return BE_LAUNCH(be, attn_bwd_v1_init, &c0, b->dq, (long long)BH * nd) ||
               BE_LAUNCH(be, attn_bwd_v1, &c1, b->dq, b->dk, b->dv, b->q, b->k, b->v, b->o, b->dout, b->l, b->m, N, d,
                         a->v1_br, a->v1_bc, scale, a->causal)
                   ? -1
                   : 0;
    }
    /* LESSON: v2 first turns the forward's l, m into the logsumexp L and
     * computes D = rowsum(dO * O) once, then one block per K_j, V_j tile */
    const long long rows = (long long)BH * N;
    simt_cfg cp = {.grid = {(unsigned)((rows + 7) / 8), 1, 1}, .block = {256, 1, 1}};
    simt_cfg cm = {.grid = {(unsigned)((N + BWD_V2_BC - 1) / BWD_V2_BC), (unsigned)BH, 1},
                   .block = {BWD_V2_THREADS, 1, 1}, .shared_bytes = bwd_v2_shared_bytes(d)};
    simt_cfg cq = cm;
    cq.grid.x = (unsigned)((N + BWD_V2_BR - 1) / BWD_V2_BR);
    if (be_set_max_dynamic_shared(be, cm.shared_bytes) ||
        BE_LAUNCH(be, attn_bwd_v2_pre, &cp, b->lse, b->D, b->o, b->dout, b->l, b->m, rows, d) ||
        (a->dq_atomic && be_memset(be, b->dq, 0, (size_t)rows * d * 4)))
        return -1;
    int rc;
#define V2_CASE(dd)                                                                                              \
    case dd:                                                                                                     \
        rc = BE_LAUNCH(be, attn_bwd_v2_d##dd, &cm, b->dq, b->dk, b->dv, b->q, b->k, b->v, b->dout, b->lse, b->D, \
                       N, scale, a->causal, a->dq_atomic) ||                                                     \
             (!a->dq_atomic && BE_LAUNCH(be, attn_bwd_v2_dq_d##dd, &cq, b->dq, b->q, b->k, b->v, b->dout,        \
                                         b->lse, b->D, N, scale, a->causal));                                     \
        break
    switch (d) {
        V2_CASE(16);
        V2_CASE(32);
        V2_CASE(64);
    default:
        V2_CASE(128);
    }
#undef V2_CASE
    return rc ? -1 : 0;
}

static int launch_cb(backend *be, void *p)
{
    const timing_ctx *t = p;
    return launch_version(be, t->ver, t->a, t->b);
}

static void tensor_counts(backend *be, const dev_bufs *b, bwd_bytes *out)
{
    float *const ptr[BWD_NTENSORS] = {b->q, b->k, b->v, b->o, b->dout, b->p, b->dp, b->ds,
                                      b->l, b->m, b->lse, b->D, b->dq, b->dk, b->dv};
    memset(out, 0, sizeof *out);
    for (int i = 0; i < BWD_NTENSORS; i++)
        if (ptr[i] && be->kind == BACKEND_SIM)
            be_buffer_counts(be, ptr[i], &out->rd[i], &out->wr[i]);
}

/* One gradient against the reference, over the checked heads (all, or the
 * first and the last: bwd_spot_check): atol is BWD_ATOL times its largest |element| */
static check_result check_grad(const float *got, const double *ref, size_t BH, size_t head, int spot)
{
    const size_t nh = spot ? 2 : BH, heads[2] = {0, BH - 1};
    double mx = 0;
    for (size_t hi = 0; hi < nh; hi++)
        for (size_t i = 0; i < head; i++)
            mx = fmax(mx, fabs(ref[(spot ? heads[hi] : hi) * head + i]));
    const double atol = BWD_ATOL * (mx > 0 ? mx : 1.0);
    check_result all = {0, 0, BWD_RTOL, atol, 0, 1};
    for (size_t hi = 0; hi < nh; hi++) {
        const size_t off = (spot ? heads[hi] : hi) * head;
        check_result c = check_close(got + off, ref + off, head, BWD_RTOL, atol);
        all.max_abs_err = fmax(all.max_abs_err, c.max_abs_err);
        all.max_rel_err = fmax(all.max_rel_err, c.max_rel_err);
        if (!c.pass && all.pass)
            all.worst = off + c.worst;
        all.pass &= c.pass;
    }
    return all;
}

int bwd_run(backend *be, const bwd_params *a, const bwd_inputs *in, bwd_result out[BWD_NVER])
{
    const size_t BH = (size_t)a->B * a->H, nd = BH * a->N * a->d, nn = BH * a->N * a->N, nr = BH * a->N;
    dev_bufs b = {0};
    float *g = malloc(nd * sizeof *g);
    int rc = -1;
    memset(out, 0, BWD_NVER * sizeof *out);
    if (!g) {
        snprintf(be->err, sizeof be->err, "out of host memory for a gradient (%zu bytes)", nd * sizeof *g);
        goto done;
    }
    if (be_malloc(be, &b.q, nd * 4, "Q") || be_malloc(be, &b.k, nd * 4, "K") || be_malloc(be, &b.v, nd * 4, "V") ||
        be_malloc(be, &b.o, nd * 4, "O") || be_malloc(be, &b.dout, nd * 4, "dO") || be_malloc(be, &b.l, nr * 4, "l") ||
        be_malloc(be, &b.m, nr * 4, "m") || be_malloc(be, &b.dq, nd * 4, "dQ") || be_malloc(be, &b.dk, nd * 4, "dK") ||
        be_malloc(be, &b.dv, nd * 4, "dV") ||
        ((a->versions & 1) && (be_malloc(be, &b.p, nn * 4, "P") || be_malloc(be, &b.dp, nn * 4, "dP") ||
                               be_malloc(be, &b.ds, nn * 4, "dS") || be_upload(be, b.p, in->p, nn * 4))) ||
        ((a->versions & 4) && (be_malloc(be, &b.lse, nr * 4, "L") || be_malloc(be, &b.D, nr * 4, "D"))) ||
        be_upload(be, b.q, in->q, nd * 4) || be_upload(be, b.k, in->k, nd * 4) || be_upload(be, b.v, in->v, nd * 4) ||
        be_upload(be, b.o, in->o, nd * 4) || be_upload(be, b.dout, in->dout, nd * 4) ||
        be_upload(be, b.l, in->l, nr * 4) || be_upload(be, b.m, in->m, nr * 4))
        goto done;
    for (int ver = 0; ver < BWD_NVER; ver++) {
        if (!(a->versions & (1 << ver)))
            continue;
        bwd_result *r = &out[ver];
        r->ran = 1;
        /* NaN bytes (0xff): a gradient the version fails to write cannot pass */
        if (be_memset(be, b.dq, 0xff, nd * 4) || be_memset(be, b.dk, 0xff, nd * 4) || be_memset(be, b.dv, 0xff, nd * 4))
            goto done;
        be_reset_counts(be);
        r->first_kernel = be->n_kernels;
        if (launch_version(be, ver, a, &b))
            goto done;
        r->n_kernels = be->n_kernels - r->first_kernel;
        const double flops = bwd_flops(a, ver);
        for (int i = r->first_kernel; i < be->n_kernels; i++) {
            be_kernel *kr = &be->kernels[i];
            /* the FLOPs go where they are spent (the time model needs them there):
             * standard's four products a quarter each, flash's main kernel (and v2's dQ pass its 2 of 7 products) */
            if (ver == BWD_VER_STD && !strcmp(kr->name, "attn_bwd_std_mm")) {
                kr->flops = flops / 4;
                /* the four products apart in the tables: launched in launch_version's order */
                static const char *const product[] = {"dV", "dP", "", "dQ", "dK"};
                const int k = i - r->first_kernel;
                if (k < 5 && product[k][0])
                    snprintf(kr->name, sizeof kr->name, "attn_bwd_std_mm %s", product[k]);
            } else if (ver == BWD_VER_STD)
                kr->flops = 0;
            else if (ver == BWD_VER_V1)
                kr->flops = i == be->n_kernels - 1 ? flops : 0;
            else
                kr->flops = i == r->first_kernel ? 0 : !strncmp(kr->name, "attn_bwd_v2_dq", 14) ? flops * 2 / 7
                                                                       : a->dq_atomic ? flops : flops * 5 / 7;
            r->time_ms += kr->time_ms;
            r->hbm_read += kr->hw.valid ? kr->hw.dram_read_bytes : kr->sim.hbm_read_bytes;
            r->hbm_write += kr->hw.valid ? kr->hw.dram_write_bytes : kr->sim.hbm_write_bytes;
            lesson_add_l2(&r->l2, &kr->sim);
        }
        tensor_counts(be, &b, &r->measured);
        if (be_download(be, g, b.dq, nd * 4))
            goto done;
        const size_t head = (size_t)a->N * a->d;
        r->dq = check_grad(g, in->dq, BH, head, in->spot);
        if (be_download(be, g, b.dk, nd * 4))
            goto done;
        r->dk = check_grad(g, in->dk, BH, head, in->spot);
        if (be_download(be, g, b.dv, nd * 4))
            goto done;
        r->dv = check_grad(g, in->dv, BH, head, in->spot);
        r->pass = r->dq.pass && r->dk.pass && r->dv.pass;
        r->ok = 1;
        if (be->kind == BACKEND_CUDA && a->repeats > 0) {
            /* LESSON: GPU time is the median of repeated runs with the L2 flushed
             * between them, after warm-up; the checked run above does not count */
            timing_ctx t = {ver, a, &b};
            if (be_time(be, launch_cb, &t, 2, a->repeats, 1))
                goto done;
            r->time_ms = be->last_time_ms;
        }
    }
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "lesson 7 (%s): %s\n", be_name(be), be->err);
    float *const all[] = {b.q, b.k, b.v, b.o, b.dout, b.l, b.m, b.p, b.dp, b.ds, b.lse, b.D, b.dq, b.dk, b.dv};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        be_free(be, all[i]);
    free(g);
    return rc;
}

/* ---- report --------------------------------------------------------------------- */
static const char *hb(double x, char *buf) { return human_bytes(x, buf, 24); }
static int version_measured(const backend *be, const bwd_result *r)
{
    return lesson_kernels_measured(be, r->first_kernel, r->n_kernels);
}
static const char *grad_line(const bwd_result *r, char *buf, size_t n)
{
    snprintf(buf, n, "dQ %.3g, dK %.3g, dV %.3g (max abs err; rel %.3g, %.3g, %.3g)", r->dq.max_abs_err,
             r->dk.max_abs_err, r->dv.max_abs_err, r->dq.max_rel_err, r->dk.max_rel_err, r->dv.max_rel_err);
    return buf;
}

/* What the forward keeps for the backward, in bytes over all heads */
static double saved_p_bytes(const bwd_params *a) { return 4.0 * a->B * a->H * (double)a->N * a->N; }
static double saved_lm_bytes(const bwd_params *a) { return 2 * 4.0 * a->B * a->H * (double)a->N; }

static void print_text(const bwd_params *a, backend *bes, int nb, bwd_result res[][BWD_NVER], int pass)
{
    char b1[24], b2[24], b3[24], line[160];
    printf("lesson 7: attention backward, standard vs FlashAttention (recomputation)\n");
    printf("  B = %d, H = %d, N = %d, d = %d, fp32, scale = 1/sqrt(%d), causal %s; device %s\n", a->B, a->H, a->N,
           a->d, a->d, a->causal ? "on" : "off", be_device_name(&bes[0]));
    printf("  inputs: Q, K, V, dO in [-1, 1); the forward's O, l, m (and P for the standard backward) from the "
           "double-precision reference, rounded to fp32 (lesson 4 measures the forward)\n");
    printf("  what the forward saves for the backward: standard P = %s (N x N per head); flash l, m = %s "
           "(2 N per head; v2 turns them into the logsumexp L, N per head): %.0fx less memory\n",
           hb(saved_p_bytes(a), b1), hb(saved_lm_bytes(a), b2), saved_p_bytes(a) / saved_lm_bytes(a));
    if (a->versions & 2)
        printf("  flash v1 (Algorithm 4) tiles: Bc = ceil(M/4d) = %d, Br = min(ceil(M/4d), d) = %d%s, M = %lld bytes; "
               "%.1f KB of shared memory\n",
               a->v1_bc, a->v1_br, a->br_override || a->bc_override ? " (overridden)" : "", a->sram,
               bwd_v1_shared_bytes(a->d, a->v1_br, a->v1_bc) / 1024.0);
    if (a->versions & 4)
        printf("  flash v2 tiles: Bc = %d keys per block (dK_j, dV_j in registers), Br = %d query rows per step; "
               "%.1f KB of shared memory; dQ by %s\n",
               BWD_V2_BC, BWD_V2_BR, bwd_v2_shared_bytes(a->d) / 1024.0,
               a->dq_atomic ? "atomicAdd from every K_j block (--dq atomic)" : "a separate pass over the keys (--dq pass)");
    for (int bi = 0; bi < nb; bi++) {
        backend *be = &bes[bi];
        printf("\n  [%s] per kernel%s; %s\n", be_name(be),
               be->kind == BACKEND_CUDA ? " (DRAM bytes from the hardware counters; - = not measured)" : "",
               lesson_time_note(be));
        printf("    %-9s %-20s %12s %12s %12s %12s %10s\n", "version", "kernel", "HBM read", "HBM write", "SRAM read",
               "SRAM write", lesson_time_head(be));
        for (int ver = 0; ver < BWD_NVER; ver++) {
            const bwd_result *r = &res[bi][ver];
            if (!r->ran)
                continue;
            lesson_kernel_rows(stdout, be, ver_names[ver], r->first_kernel, r->n_kernels);
        }
        if (be->kind == BACKEND_SIM) {
            printf("\n    HBM bytes per tensor, read / written (closed form in brackets when it differs; "
                   "an atomicAdd is one read and one write)\n    %-9s", "version");
            for (int t = 0; t < BWD_NTENSORS; t++)
                printf(" %17s", bwd_tensor_names[t]);
            printf("\n");
            for (int ver = 0; ver < BWD_NVER; ver++) {
                const bwd_result *r = &res[bi][ver];
                if (!r->ran)
                    continue;
                bwd_bytes e = bwd_expected(a, ver);
                printf("    %-9s", ver_names[ver]);
                lesson_tensor_cells(stdout, BWD_NTENSORS, 17, r->measured.rd, r->measured.wr, e.rd, e.wr);
            }
        }
        printf("\n    gradients vs CPU reference (double), pass when |err| <= %g max|ref| + %g |ref|, each of dQ, dK, dV%s:\n",
               BWD_ATOL, BWD_RTOL,
               bwd_spot_check(a) ? " (heads 0 and B*H-1 only: the reference of every head would take minutes)" : "");
        for (int ver = 0; ver < BWD_NVER; ver++) {
            const bwd_result *r = &res[bi][ver];
            if (r->ran)
                printf("    %-9s %s -> %s\n", ver_names[ver], grad_line(r, line, sizeof line),
                       r->ok && r->pass ? "PASS" : "FAIL");
        }
    }
    if (nb == 2) /* --mode compare */
        for (int ver = 0; ver < BWD_NVER; ver++)
            if (res[0][ver].ran && res[1][ver].ran)
                lesson_compare_table(stdout, &bes[0], res[0][ver].first_kernel, &bes[1], res[1][ver].first_kernel,
                                     res[0][ver].n_kernels);
    backend *be = &bes[0];
    const bwd_result *rs = res[0];
    printf("\n  summary [%s]: HBM bytes (read + written) against the closed form and Theorem 5; %s\n", be_name(be),
           lesson_time_note(be));
    printf("    %-9s %12s %12s %8s %12s %10s %10s %10s %10s %11s\n", "version", "HBM bytes", "closed form", "",
           "Theorem 5", "count/Thm5", "GFLOP", "FLOP/byte", lesson_time_head(be), "vs standard");
    double std_bytes = rs[BWD_VER_STD].ran && version_measured(be, &rs[BWD_VER_STD])
                           ? (double)(rs[BWD_VER_STD].hbm_read + rs[BWD_VER_STD].hbm_write)
                           : 0;
    int unmeasured = 0;
    for (int ver = 0; ver < BWD_NVER; ver++) {
        const bwd_result *r = &rs[ver];
        if (!r->ran)
            continue;
        bwd_bytes e = bwd_expected(a, ver);
        double got = (double)(r->hbm_read + r->hbm_write), want = (double)(bwd_bytes_read(&e) + bwd_bytes_written(&e));
        double t5 = bwd_theorem5_bytes(a, ver), flops = bwd_flops(a, ver);
        int measured = version_measured(be, r);
        char ratio[32] = "", c_got[24] = "-", c_t5[16] = "-", c_fb[16] = "-";
        if (measured) {
            hb(got, c_got);
            snprintf(c_t5, sizeof c_t5, "%.2f", got / t5);
            snprintf(c_fb, sizeof c_fb, "%.2f", flops / got);
            if (std_bytes > 0 && ver != BWD_VER_STD)
                snprintf(ratio, sizeof ratio, "%.1fx fewer", std_bytes / got);
        } else {
            unmeasured = 1;
        }
        printf("    %-9s %12s %12s %8s %12s %10s %10.3f %10s %10.2f %11s\n", ver_names[ver], c_got, hb(want, b2),
               !measured ? "" : be->kind == BACKEND_CUDA ? "(DRAM)" : got == want ? "exact" : "DIFFERS", hb(t5, b3),
               c_t5, flops / 1e9, c_fb, r->time_ms, ratio);
    }
    if (unmeasured)
        printf("    - = not measured (no hardware counters: %s)\n", lesson_no_counters_why(be));
    printf("    Theorem 5: standard Theta(N d + N^2), FlashAttention Theta(N^2 d^2 / M), M = %lld floats.\n"
           "    Recomputation: flash spends 5 products per (query, key) pair where standard spends 4 (S = Q K^T "
           "again: +25 %% FLOPs%s) and saves %s of P in HBM.\n",
           a->sram / 4, a->dq_atomic ? "" : "; v2's dQ pass recomputes S and dP once more: 7 products",
           hb(saved_p_bytes(a) - saved_lm_bytes(a), b1));
    if (be->kind == BACKEND_SIM) {
        lesson_l2_head(stdout, "      ", be->dev);
        for (int ver = 0; ver < BWD_NVER; ver++)
            if (rs[ver].ran)
                lesson_l2_row(stdout, "      ", ver_names[ver], &rs[ver].l2);
    }
    printf("\n%s\n", pass ? "PASS" : "FAIL");
}

static void json_version(json *j, const bwd_params *a, backend *be, const bwd_result *r, int ver)
{
    json_obj(j, NULL);
    json_str(j, "name", ver_names[ver]);
    lesson_json_kernels(j, be, r->first_kernel, r->n_kernels);
    bwd_bytes e = bwd_expected(a, ver);
    json_obj(j, "hbm");
    json_uint(j, "read_bytes", r->hbm_read);
    json_uint(j, "write_bytes", r->hbm_write);
    json_uint(j, "expected_read_bytes", bwd_bytes_read(&e));
    json_uint(j, "expected_write_bytes", bwd_bytes_written(&e));
    json_num(j, "theorem5_bytes", bwd_theorem5_bytes(a, ver));
    json_end(j);
    if (be->kind == BACKEND_SIM) {
        lesson_json_tensors(j, BWD_NTENSORS, bwd_tensor_names, r->measured.rd, r->measured.wr, e.rd, e.wr);
    }
    json_num(j, "saved_bytes", ver == BWD_VER_STD ? saved_p_bytes(a) : saved_lm_bytes(a));
    json_num(j, "flops", bwd_flops(a, ver));
    json_num(j, "intensity", bwd_flops(a, ver) / (double)(r->hbm_read + r->hbm_write));
    json_num(j, "time_ms", r->time_ms);
    json_obj(j, "check");
    lesson_json_check_named(j, "dq", &r->dq);
    lesson_json_check_named(j, "dk", &r->dk);
    lesson_json_check_named(j, "dv", &r->dv);
    json_bool(j, "pass", r->ok && r->pass);
    json_end(j);
    json_end(j);
}

static void print_json(const bwd_params *a, backend *bes, int nb, bwd_result res[][BWD_NVER], int pass)
{
    json j;
    json_open(&j, stdout);
    json_int(&j, "lesson", 7);
    json_obj(&j, "params");
    json_int(&j, "batch", a->B);
    json_int(&j, "heads", a->H);
    json_int(&j, "n", a->N);
    json_int(&j, "d", a->d);
    json_int(&j, "sram", a->sram);
    json_bool(&j, "causal", a->causal);
    json_int(&j, "v1_br", a->v1_br);
    json_int(&j, "v1_bc", a->v1_bc);
    json_int(&j, "v2_br", BWD_V2_BR);
    json_int(&j, "v2_bc", BWD_V2_BC);
    json_str(&j, "dq", a->dq_atomic ? "atomic" : "pass");
    json_str(&j, "arch", bes[0].dev->name);
    json_end(&j);
    for (int bi = 0; bi < nb; bi++) {
        backend *be = &bes[bi];
        json_obj(&j, be_name(be));
        json_str(&j, "device", be_device_name(be));
        json_arr(&j, "versions");
        for (int ver = 0; ver < BWD_NVER; ver++)
            if (res[bi][ver].ran)
                json_version(&j, a, be, &res[bi][ver], ver);
        json_end_arr(&j);
        json_end(&j);
    }
    json_arr(&j, "kernels");
    for (int i = 0; i < bes[0].n_kernels; i++)
        lesson_json_kernel(&j, &bes[0].kernels[i], bes[0].detailed || bes[0].kind == BACKEND_CUDA);
    json_end_arr(&j);
    lesson_json_buffers(&j, &bes[0]);
    check_result worst = {0, 0, BWD_RTOL, BWD_ATOL, 0, 1};
    for (int ver = 0; ver < BWD_NVER; ver++)
        if (res[0][ver].ran) {
            const check_result *c[3] = {&res[0][ver].dq, &res[0][ver].dk, &res[0][ver].dv};
            for (int g = 0; g < 3; g++) {
                worst.max_abs_err = fmax(worst.max_abs_err, c[g]->max_abs_err);
                worst.max_rel_err = fmax(worst.max_rel_err, c[g]->max_rel_err);
            }
            worst.pass &= res[0][ver].ok && res[0][ver].pass;
        }
    lesson_json_check(&j, &worst);
    json_bool(&j, "pass", pass);
    json_close(&j);
}

/* ---- CSV and --sweep ------------------------------------------------------------- */
static void csv_rows(sweep_csv *c, const bwd_params *a, backend *be, const bwd_result res[BWD_NVER])
{
    for (int ver = 0; ver < BWD_NVER; ver++) {
        const bwd_result *r = &res[ver];
        if (!r->ran)
            continue;
        bwd_bytes e = bwd_expected(a, ver);
        uint64_t drd = 0, dwr = 0;
        int all_hw = r->n_kernels > 0;
        for (int i = r->first_kernel; i < r->first_kernel + r->n_kernels; i++) {
            drd += be->kernels[i].hw.dram_read_bytes;
            dwr += be->kernels[i].hw.dram_write_bytes;
            all_hw &= be->kernels[i].hw.valid;
        }
        sweep_csv_str(c, "backend", be_name(be));
        sweep_csv_str(c, "device", be_device_name(be));
        sweep_csv_str(c, "version", ver_names[ver]);
        sweep_csv_int(c, "batch", a->B);
        sweep_csv_int(c, "heads", a->H);
        sweep_csv_int(c, "n", a->N);
        sweep_csv_int(c, "d", a->d);
        sweep_csv_int(c, "sram", a->sram);
        sweep_csv_int(c, "causal", a->causal);
        sweep_csv_str(c, "dq", a->dq_atomic ? "atomic" : "pass");
        sweep_csv_int(c, "br", ver == BWD_VER_V1 ? a->v1_br : 64);
        sweep_csv_int(c, "bc", ver == BWD_VER_V1 ? a->v1_bc : 64);
        sweep_csv_int(c, "kernels", r->n_kernels);
        sweep_csv_uint(c, "hbm_read_bytes", r->hbm_read);
        sweep_csv_uint(c, "hbm_write_bytes", r->hbm_write);
        sweep_csv_uint(c, "hbm_bytes", r->hbm_read + r->hbm_write);
        sweep_csv_uint(c, "expected_bytes", bwd_bytes_read(&e) + bwd_bytes_written(&e));
        sweep_csv_num(c, "theorem5_bytes", bwd_theorem5_bytes(a, ver));
        sweep_csv_num(c, "saved_bytes", ver == BWD_VER_STD ? saved_p_bytes(a) : saved_lm_bytes(a));
        if (be->kind == BACKEND_SIM) {
            sweep_csv_uint(c, "dram_read_bytes", r->l2.dram_read_bytes);
            sweep_csv_uint(c, "dram_write_bytes", r->l2.dram_write_bytes);
        } else if (all_hw) {
            sweep_csv_uint(c, "dram_read_bytes", drd);
            sweep_csv_uint(c, "dram_write_bytes", dwr);
        } else {
            sweep_csv_empty(c, "dram_read_bytes");
            sweep_csv_empty(c, "dram_write_bytes");
        }
        sweep_csv_num(c, "flops", bwd_flops(a, ver));
        sweep_csv_num(c, "time_ms", r->time_ms);
        sweep_csv_num(c, "dq_max_abs_err", r->dq.max_abs_err);
        sweep_csv_num(c, "dk_max_abs_err", r->dk.max_abs_err);
        sweep_csv_num(c, "dv_max_abs_err", r->dv.max_abs_err);
        sweep_csv_int(c, "pass", r->ok && r->pass);
        sweep_csv_end_row(c);
    }
}

static const char *const sweep_names[] = {"n", "d", "batch", "heads", "sram", "br", "bc", NULL};

static bwd_params sweep_point(const bwd_params *base, const sweep_spec *sp, int i)
{
    bwd_params a = *base;
    const sweep_field fields[] = {{"n", &a.N, NULL},         {"d", &a.d, NULL},          {"batch", &a.B, NULL},
                                  {"heads", &a.H, NULL},     {"sram", NULL, &a.sram},    {"br", NULL, &a.br_override},
                                  {"bc", NULL, &a.bc_override}, {NULL, NULL, NULL}};
    sweep_apply(sp, i, fields);
    return a;
}

/* The size limits of one point: 0, or -1 with the reason. */
static int size_check(const bwd_params *a, char *err, size_t n)
{
    double nd = (double)a->B * a->H * a->N * a->d, nn = (double)a->B * a->H * a->N * a->N;
    if (nd > (double)(1LL << 31) || ((a->versions & 1) && nn > (double)(1LL << 32))) {
        snprintf(err, n,
                 "B*H*N*d = %.4g (and B*H*N*N = %.4g for P, dP and dS) is too large for this lesson (limits 2^31 "
                 "and 2^32 elements); use a smaller --n, --batch or --heads",
                 nd, nn);
        return -1;
    }
    return 0;
}

static int run_sweep(const bwd_params *base, const sweep_spec *sp, backend *bes, int nb, int as_json, const char *csv)
{
    sweep_csv cf;
    int pass = 1, stopped = 0;
    char b1[24], b2[24], pt[96];
    if (csv && sweep_csv_open(&cf, csv)) {
        fprintf(stderr, "lesson 7: %s\n", cf.err);
        return LESSON_FAIL;
    }
    if (as_json)
        printf("{\n  \"lesson\": 7,\n  \"sweep\": \"%s\",\n  \"points\": [\n", sp->text);
    else
        printf("lesson 7 sweep %s: B = %d, H = %d, N = %d, d = %d, M = %lld bytes, causal %s (the swept one varies)\n"
               "  %-7s %-12s %-9s %12s %12s %11s %6s\n",
               sp->text, base->B, base->H, base->N, base->d, base->sram, base->causal ? "on" : "off", "backend",
               "point", "version", "HBM bytes", "closed form", "time ms*", "check");
    for (int i = 0; i < sp->n && !stopped; i++) {
        bwd_params a = sweep_point(base, sp, i);
        char err[1024];
        bwd_params_check(&a, err, sizeof err); /* passed before the run; this picks the tiles */
        bwd_inputs in;
        bwd_result res[2][BWD_NVER];
        memset(res, 0, sizeof res);
        int ok = !bwd_make_inputs(&a, &in);
        if (!ok)
            fprintf(stderr, "lesson 7: out of host memory for the inputs at %s\n", sweep_point_str(sp, i, pt, sizeof pt)),
                stopped = 1;
        for (int bi = 0; bi < nb && ok; bi++) {
            be_clear_kernels(&bes[bi]);
            if (bes[bi].kind == BACKEND_CUDA)
                bes[bi].counters = a.counters;
            if (bwd_run(&bes[bi], &a, &in, res[bi])) {
                ok = 0, stopped = 1;
                break;
            }
            for (int ver = 0; ver < BWD_NVER; ver++)
                if (res[bi][ver].ran)
                    ok &= res[bi][ver].ok && res[bi][ver].pass;
        }
        pass &= ok;
        for (int bi = 0; bi < nb && !stopped && !as_json; bi++)
            for (int ver = 0; ver < BWD_NVER; ver++) {
                const bwd_result *r = &res[bi][ver];
                if (!r->ran)
                    continue;
                bwd_bytes e = bwd_expected(&a, ver);
                printf("  %-7s %-12s %-9s %12s %12s %11.3f %6s\n", be_name(&bes[bi]),
                       sweep_point_str(sp, i, pt, sizeof pt), ver_names[ver],
                       hb((double)(r->hbm_read + r->hbm_write), b1),
                       hb((double)(bwd_bytes_read(&e) + bwd_bytes_written(&e)), b2), r->time_ms,
                       r->ok && r->pass ? "PASS" : "FAIL");
            }
        if (!stopped) {
            sweep_progress("lesson 7", sp, i, "%s", ok ? "PASS" : "FAIL");
            if (as_json) {
                if (i)
                    printf("  ,\n");
                print_json(&a, bes, nb, res, ok);
            }
            for (int bi = 0; bi < nb && csv; bi++)
                csv_rows(&cf, &a, &bes[bi], res[bi]);
        }
        bwd_free_inputs(&in);
    }
    if (as_json)
        printf("  ],\n  \"pass\": %s\n}\n", pass && !stopped ? "true" : "false");
    if (csv) {
        if (stopped) {
            fprintf(stderr, "lesson 7: the sweep stopped at an error; %s not written\n", csv);
            sweep_csv_abort(&cf);
        } else if (sweep_csv_commit(&cf)) {
            fprintf(stderr, "lesson 7: %s\n", cf.err);
            stopped = 1;
        } else {
            fprintf(stderr, "lesson 7: wrote %s\n", csv);
        }
    }
    if (!as_json)
        printf("\n%s\n", pass && !stopped ? "PASS" : "FAIL");
    return pass && !stopped ? LESSON_PASS : LESSON_FAIL;
}

int bwd_parse_versions(const char *v) { return lesson_parse_versions(v, ver_names, BWD_NVER); }

int lesson07_main(int argc, char **argv)
{
    lesson_common c = {.mode = "sim"};
    long long N = 512, d = 64, B = 1, H = 2, sram = 48 << 10, br = 0, bc = 0, repeats = 10;
    int causal = 0, no_counters = 0;
    const char *version = "all", *dq = "atomic", *csv = NULL, *sweep = NULL;
    const lesson_opt opts[] = {
        {"n", OPT_INT, &N, "N", "sequence length (default 512)", 1, 1 << 20, NULL},
        {"d", OPT_INT, &d, "D", "head dimension (default 64; flash v2: 16, 32, 64, 128)", 1, 1024, NULL},
        {"batch", OPT_INT, &B, "B", "batch size (default 1)", 1, 4096, NULL},
        {"heads", OPT_INT, &H, "H", "heads (default 2)", 1, 4096, NULL},
        {"sram", OPT_SIZE, &sram, "BYTES", "SRAM size M for flash v1's tiles (default 48k)", 1024, 1 << 30, NULL},
        {"br", OPT_INT, &br, "ROWS", "flash v1: override Br", 1, 1 << 16, NULL},
        {"bc", OPT_INT, &bc, "KEYS", "flash v1: override Bc", 1, 1 << 16, NULL},
        {"causal", OPT_FLAG, &causal, NULL, "causal mask: query i sees keys j <= i", 0, 0, NULL},
        {"version", OPT_STR, &version, "LIST", "which versions to run: standard, v1, v2, a comma list of them (standard,v2) or all (default)", 0, 0, NULL},
        {"dq", OPT_CHOICE, &dq, "atomic|pass", "flash v2: dQ by atomicAdd from each K_j block (default) or a separate pass", 0, 0, dq_choices},
        {"csv", OPT_STR, &csv, "PATH", "write one CSV row per backend and version (and sweep point) to PATH", 0, 0, NULL},
        {"sweep", OPT_STR, &sweep, "NAME=RANGE", "run over n, d, batch, heads, sram, br or bc: n=128:1024:x2, sram=16k:64k:+16k", 0, 0, NULL},
        {"repeats", OPT_INT, &repeats, "R", "GPU: timed runs per version, median reported (default 10)", 0, 1000, NULL},
        {"no-counters", OPT_FLAG, &no_counters, NULL, "GPU: skip the hardware counters (faster; for timing)", 0, 0, NULL},
        LESSON_COMMON_OPTS(c),
        {0},
    };
    char err[1024];
    if (cli_parse(argc, argv, 1, opts, err, sizeof err))
        return lesson_usage_error("lesson 7", opts, err);
    if (c.help) {
        cli_usage(stdout, "lesson 7", opts, 1);
        return LESSON_PASS;
    }
    bwd_params a = {.B = (int)B, .H = (int)H, .N = (int)N, .d = (int)d, .causal = causal, .sram = sram,
                    .br_override = br, .bc_override = bc, .versions = bwd_parse_versions(version),
                    .dq_atomic = !strcmp(dq, "atomic"), .arch = c.arch, .repeats = (int)repeats,
                    .counters = !no_counters};
    if (!a.versions) {
        snprintf(err, sizeof err,
                 "--version '%s': expected standard, v1, v2, a comma list of them without spaces (standard,v2) or all",
                 version);
        return lesson_usage_error("lesson 7", opts, err);
    }
    sweep_spec sp;
    if (sweep) {
        if (sweep_parse(&sp, sweep, opts, sweep_names, err, sizeof err))
            return lesson_usage_error("lesson 7", opts, err);
        for (int i = 0; i < sp.n; i++) { /* every point checked before anything runs */
            bwd_params p = sweep_point(&a, &sp, i);
            char why[900], pt[96];
            if (!size_check(&p, why, sizeof why) && !bwd_params_check(&p, why, sizeof why))
                continue;
            snprintf(err, sizeof err, "--sweep %s: at %s: %s", sp.text, sweep_point_str(&sp, i, pt, sizeof pt), why);
            return lesson_usage_error("lesson 7", opts, err);
        }
    } else if (size_check(&a, err, sizeof err) || bwd_params_check(&a, err, sizeof err)) {
        return lesson_usage_error("lesson 7", opts, err);
    }
    if (csv && sweep_csv_writable(csv, err, sizeof err))
        return lesson_usage_error("lesson 7", opts, err);
    backend bes[2];
    int nb;
    int rc = lesson_start("lesson 7", argc, argv, opts, &c, bes, &nb);
    if (rc >= 0)
        return rc;
    if (sweep) {
        rc = run_sweep(&a, &sp, bes, nb, c.json, csv);
        for (int bi = 0; bi < nb; bi++)
            be_close(&bes[bi]);
        return rc;
    }
    bwd_inputs in;
    if (bwd_make_inputs(&a, &in)) {
        fprintf(stderr, "lesson 7: out of host memory for the inputs and the reference; try a smaller --n, --batch "
                        "or --heads\n");
        bwd_free_inputs(&in);
        for (int bi = 0; bi < nb; bi++)
            be_close(&bes[bi]);
        return LESSON_FAIL;
    }
    bwd_result res[2][BWD_NVER];
    int pass = 1;
    for (int bi = 0; bi < nb; bi++) {
        if (bes[bi].kind == BACKEND_CUDA)
            bes[bi].counters = a.counters;
        if (bwd_run(&bes[bi], &a, &in, res[bi])) {
            pass = 0;
            memset(res[bi], 0, sizeof res[bi]);
            continue;
        }
        for (int ver = 0; ver < BWD_NVER; ver++)
            if (res[bi][ver].ran)
                pass &= res[bi][ver].ok && res[bi][ver].pass;
    }
    if (c.json)
        print_json(&a, bes, nb, res, pass);
    else
        print_text(&a, bes, nb, res, pass);
    if (csv) {
        sweep_csv cf;
        if (sweep_csv_open(&cf, csv)) {
            fprintf(stderr, "lesson 7: %s\n", cf.err);
            pass = 0;
        } else {
            for (int bi = 0; bi < nb; bi++)
                csv_rows(&cf, &a, &bes[bi], res[bi]);
            if (sweep_csv_commit(&cf)) {
                fprintf(stderr, "lesson 7: %s\n", cf.err);
                pass = 0;
            }
        }
    }
    for (int bi = 0; bi < nb; bi++)
        be_close(&bes[bi]);
    bwd_free_inputs(&in);
    return pass ? LESSON_PASS : LESSON_FAIL;
}
