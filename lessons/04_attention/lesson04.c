/* lessons/04_attention/lesson04.c - lesson 4: standard attention vs FlashAttention.
 *
 * Runs standard attention (S and P through HBM), FlashAttention v1 (the
 * paper's Algorithm 1) and v2 (FlashAttention-2's loop order) on the same
 * Q, K, V; checks each O against the double-precision CPU reference; and
 * sets the HBM bytes each moved, per kernel and per tensor, beside the
 * exact closed forms (traffic.c) and the figures of Theorem 2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "lesson.h"
#include "lesson04.h"

enum { VER_STD, VER_V1, VER_V2, NVER };
static const char *const ver_names[NVER] = {"standard", "v1", "v2"};

typedef struct dev_bufs {
    float *q, *k, *v, *s, *p, *o, *l, *m, *part;
} dev_bufs;

typedef struct timing_ctx {
    int ver;
    const attn_params *a;
    const dev_bufs *b;
} timing_ctx;
static int launch_version(backend *be, int ver, const attn_params *a, const dev_bufs *b);
static attn_shape shape_of(const attn_params *a);
static int launch_cb(backend *be, void *p)
{
    const timing_ctx *t = p;
    return launch_version(be, t->ver, t->a, t->b);
}

/* Launches one version's kernels. Returns 0 or -1 (error in be->err). */
static int launch_version(backend *be, int ver, const attn_params *a, const dev_bufs *b)
{
    const int BH = a->B * a->H, N = a->N, d = a->d;
    const float scale = 1.0f / sqrtf((float)d);
    if (ver == VER_STD) {
        int T = (N + 63) / 64;
        simt_cfg c1 = {.grid = {(unsigned)T, (unsigned)T, (unsigned)BH}, .block = {16, 16, 1}};
        simt_cfg c2 = {.grid = {(unsigned)((long long)BH * N), 1, 1}, .block = {256, 1, 1}};
        simt_cfg c3 = {.grid = {(unsigned)((d + 63) / 64), (unsigned)T, (unsigned)BH}, .block = {16, 16, 1}};
        return BE_LAUNCH(be, attn_std_scores, &c1, b->s, b->q, b->k, N, d, scale, a->causal) ||
               BE_LAUNCH(be, attn_std_softmax, &c2, b->p, b->s, N, a->causal) ||
               BE_LAUNCH(be, attn_std_pv, &c3, b->o, b->p, b->v, N, d, a->causal)
                   ? -1
                   : 0;
    }
    if (ver == VER_V1) {
        /* LESSON: Algorithm 1's tiles need more than the default 48 KB of shared
         * memory per block: the kernel must opt in (cudaFuncSetAttribute). */
        if (be_set_max_dynamic_shared(be, attn_flash_v1_shared_bytes(d, a->v1_br, a->v1_bc)))
            return -1;
        simt_cfg c0 = {.grid = {(unsigned)((long long)BH * N * d / 256 + 1 < 65535 ? (long long)BH * N * d / 256 + 1 : 65535), 1, 1},
                       .block = {256, 1, 1}};
        simt_cfg c1 = {.grid = {(unsigned)BH, 1, 1}, .block = {256, 1, 1},
                       .shared_bytes = attn_flash_v1_shared_bytes(d, a->v1_br, a->v1_bc)};
        return BE_LAUNCH(be, attn_flash_v1_init, &c0, b->o, b->l, b->m, (long long)BH * N, d) ||
               BE_LAUNCH(be, attn_flash_v1, &c1, b->o, b->l, b->m, b->q, b->k, b->v, N, d, a->v1_br, a->v1_bc,
                         scale, a->causal)
                   ? -1
                   : 0;
    }
    /* LESSON: one block per row tile and head; the tiles past v2_whole (in
     * head-major order) are split (attn_v2_plan) into v2_splits blocks each,
     * on the grid's z, and the merge kernel combines their parts */
    const attn_shape sh = shape_of(a);
    const int T = (N + a->v2_br - 1) / a->v2_br;
    int whole, splits;
    const long long tiles = attn_v2_grid(&sh, &whole, &splits);
    simt_cfg c = {.grid = {(unsigned)T, (unsigned)BH, (unsigned)splits},
                  .block = {(unsigned)a->v2_threads, 1, 1},
                  .shared_bytes = attn_flash_v2_shared_bytes(d, a->v2_bc)};
    if (be_set_max_dynamic_shared(be, c.shared_bytes)) /* K_j, V_j tiles can pass 48 KB */
        return -1;
    int rc;
    switch (d) {
    case 16: rc = BE_LAUNCH(be, attn_flash_v2_d16, &c, b->o, b->l, b->m, b->part, b->q, b->k, b->v, N, a->v2_bc, scale, a->causal, whole, splits); break;
    case 32: rc = BE_LAUNCH(be, attn_flash_v2_d32, &c, b->o, b->l, b->m, b->part, b->q, b->k, b->v, N, a->v2_bc, scale, a->causal, whole, splits); break;
    case 64: rc = BE_LAUNCH(be, attn_flash_v2_d64, &c, b->o, b->l, b->m, b->part, b->q, b->k, b->v, N, a->v2_bc, scale, a->causal, whole, splits); break;
    default: rc = BE_LAUNCH(be, attn_flash_v2_d128, &c, b->o, b->l, b->m, b->part, b->q, b->k, b->v, N, a->v2_bc, scale, a->causal, whole, splits); break;
    }
    if (rc || splits == 1)
        return rc;
    simt_cfg cm = {.grid = {(unsigned)(tiles - whole), (unsigned)((a->v2_br + ATTN_V2_MERGE_ROWS - 1) / ATTN_V2_MERGE_ROWS), 1},
                   .block = {ATTN_V2_MERGE_THREADS, 1, 1},
                   .shared_bytes = attn_flash_v2_merge_shared_bytes(&sh)};
    return BE_LAUNCH(be, attn_flash_v2_merge, &cm, b->o, b->l, b->m, b->part, N, d, a->v2_br, whole, splits);
}

static attn_shape shape_of(const attn_params *a)
{
    attn_shape s = {.B = a->B, .H = a->H, .N = a->N, .d = a->d, .causal = a->causal, .v1_br = a->v1_br,
                    .v1_bc = a->v1_bc, .v2_br = a->v2_br, .v2_bc = a->v2_bc, .v2_whole = a->v2_whole,
                    .v2_splits = a->v2_splits};
    return s;
}

attn_bytes attn_expected(const attn_params *a, int ver)
{
    attn_shape s = shape_of(a);
    attn_bytes t, k;
    memset(&t, 0, sizeof t);
    if (ver == VER_STD) {
        k = attn_std_scores_bytes(&s), attn_bytes_add(&t, &k);
        k = attn_std_softmax_bytes(&s), attn_bytes_add(&t, &k);
        k = attn_std_pv_bytes(&s), attn_bytes_add(&t, &k);
    } else if (ver == VER_V1) {
        k = attn_flash_v1_init_bytes(&s), attn_bytes_add(&t, &k);
        k = attn_flash_v1_bytes(&s), attn_bytes_add(&t, &k);
    } else {
        k = attn_flash_v2_bytes(&s), attn_bytes_add(&t, &k);
        k = attn_flash_v2_merge_bytes(&s), attn_bytes_add(&t, &k);
    }
    return t;
}

