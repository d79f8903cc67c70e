/* lessons/03_softmax/lesson03.c - lesson 3: softmax, naive, safe and online.
 *
 * Softmax over the rows of an (R, C) fp32 matrix, one block per row, in the
 * three versions of softmax.cu. The driver checks each version against the
 * CPU reference, then shows what each one moved through HBM: the naive and
 * online versions read the row twice and write it once (3 accesses per
 * element), the safe one reads it three times (4 accesses), the figures of
 * Milakov & Gimelshein 2018. A second run adds 100 to every input: exp then
 * overflows float, and the naive version returns inf/NaN (the lesson expects
 * that) while the safe and online versions are still correct.
 *
 * Buffers: x and x_large are (R, C) inputs, y is the (R, C) output that all
 * six launches write in turn (set to NaN before each, so an element a kernel
 * failed to write cannot pass the check). Their counts in --json are totals
 * over the run: x and x_large are each read 28RC bytes (8 + 12 + 8), y is
 * written 24RC bytes.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "softmax.h"
#include "sweep.h"

#define N_VERSIONS 3
#define LARGE_OFFSET 100.0f /* exp(x) overflows float above 88.72 */
#define RTOL 1e-5
#define ATOL 1e-7

typedef struct version {
    const char *name;
    int passes, loads, stores; /* per element: the paper's count is loads + stores */
    const char *how;
} version;

static const version versions[N_VERSIONS] = {
    {"softmax_naive", 2, 2, 1, "sum of exp(x); write exp(x) / sum"},
    {"softmax_safe", 3, 3, 1, "max m; sum of exp(x - m); write exp(x - m) / sum"},
    {"softmax_online", 2, 2, 1, "running max and rescaled sum together; write exp(x - m) / sum"},
};
enum { V_NAIVE, V_SAFE, V_ONLINE };

typedef struct vresult {
    be_kernel k;
    check_result check;
    size_t nonfinite; /* outputs that are inf or NaN */
    double rel_err;   /* max |y - ref| / |ref| over every output whose ref is a normal float */
    int ran;
} vresult;

typedef struct be_result {
    vresult normal[N_VERSIONS], large[N_VERSIONS];
} be_result;

static int launch(backend *be, int v, const simt_cfg *cfg, float *d_y, const float *d_x, int R, int C)
{
    switch (v) {
    case V_NAIVE: return BE_LAUNCH(be, softmax_naive, cfg, d_y, d_x, R, C);
    case V_SAFE: return BE_LAUNCH(be, softmax_safe, cfg, d_y, d_x, R, C);
    default: return BE_LAUNCH(be, softmax_online, cfg, d_y, d_x, R, C);
    }
}

/* Runs the three versions on one input. Returns 0, 1 with the error
 * printed, or LESSON_USAGE for a launch the user configured wrongly. */
static int run_set(backend *be, int R, int C, int block, float *d_x, float *d_y, float *y, const double *ref,
                   vresult *out)
{
    size_t n = (size_t)R * C;
    /* LESSON: one block per row; the block's threads share the row. */
    simt_cfg cfg = {.grid = {(unsigned)R, 1, 1}, .block = {(unsigned)block, 1, 1}};
    for (int v = 0; v < N_VERSIONS; v++) {
        if (be_memset(be, d_y, 0xff, n * sizeof(float))) { /* all NaN */
            fprintf(stderr, "lesson 3 (%s): %s\n", be_name(be), be->err);
            return 1;
        }
        int st = launch(be, v, &cfg, d_y, d_x, R, C);
        const be_kernel *k = be_last(be);
        if (k)
            out[v].k = *k;
        if (st) {
            fprintf(stderr, "%s\n", be->err);
            return strstr(be->err, "InvalidConfiguration") || strstr(be->err, "InvalidValue") ? LESSON_USAGE : 1;
        }
        if (be_download(be, y, d_y, n * sizeof(float))) {
            fprintf(stderr, "lesson 3 (%s): %s\n", be_name(be), be->err);
            return 1;
        }
        out[v].check = check_close(y, ref, n, RTOL, ATOL);
        /* check_close's max_rel_err leaves out |ref| <= atol / rtol = 0.01, which
         * is nearly every softmax output; the relative error shown is over all */
        out[v].nonfinite = 0;
        out[v].rel_err = 0;
        for (size_t i = 0; i < n; i++) {
            double e = isfinite(y[i]) ? fabs(y[i] - ref[i]) / fabs(ref[i]) : INFINITY;
            out[v].nonfinite += !isfinite(y[i]);
            if (fabs(ref[i]) >= FLT_MIN && e > out[v].rel_err)
                out[v].rel_err = e;
        }
        out[v].ran = 1;
    }
    return 0;
}

