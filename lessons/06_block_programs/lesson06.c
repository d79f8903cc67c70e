/* lessons/06_block_programs/lesson06.c - lesson 6: block programs in the style of Triton.
 *
 * Two kernels of the course's Triton tutorials written as block programs
 * (tl.h: program_id, arange, masked load and store, tile arithmetic,
 * reductions; one program = one CUDA block): add_kernel, z = x + y over n
 * elements with BLOCK_SIZE per program, and softmax_kernel, a fused row
 * softmax with one program per row. The driver shows the grid
 * (cdiv(n, BLOCK_SIZE) programs), how many lanes the mask turns off (in the
 * last add program; in every softmax program), checks both kernels against
 * the double CPU references, and sets their HBM bytes beside the closed
 * forms: add reads 8n and writes 4n bytes, the fused softmax reads 4RC and
 * writes 4RC (each element once: masked-off lanes touch no memory). With
 * --detail (and in --mode compare) also the 32-byte sectors, against the
 * count a coalesced tile access gives.
 *
 * Buffers: x, y, z are (n,); s_in and s_out are (R, C), row-major. The
 * outputs are set to NaN before the launches, so an element a kernel failed
 * to write cannot pass the check.
 *
 * Verdict: PASS when both kernels match their references on every backend
 * and, on the simulator, their HBM bytes (and, with --detail, sectors) equal
 * the closed forms. The GPU's DRAM bytes are shown, not judged (L2).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "block_programs.h"
#include "lesson.h"

#define ADD_RTOL 1e-6 /* one float rounding of an exact sum: 2^-24 relative */
#define ADD_ATOL 0.0
#define SM_RTOL 1e-5  /* as lesson 3: expf differs from exp by a few ulp */
#define SM_ATOL 1e-7
#define MAX_ELEMS (1LL << 26) /* 256 MB per float buffer */
#define TIMING_REPEATS 20

enum { K_ADD, K_SOFTMAX, N_KERNELS };
static const char *const kernel_names[N_KERNELS] = {"add_kernel", "softmax_kernel"};

typedef struct params {
    long long n, block, R, C, warps;
    int add_threads;             /* threads per add program */
    int sm_block, sm_threads;    /* the softmax's BLOCK_SIZE and threads per program */
} params;

/* What a kernel should move, from the closed forms. */
typedef struct expect {
    uint64_t read_bytes, write_bytes;
    uint64_t read_sectors, write_sectors; /* 32-byte sectors of coalesced warp requests */
    uint64_t sram_read_bytes, sram_write_bytes; /* the softmax's two reductions */
} expect;

typedef struct kresult {
    be_kernel k;
    check_result check;
    double time_ms; /* cuda: the median of TIMING_REPEATS; sim: the simulated launch */
    int ran;
} kresult;

typedef struct be_result {
    kresult r[N_KERNELS];
} be_result;

/* ---- the closed forms --------------------------------------------------------------------- */
static void expected(const params *p, expect e[N_KERNELS])
{
    memset(e, 0, N_KERNELS * sizeof *e);
    long long grid = (p->n + p->block - 1) / p->block;
    uint64_t sec = 0;
    for (long long pid = 0; pid < grid; pid++)
        sec += bp_tile_sectors(pid * p->block, p->n - pid * p->block, p->block, p->add_threads);
    e[K_ADD].read_bytes = 8ull * (uint64_t)p->n;
    e[K_ADD].write_bytes = 4ull * (uint64_t)p->n;
    e[K_ADD].read_sectors = 2 * sec; /* x and y */
    e[K_ADD].write_sectors = sec;
    sec = 0;
    for (long long r = 0; r < p->R; r++)
        sec += bp_tile_sectors(r * p->C, p->C, p->sm_block, p->sm_threads);
    uint64_t nw = (uint64_t)p->sm_threads / 32, RC = (uint64_t)(p->R * p->C);
    e[K_SOFTMAX].read_bytes = 4 * RC;
    e[K_SOFTMAX].write_bytes = 4 * RC;
    e[K_SOFTMAX].read_sectors = sec;
    e[K_SOFTMAX].write_sectors = sec;
    /* tl_max and tl_sum: each writes nw floats and reads nw * nw (tl.h) */
    e[K_SOFTMAX].sram_write_bytes = 2 * 4 * nw * (uint64_t)p->R;
    e[K_SOFTMAX].sram_read_bytes = 2 * 4 * nw * nw * (uint64_t)p->R;
}