double attn_theorem2_bytes(const attn_params *a, int ver)
{
    double N = a->N, d = a->d, M = (double)a->sram / 4.0, heads = (double)a->B * a->H;
    return 4.0 * heads * (ver == VER_STD ? N * d + N * N : N * N * d * d / M);
}

int attn_params_check(attn_params *a, char *err, size_t n)
{
    const sim_device *dev = sim_device_find(a->arch ? a->arch : "sm_90");
    if (!dev)
        dev = sim_device_find("sm_90");
    attn_v1_tiles(a->sram, a->d, &a->v1_br, &a->v1_bc);
    if (a->br_override)
        a->v1_br = (int)a->br_override;
    if (a->bc_override)
        a->v1_bc = (int)a->bc_override;
    if (a->versions & (1 << VER_V1)) {
        uint64_t need = attn_flash_v1_shared_bytes(a->d, a->v1_br, a->v1_bc);
        if (need > dev->shared_per_block_optin) {
            /* the largest square tile that fits, and the largest d at these tiles */
            int t = 1;
            while (attn_flash_v1_shared_bytes(a->d, t + 1, t + 1) <= dev->shared_per_block_optin)
                t++;
            long long dmax = 0;
            while (attn_flash_v1_shared_bytes((int)dmax + 1, a->v1_br, a->v1_bc) <= dev->shared_per_block_optin)
                dmax++;
            char dpart[96];
            if (dmax > 0)
                snprintf(dpart, sizeof dpart, "largest d at these tiles: %lld", dmax);
            else
                snprintf(dpart, sizeof dpart, "no d fits tiles this large");
            snprintf(err, n,
                     "flash v1 tiles Br = %d, Bc = %d with d = %d need %llu bytes of shared memory per block "
                     "(K_j, V_j, Q_i, O_i, S_ij, l, m); %s allows %zu bytes. Largest tile that fits at d = %d: "
                     "Br = Bc = %d (--br %d --bc %d, or a smaller --sram); %s",
                     a->v1_br, a->v1_bc, a->d, (unsigned long long)need, dev->name, dev->shared_per_block_optin,
                     a->d, t, t, t, dpart);
            return -1;
        }
    }
    if ((a->versions & 5) && (long long)a->B * a->H > dev->max_grid[1]) {
        snprintf(err, n,
                 "B*H = %lld heads: standard and flash v2 put the heads on a grid dimension, which %s limits to %u "
                 "blocks; use fewer --batch or --heads (or --version v1)",
                 (long long)a->B * a->H, dev->name, dev->max_grid[1]);
        return -1;
    }
    if (a->versions & (1 << VER_V2)) {
        int r = attn_v2_tiles(a->sram, a->N, a->d, &a->v2_br, &a->v2_bc, &a->v2_threads);
        if (r == -1) {
            snprintf(err, n,
                     "flash v2 has kernels for d = 16, 32, 64 and 128 (d is a compile-time constant of its register "
                     "tiles); got --d %d. Use one of those, or --version standard / v1",
                     a->d);
            return -1;
        }
        if (r == -2) {
            snprintf(err, n,
                     "--sram %lld bytes holds fewer than 8 keys of flash v2's K_j and V_j tiles at d = %d (2 * 8 * "
                     "%d * 4 = %d bytes needed); use --sram %dk or more, or --version standard,v1 to leave v2 out",
                     a->sram, a->d, a->d, 64 * a->d, (64 * a->d + 1023) / 1024);
            return -1;
        }
        if (attn_flash_v2_shared_bytes(a->d, a->v2_bc) > dev->shared_per_block_optin) {
            while (attn_flash_v2_shared_bytes(a->d, a->v2_bc) > dev->shared_per_block_optin)
                a->v2_bc -= 8;
        }
        /* the last wave's split: planned for the --arch preset's SMs, so that
         * the simulator and the GPU run the same grid */
        const long long tiles = (long long)a->B * a->H * ((a->N + a->v2_br - 1) / a->v2_br);
        const int bps = attn_v2_blocks_per_sm(a->d, a->v2_threads, attn_flash_v2_shared_bytes(a->d, a->v2_bc),
                                              dev->shared_per_block_optin + 1024);
        const long long slots = (long long)dev->sm_count * bps;
        const int kmin = a->causal && a->v2_br < a->N ? a->v2_br : a->N; /* keys of the smallest range */
        const int max_splits = (kmin + ATTN_V2_KC - 1) / ATTN_V2_KC;       /* each part one batch at least */
        if (a->splits_override > max_splits) {
            snprintf(err, n,
                     "--v2-splits %lld: a row tile here sees only %d keys (%s), %d batch%s of %d: at most "
                     "--v2-splits %d (or 0 for the automatic plan, 1 for none)",
                     a->splits_override, kmin, kmin < a->N ? "the first row tile of a head, causal" : "N",
                     max_splits, max_splits == 1 ? "" : "es", ATTN_V2_KC, max_splits);
            return -1;
        }
        if (a->splits_override == 0) {
            attn_v2_plan(tiles, slots, max_splits < 8 ? max_splits : 8, &a->v2_whole, &a->v2_splits);
        } else {
            /* forced: split the last wave's tiles (all of them when they fit one wave) */
            long long rem = tiles % slots ? tiles % slots : slots;
            a->v2_splits = (int)a->splits_override;
            a->v2_whole = a->v2_splits > 1 ? (int)(tiles > slots ? tiles - rem : 0) : (int)tiles;
        }
    }
    return 0;
}

static void tensor_counts(backend *be, const dev_bufs *b, attn_bytes *out)
{
    float *const ptr[ATT_NTENSORS] = {b->q, b->k, b->v, b->s, b->p, b->o, b->l, b->m, b->part};
    memset(out, 0, sizeof *out);
    for (int i = 0; i < ATT_NTENSORS; i++)
        if (ptr[i] && be->kind == BACKEND_SIM)
            be_buffer_counts(be, ptr[i], &out->rd[i], &out->wr[i]);
}