/* Runs the normal and the large inputs on one backend. */
static int run(backend *be, int R, int C, int block, const float *x, const float *x_large, const double *ref,
               const double *ref_large, be_result *out)
{
    size_t bytes = (size_t)R * C * sizeof(float);
    float *d_x = NULL, *d_xl = NULL, *d_y = NULL, *y = malloc(bytes);
    int rc = 1;
    if (!y || be_malloc(be, &d_x, bytes, "x") || be_malloc(be, &d_xl, bytes, "x_large") ||
        be_malloc(be, &d_y, bytes, "y") || be_upload(be, d_x, x, bytes) || be_upload(be, d_xl, x_large, bytes)) {
        fprintf(stderr, "lesson 3 (%s): %s\n", be_name(be), y ? be->err : "out of host memory");
        goto done;
    }
    be_reset_counts(be);
    rc = run_set(be, R, C, block, d_x, d_y, y, ref, out->normal);
    if (!rc)
        rc = run_set(be, R, C, block, d_xl, d_y, y, ref_large, out->large);
done:
    free(y);
    return rc;
}

/* HBM accesses per element: bytes moved / (4 bytes * R * C). The simulator
 * counts requested bytes; the GPU's L1 sectors are the same logical count
 * (in 32-byte units). -1 when the GPU's counters were not read. */
static double accesses_per_element(const be_kernel *k, backend_kind kind, size_t n)
{
    if (kind == BACKEND_SIM)
        return (double)(k->sim.hbm_read_bytes + k->sim.hbm_write_bytes) / (4.0 * (double)n);
    if (!k->hw.valid)
        return -1;
    return (double)(k->hw.l1_ld_sectors + k->hw.l1_st_sectors) * 32.0 / (4.0 * (double)n);
}

/* The verdict of one backend: what the lesson predicts. */
static int as_predicted(const be_result *r, int v_large)
{
    return v_large == V_NAIVE ? r->large[V_NAIVE].ran && !r->large[V_NAIVE].check.pass
                              : r->large[v_large].ran && r->large[v_large].check.pass;
}

static int backend_pass(const be_result *r)
{
    int pass = 1;
    for (int v = 0; v < N_VERSIONS; v++)
        pass &= r->normal[v].ran && r->normal[v].check.pass && as_predicted(r, v);
    return pass;
}

/* The three normal-input checks as one: the worst errors, pass if all pass. */
static check_result normal_check(const be_result *r)
{
    check_result c = r->normal[0].check;
    for (int v = 1; v < N_VERSIONS; v++) {
        const check_result *o = &r->normal[v].check;
        c.max_abs_err = fmax(c.max_abs_err, o->max_abs_err);
        c.max_rel_err = fmax(c.max_rel_err, o->max_rel_err);
        c.pass &= o->pass;
    }
    return c;
}

static void json_versions(json *j, const be_result *r, backend_kind kind, size_t n)
{
    json_arr(j, "versions");
    for (int v = 0; v < N_VERSIONS; v++) {
        const vresult *vr = &r->normal[v];
        double a = vr->ran ? accesses_per_element(&vr->k, kind, n) : -1;
        json_obj(j, NULL);
        json_str(j, "name", versions[v].name);
        json_int(j, "passes", versions[v].passes);
        if (a >= 0)
            json_num(j, "accesses_per_element", a);
        else
            json_null(j, "accesses_per_element");
        json_int(j, "expected_accesses_per_element", versions[v].loads + versions[v].stores);
        json_num(j, "max_rel_err_all", vr->rel_err);
        lesson_json_check(j, &vr->check);
        json_end(j);
    }
    json_end_arr(j);
    json_obj(j, "overflow_demo");
    json_num(j, "offset", LARGE_OFFSET);
    json_arr(j, "versions");
    for (int v = 0; v < N_VERSIONS; v++) {
        const vresult *vr = &r->large[v];
        json_obj(j, NULL);
        json_str(j, "name", versions[v].name);
        json_bool(j, "expected_pass", v != V_NAIVE);
        json_uint(j, "nonfinite_outputs", vr->nonfinite);
        json_num(j, "max_rel_err_all", vr->rel_err);
        lesson_json_check(j, &vr->check);
        json_bool(j, "as_expected", as_predicted(r, v));
        json_end(j);
    }
    json_end_arr(j);
    json_end(j);
}