/* ---- running ---------------------------------------------------------------------------------- */
typedef struct dbufs {
    float *x, *y, *z, *s_in, *s_out;
} dbufs;

typedef struct launch_ctx {
    const params *p;
    const dbufs *d;
    int kernel;
} launch_ctx;

static int launch(backend *be, const params *p, const dbufs *d, int kernel)
{
    if (kernel == K_ADD) {
        /* LESSON: cdiv(n, BLOCK_SIZE) programs, each one CUDA block */
        simt_cfg cfg = {.grid = {(unsigned)((p->n + p->block - 1) / p->block), 1, 1},
                        .block = {(unsigned)p->add_threads, 1, 1}};
        return BE_LAUNCH(be, add_kernel, &cfg, d->x, d->y, d->z, (int)p->n, (int)p->block);
    }
    /* LESSON: one program per row; the row is one tile */
    simt_cfg cfg = {.grid = {(unsigned)p->R, 1, 1}, .block = {(unsigned)p->sm_threads, 1, 1}};
    return BE_LAUNCH(be, softmax_kernel, &cfg, d->s_out, d->s_in, (int)p->C, (int)p->C, (int)p->R, (int)p->C,
                     p->sm_block);
}

static int launch_cb(backend *be, void *ctx)
{
    const launch_ctx *c = ctx;
    return launch(be, c->p, c->d, c->kernel);
}

/* Runs both kernels on one backend. Returns 0, 1 with the error printed, or
 * LESSON_USAGE for a launch the device refuses. The buffers stay allocated
 * (be_close frees them) for --json's buffers[]. */
static int run(backend *be, const params *p, const float *x, const float *y, const float *s_in, const double *ref_add,
               const double *ref_sm, be_result *out)
{
    const size_t nb = (size_t)p->n * sizeof(float), sb = (size_t)(p->R * p->C) * sizeof(float);
    float *host = malloc(nb > sb ? nb : sb);
    dbufs d = {0};
    int rc = 1;
    if (!host) {
        fprintf(stderr, "lesson 6 (%s): out of host memory\n", be_name(be));
        return 1;
    }
    if (be_malloc(be, &d.x, nb, "x") || be_malloc(be, &d.y, nb, "y") || be_malloc(be, &d.z, nb, "z") ||
        be_malloc(be, &d.s_in, sb, "s_in") || be_malloc(be, &d.s_out, sb, "s_out") || be_upload(be, d.x, x, nb) ||
        be_upload(be, d.y, y, nb) || be_upload(be, d.s_in, s_in, sb) || be_memset(be, d.z, 0xff, nb) ||
        be_memset(be, d.s_out, 0xff, sb)) { /* 0xff bytes: NaN */
        fprintf(stderr, "lesson 6 (%s): %s\n", be_name(be), be->err);
        goto done;
    }
    be_reset_counts(be);
    for (int k = 0; k < N_KERNELS; k++) {
        kresult *r = &out->r[k];
        int st = launch(be, p, &d, k);
        if (be_last(be))
            r->k = *be_last(be);
        if (st) {
            fprintf(stderr, "%s\n", be->err);
            rc = strstr(be->err, "InvalidConfiguration") || strstr(be->err, "InvalidValue") ? LESSON_USAGE : 1;
            goto done;
        }
        size_t n = k == K_ADD ? (size_t)p->n : (size_t)(p->R * p->C);
        if (be_download(be, host, k == K_ADD ? d.z : d.s_out, n * sizeof(float))) {
            fprintf(stderr, "lesson 6 (%s): %s\n", be_name(be), be->err);
            goto done;
        }
        r->check = k == K_ADD ? check_close(host, ref_add, n, ADD_RTOL, ADD_ATOL)
                              : check_close(host, ref_sm, n, SM_RTOL, SM_ATOL);
        r->time_ms = r->k.time_ms;
        r->ran = 1;
    }
    if (be->kind == BACKEND_CUDA)
        for (int k = 0; k < N_KERNELS; k++) {
            /* LESSON: GPU time is the median of repeated runs (L2 flushed between
             * them) after warm-up; the checked run above does not count */
            launch_ctx c = {p, &d, k};
            if (be_time(be, launch_cb, &c, 2, TIMING_REPEATS, 1)) {
                fprintf(stderr, "lesson 6 (%s): timing %s: %s\n", be_name(be), kernel_names[k], be->err);
                goto done;
            }
            out->r[k].time_ms = be->last_time_ms;
        }
    rc = 0;
done:
    free(host);
    return rc;
}