int attn_run(backend *be, const attn_params *a, const float *q, const float *k, const float *v, const double *ref,
             attn_version_result out[3])
{
    const size_t BH = (size_t)a->B * a->H, nd = BH * a->N * a->d, nn = BH * a->N * a->N, nr = BH * a->N;
    attn_shape sh = shape_of(a);
    const size_t np = (a->versions & 4) ? attn_v2_part_floats(&sh) : 0;
    dev_bufs b = {0};
    float *o = malloc(nd * sizeof *o), *lm = malloc(2 * nr * sizeof *lm); /* O; l then m */
    int rc = -1;
    memset(out, 0, 3 * sizeof *out);
    if (!o || !lm) {
        snprintf(be->err, sizeof be->err, "out of host memory for O and l, m (%zu bytes)", (nd + 2 * nr) * sizeof(float));
        goto done;
    }
    if (be_malloc(be, &b.q, nd * 4, "Q") || be_malloc(be, &b.k, nd * 4, "K") || be_malloc(be, &b.v, nd * 4, "V") ||
        be_malloc(be, &b.o, nd * 4, "O") || be_malloc(be, &b.l, nr * 4, "l") || be_malloc(be, &b.m, nr * 4, "m") ||
        ((a->versions & 1) && (be_malloc(be, &b.s, nn * 4, "S") || be_malloc(be, &b.p, nn * 4, "P"))) ||
        (np && be_malloc(be, &b.part, np * 4, "parts")) ||
        be_upload(be, b.q, q, nd * 4) || be_upload(be, b.k, k, nd * 4) || be_upload(be, b.v, v, nd * 4))
        goto done;
    for (int ver = 0; ver < NVER; ver++) {
        if (!(a->versions & (1 << ver)))
            continue;
        attn_version_result *r = &out[ver];
        r->ran = 1;
        if (be_memset(be, b.o, 0, nd * 4))
            goto done;
        be_reset_counts(be);
        r->first_kernel = be->n_kernels;
        if (launch_version(be, ver, a, &b))
            goto done;
        r->n_kernels = be->n_kernels - r->first_kernel;
        for (int i = r->first_kernel; i < be->n_kernels; i++) {
            be_kernel *kr = &be->kernels[i];
            /* the FLOPs go to the kernels that do them: v2's first, v1's last; standard's two
             * matrix products (scores, pv) half each (the time model, sim/timemodel.c, needs them
             * where they are spent), as executed: causal, whole tiles up to the diagonal (standard:
             * 64 x 64, STD_TILE; v1: Br x Bc; v2: Br rows, keys up to the tile's last row) */
            if (ver == VER_STD)
                kr->flops = i == r->first_kernel || i == be->n_kernels - 1 ? attn_flops_executed(&sh, 64, 64) / 2 : 0;
            else if (ver == VER_V1)
                kr->flops = i == be->n_kernels - 1 ? attn_flops_executed(&sh, a->v1_br, a->v1_bc) : 0;
            else
                kr->flops = i == r->first_kernel ? attn_flops_executed(&sh, a->v2_br, 1) : 0;
            r->time_ms += kr->time_ms;
            r->hbm_read += kr->hw.valid ? kr->hw.dram_read_bytes : kr->sim.hbm_read_bytes;
            r->hbm_write += kr->hw.valid ? kr->hw.dram_write_bytes : kr->sim.hbm_write_bytes;
            lesson_add_l2(&r->l2, &kr->sim);
        }
        tensor_counts(be, &b, &r->measured);
        if (be_download(be, o, b.o, nd * 4))
            goto done;
        {
            /* big problems check their first and last head, and very long heads a
             * sample of rows (attn_make_inputs computed only those) */
            const size_t head = (size_t)a->N * a->d;
            const int step = attn_check_step(a), heads[2] = {0, BH - 1};
            const int nh = attn_spot_check(a) ? (BH > 1 ? 2 : 1) : BH;
            /* flash v1 and v2 also write each row's l and m: checked against
             * the reference's, l relative, m absolute */
            const int with_lm = ver != VER_STD;
            if (with_lm && (be_download(be, lm, b.l, nr * 4) || be_download(be, lm + nr, b.m, nr * 4)))
                goto done;
            const double *lref = ref + nd, *mref = lref + nr;
            check_result all = {0, 0, ATTN_RTOL, ATTN_ATOL, 0, 1}, lmc = all;
            for (int hi = 0; hi < nh; hi++) {
                size_t h = (size_t)(attn_spot_check(a) ? heads[hi] : hi);
                for (int i = 0; i < a->N; i += step) {
                    size_t off = h * head + (size_t)i * a->d, x = h * a->N + i;
                    check_result c = check_close(o + off, ref + off, (size_t)a->d, ATTN_RTOL, ATTN_ATOL);
                    all.max_abs_err = fmax(all.max_abs_err, c.max_abs_err);
                    all.max_rel_err = fmax(all.max_rel_err, c.max_rel_err);
                    all.pass &= c.pass;
                    if (!with_lm)
                        continue;
                    double el = fabs(lm[x] - lref[x]), em = fabs(lm[nr + x] - mref[x]);
                    lmc.max_rel_err = fmax(lmc.max_rel_err, el / lref[x]);
                    lmc.max_abs_err = fmax(lmc.max_abs_err, em);
                    if (!(el <= ATTN_ATOL + ATTN_RTOL * lref[x] && em <= ATTN_ATOL + ATTN_RTOL * fabs(mref[x])))
                        lmc.pass = 0, lmc.worst = x;
                }
            }
            all.pass &= lmc.pass;
            r->check = all;
            r->lm = lmc;
        }
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
        fprintf(stderr, "lesson 4 (%s): %s\n", be_name(be), be->err);
    float *const all[] = {b.q, b.k, b.v, b.s, b.p, b.o, b.l, b.m, b.part};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        be_free(be, all[i]);
    free(o);
    free(lm);
    return rc;
}

int attn_spot_check(const attn_params *a)
{
    return (double)a->B * a->H * a->N * a->N * a->d > 4e9 && a->B * a->H > 2;
}

void attn_make_inputs(const attn_params *a, float **q, float **k, float **v, double **ref)
{
    const int BH = a->B * a->H;
    const size_t head = (size_t)a->N * a->d, nd = (size_t)BH * head;
    *q = malloc(nd * sizeof **q);
    *k = malloc(nd * sizeof **k);
    *v = malloc(nd * sizeof **v);
    *ref = calloc(nd + 2 * (size_t)BH * a->N, sizeof **ref); /* O, then l, then m */
    if (!*q || !*k || !*v || !*ref)
        return;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < nd; i++) {
        (*q)[i] = lesson_rnd(&s);
        (*k)[i] = lesson_rnd(&s);
        (*v)[i] = lesson_rnd(&s);
    }
    /* the double-precision reference of every head, every row, would take minutes
     * or hours: big problems check two heads, very long ones a sample of rows */
    const int step = attn_check_step(a);
    const int nh = attn_spot_check(a) ? (BH > 1 ? 2 : 1) : BH, heads[2] = {0, BH - 1};
    /* heads are independent (attention_cpu_rows writes only its own rows):
     * one per core, as the simulator's workers are */
#pragma omp parallel for schedule(dynamic, 1)
    for (int hi = 0; hi < nh; hi++) {
        size_t off = (size_t)(attn_spot_check(a) ? heads[hi] : hi) * head;
        const size_t h = (size_t)(attn_spot_check(a) ? heads[hi] : hi);
        double *lref = *ref + nd + h * a->N, *mref = lref + (size_t)BH * a->N;
        attention_cpu_rows(*ref + off, lref, mref, *q + off, *k + off, *v + off, a->N, a->d, a->causal, step);
    }
}