static void json_backend_body(json *j, backend *be, const be_result *r, int detail, size_t n)
{
    int det = detail || be->kind == BACKEND_CUDA;
    json_arr(j, "kernels");
    for (int i = 0; i < be->n_kernels; i++)
        lesson_json_kernel(j, &be->kernels[i], det);
    json_end_arr(j);
    lesson_json_buffers(j, be);
    check_result c = normal_check(r);
    lesson_json_check(j, &c);
    json_versions(j, r, be->kind, n);
}

static void print_backend(backend *be, const be_result *r, int R, int C, int detail)
{
    size_t n = (size_t)R * C;
    char b1[32], b2[32];
    printf("\n  [%s] %s\n", be_name(be), be_device_name(be));
    for (int v = 0; v < N_VERSIONS; v++) {
        const version *ver = &versions[v];
        const vresult *vr = &r->normal[v];
        const be_kernel *k = &vr->k;
        if (!vr->ran)
            continue;
        int expect = ver->loads + ver->stores;
        double a = accesses_per_element(k, be->kind, n);
        printf("    %s: %d passes over the row (%s)\n", ver->name, ver->passes, ver->how);
        if (be->kind == BACKEND_SIM) {
            printf("      HBM read %s = %.2f bytes per element (%d loads), write %s = %.2f (%d store)\n",
                   human_bytes((double)k->sim.hbm_read_bytes, b1, sizeof b1), (double)k->sim.hbm_read_bytes / (double)n,
                   ver->loads, human_bytes((double)k->sim.hbm_write_bytes, b2, sizeof b2),
                   (double)k->sim.hbm_write_bytes / (double)n, ver->stores);
            printf("      -> %.2f accesses per element (paper: %d = %d loads + %d store)%s\n", a, expect, ver->loads,
                   ver->stores, fabs(a - expect) > 1e-9 ? "  <- differs from the paper" : "");
            printf("      SRAM read %s, write %s (the block reductions); simulated in %.1f ms\n",
                   human_bytes((double)k->sim.sram_read_bytes, b1, sizeof b1),
                   human_bytes((double)k->sim.sram_write_bytes, b2, sizeof b2), k->time_ms);
            if (detail)
                printf("      32-byte sectors: %llu loaded, %llu stored in %llu + %llu warp requests "
                       "(%.2f per request: 4 = fully coalesced); shared wavefronts %llu, bank conflicts %llu\n",
                       (unsigned long long)k->sim.global_ld_sectors, (unsigned long long)k->sim.global_st_sectors,
                       (unsigned long long)k->sim.global_ld_requests, (unsigned long long)k->sim.global_st_requests,
                       k->sim.global_ld_requests ? (double)k->sim.global_ld_sectors / (double)k->sim.global_ld_requests
                                                 : 0.0,
                       (unsigned long long)(k->sim.shared_ld_wavefronts + k->sim.shared_st_wavefronts),
                       (unsigned long long)(k->sim.shared_ld_conflicts + k->sim.shared_st_conflicts));
        } else {
            printf("      DRAM read %s, write %s; L1 sectors ld %llu st %llu", human_bytes((double)k->hw.dram_read_bytes, b1, sizeof b1),
                   human_bytes((double)k->hw.dram_write_bytes, b2, sizeof b2), (unsigned long long)k->hw.l1_ld_sectors,
                   (unsigned long long)k->hw.l1_st_sectors);
            if (a >= 0)
                printf(" -> %.2f accesses per element (paper: %d)", a, expect);
            printf("; %.3f ms\n", k->time_ms);
        }
        printf("      max abs err %.3g, max rel err %.3g -> %s\n", vr->check.max_abs_err, vr->rel_err,
               vr->check.pass ? "PASS" : "FAIL");
    }
    printf("    large inputs, x + %.0f (exp(x) overflows float, largest 3.4e38, for x > 88.7):\n", LARGE_OFFSET);
    for (int v = 0; v < N_VERSIONS; v++) {
        const vresult *vr = &r->large[v];
        if (!vr->ran)
            continue;
        printf("      %-15s ", versions[v].name);
        if (vr->nonfinite)
            printf("%zu of %zu outputs inf or NaN", vr->nonfinite, n);
        else
            printf("max abs err %.3g, max rel err %.3g", vr->check.max_abs_err, vr->rel_err);
        printf(" -> %s", vr->check.pass ? "PASS" : "FAIL");
        if (v == V_NAIVE)
            printf(vr->check.pass ? ", but the lesson expects it to overflow: NOT as expected\n"
                                  : ": overflows, as expected\n");
        else
            printf(vr->check.pass ? "\n" : ": NOT as expected (it must not overflow)\n");
    }
}