/* ---- the verdict -------------------------------------------------------------------------------- */
/* The simulator's counts against the closed forms (HBM always; sectors when
 * they were counted). The GPU has no exact byte counter, so only the checks. */
static int counts_ok(const backend *be, const kresult *r, const expect *e)
{
    if (be->kind != BACKEND_SIM)
        return 1;
    int ok = r->k.sim.hbm_read_bytes == e->read_bytes && r->k.sim.hbm_write_bytes == e->write_bytes;
    if (be->detailed)
        ok &= r->k.sim.global_ld_sectors == e->read_sectors && r->k.sim.global_st_sectors == e->write_sectors;
    return ok;
}

static int backend_pass(const backend *be, const be_result *res, const expect e[N_KERNELS])
{
    int pass = 1;
    for (int k = 0; k < N_KERNELS; k++)
        pass &= res->r[k].ran && res->r[k].check.pass && counts_ok(be, &res->r[k], &e[k]);
    return pass;
}

/* Both checks as one: the worst errors, pass if both pass. */
static check_result both_checks(const be_result *r)
{
    check_result c = r->r[0].check;
    const check_result *o = &r->r[1].check;
    c.max_abs_err = fmax(c.max_abs_err, o->max_abs_err);
    c.max_rel_err = fmax(c.max_rel_err, o->max_rel_err);
    c.rtol = fmax(c.rtol, o->rtol);
    c.atol = fmax(c.atol, o->atol);
    c.pass &= o->pass;
    return c;
}

/* ---- the report ---------------------------------------------------------------------------------- */
static const char *mark(uint64_t got, uint64_t want) { return got == want ? "=" : "!= expected  <- DIFFERS"; }

static const char *plural(long long v) { return v == 1 ? "" : "s"; }

static void print_programs(const params *p)
{
    long long grid = (p->n + p->block - 1) / p->block, last = grid - 1, on = p->n - last * p->block;
    printf("lesson 6: block programs in the style of Triton (tl.h): one program = one CUDA block\n");
    printf("  a tile of BLOCK_SIZE elements is spread over the program's threads: element i is held by\n"
           "  thread i %% threads, in slot i / threads; tl_load and tl_store touch memory only where the mask is on\n");
    printf("\n  add_kernel: z = x + y over n = %lld elements, BLOCK_SIZE = %lld\n", p->n, p->block);
    long long per = (p->block + p->add_threads - 1) / p->add_threads;
    printf("    grid = cdiv(n, BLOCK_SIZE) = cdiv(%lld, %lld) = %lld program%s of %d threads (%d warp%s, %lld element%s a "
           "thread)\n",
           p->n, p->block, grid, plural(grid), p->add_threads, p->add_threads / 32, plural(p->add_threads / 32), per,
           plural(per));
    if (grid > 2)
        printf("    mask = offsets < n: programs 0..%lld have all %lld lanes on; ", last - 1, p->block);
    else if (grid == 2)
        printf("    mask = offsets < n: program 0 has all %lld lane%s on; ", p->block, plural(p->block));
    else
        printf("    mask = offsets < n: ");
    printf("%s, pid %lld, covers offsets %lld..%lld:\n    %lld lane%s on, %lld off%s\n", grid > 1 ? "the last" : "the only program", last, last * p->block,
           last * p->block + p->block - 1, on, plural(on), p->block - on,
           p->block - on ? " (they load and store nothing)" : " (n is a multiple of BLOCK_SIZE)");
    printf("\n  softmax_kernel: %lld row%s x %lld column%s, BLOCK_SIZE = the next power of two >= %lld = %d\n", p->R,
           plural(p->R), p->C, plural(p->C), p->C, p->sm_block);
    per = (p->sm_block + p->sm_threads - 1) / p->sm_threads;
    printf("    grid = %lld program%s (one per row) of %d threads (%d warp%s, %lld element%s a thread)\n", p->R,
           plural(p->R), p->sm_threads, p->sm_threads / 32, plural(p->sm_threads / 32), per, plural(per));
    printf("    mask = col_offsets < %lld: in every program %lld lane%s on, %lld off", p->C, p->C, plural(p->C),
           p->sm_block - p->C);
    if (p->sm_block > p->C)
        printf(" (they load other = -inf:\n    tl_max ignores them, exp(-inf) = 0 adds nothing to tl_sum; they store "
               "nothing)\n");
    else
        printf("\n");
}