int attn_check_step(const attn_params *a)
{
    if (a->N <= 8192)
        return 1;
    /* rows to check: what 4e10 double flops buy (a row costs 4 N d), 64 to 1024 */
    double rows = 4e10 / (4.0 * a->N * a->d);
    rows = rows < 64 ? 64 : rows > 1024 ? 1024 : rows;
    return (int)(a->N / rows);
}

/* ---- report --------------------------------------------------------------------- */
/* ", l rel err X, m abs err Y" (and which failed) for the versions that write l and m */
static const char *lm_note(const attn_version_result *r)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "; l rel err %.3g, m abs err %.3g%s", r->lm.max_rel_err, r->lm.max_abs_err,
             r->lm.pass ? "" : " (l or m out of tolerance)");
    return buf;
}

static const char *hb(double x, char *buf) { return human_bytes(x, buf, 24); }

/* A launch's HBM bytes were measured: always on the simulator; on a GPU only
 * with its counters (--no-counters, or counters not permitted: not measured) */
static int version_measured(const backend *be, const attn_version_result *r)
{
    return lesson_kernels_measured(be, r->first_kernel, r->n_kernels);
}

static void print_text(const attn_params *a, backend *bes, int nb, attn_version_result res[][3], int pass)
{
    char b2[24], b3[24];
    const sim_device *dev = bes[0].dev;
    printf("lesson 4: attention, standard vs FlashAttention\n");
    printf("  B = %d, H = %d, N = %d, d = %d, fp32, scale = 1/sqrt(%d), causal %s; device %s\n", a->B, a->H, a->N,
           a->d, a->d, a->causal ? "on" : "off", be_device_name(&bes[0]));
    printf("  SRAM M = %lld bytes = %lld floats (the paper's M counts elements, not bytes)\n", a->sram, a->sram / 4);
    if (a->versions & 2)
        printf("  flash v1 tiles: Bc = ceil(M/4d) = %d, Br = min(ceil(M/4d), d) = %d%s; %.1f KB of shared memory\n",
               a->v1_bc, a->v1_br, a->br_override || a->bc_override ? " (overridden)" : "",
               attn_flash_v1_shared_bytes(a->d, a->v1_br, a->v1_bc) / 1024.0);
    if (a->versions & 4)
    {
        printf("  flash v2 tiles: Br = %d query rows per block (Q, O in registers), Bc = %d keys (K_j, V_j: %.1f KB "
               "of shared memory)\n",
               a->v2_br, a->v2_bc, attn_flash_v2_shared_bytes(a->d, a->v2_bc) / 1024.0);
        attn_shape sh = shape_of(a);
        int whole, splits;
        long long tiles = attn_v2_grid(&sh, &whole, &splits);
        if (splits > 1)
            printf("  flash v2 grid: %lld row tiles; the first %d whole, the last %lld split into %d key ranges each "
                   "(the last wave, planned for %d SMs of %s), merged by attn_flash_v2_merge\n",
                   tiles, whole, tiles - whole, splits, dev->sm_count, dev->name);
        else
            printf("  flash v2 grid: %lld row tiles, each one block over all its keys\n", tiles);
    }
    for (int bi = 0; bi < nb; bi++) {
        backend *be = &bes[bi];
        printf("\n  [%s] per kernel%s; %s\n", be_name(be),
               be->kind == BACKEND_CUDA ? " (DRAM bytes from the hardware counters; - = not measured)" : "",
               lesson_time_note(be));
        printf("    %-9s %-20s %12s %12s %12s %12s %10s\n", "version", "kernel", "HBM read", "HBM write", "SRAM read",
               "SRAM write", lesson_time_head(be));
        for (int ver = 0; ver < NVER; ver++) {
            const attn_version_result *r = &res[bi][ver];
            if (!r->ran)
                continue;
            lesson_kernel_rows(stdout, be, ver_names[ver], r->first_kernel, r->n_kernels);
        }
        if (be->kind == BACKEND_SIM) {
            printf("\n    HBM bytes per tensor, read / written (closed form in brackets when it differs)\n");
            printf("    %-9s", "version");
            for (int t = 0; t < ATT_NTENSORS; t++)
                printf(" %19s", attn_tensor_names[t]);
            printf("\n");
            for (int ver = 0; ver < NVER; ver++) {
                const attn_version_result *r = &res[bi][ver];
                if (!r->ran)
                    continue;
                attn_bytes e = attn_expected(a, ver);
                printf("    %-9s", ver_names[ver]);
                lesson_tensor_cells(stdout, ATT_NTENSORS, 19, r->measured.rd, r->measured.wr, e.rd, e.wr);
            }
        }
        printf("\n    check vs CPU reference (double), pass when |err| <= %g + %g |ref|%s:\n", ATTN_ATOL, ATTN_RTOL,
               attn_spot_check(a) ? (attn_check_step(a) > 1 ? " (heads 0 and B*H-1, every attn_check_step-th row: a full reference would take hours)"
                                                           : " (heads 0 and B*H-1 only: the reference of every head would take minutes)")
                                  : attn_check_step(a) > 1 ? " (a sample of rows of each head: a full reference would take hours)" : "");
        for (int ver = 0; ver < NVER; ver++) {
            const attn_version_result *r = &res[bi][ver];
            if (r->ran)
                printf("    %-9s max abs err %.3g, max rel err %.3g%s -> %s\n", ver_names[ver], r->check.max_abs_err,
                       r->check.max_rel_err, ver == VER_STD ? "" : lm_note(r), r->ok && r->check.pass ? "PASS" : "FAIL");
        }
    }
    if (nb == 2) /* --mode compare */
        for (int ver = 0; ver < NVER; ver++)
            if (res[0][ver].ran && res[1][ver].ran)
                lesson_compare_table(stdout, &bes[0], res[0][ver].first_kernel, &bes[1], res[1][ver].first_kernel,
                                     res[0][ver].n_kernels);
    /* the closing table, from the first backend */
    backend *be = &bes[0];
    const attn_version_result *rs = res[0];
    attn_shape sh = shape_of(a);
    double flops = attn_flops(&sh);
    printf("\n  summary [%s]: HBM bytes (read + written) against the closed form and Theorem 2; %s\n", be_name(be),
           lesson_time_note(be));
    printf("    %-9s %12s %12s %8s %16s %10s %10s %10s %11s\n", "version", "HBM bytes", "closed form", "", "Theorem 2",
           "count/Thm2", "FLOP/byte", lesson_time_head(be), "vs standard");
    double std_bytes = rs[VER_STD].ran && version_measured(be, &rs[VER_STD])
                           ? (double)(rs[VER_STD].hbm_read + rs[VER_STD].hbm_write) : 0;
    int unmeasured = 0;
    for (int ver = 0; ver < NVER; ver++) {
        const attn_version_result *r = &rs[ver];
        if (!r->ran)
            continue;
        attn_bytes e = attn_expected(a, ver);
        double got = (double)(r->hbm_read + r->hbm_write), want = (double)(attn_bytes_read(&e) + attn_bytes_written(&e));
        double t2 = attn_theorem2_bytes(a, ver);
        int measured = version_measured(be, r);
        char ratio[32] = "", c_got[24] = "-", c_t2[16] = "-", c_fb[16] = "-";
        if (measured) {
            hb(got, c_got);
            snprintf(c_t2, sizeof c_t2, "%.2f", got / t2);
            snprintf(c_fb, sizeof c_fb, "%.2f", flops / got);
            if (std_bytes > 0 && ver != VER_STD)
                snprintf(ratio, sizeof ratio, "%.1fx fewer", std_bytes / got);
        } else {
            unmeasured = 1;
        }
        printf("    %-9s %12s %12s %8s %16s %10s %10s %10.2f %11s\n", ver_names[ver], c_got, hb(want, b2),
               !measured ? "" : be->kind == BACKEND_CUDA ? "(DRAM)" : got == want ? "exact" : "DIFFERS",
               hb(t2, b3), c_t2, c_fb, r->time_ms, ratio);
    }
    if (unmeasured)
        printf("    - = not measured (no hardware counters: %s)\n", lesson_no_counters_why(be));
    printf("    Theorem 2: standard Theta(N d + N^2), FlashAttention Theta(N^2 d^2 / M); FLOPs = %s per head x %lld "
           "heads = %.3g\n",
           a->causal ? "4 d N(N+1)/2 (causal: the visible pairs)" : "4 N^2 d", (long long)a->B * a->H, flops);
    if (be->kind == BACKEND_SIM) {
        lesson_l2_head(stdout, "      ", be->dev);
        for (int ver = 0; ver < NVER; ver++)
            if (rs[ver].ran)
                lesson_l2_row(stdout, "      ", ver_names[ver], &rs[ver].l2);
    }
    printf("\n%s\n", pass ? "PASS" : "FAIL");
}

