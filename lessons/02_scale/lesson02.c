/* lessons/02_scale/lesson02.c - lesson 2: threads, blocks, grids.
 *
 * The course's first custom op, y = 2x, one thread per element. The driver
 * picks a grid that covers n with whole blocks, runs the kernel, checks y
 * against the CPU reference and shows what moved through HBM: each element
 * is read once (4 bytes) and written once (4 bytes), so 8n bytes in all.
 * --no-guard runs the same kernel without its `if (idx < n)`: the threads
 * past the end of the arrays then read and write out of bounds, which the
 * simulator reports (a GPU would not tell you).
 */
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "scale.h"

typedef struct result {
    check_result check;
    be_kernel k;
    int ok;
} result;

/* Runs the op on one backend. Returns 0, or 1 with the error printed. */
static int run(backend *be, int n, int block, int no_guard, const float *x, double *ref, result *out)
{
    float *d_x = NULL, *d_y = NULL, *y = malloc((size_t)n * sizeof *y);
    int rc = 1;
    if (!y) {
        fprintf(stderr, "lesson 2 (%s): out of host memory: malloc of %zu bytes for the result y (n = %d floats) "
                        "failed; use a smaller --n\n",
                be_name(be), (size_t)n * sizeof *y, n);
        goto done;
    }
    if (be_malloc(be, &d_x, (size_t)n * sizeof(float), "x") ||
        be_malloc(be, &d_y, (size_t)n * sizeof(float), "y") || be_upload(be, d_x, x, (size_t)n * sizeof(float)) ||
        be_memset(be, d_y, 0, (size_t)n * sizeof(float))) {
        fprintf(stderr, "lesson 2 (%s): %s\n", be_name(be), be->err[0] ? be->err : "device set-up failed (no reason given)");
        goto done;
    }
    /* LESSON: enough blocks of `block` threads to cover n: ceil(n / block). */
    simt_cfg cfg = {.grid = {(unsigned)((n + block - 1) / block), 1, 1}, .block = {(unsigned)block, 1, 1}};
    int st = no_guard ? BE_LAUNCH(be, scale_unguarded, &cfg, d_y, d_x, n) : BE_LAUNCH(be, scale_v1, &cfg, d_y, d_x, n);
    if (be_last(be))
        out->k = *be_last(be);
    if (st) {
        fprintf(stderr, "%s\n", be->err);
        /* a launch the user configured wrongly is a usage error, not a failed check */
        rc = strstr(be->err, "InvalidConfiguration") || strstr(be->err, "InvalidValue") ? LESSON_USAGE : 1;
        goto done;
    }
    if (be_download(be, y, d_y, (size_t)n * sizeof(float))) {
        fprintf(stderr, "lesson 2 (%s): %s\n", be_name(be), be->err);
        goto done;
    }
    out->check = check_close(y, ref, (size_t)n, 0, 0); /* 2x is exact in floating point */
    out->ok = 1;
    rc = 0;
done:
    free(y);
    return rc;
}