/* Why the verdict is FAIL, one line per broken prediction. */
static void print_reasons(backend *bes, const be_result *res, int nb, int failed)
{
    printf("\n");
    if (failed)
        printf("  a backend stopped with an error (above)\n");
    for (int b = 0; b < nb; b++)
        for (int v = 0; v < N_VERSIONS; v++) {
            const vresult *vn = &res[b].normal[v], *vl = &res[b].large[v];
            if (vn->ran && !vn->check.pass)
                printf("  [%s] %s failed on the normal inputs%s\n", be_name(&bes[b]), versions[v].name,
                       v == V_NAIVE ? " (with --scale above 88.7 exp(x) overflows there too)" : "");
            if (vl->ran && !as_predicted(&res[b], v))
                printf("  [%s] %s %s on the large inputs\n", be_name(&bes[b]), versions[v].name,
                       v == V_NAIVE ? "did not overflow" : "failed");
        }
}

/* Parses --scale. Returns 0, or -1 with the reason in why. */
static int parse_scale(const char *s, double *out, char *why, size_t n)
{
    double v;
    if (cli_parse_real(s, &v)) { /* decimal only: no hex, inf, nan or spaces */
        snprintf(why, n, "--scale '%s' is not a decimal number (5, 0.5, 1e2): it must be above 0 and at most 10000", s);
        return -1;
    }
    if (!(v > 0) || v > 10000) {
        snprintf(why, n, "--scale %s is out of range: it must be above 0 and at most 10000", s);
        return -1;
    }
    *out = v;
    return 0;
}

/* Checks one shape. Returns 0, or -1 with the reason in why. */
static int check_shape(long long R, long long C, long long block, char *why, size_t n)
{
    if (block & (block - 1)) {
        snprintf(why, n,
                 "--block %lld is not a power of two; the block reductions take whole warps, at most 32 of them, "
                 "in power-of-two blocks: use 32, 64, 128, 256, 512 or 1024", block);
        return -1;
    }
    if (R * C > (1LL << 26)) {
        snprintf(why, n,
                 "--rows %lld --cols %lld is %lld elements; this lesson allows at most %lld (256 MB per buffer): make "
                 "one smaller", R, C, R * C, 1LL << 26);
        return -1;
    }
    return 0;
}

/* x (R, C): uniform in [-scale, scale] from a fixed seed; x_large = x + 100;
 * and their double references. Returns 0, or -1 out of memory (all NULL). */
static int make_inputs(long long R, long long C, double scale, float **x, float **x_large, double **ref,
                       double **ref_large)
{
    size_t n = (size_t)(R * C);
    *x = malloc(n * sizeof **x), *x_large = malloc(n * sizeof **x_large);
    *ref = malloc(n * sizeof **ref), *ref_large = malloc(n * sizeof **ref_large);
    if (!*x || !*x_large || !*ref || !*ref_large) {
        free(*x), free(*x_large), free(*ref), free(*ref_large);
        *x = *x_large = NULL, *ref = *ref_large = NULL;
        return -1;
    }
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        double u = (double)(seed >> 11) / 9007199254740992.0; /* [0, 1) */
        (*x)[i] = (float)(scale * (2 * u - 1));
        (*x_large)[i] = (*x)[i] + LARGE_OFFSET;
    }
    softmax_cpu(*ref, *x, (int)R, (int)C);
    softmax_cpu(*ref_large, *x_large, (int)R, (int)C);
    return 0;
}