static void json_version(json *j, const attn_params *a, backend *be, const attn_version_result *r, int ver)
{
    json_obj(j, NULL);
    json_str(j, "name", ver_names[ver]);
    lesson_json_kernels(j, be, r->first_kernel, r->n_kernels);
    attn_bytes e = attn_expected(a, ver);
    json_obj(j, "hbm");
    json_uint(j, "read_bytes", r->hbm_read);
    json_uint(j, "write_bytes", r->hbm_write);
    json_uint(j, "expected_read_bytes", attn_bytes_read(&e));
    json_uint(j, "expected_write_bytes", attn_bytes_written(&e));
    json_num(j, "theorem2_bytes", attn_theorem2_bytes(a, ver));
    json_end(j);
    if (be->kind == BACKEND_SIM) {
        lesson_json_tensors(j, ATT_NTENSORS, attn_tensor_names, r->measured.rd, r->measured.wr, e.rd, e.wr);
    }
    attn_shape sh = shape_of(a);
    double flops = attn_flops(&sh);
    json_num(j, "flops", flops);
    json_num(j, "intensity", flops / (double)(r->hbm_read + r->hbm_write));
    json_num(j, "time_ms", r->time_ms);
    lesson_json_check(j, &r->check);
    if (ver != VER_STD) { /* flash v1, v2: their l and m (also in check.pass) */
        json_obj(j, "lm_check");
        json_num(j, "l_max_rel_err", r->lm.max_rel_err);
        json_num(j, "m_max_abs_err", r->lm.max_abs_err);
        json_bool(j, "pass", r->lm.pass);
        json_end(j);
    }
    json_end(j);
}

static void print_json(const attn_params *a, backend *bes, int nb, attn_version_result res[][3], int pass)
{
    json j;
    json_open(&j, stdout);
    json_int(&j, "lesson", 4);
    json_obj(&j, "params");
    json_int(&j, "batch", a->B);
    json_int(&j, "heads", a->H);
    json_int(&j, "n", a->N);
    json_int(&j, "d", a->d);
    json_int(&j, "sram", a->sram);
    json_bool(&j, "causal", a->causal);
    json_int(&j, "v1_br", a->v1_br);
    json_int(&j, "v1_bc", a->v1_bc);
    json_int(&j, "v2_br", a->v2_br);
    json_int(&j, "v2_bc", a->v2_bc);
    json_int(&j, "v2_whole", a->v2_whole);
    json_int(&j, "v2_splits", a->v2_splits);
    json_str(&j, "arch", bes[0].dev->name);
    json_end(&j);
    for (int bi = 0; bi < nb; bi++) {
        backend *be = &bes[bi];
        json_obj(&j, be_name(be));
        json_str(&j, "device", be_device_name(be));
        json_arr(&j, "versions");
        for (int ver = 0; ver < NVER; ver++)
            if (res[bi][ver].ran)
                json_version(&j, a, be, &res[bi][ver], ver);
        json_end_arr(&j);
        json_end(&j);
    }
    /* the schema's top level: the first backend's kernels, buffers and worst check */
    json_arr(&j, "kernels");
    for (int i = 0; i < bes[0].n_kernels; i++)
        lesson_json_kernel(&j, &bes[0].kernels[i], bes[0].detailed || bes[0].kind == BACKEND_CUDA);
    json_end_arr(&j);
    /* buffers: bytes and the HBM traffic of all versions together (simulator) */
    const uint64_t nd = (uint64_t)a->B * a->H * a->N * a->d * 4, nn = (uint64_t)a->B * a->H * a->N * a->N * 4,
                   nr = (uint64_t)a->B * a->H * a->N * 4;
    attn_shape sh = shape_of(a);
    const uint64_t sizes[ATT_NTENSORS] = {nd, nd, nd, nn, nn, nd, nr, nr, 4 * attn_v2_part_floats(&sh)};
    json_arr(&j, "buffers");
    for (int t = 0; t < ATT_NTENSORS; t++) {
        if (((t == ATT_S || t == ATT_P) && !(a->versions & 1)) || (t == ATT_PART && !sizes[t]))
            continue;
        uint64_t rd = 0, wr = 0;
        for (int ver = 0; ver < NVER; ver++) {
            rd += res[0][ver].measured.rd[t];
            wr += res[0][ver].measured.wr[t];
        }
        json_obj(&j, NULL);
        json_str(&j, "name", attn_tensor_names[t]);
        json_uint(&j, "bytes", sizes[t]);
        if (bes[0].kind == BACKEND_SIM) {
            json_uint(&j, "read_bytes", rd);
            json_uint(&j, "write_bytes", wr);
        } else {
            json_null(&j, "read_bytes");
            json_null(&j, "write_bytes");
        }
        json_end(&j);
    }
    json_end_arr(&j);
    check_result worst = {0, 0, ATTN_RTOL, ATTN_ATOL, 0, 1};
    for (int ver = 0; ver < NVER; ver++)
        if (res[0][ver].ran) {
            const check_result *c = &res[0][ver].check;
            worst.max_abs_err = fmax(worst.max_abs_err, c->max_abs_err);
            worst.max_rel_err = fmax(worst.max_rel_err, c->max_rel_err);
            worst.pass &= c->pass && res[0][ver].ok;
        }
    lesson_json_check(&j, &worst);
    json_bool(&j, "pass", pass);
    json_close(&j);
}