static void print_sim(const backend *be, const kresult *r, const expect *e, int k, const params *p)
{
    const sim_counters *c = &r->k.sim;
    char b1[32], b2[32];
    if (k == K_ADD) {
        printf("    add_kernel      HBM read  %llu B, expected 8n = %llu (x and y once)  %s\n",
               (unsigned long long)c->hbm_read_bytes, (unsigned long long)e->read_bytes,
               mark(c->hbm_read_bytes, e->read_bytes));
        printf("                    HBM write %llu B, expected 4n = %llu (z once)  %s\n",
               (unsigned long long)c->hbm_write_bytes, (unsigned long long)e->write_bytes,
               mark(c->hbm_write_bytes, e->write_bytes));
        long long grid = (p->n + p->block - 1) / p->block;
        printf("                    (unmasked, the %lld programs' %lld lanes would have moved %llu B)\n", grid,
               grid * p->block, 12ull * (unsigned long long)(grid * p->block));
    } else {
        printf("    softmax_kernel  HBM read  %llu B, expected 4RC = %llu (each element once)  %s\n",
               (unsigned long long)c->hbm_read_bytes, (unsigned long long)e->read_bytes,
               mark(c->hbm_read_bytes, e->read_bytes));
        printf("                    HBM write %llu B, expected 4RC = %llu  %s\n", (unsigned long long)c->hbm_write_bytes,
               (unsigned long long)e->write_bytes, mark(c->hbm_write_bytes, e->write_bytes));
        printf("                    SRAM read %s, write %s: tl_max and tl_sum, %d warps -> %d + %d floats a program  "
               "%s\n",
               human_bytes((double)c->sram_read_bytes, b1, sizeof b1), human_bytes((double)c->sram_write_bytes, b2, sizeof b2),
               p->sm_threads / 32, 2 * (p->sm_threads / 32) * (p->sm_threads / 32), 2 * (p->sm_threads / 32),
               c->sram_read_bytes == e->sram_read_bytes && c->sram_write_bytes == e->sram_write_bytes ? "=" : "(differs)");
    }
    if (be->detailed)
        printf("                    32-byte sectors: ld %llu (expected %llu) %s, st %llu (expected %llu) %s; "
               "%.2f per load request (4 = fully coalesced)\n",
               (unsigned long long)c->global_ld_sectors, (unsigned long long)e->read_sectors,
               mark(c->global_ld_sectors, e->read_sectors), (unsigned long long)c->global_st_sectors,
               (unsigned long long)e->write_sectors, mark(c->global_st_sectors, e->write_sectors),
               c->global_ld_requests ? (double)c->global_ld_sectors / (double)c->global_ld_requests : 0.0);
    printf("                    local (stack) %llu B%s; simulated in %.1f ms\n",
           (unsigned long long)(c->local_read_bytes + c->local_write_bytes),
           c->local_read_bytes + c->local_write_bytes ? "" : ": the tiles stayed in registers", r->k.time_ms);
}