static void print_json(const lesson_common *c, backend *bes, int nb, const be_result *res, long long R, long long C,
                       long long block, double scale, int pass)
{
    size_t n = (size_t)(R * C);
    json j;
    json_open(&j, stdout);
    json_int(&j, "lesson", 3);
    json_obj(&j, "params");
    json_int(&j, "rows", R);
    json_int(&j, "cols", C);
    json_int(&j, "block", block);
    json_num(&j, "scale", scale);
    json_num(&j, "large_offset", LARGE_OFFSET);
    json_str(&j, "mode", c->mode);
    json_str(&j, "arch", bes[0].dev->name);
    json_bool(&j, "detail", c->detail);
    json_end(&j);
    for (int b = 0; b < nb; b++) {
        json_obj(&j, be_name(&bes[b]));
        json_str(&j, "device", be_device_name(&bes[b]));
        json_backend_body(&j, &bes[b], &res[b], c->detail, n);
        json_bool(&j, "pass", backend_pass(&res[b]));
        json_end(&j);
    }
    /* the first backend's figures at the top level, as the schema has them */
    json_backend_body(&j, &bes[0], &res[0], c->detail, n);
    json_bool(&j, "pass", pass);
    json_close(&j);
}

/* ---- --sweep and --csv (lessons/common/sweep.h) ------------------------------------ */
static const char *const sweep_names[] = {"rows", "cols", "block", NULL};

/* One CSV row per version on be: every counter; empty where the backend or
 * mode does not measure it (where --json writes null). */
static void csv_rows(sweep_csv *f, backend *be, const be_result *r, long long R, long long C, long long block,
                     double scale, int detail)
{
    size_t n = (size_t)(R * C);
    for (int v = 0; v < N_VERSIONS; v++) {
        const vresult *vr = &r->normal[v], *vl = &r->large[v];
        const be_kernel *k = &vr->k;
        const int sim = !k->hw.valid, sectors = !sim || detail || be->kind == BACKEND_CUDA, hw = k->hw.valid;
        double a = vr->ran ? accesses_per_element(k, be->kind, n) : -1;
        uint64_t rd = sim ? k->sim.hbm_read_bytes : k->hw.dram_read_bytes,
                 wr = sim ? k->sim.hbm_write_bytes : k->hw.dram_write_bytes;
#define CELL_IF(have, name, x) ((have) ? sweep_csv_uint(f, name, x) : sweep_csv_empty(f, name))
        sweep_csv_str(f, "backend", be_name(be));
        sweep_csv_str(f, "device", be_device_name(be));
        sweep_csv_str(f, "version", versions[v].name);
        sweep_csv_int(f, "rows", R);
        sweep_csv_int(f, "cols", C);
        sweep_csv_int(f, "block", block);
        sweep_csv_num(f, "scale", scale);
        sweep_csv_int(f, "passes", versions[v].passes);
        sweep_csv_uint(f, "hbm_read_bytes", rd);
        sweep_csv_uint(f, "hbm_write_bytes", wr);
        sweep_csv_uint(f, "hbm_bytes", rd + wr);
        sweep_csv_uint(f, "expected_read_bytes", 4ull * versions[v].loads * n);
        sweep_csv_uint(f, "expected_write_bytes", 4ull * versions[v].stores * n);
        CELL_IF(sim, "sram_read_bytes", k->sim.sram_read_bytes);
        CELL_IF(sim, "sram_write_bytes", k->sim.sram_write_bytes);
        CELL_IF(sectors, "read_sectors", sim ? k->sim.global_ld_sectors : k->hw.l1_ld_sectors);
        CELL_IF(sectors, "write_sectors", sim ? k->sim.global_st_sectors : k->hw.l1_st_sectors);
        CELL_IF(sectors, "sram_wavefronts", sim ? k->sim.shared_ld_wavefronts + k->sim.shared_st_wavefronts
                                                : k->hw.shared_ld_wavefronts + k->hw.shared_st_wavefronts);
        CELL_IF(sectors, "sram_bank_conflicts", sim ? k->sim.shared_ld_conflicts + k->sim.shared_st_conflicts
                                                    : k->hw.shared_ld_conflicts + k->hw.shared_st_conflicts);
        CELL_IF(hw, "hw_l1_ld_sectors", k->hw.l1_ld_sectors);
        CELL_IF(hw, "hw_l1_st_sectors", k->hw.l1_st_sectors);
        CELL_IF(hw, "hw_l2_read_sectors", k->hw.l2_read_sectors);
        CELL_IF(hw, "hw_l2_write_sectors", k->hw.l2_write_sectors);
        CELL_IF(hw, "hw_dram_read_bytes", k->hw.dram_read_bytes);
        CELL_IF(hw, "hw_dram_write_bytes", k->hw.dram_write_bytes);
#undef CELL_IF
        if (a >= 0)
            sweep_csv_num(f, "accesses_per_element", a);
        else
            sweep_csv_empty(f, "accesses_per_element");
        sweep_csv_int(f, "expected_accesses_per_element", versions[v].loads + versions[v].stores);
        sweep_csv_num(f, "time_ms", k->time_ms);
        sweep_csv_num(f, "max_abs_err", vr->check.max_abs_err);
        sweep_csv_num(f, "max_rel_err", vr->check.max_rel_err);
        sweep_csv_num(f, "max_rel_err_all", vr->rel_err);
        sweep_csv_int(f, "pass", vr->ran && vr->check.pass);
        sweep_csv_uint(f, "large_nonfinite_outputs", vl->nonfinite);
        sweep_csv_num(f, "large_max_rel_err_all", vl->rel_err);
        sweep_csv_int(f, "large_pass", vl->ran && vl->check.pass);
        sweep_csv_int(f, "large_as_expected", as_predicted(r, v));
        sweep_csv_end_row(f);
    }
}