int attn_parse_versions(const char *v) { return lesson_parse_versions(v, ver_names, NVER); }

/* ---- --sweep (lessons/common/sweep.h) --------------------------------------------- */
static const char *const sweep_names[] = {"n", "d", "batch", "heads", "sram", "br", "bc", NULL};

/* base with the sweep's point i applied (tiles not yet chosen). */
static attn_params sweep_point(const attn_params *base, const sweep_spec *sp, int i)
{
    attn_params a = *base;
    const sweep_field fields[] = {{"n", &a.N, NULL},         {"d", &a.d, NULL},          {"batch", &a.B, NULL},
                                  {"heads", &a.H, NULL},     {"sram", NULL, &a.sram},    {"br", NULL, &a.br_override},
                                  {"bc", NULL, &a.bc_override}, {NULL, NULL, NULL}};
    sweep_apply(sp, i, fields);
    return a;
}

/* Checks every point before anything runs. Returns 0, or -1 with the reason
 * (which point, and why) in err. */
static int sweep_check(const attn_params *base, const sweep_spec *sp, char *err, size_t n)
{
    for (int i = 0; i < sp->n; i++) {
        attn_params a = sweep_point(base, sp, i);
        char why[900], pt[96];
        double nd = (double)a.B * a.H * a.N * a.d, nn = (double)a.B * a.H * a.N * a.N;
        if (nd > (double)(1LL << 31) || ((a.versions & 1) && nn > (double)(1LL << 32)))
            snprintf(why, sizeof why,
                     "B*H*N*d = %.4g (and B*H*N*N = %.4g for S and P) is too large for this lesson (limits 2^31 and "
                     "2^32 elements); end the sweep lower or use a smaller --batch or --heads",
                     nd, nn);
        else if (!attn_params_check(&a, why, sizeof why))
            continue;
        snprintf(err, n, "--sweep %s: at %s: %s", sp->text, sweep_point_str(sp, i, pt, sizeof pt), why);
        return -1;
    }
    return 0;
}

/* Runs every point on every backend; per point a progress line (stderr) and,
 * on stdout, a table row per version or, with --json, one object per point in
 * "points". The CSV is written only if every point ran (a failed check is a
 * row with pass 0; a backend error stops the sweep and leaves PATH as it was).
 * Returns the lesson's exit code. */
static int run_sweep(const attn_params *base, const sweep_spec *sp, backend *bes, int nb, int as_json,
                     const char *csv)
{
    sweep_csv cf;
    int pass = 1, stopped = 0;
    char b1[24], b2[24], b3[24], pt[96];
    if (csv && sweep_csv_open(&cf, csv)) {
        fprintf(stderr, "lesson 4: %s\n", cf.err);
        return LESSON_FAIL;
    }
    if (as_json)
        printf("{\n  \"lesson\": 4,\n  \"sweep\": \"%s\",\n  \"points\": [\n", sp->text);
    else
        printf("lesson 4 sweep %s: B = %d, H = %d, N = %d, d = %d, M = %lld bytes, causal %s (the swept one varies)\n"
               "  (time ms*: on the sim rows the simulator's CPU time, not a GPU time; on cuda rows CUDA events)\n"
               "  %-7s %-12s %-9s %12s %12s %12s %11s %6s\n",
               sp->text, base->B, base->H, base->N, base->d, base->sram, base->causal ? "on" : "off", "backend", "point",
               "version", "HBM bytes", "closed form", "Theorem 2", "time ms*", "check");
    for (int i = 0; i < sp->n && !stopped; i++) {
        attn_params a = sweep_point(base, sp, i);
        char err[1024];
        attn_params_check(&a, err, sizeof err); /* passed in sweep_check; this picks the tiles */
        float *q, *k, *v;
        double *ref;
        attn_make_inputs(&a, &q, &k, &v, &ref);
        attn_version_result res[2][3];
        int ok = q && k && v && ref;
        memset(res, 0, sizeof res);
        if (!ok)
            fprintf(stderr, "lesson 4: out of host memory for the inputs at %s\n", sweep_point_str(sp, i, pt, sizeof pt)),
                stopped = 1;
        for (int bi = 0; bi < nb && ok; bi++) {
            be_clear_kernels(&bes[bi]); /* res[][].first_kernel index this point's launches */
            if (bes[bi].kind == BACKEND_CUDA)
                bes[bi].counters = a.counters;
            if (attn_run(&bes[bi], &a, q, k, v, ref, res[bi])) {
                memset(res[bi], 0, sizeof res[bi]);
                ok = 0, stopped = 1;
                break;
            }
            for (int ver = 0; ver < NVER; ver++)
                if (res[bi][ver].ran)
                    ok &= res[bi][ver].ok && res[bi][ver].check.pass;
        }
        pass &= ok;
        char line[512] = "";
        double secs = 0;
        for (int bi = 0; bi < nb && !stopped; bi++)
            for (int ver = 0; ver < NVER; ver++) {
                const attn_version_result *r = &res[bi][ver];
                if (!r->ran)
                    continue;
                attn_bytes e = attn_expected(&a, ver);
                double got = (double)(r->hbm_read + r->hbm_write), want = (double)(attn_bytes_read(&e) + attn_bytes_written(&e));
                const char *exact = bes[bi].kind == BACKEND_CUDA ? "(DRAM)" : got == want ? "exact" : "DIFFERS";
                secs += r->time_ms / 1e3;
                if (bi == 0)
                    snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s %s %s", line[0] ? ", " : "",
                             ver_names[ver], hb(got, b1), exact);
                if (!as_json)
                    printf("  %-7s %-12s %-9s %12s %12s %12s %11.3f %6s\n", be_name(&bes[bi]),
                           sweep_point_str(sp, i, pt, sizeof pt), ver_names[ver], hb(got, b1),
                           bes[bi].kind == BACKEND_CUDA ? exact : hb(want, b2), hb(attn_theorem2_bytes(&a, ver), b3),
                           r->time_ms, r->ok && r->check.pass ? "PASS" : "FAIL");
            }
        if (!stopped) {
            sweep_progress("lesson 4", sp, i, "%s; %.2f s of kernels; %s", line, secs, ok ? "PASS" : "FAIL");
            if (as_json) {
                if (i)
                    printf("  ,\n");
                print_json(&a, bes, nb, res, ok);
            }
            for (int bi = 0; bi < nb && csv; bi++)
                attn_csv_rows(&cf, &a, &bes[bi], res[bi]);
        }
        free(q);
        free(k);
        free(v);
        free(ref);
    }
    if (as_json)
        printf("  ],\n  \"pass\": %s\n}\n", pass && !stopped ? "true" : "false");
    if (csv) {
        if (stopped) {
            fprintf(stderr, "lesson 4: the sweep stopped at an error; %s not written\n", csv);
            sweep_csv_abort(&cf);
        } else if (sweep_csv_commit(&cf)) {
            fprintf(stderr, "lesson 4: %s\n", cf.err);
            stopped = 1;
        } else {
            fprintf(stderr, "lesson 4: wrote %s\n", csv);
        }
    }
    if (!as_json)
        printf("\n%s\n", pass && !stopped ? "PASS" : "FAIL");
    return pass && !stopped ? LESSON_PASS : LESSON_FAIL;
}