static void print_cuda(const kresult *r, const expect *e, int k)
{
    const hw_counters *h = &r->k.hw;
    char b1[32], b2[32];
    double bytes = (double)(e->read_bytes + e->write_bytes);
    printf("    %-15s DRAM read %s, write %s", kernel_names[k], human_bytes((double)h->dram_read_bytes, b1, sizeof b1),
           human_bytes((double)h->dram_write_bytes, b2, sizeof b2));
    if (h->valid)
        printf("; L1 sectors ld %llu (expected %llu) %s, st %llu (expected %llu) %s",
               (unsigned long long)h->l1_ld_sectors, (unsigned long long)e->read_sectors,
               h->l1_ld_sectors == e->read_sectors ? "=" : "!", (unsigned long long)h->l1_st_sectors,
               (unsigned long long)e->write_sectors, h->l1_st_sectors == e->write_sectors ? "=" : "!");
    printf("\n                    %.4f ms (median of %d) = %.1f GB/s of the %s it must move\n", r->time_ms,
           TIMING_REPEATS, r->time_ms > 0 ? bytes / (r->time_ms * 1e6) : 0.0, human_bytes(bytes, b1, sizeof b1));
}

static void print_backend(const backend *be, const be_result *res, const expect e[N_KERNELS], const params *p)
{
    printf("\n  [%s] %s\n", be_name(be), be_device_name(be));
    if (be->kind == BACKEND_CUDA && *be_counters_note(be))
        printf("    %s\n", be_counters_note(be));
    for (int k = 0; k < N_KERNELS; k++) {
        const kresult *r = &res->r[k];
        if (!r->ran)
            continue;
        if (be->kind == BACKEND_SIM)
            print_sim(be, r, &e[k], k, p);
        else
            print_cuda(r, &e[k], k);
        printf("                    check vs %s (double): max abs err %.3g, max rel err %.3g -> %s\n",
               k == K_ADD ? "add_cpu" : "softmax_rows_cpu", r->check.max_abs_err, r->check.max_rel_err,
               r->check.pass ? "PASS" : "FAIL");
    }
}

/* ---- --json ------------------------------------------------------------------------------------- */
static void json_expect(json *j, const char *key, const expect *e, int softmax)
{
    json_obj(j, key);
    json_uint(j, "read_bytes", e->read_bytes);
    json_uint(j, "write_bytes", e->write_bytes);
    json_uint(j, "read_sectors", e->read_sectors);
    json_uint(j, "write_sectors", e->write_sectors);
    if (softmax) {
        json_uint(j, "sram_read_bytes", e->sram_read_bytes);
        json_uint(j, "sram_write_bytes", e->sram_write_bytes);
    }
    json_end(j);
}

static void json_body(json *j, backend *be, const be_result *r, const expect e[N_KERNELS], int detail)
{
    json_arr(j, "kernels");
    for (int i = 0; i < be->n_kernels; i++)
        lesson_json_kernel(j, &be->kernels[i], detail || be->kind == BACKEND_CUDA);
    json_end_arr(j);
    lesson_json_buffers(j, be);
    check_result c = both_checks(r);
    lesson_json_check(j, &c);
    json_obj(j, "checks");
    for (int k = 0; k < N_KERNELS; k++) {
        json_obj(j, kernel_names[k]);
        json_bool(j, "ran", r->r[k].ran);
        json_bool(j, "counts_as_expected", r->r[k].ran && counts_ok(be, &r->r[k], &e[k]));
        json_num(j, "time_ms", r->r[k].time_ms);
        lesson_json_check(j, &r->r[k].check);
        json_end(j);
    }
    json_end(j);
}