int lesson02_main(int argc, char **argv)
{
    lesson_common c = {.mode = "sim"};
    long long n = 1000000, block = 256;
    int no_guard = 0;
    const lesson_opt opts[] = {
        {"n", OPT_INT, &n, "N", "number of elements (default 1000000)", 1, 1LL << 30, NULL},
        {"block", OPT_INT, &block, "THREADS", "threads per block (default 256; CUDA allows 1..1024)", 1, 1 << 20, NULL},
        {"no-guard", OPT_FLAG, &no_guard, NULL, "run the kernel without `if (idx < n)` (sim reports the bug)", 0, 0, NULL},
        LESSON_COMMON_OPTS(c),
        {0},
    };
    backend bes[2];
    int nb, rc = lesson_start("lesson 2", argc, argv, opts, &c, bes, &nb);
    if (rc >= 0)
        return rc;

    float *x = malloc((size_t)n * sizeof *x);
    double *ref = malloc((size_t)n * sizeof *ref);
    if (!x || !ref) {
        fprintf(stderr, "lesson 2: out of host memory: malloc of %zu bytes for %s (n = %lld) failed; use a smaller --n\n",
                !x ? (size_t)n * sizeof *x : (size_t)n * sizeof *ref, !x ? "the input x" : "the double reference", n);
        free(x);
        free(ref);
        for (int k = 0; k < nb; k++)
            be_close(&bes[k]);
        return LESSON_FAIL;
    }
    for (long long i = 0; i < n; i++)
        x[i] = (float)((i % 1000) - 500) * 0.25f;
    scale_cpu(ref, x, (int)n);

    result res[2];
    memset(res, 0, sizeof res);
    int failed = 0;
    for (int b = 0; b < nb; b++) {
        int r = run(&bes[b], (int)n, (int)block, no_guard, x, ref, &res[b]);
        if (r == LESSON_USAGE) {
            for (int k = 0; k < nb; k++)
                be_close(&bes[k]);
            free(x);
            free(ref);
            return LESSON_USAGE;
        }
        failed |= r;
    }

    long long grid = (n + block - 1) / block;
    int pass = !failed;
    for (int b = 0; b < nb; b++)
        pass &= res[b].ok && res[b].check.pass;
    if (c.json) {
        json j;
        json_open(&j, stdout);
        json_int(&j, "lesson", 2);
        json_obj(&j, "params");
        json_int(&j, "n", n);
        json_int(&j, "block", block);
        json_bool(&j, "guard", !no_guard);
        json_str(&j, "mode", c.mode);
        json_str(&j, "arch", bes[0].dev->name);
        json_bool(&j, "detail", c.detail);
        json_end(&j);
        for (int b = 0; b < nb; b++) {
            json_obj(&j, be_name(&bes[b]));
            json_str(&j, "device", be_device_name(&bes[b]));
            json_arr(&j, "kernels");
            if (bes[b].n_kernels)
                lesson_json_kernel(&j, &bes[b].kernels[0], c.detail || bes[b].kind == BACKEND_CUDA);
            json_end_arr(&j);
            lesson_json_buffers(&j, &bes[b]);
            lesson_json_check(&j, &res[b].check);
            json_end(&j);
        }
        /* the first backend's figures at the top level, as the schema has them */
        json_arr(&j, "kernels");
        if (bes[0].n_kernels)
            lesson_json_kernel(&j, &bes[0].kernels[0], c.detail || bes[0].kind == BACKEND_CUDA);
        json_end_arr(&j);
        lesson_json_buffers(&j, &bes[0]);
        lesson_json_check(&j, &res[0].check);
        json_bool(&j, "pass", pass);
        json_close(&j);
    } else {
        char b1[32], b2[32];
        printf("lesson 2: y = 2x, one thread per element\n");
        printf("  n = %lld, %lld threads per block -> grid of %lld blocks = %lld threads (%lld past the end, %s)\n", n,
               block, grid, grid * block, grid * block - n,
               no_guard ? "NOT guarded: --no-guard" : "kept out by `if (idx < n)`");
        for (int b = 0; b < nb; b++) {
            const be_kernel *k = &res[b].k;
            printf("\n  [%s] %s on %s\n", be_name(&bes[b]), k->name, be_device_name(&bes[b]));
            if (!res[b].ok)
                continue;
            if (bes[b].kind == BACKEND_SIM) {
                printf("    HBM read  %s = %.2f bytes per element (expected 4: one float of x)\n",
                       human_bytes((double)k->sim.hbm_read_bytes, b1, sizeof b1), (double)k->sim.hbm_read_bytes / (double)n);
                printf("    HBM write %s = %.2f bytes per element (expected 4: one float of y)\n",
                       human_bytes((double)k->sim.hbm_write_bytes, b2, sizeof b2), (double)k->sim.hbm_write_bytes / (double)n);
                if (c.detail)
                    printf("    32-byte sectors: %llu loaded, %llu stored in %llu + %llu warp requests "
                           "(%.2f per request: 4 = fully coalesced)\n",
                           (unsigned long long)k->sim.global_ld_sectors, (unsigned long long)k->sim.global_st_sectors,
                           (unsigned long long)k->sim.global_ld_requests, (unsigned long long)k->sim.global_st_requests,
                           k->sim.global_ld_requests ? (double)k->sim.global_ld_sectors / (double)k->sim.global_ld_requests : 0.0);
                printf("    simulated in %.1f ms (%.1f M threads/s, %d workers)\n", k->time_ms,
                       (double)(grid * block) / (k->time_ms * 1e3), sim_worker_count());
            } else {
                printf("    DRAM read %s, write %s; L1 sectors ld %llu st %llu; %.3f ms\n",
                       human_bytes((double)k->hw.dram_read_bytes, b1, sizeof b1),
                       human_bytes((double)k->hw.dram_write_bytes, b2, sizeof b2),
                       (unsigned long long)k->hw.l1_ld_sectors, (unsigned long long)k->hw.l1_st_sectors, k->time_ms);
            }
            printf("    check vs CPU reference (double): max abs err %.3g, max rel err %.3g -> %s\n",
                   res[b].check.max_abs_err, res[b].check.max_rel_err, res[b].check.pass ? "PASS" : "FAIL");
        }
        if (nb == 2 && bes[0].n_kernels && bes[1].n_kernels) /* --mode compare */
            lesson_compare_table(stdout, &bes[0], 0, &bes[1], 0, 1);
        printf("\n%s\n", pass ? "PASS" : "FAIL");
    }
    for (int b = 0; b < nb; b++)
        be_close(&bes[b]);
    free(x);
    free(ref);
    return pass ? LESSON_PASS : LESSON_FAIL;
}