int lesson04_main(int argc, char **argv)
{
    lesson_common c = {.mode = "sim"};
    long long N = 1024, d = 64, B = 1, H = 2, sram = 48 << 10, br = 0, bc = 0, splits = 0;
    int causal = 0, no_counters = 0;
    long long repeats = 10;
    const char *version = "all", *csv = NULL, *sweep = NULL;
    const lesson_opt opts[] = {
        {"n", OPT_INT, &N, "N", "sequence length (default 1024)", 1, 1 << 20, NULL},
        {"d", OPT_INT, &d, "D", "head dimension (default 64; flash v2: 16, 32, 64, 128)", 1, 1024, NULL},
        {"batch", OPT_INT, &B, "B", "batch size (default 1)", 1, 4096, NULL},
        {"heads", OPT_INT, &H, "H", "heads (default 2)", 1, 4096, NULL},
        {"sram", OPT_SIZE, &sram, "BYTES", "SRAM size M for the tiles (default 48k, the preset's default limit)", 1024, 1 << 30, NULL},
        {"br", OPT_INT, &br, "ROWS", "flash v1: override Br", 1, 1 << 16, NULL},
        {"bc", OPT_INT, &bc, "KEYS", "flash v1: override Bc", 1, 1 << 16, NULL},
        {"v2-splits", OPT_INT, &splits, "S", "flash v2: key ranges of each last-wave tile (default 0: planned; 1: none)", 0, 64, NULL},
        {"causal", OPT_FLAG, &causal, NULL, "causal mask: query i sees keys j <= i", 0, 0, NULL},
        {"version", OPT_STR, &version, "LIST", "which versions to run: standard, v1, v2, a comma list of them (standard,v2) or all (default)", 0, 0, NULL},
        {"csv", OPT_STR, &csv, "PATH", "write one CSV row per backend and version (and sweep point) to PATH", 0, 0, NULL},
        {"sweep", OPT_STR, &sweep, "NAME=RANGE", "run over n, d, batch, heads, sram, br or bc: n=256:4096:x2, sram=16k:64k:+16k, d=32,64", 0, 0, NULL},
        {"repeats", OPT_INT, &repeats, "R", "GPU: timed runs per version, median reported (default 10)", 0, 1000, NULL},
        {"no-counters", OPT_FLAG, &no_counters, NULL, "GPU: skip the hardware counters (faster; for timing)", 0, 0, NULL},
        LESSON_COMMON_OPTS(c),
        {0},
    };
    backend bes[2];
    int nb;
    /* parse first without opening backends, so parameter errors come before set-up */
    char err[1024];
    if (cli_parse(argc, argv, 1, opts, err, sizeof err))
        return lesson_usage_error("lesson 4", opts, err);
    if (c.help) {
        cli_usage(stdout, "lesson 4", opts, 1);
        return LESSON_PASS;
    }
    attn_params a = {.B = (int)B, .H = (int)H, .N = (int)N, .d = (int)d, .causal = causal, .sram = sram,
                     .br_override = br, .bc_override = bc, .splits_override = splits, .versions = attn_parse_versions(version), .arch = c.arch,
                     .repeats = (int)repeats, .counters = !no_counters};
    if (!a.versions) {
        snprintf(err, sizeof err,
                 "--version '%s': expected standard, v1, v2, a comma list of them without spaces (standard,v2) or all",
                 version);
        return lesson_usage_error("lesson 4", opts, err);
    }
    if ((double)B * H * N * d > (double)(1LL << 31) || ((a.versions & 1) && (double)B * H * N * N > (double)(1LL << 32))) {
        snprintf(err, sizeof err,
                 "B*H*N*d = %.4g (and B*H*N*N = %.4g for S and P) is too large for this lesson (limits 2^31 and "
                 "2^32 elements); use a smaller --n, --batch or --heads",
                 (double)B * H * N * d, (double)B * H * N * N);
        return lesson_usage_error("lesson 4", opts, err);
    }
    sweep_spec sp; /* --sweep: every point is checked here, before anything runs */
    if (sweep && (sweep_parse(&sp, sweep, opts, sweep_names, err, sizeof err) || sweep_check(&a, &sp, err, sizeof err)))
        return lesson_usage_error("lesson 4", opts, err);
    if (!sweep && attn_params_check(&a, err, sizeof err))
        return lesson_usage_error("lesson 4", opts, err);
    if (csv && sweep_csv_writable(csv, err, sizeof err)) /* fail now, not after the run */
        return lesson_usage_error("lesson 4", opts, err);
    int rc = lesson_start("lesson 4", argc, argv, opts, &c, bes, &nb);
    if (rc >= 0)
        return rc;
    if (sweep) {
        rc = run_sweep(&a, &sp, bes, nb, c.json, csv);
        for (int bi = 0; bi < nb; bi++)
            be_close(&bes[bi]);
        return rc;
    }

    float *q, *k, *v;
    double *ref;
    attn_make_inputs(&a, &q, &k, &v, &ref);
    if (!q || !k || !v || !ref) {
        fprintf(stderr, "lesson 4: out of host memory for the inputs (Q, K, V and the reference: %zu bytes); try a smaller --n, --b or --h\n",
                (size_t)a.B * a.H * a.N * a.d * (3 * sizeof(float) + sizeof(double)));
        for (int bi = 0; bi < nb; bi++)
            be_close(&bes[bi]);
        free(q), free(k), free(v), free(ref);
        return LESSON_FAIL;
    }
    attn_version_result res[2][3];
    int pass = 1;
    for (int bi = 0; bi < nb; bi++)
        if (bes[bi].kind == BACKEND_CUDA)
            bes[bi].counters = a.counters;
    for (int bi = 0; bi < nb; bi++) {
        if (attn_run(&bes[bi], &a, q, k, v, ref, res[bi])) {
            pass = 0;
            memset(res[bi], 0, sizeof res[bi]);
            continue;
        }
        for (int ver = 0; ver < NVER; ver++)
            if (res[bi][ver].ran)
                pass &= res[bi][ver].ok && res[bi][ver].check.pass;
    }
    if (c.json)
        print_json(&a, bes, nb, res, pass);
    else
        print_text(&a, bes, nb, res, pass);
    if (csv && attn_csv_write(csv, &a, bes, nb, res))
        pass = 0;
    for (int bi = 0; bi < nb; bi++)
        be_close(&bes[bi]);
    free(q);
    free(k);
    free(v);
    free(ref);
    return pass ? LESSON_PASS : LESSON_FAIL;
}

/* One CSV row per version that ran on be, every counter the run has; a cell
 * is empty where this backend or mode does not measure it (the same cases
 * --json writes null). Column names follow --json: hbm_read_bytes is the
 * version's hbm.read_bytes, read_sectors the sum of its kernels'
 * hbm.read_sectors, q_read_bytes its tensors.Q.read_bytes, and so on. */