static void print_json(const lesson_common *c, backend *bes, int nb, const be_result *res, const params *p,
                       const expect e[N_KERNELS], int pass)
{
    long long grid = (p->n + p->block - 1) / p->block, on = p->n - (grid - 1) * p->block;
    json j;
    json_open(&j, stdout);
    json_int(&j, "lesson", 6);
    json_obj(&j, "params");
    json_int(&j, "n", p->n);
    json_int(&j, "block", p->block);
    json_int(&j, "rows", p->R);
    json_int(&j, "cols", p->C);
    json_int(&j, "warps", p->warps);
    json_str(&j, "mode", c->mode);
    json_str(&j, "arch", bes[0].dev->name);
    json_bool(&j, "detail", c->detail);
    json_end(&j);
    json_obj(&j, "programs");
    json_obj(&j, "add_kernel");
    json_int(&j, "grid", grid);
    json_int(&j, "block_size", p->block);
    json_int(&j, "threads", p->add_threads);
    json_int(&j, "last_program", grid - 1);
    json_int(&j, "last_lanes_on", on);
    json_int(&j, "last_lanes_off", p->block - on);
    json_end(&j);
    json_obj(&j, "softmax_kernel");
    json_int(&j, "grid", p->R);
    json_int(&j, "block_size", p->sm_block);
    json_int(&j, "threads", p->sm_threads);
    json_int(&j, "lanes_on", p->C);
    json_int(&j, "lanes_off", p->sm_block - p->C);
    json_end(&j);
    json_end(&j);
    json_obj(&j, "expected");
    json_expect(&j, "add_kernel", &e[K_ADD], 0);
    json_expect(&j, "softmax_kernel", &e[K_SOFTMAX], 1);
    json_end(&j);
    for (int b = 0; b < nb; b++) {
        json_obj(&j, be_name(&bes[b]));
        json_str(&j, "device", be_device_name(&bes[b]));
        json_body(&j, &bes[b], &res[b], e, c->detail);
        json_bool(&j, "pass", backend_pass(&bes[b], &res[b], e));
        json_end(&j);
    }
    /* the first backend's figures at the top level, as the schema has them */
    json_body(&j, &bes[0], &res[0], e, c->detail);
    json_bool(&j, "pass", pass);
    json_close(&j);
}

/* ---- inputs ------------------------------------------------------------------------------------- */
static double uniform(uint64_t *s) /* [0, 1), a fixed LCG */
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