/* Runs R x C (one point) on every backend: 0, 1 (a backend failed, printed)
 * or LESSON_USAGE. Fills res[nb]; the point's buffers stay allocated. */
static int run_point(backend *bes, int nb, long long R, long long C, long long block, double scale, be_result *res)
{
    float *x, *x_large;
    double *ref, *ref_large;
    if (make_inputs(R, C, scale, &x, &x_large, &ref, &ref_large)) {
        fprintf(stderr, "lesson 3: out of host memory for %lld x %lld\n", R, C);
        return 1;
    }
    int failed = 0;
    memset(res, 0, (size_t)nb * sizeof *res);
    for (int b = 0; b < nb && !failed; b++) {
        be_clear_kernels(&bes[b]);
        failed = run(&bes[b], (int)R, (int)C, (int)block, x, x_large, ref, ref_large, &res[b]);
    }
    free(x), free(x_large), free(ref), free(ref_large);
    return failed;
}

/* Sweeps one of rows, cols, block: a progress line per point (stderr), a table
 * row per backend and version (stdout) or, with --json, one object per point
 * in "points"; the CSV only if every point ran. Returns the exit code. */
static int run_sweep(const lesson_common *c, const sweep_spec *sp, backend *bes, int nb, long long R, long long C,
                     long long block, double scale, const char *csv)
{
    sweep_csv f;
    be_result *res = calloc((size_t)nb, sizeof *res);
    int pass = 1, stopped = 0;
    char pt[96], b1[32];
    if (!res || (csv && sweep_csv_open(&f, csv))) {
        fprintf(stderr, "lesson 3: %s\n", res ? f.err : "out of host memory");
        free(res);
        return LESSON_FAIL;
    }
    if (c->json)
        printf("{\n  \"lesson\": 3,\n  \"sweep\": \"%s\",\n  \"points\": [\n", sp->text);
    else
        printf("lesson 3 sweep %s: softmax over R = %lld rows of C = %lld, %lld threads a block (the swept one "
               "varies)\n  %-7s %-12s %-15s %12s %18s %11s %6s  %s\n",
               sp->text, R, C, block, "backend", "point", "version", "HBM bytes", "accesses/element", "time ms",
               "check", "x + 100");
    for (int i = 0; i < sp->n && !stopped; i++) {
        long long r = R, cc = C, bl = block, v = sp->v[i];
        *(!strcmp(sp->opt->name, "rows") ? &r : !strcmp(sp->opt->name, "cols") ? &cc : &bl) = v;
        int st = run_point(bes, nb, r, cc, bl, scale, res);
        if (st) {
            stopped = 1;
            break;
        }
        int ok = 1;
        for (int b = 0; b < nb; b++)
            ok &= backend_pass(&res[b]);
        pass &= ok;
        char line[256] = "";
        for (int b = 0; b < nb; b++)
            for (int ver = 0; ver < N_VERSIONS; ver++) {
                const vresult *vr = &res[b].normal[ver];
                double a = accesses_per_element(&vr->k, bes[b].kind, (size_t)(r * cc));
                if (b == 0)
                    snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s %.2f", line[0] ? ", " : "",
                             versions[ver].name + 8, a);
                if (!c->json)
                    printf("  %-7s %-12s %-15s %12s %11.2f (%d)  %11.3f %6s  %s\n", be_name(&bes[b]),
                           sweep_point_str(sp, i, pt, sizeof pt), versions[ver].name,
                           human_bytes(vr->k.hw.valid ? (double)(vr->k.hw.dram_read_bytes + vr->k.hw.dram_write_bytes)
                                                      : (double)(vr->k.sim.hbm_read_bytes + vr->k.sim.hbm_write_bytes),
                                       b1, sizeof b1),
                           a, versions[ver].loads + versions[ver].stores, vr->k.time_ms,
                           vr->check.pass ? "PASS" : "FAIL",
                           as_predicted(&res[b], ver) ? "as expected" : "NOT as expected");
            }
        sweep_progress("lesson 3", sp, i, "accesses per element %s (paper 3, 4, 3); %s", line, ok ? "PASS" : "FAIL");
        if (c->json) {
            if (i)
                printf("  ,\n");
            print_json(c, bes, nb, res, r, cc, bl, scale, ok);
        }
        for (int b = 0; b < nb && csv; b++)
            csv_rows(&f, &bes[b], &res[b], r, cc, bl, scale, c->detail);
        for (int b = 0; b < nb; b++) /* run() leaves x, x_large, y allocated for --json's buffers[] */
            while (bes[b].n_buffers)
                be_free(&bes[b], bes[b].buffers[0].ptr);
    }
    if (c->json)
        printf("  ],\n  \"pass\": %s\n}\n", pass && !stopped ? "true" : "false");
    if (csv) {
        if (stopped) {
            fprintf(stderr, "lesson 3: the sweep stopped at an error; %s not written\n", csv);
            sweep_csv_abort(&f);
        } else if (sweep_csv_commit(&f)) {
            fprintf(stderr, "lesson 3: %s\n", f.err);
            stopped = 1;
        } else {
            fprintf(stderr, "lesson 3: wrote %s\n", csv);
        }
    }
    if (!c->json)
        printf("\n%s\n", pass && !stopped ? "PASS" : "FAIL");
    free(res);
    return pass && !stopped ? LESSON_PASS : LESSON_FAIL;
}