void attn_csv_rows(sweep_csv *c, const attn_params *a, backend *be, const attn_version_result res[3])
{
    const int detailed = be->detailed || be->kind == BACKEND_CUDA; /* as print_json passes it */
    attn_shape sh = shape_of(a);
    for (int ver = 0; ver < NVER; ver++) {
        const attn_version_result *r = &res[ver];
        if (!r->ran)
            continue;
        attn_bytes e = attn_expected(a, ver);
        /* sums over the version's kernels, as lesson_json_kernel reads each one */
        uint64_t sram_rd = 0, sram_wr = 0, rsec = 0, wsec = 0, wf = 0, bc = 0, shared = 0, asec = 0, awf = 0;
        uint64_t l1ld = 0, l1st = 0, l2rd = 0, l2wr = 0, drd = 0, dwr = 0;
        int any_sim = 0, all_hw = r->n_kernels > 0;
        for (int i = r->first_kernel; i < r->first_kernel + r->n_kernels; i++) {
            const be_kernel *k = &be->kernels[i];
            int sim = !k->hw.valid;
            any_sim |= sim;
            all_hw &= k->hw.valid;
            shared = k->cfg.shared_bytes > shared ? k->cfg.shared_bytes : shared;
            sram_rd += k->sim.sram_read_bytes;
            sram_wr += k->sim.sram_write_bytes;
            rsec += be_ld_sectors(k);
            wsec += be_st_sectors(k);
            wf += be_wavefronts(k);
            bc += be_conflicts(k);
            asec += be_async_ld_sectors(k);
            awf += k->sim.async_st_wavefronts; /* the simulator's only (0 from the GPU) */
            l1ld += k->hw.l1_ld_sectors;
            l1st += k->hw.l1_st_sectors;
            l2rd += k->hw.l2_read_sectors;
            l2wr += k->hw.l2_write_sectors;
            drd += k->hw.dram_read_bytes;
            dwr += k->hw.dram_write_bytes;
        }
        const int have_sectors = !any_sim || detailed, have_sram = any_sim, have_hw = be->kind == BACKEND_CUDA && all_hw;
        const uint64_t got = r->hbm_read + r->hbm_write;
        sweep_csv_str(c, "backend", be_name(be));
        sweep_csv_str(c, "device", be_device_name(be));
        sweep_csv_str(c, "version", ver_names[ver]);
        sweep_csv_int(c, "batch", a->B);
        sweep_csv_int(c, "heads", a->H);
        sweep_csv_int(c, "n", a->N);
        sweep_csv_int(c, "d", a->d);
        sweep_csv_int(c, "sram", a->sram);
        sweep_csv_int(c, "causal", a->causal);
        sweep_csv_int(c, "br", ver == VER_V1 ? a->v1_br : ver == VER_V2 ? a->v2_br : 64);
        sweep_csv_int(c, "bc", ver == VER_V1 ? a->v1_bc : ver == VER_V2 ? a->v2_bc : 64);
        sweep_csv_int(c, "kernels", r->n_kernels);
        sweep_csv_uint(c, "shared_bytes", shared);
        sweep_csv_uint(c, "hbm_read_bytes", r->hbm_read);
        sweep_csv_uint(c, "hbm_write_bytes", r->hbm_write);
        sweep_csv_uint(c, "hbm_bytes", got);
        sweep_csv_uint(c, "expected_read_bytes", attn_bytes_read(&e));
        sweep_csv_uint(c, "expected_write_bytes", attn_bytes_written(&e));
        sweep_csv_uint(c, "expected_bytes", attn_bytes_read(&e) + attn_bytes_written(&e));
        sweep_csv_num(c, "theorem2_bytes", attn_theorem2_bytes(a, ver));
#define CELL_IF(have, name, v) ((have) ? sweep_csv_uint(c, name, v) : sweep_csv_empty(c, name))
        CELL_IF(have_sram, "sram_read_bytes", sram_rd);
        CELL_IF(have_sram, "sram_write_bytes", sram_wr);
        CELL_IF(have_sectors, "read_sectors", rsec);
        CELL_IF(have_sectors, "write_sectors", wsec);
        CELL_IF(have_sectors, "sram_wavefronts", wf);
        CELL_IF(have_sectors, "async_read_sectors", asec);
        CELL_IF(have_sectors && any_sim, "sram_async_wavefronts", awf);
        CELL_IF(have_sectors, "sram_bank_conflicts", bc);
        CELL_IF(have_hw, "hw_l1_ld_sectors", l1ld);
        CELL_IF(have_hw, "hw_l1_st_sectors", l1st);
        CELL_IF(have_hw, "hw_l2_read_sectors", l2rd);
        CELL_IF(have_hw, "hw_l2_write_sectors", l2wr);
        CELL_IF(have_hw, "hw_dram_read_bytes", drd);
        CELL_IF(have_hw, "hw_dram_write_bytes", dwr);
        for (int t = 0; t < ATT_NTENSORS; t++) { /* q_read_bytes ... m_write_bytes; measured in the simulator only */
            static const char *const low[ATT_NTENSORS] = {"q", "k", "v", "s", "p", "o", "l", "m", "parts"};
            char n1[32], n2[32], n3[40], n4[40];
            snprintf(n1, sizeof n1, "%s_read_bytes", low[t]);
            snprintf(n2, sizeof n2, "%s_write_bytes", low[t]);
            snprintf(n3, sizeof n3, "expected_%s_read_bytes", low[t]);
            snprintf(n4, sizeof n4, "expected_%s_write_bytes", low[t]);
            CELL_IF(be->kind == BACKEND_SIM, n1, r->measured.rd[t]);
            CELL_IF(be->kind == BACKEND_SIM, n2, r->measured.wr[t]);
            sweep_csv_uint(c, n3, e.rd[t]);
            sweep_csv_uint(c, n4, e.wr[t]);
        }
#undef CELL_IF
        double flops = attn_flops(&sh);
        sweep_csv_num(c, "flops", flops);
        sweep_csv_num(c, "intensity", flops / (double)got);
        sweep_csv_num(c, "time_ms", r->time_ms);
        sweep_csv_num(c, "max_abs_err", r->check.max_abs_err);
        sweep_csv_num(c, "max_rel_err", r->check.max_rel_err);
        sweep_csv_int(c, "pass", r->ok && r->check.pass);
        sweep_csv_end_row(c);
    }
}

int attn_csv_write(const char *path, const attn_params *a, backend *bes, int nb, attn_version_result res[][3])
{
    sweep_csv c;
    if (sweep_csv_open(&c, path)) {
        fprintf(stderr, "lesson 4: %s\n", c.err);
        return -1;
    }
    for (int bi = 0; bi < nb; bi++)
        attn_csv_rows(&c, a, &bes[bi], res[bi]);
    if (sweep_csv_commit(&c)) {
        fprintf(stderr, "lesson 4: %s\n", c.err);
        return -1;
    }
    return 0;
}