int lesson06_main(int argc, char **argv)
{
    lesson_common c = {.mode = "sim"};
    /* the tutorials' own sizes: add 98432 elements (97 programs of 1024, the last
     * 128 on), softmax 1823 x 781 (BLOCK_SIZE 1024, 243 lanes off a row) */
    params p = {.n = 98432, .block = 1024, .R = 1823, .C = 781, .warps = 0};
    const lesson_opt opts[] = {
        {"n", OPT_INT, &p.n, "N", "add_kernel: number of elements (default 98432)", 1, MAX_ELEMS, NULL},
        {"block", OPT_INT, &p.block, "BLOCK_SIZE",
         "add_kernel: elements per program, a power of two from 1 to 16384 (default 1024)", 1, 1 << 30, NULL},
        {"rows", OPT_INT, &p.R, "R", "softmax_kernel: rows, one program each (default 1823)", 1, 1 << 20, NULL},
        {"cols", OPT_INT, &p.C, "C", "softmax_kernel: columns, the softmax runs along each row (default 781; at most "
                                     "16384)", 1, 1 << 24, NULL},
        {"warps", OPT_INT, &p.warps, "W", "warps per program (Triton's num_warps) for both kernels: 1, 2, 4, ..., 32; "
                                          "0 = BLOCK_SIZE / 256 (default)", 0, 1024, NULL},
        LESSON_COMMON_OPTS(c),
        {0},
    };
    backend bes[2];
    int nb, rc = lesson_start("lesson 6", argc, argv, opts, &c, bes, &nb);
    if (rc >= 0)
        return rc;

    char why[512], one[400];
    int bad = 0;
    if (p.warps && (p.warps > 32 || (p.warps & (p.warps - 1)))) {
        snprintf(why, sizeof why,
                 "--warps %lld is not a power of two from 1 to 32 (a block has at most 1024 threads); 0 picks "
                 "BLOCK_SIZE / 256", p.warps);
        bad = 1;
    } else if ((p.add_threads = bp_threads(p.block, p.warps, one, sizeof one)) < 0) {
        snprintf(why, sizeof why, "--block %lld: %s", p.block, one);
        bad = 1;
    } else if (p.C > bp_max_block()) {
        snprintf(why, sizeof why,
                 "--cols %lld: softmax_kernel holds a row in one tile, and a tile has at most %d elements "
                 "(1024 threads x TL_PER_THREAD); use --cols %d or fewer",
                 p.C, bp_max_block(), bp_max_block());
        bad = 1;
    } else if ((p.sm_threads = bp_threads(p.sm_block = bp_next_pow2((int)p.C), p.warps, one, sizeof one)) < 0) {
        snprintf(why, sizeof why, "--cols %lld (softmax BLOCK_SIZE %d): %s", p.C, p.sm_block, one);
        bad = 1;
    } else if (p.R * p.C > MAX_ELEMS) {
        snprintf(why, sizeof why,
                 "--rows %lld --cols %lld is %lld elements; this lesson allows at most %lld (256 MB per buffer): "
                 "make one smaller",
                 p.R, p.C, p.R * p.C, MAX_ELEMS);
        bad = 1;
    }
    if (bad) {
        for (int b = 0; b < nb; b++)
            be_close(&bes[b]);
        return lesson_usage_error("lesson 6", opts, why);
    }

    const size_t n = (size_t)p.n, RC = (size_t)(p.R * p.C);
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *s_in = malloc(RC * sizeof *s_in);
    double *ref_add = malloc(n * sizeof *ref_add), *ref_sm = malloc(RC * sizeof *ref_sm);
    be_result *res = calloc((size_t)nb, sizeof *res);
    if (!x || !y || !s_in || !ref_add || !ref_sm || !res) {
        fprintf(stderr, "lesson 6: out of host memory for n = %lld, %lld x %lld\n", p.n, p.R, p.C);
        return LESSON_FAIL;
    }
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < n; i++) { /* torch.rand, as the tutorial */
        x[i] = (float)uniform(&seed);
        y[i] = (float)uniform(&seed);
    }
    for (size_t i = 0; i < RC; i++)
        s_in[i] = (float)(5.0 * (2.0 * uniform(&seed) - 1.0)); /* uniform in [-5, 5] */
    add_cpu(ref_add, x, y, (int)p.n);
    softmax_rows_cpu(ref_sm, s_in, (int)p.R, (int)p.C);
    expect e[N_KERNELS];
    expected(&p, e);

    int failed = 0;
    for (int b = 0; b < nb; b++) {
        int r = run(&bes[b], &p, x, y, s_in, ref_add, ref_sm, &res[b]);
        if (r == LESSON_USAGE) {
            for (int k = 0; k < nb; k++)
                be_close(&bes[k]);
            return LESSON_USAGE;
        }
        failed |= r;
    }
    int pass = !failed;
    for (int b = 0; b < nb; b++)
        pass &= backend_pass(&bes[b], &res[b], e);

    if (c.json) {
        print_json(&c, bes, nb, res, &p, e, pass);
    } else {
        print_programs(&p);
        for (int b = 0; b < nb; b++)
            print_backend(&bes[b], &res[b], e, &p);
        if (nb == 2 && bes[0].n_kernels == N_KERNELS && bes[1].n_kernels == N_KERNELS) /* --mode compare */
            lesson_compare_table(stdout, &bes[0], 0, &bes[1], 0, N_KERNELS);
        if (!pass) {
            printf("\n");
            if (failed)
                printf("  a backend stopped with an error (above)\n");
            for (int b = 0; b < nb; b++)
                for (int k = 0; k < N_KERNELS; k++) {
                    const kresult *r = &res[b].r[k];
                    if (r->ran && !r->check.pass)
                        printf("  [%s] %s differs from its CPU reference\n", be_name(&bes[b]), kernel_names[k]);
                    if (r->ran && !counts_ok(&bes[b], r, &e[k]))
                        printf("  [%s] %s moved other than the expected bytes or sectors\n", be_name(&bes[b]),
                               kernel_names[k]);
                }
        }
        printf("\n%s\n", pass ? "PASS" : "FAIL");
    }
    for (int b = 0; b < nb; b++)
        be_close(&bes[b]);
    free(x), free(y), free(s_in), free(ref_add), free(ref_sm), free(res);
    return pass ? LESSON_PASS : LESSON_FAIL;
}
