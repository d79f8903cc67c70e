/* tests/test_compare.c - `simtlab run --mode compare`'s pairing (sim/run/run_cuda.c, included
 * here for its static functions): a simulator record and an Nsight Compute CSV written by hand,
 * as a GPU run would leave them. The program's launches pair one to one; a run of cuBLAS calls
 * (simtlab's kernels) stands beside the run of NVIDIA's kernels the GPU launched for them, however
 * many, and is not compared counter by counter. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "run_cuda.c"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* one launch's ncu rows: its load and store sectors, the rest 0 */
static void ncu_launch(FILE *f, int id, const char *name, unsigned ld, unsigned st)
{
    for (size_t m = 0; m < NM; m++)
        fprintf(f, "\"%d\",\"%s\",\"(1, 1, 1)\",\"(32, 1, 1)\",\"%s\",\"%u\"\n", id, name, metrics[m],
                m == 0 ? ld : m == 1 ? st : 0);
}

/* A scratch directory with the three files a compare reads and writes. */
typedef struct scratch {
    char dir[64], tsv[256], json[256];
    run_cuda_ctx c;
} scratch;

static void scratch_open(scratch *x)
{
    memset(x, 0, sizeof *x);
    snprintf(x->dir, sizeof x->dir, "/tmp/simtlab-compare-XXXXXX");
    cr_assert_not_null(mkdtemp(x->dir));
    snprintf(x->tsv, sizeof x->tsv, "%s/sim.tsv", x->dir);
    snprintf(x->json, sizeof x->json, "%s/out.json", x->dir);
    snprintf(x->c.ncu_log, sizeof x->c.ncu_log, "%s/ncu.csv", x->dir);
}

static void scratch_close(scratch *x)
{
    remove(x->tsv), remove(x->json), remove(x->c.ncu_log), rmdir(x->dir);
}

Test(compare, library_calls_stand_beside_nvidias_kernels)
{
    scratch x;
    scratch_open(&x);
    const char *tsv = x.tsv, *json = x.json;
    run_cuda_ctx c = x.c;
    /* the simulator: k1, two cuBLAS calls, k2 (name, grid, block, status, then its counters:
     * hbm read and write bytes first, the sectors where be_ld_sectors reads them: left 0 but in
     * the GPU's, so that a pair's counters agree only where both are 0 or equal) */
    FILE *f = fopen(tsv, "w");
    cr_assert_not_null(f);
    fputs("k1\t1\t1\t1\t32\t1\t1\t0\n", f);
    fputs("@cublasSgemm\t1\t1\t1\t256\t1\t1\t0\n", f); /* '@': a library call's launch */
    fputs("@cublasSgemm\t1\t1\t1\t256\t1\t1\t0\n", f);
    fputs("k2\t1\t1\t1\t32\t1\t1\t0\n", f);
    fclose(f);
    /* the GPU: k1, three of NVIDIA's kernels for the two calls, k2 */
    f = fopen(c.ncu_log, "w");
    cr_assert_not_null(f);
    fputs("==PROF== Connected to process\n", f);
    fputs("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n", f);
    ncu_launch(f, 0, "k1(float *)", 0, 0);
    ncu_launch(f, 1, "void sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32(Params)", 4096, 2048);
    ncu_launch(f, 2, "void splitKreduce_kernel<32, 16, int, float>(Params)", 512, 256);
    ncu_launch(f, 3, "void sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32(Params)", 4096, 2048);
    ncu_launch(f, 4, "k2(float *)", 0, 0);
    fclose(f);

    cr_assert_eq(run_cuda_compare(&c, tsv, json), 0, "the program's launches agree: no difference");
    const char *js = slurp(json);
    /* three entries: k1's pair, the library run (two calls beside three kernels), k2's pair */
    cr_assert(strstr(js, "\"library\": true") || strstr(js, "\"library\":true"), "%s", js);
    const char *lib = strstr(js, "library");
    const char *k2 = strstr(js, "\"k2\"");
    cr_assert_not_null(k2, "%s", js);
    cr_assert(lib < k2, "the library run comes before k2: %s", js);
    int cublas = 0, nvidia = 0;
    for (const char *p = js; (p = strstr(p, "cublasSgemm")); p++)
        cublas++;
    for (const char *p = js; (p = strstr(p, "sm90_xmma_gemm")); p++)
        nvidia++;
    cr_assert_eq(cublas, 2, "%s", js);
    cr_assert_eq(nvidia, 2, "%s", js);
    cr_assert(strstr(js, "splitKreduce_kernel"), "%s", js);
    /* k2 is paired with the GPU's k2 (not with NVIDIA's second gemm kernel) */
    const char *k2cuda = strstr(k2, "\"cuda\"");
    cr_assert_not_null(k2cuda);
    cr_assert(strstr(k2cuda, "k2"), "k2's partner: %s", k2cuda);
    scratch_close(&x);
}