int lesson03_main(int argc, char **argv)
{
    lesson_common c = {.mode = "sim"};
    long long R = 512, C = 2048, block = 256;
    const char *scale_s = "5", *csv = NULL, *sweep = NULL;
    const lesson_opt opts[] = {
        {"rows", OPT_INT, &R, "R", "rows of x, one block each (default 512)", 1, 1 << 20, NULL},
        {"cols", OPT_INT, &C, "C", "columns of x: the softmax runs along each row (default 2048)", 1, 1 << 24, NULL},
        {"block", OPT_INT, &block, "THREADS", "threads per block: a power of two from 32 to 1024 (default 256)", 32, 1024, NULL},
        {"scale", OPT_STR, &scale_s, "S", "inputs are uniform in [-S, S] (default 5; above 88 naive overflows)", 0, 0, NULL},
        {"csv", OPT_STR, &csv, "PATH", "write one CSV row per backend and version (and sweep point) to PATH", 0, 0, NULL},
        {"sweep", OPT_STR, &sweep, "NAME=RANGE", "run over rows, cols or block: cols=256:16384:x2, block=32,64,128", 0, 0, NULL},
        LESSON_COMMON_OPTS(c),
        {0},
    };
    backend bes[2];
    int nb, rc = lesson_start("lesson 3", argc, argv, opts, &c, bes, &nb);
    if (rc >= 0)
        return rc;
    if (csv) { /* a path that cannot be written fails now, not after the run */
        char werr[600];
        if (sweep_csv_writable(csv, werr, sizeof werr)) {
            for (int b = 0; b < nb; b++)
                be_close(&bes[b]);
            return lesson_usage_error("lesson 3", opts, werr);
        }
    }

    char why[768];
    double scale = 0;
    sweep_spec sp;
    int bad = parse_scale(scale_s, &scale, why, sizeof why);
    if (!bad && !sweep)
        bad = check_shape(R, C, block, why, sizeof why);
    if (!bad && sweep) /* every point is checked before anything runs */
        bad = sweep_parse(&sp, sweep, opts, sweep_names, why, sizeof why);
    for (int i = 0; !bad && sweep && i < sp.n; i++) {
        char one[512], pt[96];
        long long r = R, cc = C, bl = block;
        *(!strcmp(sp.opt->name, "rows") ? &r : !strcmp(sp.opt->name, "cols") ? &cc : &bl) = sp.v[i];
        if ((bad = check_shape(r, cc, bl, one, sizeof one)))
            snprintf(why, sizeof why, "--sweep %s: at %s: %s", sweep, sweep_point_str(&sp, i, pt, sizeof pt), one);
    }
    if (bad) {
        for (int b = 0; b < nb; b++)
            be_close(&bes[b]);
        return lesson_usage_error("lesson 3", opts, why);
    }
    if (sweep) {
        rc = run_sweep(&c, &sp, bes, nb, R, C, block, scale, csv);
        for (int b = 0; b < nb; b++)
            be_close(&bes[b]);
        return rc;
    }

    float *x, *x_large;
    double *ref, *ref_large;
    be_result *res = calloc((size_t)nb, sizeof *res);
    if (!res || make_inputs(R, C, scale, &x, &x_large, &ref, &ref_large)) {
        fprintf(stderr, "lesson 3: out of host memory for %lld x %lld\n", R, C);
        return LESSON_FAIL;
    }

    int failed = 0;
    for (int b = 0; b < nb; b++) {
        int r = run(&bes[b], (int)R, (int)C, (int)block, x, x_large, ref, ref_large, &res[b]);
        if (r == LESSON_USAGE) {
            for (int k = 0; k < nb; k++)
                be_close(&bes[k]);
            return LESSON_USAGE;
        }
        failed |= r;
    }
    int pass = !failed;
    for (int b = 0; b < nb; b++)
        pass &= backend_pass(&res[b]);

    if (c.json) {
        print_json(&c, bes, nb, res, R, C, block, scale, pass);
    } else {
        printf("lesson 3: softmax over the rows of x (%lld x %lld fp32), one block of %lld threads per row\n", R, C,
               block);
        printf("  x uniform in [-%g, %g]; each version is checked against the CPU reference (double, safe formula):\n"
               "  pass when |y - ref| <= %g + %g |ref| for every element (outputs average 1/C = %.2g, so the\n"
               "  absolute term dominates there: %.2g relative); max rel err is over every output\n",
               scale, scale, ATOL, RTOL, 1.0 / (double)C, ATOL * (double)C + RTOL);
        for (int b = 0; b < nb; b++)
            print_backend(&bes[b], &res[b], (int)R, (int)C, c.detail);
        if (nb == 2 && bes[0].n_kernels == bes[1].n_kernels) /* --mode compare */
            lesson_compare_table(stdout, &bes[0], 0, &bes[1], 0, bes[0].n_kernels);
        if (!pass)
            print_reasons(bes, res, nb, failed);
        printf("\n%s\n", pass ? "PASS" : "FAIL");
    }
    if (csv && !failed) {
        sweep_csv f;
        int bad_csv = sweep_csv_open(&f, csv);
        for (int b = 0; b < nb && !bad_csv; b++)
            csv_rows(&f, &bes[b], &res[b], R, C, block, scale, c.detail);
        if (bad_csv || sweep_csv_commit(&f))
            fprintf(stderr, "lesson 3: %s\n", f.err), pass = 0;
    }
    for (int b = 0; b < nb; b++)
        be_close(&bes[b]);
    free(x);
    free(x_large);
    free(ref);
    free(ref_large);
    free(res);
    return pass ? LESSON_PASS : LESSON_FAIL;
}