Test(compare, program_launches_pair_in_order_without_library_calls)
{
    scratch x;
    scratch_open(&x);
    const char *tsv = x.tsv, *json = x.json;
    run_cuda_ctx c = x.c;
    FILE *f = fopen(tsv, "w");
    fputs("k1\t1\t1\t1\t32\t1\t1\t0\n", f);
    fputs("k2\t1\t1\t1\t32\t1\t1\t0\n", f);
    fclose(f);
    f = fopen(c.ncu_log, "w");
    fputs("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n", f);
    ncu_launch(f, 0, "k1(float *)", 0, 0);
    ncu_launch(f, 1, "k2(float *)", 8, 0); /* the GPU's k2 loads 8 sectors, the simulator's none */
    fclose(f);
    cr_assert_eq(run_cuda_compare(&c, tsv, NULL), 1, "k2's counters differ");
    (void)json;
    scratch_close(&x);
}

/* The program's own kernel named as one of NVIDIA's (dot_kernel) is paired by place, grid and
 * block, not by name alone; a GPU launch the simulator has no launch for (a library's kernel for
 * work the simulator does on the host) stands apart, and the pairs after it stay in step; a
 * program kernel named cublas... is the program's. */
Test(compare, pairs_by_place_not_by_name)
{
    scratch x;
    scratch_open(&x);
    const char *tsv = x.tsv, *json = x.json;
    run_cuda_ctx c = x.c;
    FILE *f = fopen(tsv, "w");
    fputs("dot_kernel\t1\t1\t1\t32\t1\t1\t0\n", f);
    fputs("@cublasSdot\t1\t1\t1\t256\t1\t1\t0\n", f);
    fputs("cublas_gemm_naive\t1\t1\t1\t32\t1\t1\t0\n", f);
    fputs("k2\t1\t1\t1\t32\t1\t1\t0\n", f);
    fclose(f);
    f = fopen(c.ncu_log, "w");
    fputs("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n", f);
    ncu_launch(f, 0, "dot_kernel(float *)", 0, 0);
    /* NVIDIA's, for cublasSdot: one of the same name (another block), and a reduction */
    for (size_t m = 0; m < NM; m++)
        fprintf(f, "\"1\",\"void dot_kernel<float, 128, 0>(Params)\",\"(8, 1, 1)\",\"(128, 1, 1)\",\"%s\",\"%u\"\n",
                metrics[m], m == 0 ? 64u : 0u);
    ncu_launch(f, 2, "void reduce_1Block_kernel<float, 128, 7>(Params)", 2, 1);
    ncu_launch(f, 3, "cublas_gemm_naive(float *)", 0, 0);
    ncu_launch(f, 4, "void generate_seed_pseudo(Params)", 16, 16); /* a library's, no simulator launch */
    ncu_launch(f, 5, "k2(float *)", 0, 0);
    fclose(f);
    cr_assert_eq(run_cuda_compare(&c, tsv, json), 0, "the program's launches agree");
    const char *js = slurp(json);
    /* dot_kernel, then the library run with cublasSdot beside NVIDIA's two kernels, then
     * cublas_gemm_naive paired (the program's), then the run with no simulator launch, then k2 */
    const char *a = strstr(js, "\"dot_kernel\""), *b = strstr(js, "cublasSdot"), *c2 = strstr(js, "reduce_1Block"),
               *d = strstr(js, "cublas_gemm_naive"), *e = strstr(js, "generate_seed_pseudo"), *k2 = strstr(js, "\"k2\"");
    cr_assert(a && b && c2 && d && e && k2, "%s", js);
    cr_assert(a < b && b < c2 && c2 < d && d < e && e < k2, "the order: %s", js);
    const char *k2cuda = strstr(k2, "\"cuda\"");
    cr_assert(k2cuda && strstr(k2cuda, "k2"), "k2's partner: %s", js);
    int libs = 0;
    for (const char *p = js; (p = strstr(p, "\"library\"")); p++)
        libs++;
    cr_assert_eq(libs, 2, "two library runs: %s", js);
    scratch_close(&x);
}

/* A kernel that faults on the GPU: Nsight Compute writes "nan" for each of its metrics (the H100,
 * docs/gpu/s35-h100/overrun1.txt, where they were printed as 9223372036854775808). It has no
 * counters: not compared, and no difference; the other launch still is. */
Test(compare, a_launch_that_failed_on_the_gpu_has_no_counters)
{
    scratch x;
    scratch_open(&x);
    run_cuda_ctx c = x.c;
    FILE *f = fopen(x.tsv, "w");
    fputs("k1\t1\t1\t1\t32\t1\t1\t0\n", f);
    fputs("k2\t1\t1\t1\t32\t1\t1\t0\n", f);
    fclose(f);
    f = fopen(c.ncu_log, "w");
    fputs("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n", f);
    ncu_launch(f, 0, "k1(float *)", 0, 0);
    for (size_t m = 0; m < NM; m++)
        fprintf(f, "\"1\",\"k2(float *)\",\"(1, 1, 1)\",\"(32, 1, 1)\",\"%s\",\"nan\"\n", metrics[m]);
    fclose(f);
    gpu_launch *g;
    cr_assert_eq(read_ncu(c.ncu_log, &g), 2);
    be_kernel k;
    to_kernel(&g[1], &k);
    cr_assert(!k.hw.valid, "nan is no counter");
    cr_assert_eq(be_ld_sectors(&k), 0, "not 2^63: %llu", (unsigned long long)be_ld_sectors(&k));
    free(g);
    cr_assert_eq(run_cuda_compare(&c, x.tsv, NULL), 0, "k1 agrees, k2 has nothing to compare");
    scratch_close(&x);
}
