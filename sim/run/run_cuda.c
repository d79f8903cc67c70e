/* sim/run/run_cuda.c - see run_cuda.h. */
#define _GNU_SOURCE
#include "run_cuda.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "kernel_json.h"
#include "proc.h"

extern char **environ;

static const char *const metrics[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "gpu__time_duration.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
    "lts__t_sectors_srcunit_tex_lookup_miss.sum",
};
#define NM (sizeof metrics / sizeof metrics[0])


/* --json PATH opened with the object's first fields; NULL (said why) when it cannot be. */
static FILE *json_file(const char *path, json *j, const char *mode)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        run_error("--json %s: %s", path, strerror(errno));
        return NULL;
    }
    json_open(j, f);
    json_str(j, "tool", "simtlab run");
    json_str(j, "mode", mode);
    return f;
}

static void show(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char b[4096];
    size_t n;
    while ((n = fread(b, 1, sizeof b, f)) > 0)
        fwrite(b, 1, n, stderr);
    fclose(f);
}
static int file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

static const char *tool(const char *name, char *buf, size_t n)
{
    const char *cuda = getenv("CUDA_HOME");
    snprintf(buf, n, "%s/bin/%s", cuda && cuda[0] ? cuda : "/usr/local/cuda", name);
    if (access(buf, X_OK) == 0)
        return buf;
    snprintf(buf, n, "%s", name); /* on PATH, or posix_spawnp says it is not */
    return buf;
}

/* Whether the toolkit of nvcc (a path) has lib64/NAME beside its bin: the CUDA libraries the
 * shim has (cuBLAS, cuRAND's host API) are linked when it does, as `nvcc ... -lcublas -lcurand`
 * would be written by hand. nvcc found on PATH: assumed. */
static int toolkit_has(const char *nvcc, const char *name)
{
    const char *sl = strrchr(nvcc, '/');
    if (!sl)
        return 1;
    char path[4300];
    snprintf(path, sizeof path, "%.*s/../lib64/%s", (int)(sl - nvcc), nvcc, name);
    return access(path, R_OK) == 0;
}

int run_cuda_build(const char *const *files, int n_files, const char *const *cflags, int n_cflags, const char *arch,
                   const char *dir, int verbose, run_cuda_ctx *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    snprintf(c->bin, sizeof c->bin, "%s/prog-cuda", dir);
    if (access(c->bin, X_OK) == 0)
        return 0;
    char nvcc[4200], archflag[64], log[4300];
    tool("nvcc", nvcc, sizeof nvcc);
    snprintf(log, sizeof log, "%s/nvcc.log", dir);
    const char *a = "native";
    if (arch) {
        if (!strcmp(arch, "h200") || !strcmp(arch, "h100") || !strcmp(arch, "sm_90") || !strcmp(arch, "90"))
            a = "sm_90";
        else if (!strcmp(arch, "sm_80") || !strcmp(arch, "a100") || !strcmp(arch, "80"))
            a = "sm_80";
        else if (!strcmp(arch, "sm_89") || !strcmp(arch, "4090") || !strcmp(arch, "89"))
            a = "sm_89";
        else
            return run_error("--arch '%s': choose sm_80, sm_89, sm_90 or h200", arch);
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        snprintf(archflag, sizeof archflag, "-arch=%s", a);
        const char **argv = malloc((size_t)(n_cflags + n_files + 16) * sizeof *argv); /* every flag and file */
        if (!argv)
            return run_error("out of host memory");
        int k = 0;
        argv[k++] = nvcc;
        argv[k++] = "-O2";
        argv[k++] = "-lineinfo";
        argv[k++] = "-std=c++17";
        argv[k++] = archflag;
        for (int i = 0; i < n_cflags; i++)
            argv[k++] = cflags[i];
        argv[k++] = "-o";
        argv[k++] = c->bin;
        for (int i = 0; i < n_files; i++)
            argv[k++] = files[i];
        if (toolkit_has(nvcc, "libcublas.so"))
            argv[k++] = "-lcublas";
        if (toolkit_has(nvcc, "libcurand.so"))
            argv[k++] = "-lcurand";
        argv[k] = NULL;
        int rc = proc_run((char *const *)argv, log, verbose, NULL);
        free(argv);
        if (rc < 0)
            return run_error("cannot run nvcc (%s): %s; --mode cuda needs the CUDA Toolkit (set CUDA_HOME or put nvcc on PATH)",
                       nvcc, strerror(errno));
        if (rc == 0)
            return 0;
        if (!arch && attempt == 0 && file_has(log, "native")) { /* no GPU to ask: the preset's architecture */
            a = "sm_90";
            continue;
        }
        show(log);
        return run_error("nvcc could not build the program (errors above)");
    }
    return 2;
}

/* ---- ncu's CSV --------------------------------------------------------------------------------- */
typedef struct gpu_launch {
    char name[64];
    unsigned grid[3], block[3];
    double v[NM];
    int have[NM];
} gpu_launch;

/* Splits one CSV line of quoted fields in place; returns the count. */
static int csv_fields(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        if (*p == '"') {
            char *s = ++p, *d = p;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"' && p[1] == '"')
                    p++;
                *d++ = *p++;
            }
            if (*p)
                p++;
            *d = 0;
            f[n++] = s;
        } else {
            f[n++] = p;
            while (*p && *p != ',')
                p++;
            if (*p)
                *p++ = 0;
            else
                break;
            continue;
        }
        if (*p == ',')
            p++;
    }
    return n;
}

static void dims(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    sscanf(s, " (%u, %u, %u)", &d[0], &d[1], &d[2]);
}

static int read_ncu(const char *path, gpu_launch **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[8192];
    int col_id = -1, col_name = -1, col_grid = -1, col_block = -1, col_metric = -1, col_value = -1, n = 0, cap = 0;
    gpu_launch *g = NULL;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] != '"')
            continue; /* ==PROF== lines */
        char *fl[64];
        int nf = csv_fields(line, fl, 64);
        if (col_id < 0) {
            for (int i = 0; i < nf; i++) {
                if (!strcmp(fl[i], "ID")) col_id = i;
                else if (!strcmp(fl[i], "Kernel Name")) col_name = i;
                else if (!strcmp(fl[i], "Grid Size")) col_grid = i;
                else if (!strcmp(fl[i], "Block Size")) col_block = i;
                else if (!strcmp(fl[i], "Metric Name")) col_metric = i;
                else if (!strcmp(fl[i], "Metric Value")) col_value = i;
            }
            continue;
        }
        if (col_id < 0 || col_value < 0 || col_metric < 0 || nf <= col_value)
            continue;
        int id = atoi(fl[col_id]);
        if (id < 0 || id > 10000000)
            continue;
        while (n <= id) {
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                gpu_launch *t = realloc(g, (size_t)cap * sizeof *t);
                if (!t)
                    break;
                g = t;
            }
            memset(&g[n], 0, sizeof g[n]);
            n++;
        }
        if (id >= n)
            break;
        gpu_launch *L = &g[id];
        if (col_name >= 0) {
            char *nm = fl[col_name]; /* "vecAdd(float const*, ...)" or "void k<float>(...)": the name */
            if (!strncmp(nm, "void ", 5))
                nm += 5;
            snprintf(L->name, sizeof L->name, "%.*s", (int)strcspn(nm, "("), nm);
        }
        if (col_grid >= 0)
            dims(fl[col_grid], L->grid);
        if (col_block >= 0)
            dims(fl[col_block], L->block);
        for (size_t m = 0; m < NM; m++)
            if (!strcmp(fl[col_metric], metrics[m])) {
                char num[64];
                size_t k = 0;
                for (const char *p = fl[col_value]; *p && k < sizeof num - 1; p++)
                    if (*p != ',') /* thousands separators */
                        num[k++] = *p;
                num[k] = 0;
                char *end;
                double v = strtod(num, &end);
                if (end != num && isfinite(v)) { /* a kernel that faulted on the GPU: "nan", no counters */
                    L->v[m] = v;
                    L->have[m] = 1;
                }
            }
    }
    fclose(f);
    *out = g;
    return n;
}

static void to_kernel(const gpu_launch *g, be_kernel *k)
{
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", g->name);
    k->cfg.grid = (simt_dim){g->grid[0], g->grid[1], g->grid[2]};
    k->cfg.block = (simt_dim){g->block[0], g->block[1], g->block[2]};
    k->on_gpu = 1;
    hw_counters *h = &k->hw;
    h->valid = g->have[0] && g->have[1];
#define U(i) ((uint64_t)(g->v[i] + 0.5))
    h->l1_ld_sectors = U(0);
    h->l1_st_sectors = U(1);
    h->shared_ld_wavefronts = U(2);
    h->shared_st_wavefronts = U(3);
    h->shared_ld_conflicts = U(4);
    h->shared_st_conflicts = U(5);
    h->l2_read_sectors = U(6);
    h->l2_write_sectors = U(7);
    h->dram_read_bytes = U(8);
    h->dram_write_bytes = U(9);
    h->gpu_time_ns = g->v[10];
    h->atom_valid = g->have[11] && g->have[12] && g->have[13];
    h->atom_sectors = U(11);
    h->red_sectors = U(12);
    h->shared_atom_wavefronts = U(13);
    h->ldgsts_sectors = U(14);
    h->ldgsts_conflicts = U(15);
    h->l2_miss_valid = g->have[16];
    h->l2_miss_sectors = U(16);
#undef U
    k->time_ms = g->v[10] / 1e6;
}

static void print_gpu(const gpu_launch *g, int n)
{
    fprintf(stderr, "\nsimtlab run: %d kernel launch%s on the GPU (counters by Nsight Compute)\n", n, n == 1 ? "" : "es");
    fprintf(stderr, "  %-5s %-24s %-14s %-12s %10s %10s %8s %10s %9s %11s %11s %10s\n", "#", "kernel", "grid", "block",
            "ld sect", "st sect", "atom sct", "shared wf", "conflicts", "DRAM read", "DRAM write", "time us");
    for (int i = 0; i < n && i < 40; i++) {
        be_kernel k;
        to_kernel(&g[i], &k);
        char grid[40], block[40];
        snprintf(grid, sizeof grid, "(%u,%u,%u)", g[i].grid[0], g[i].grid[1], g[i].grid[2]);
        snprintf(block, sizeof block, "(%u,%u,%u)", g[i].block[0], g[i].block[1], g[i].block[2]);
        if (!k.hw.valid) { /* Nsight Compute read nothing: the kernel failed there (the program's error says how) */
            fprintf(stderr, "  %-5d %-24.24s %-14s %-12s   no counters: the launch failed on the GPU\n", i + 1, k.name,
                    grid, block);
            continue;
        }
        fprintf(stderr, "  %-5d %-24.24s %-14s %-12s %10llu %10llu %8llu %10llu %9llu %11llu %11llu %10.2f\n", i + 1,
                k.name, grid, block, (unsigned long long)be_ld_sectors(&k), (unsigned long long)be_st_sectors(&k),
                (unsigned long long)be_atom_sectors(&k),
                (unsigned long long)(be_wavefronts(&k) + be_shared_atom_wavefronts(&k)),
                (unsigned long long)be_conflicts(&k), (unsigned long long)k.hw.dram_read_bytes,
                (unsigned long long)k.hw.dram_write_bytes, k.hw.gpu_time_ns / 1e3);
    }
    if (n > 40)
        fprintf(stderr, "  ... %d more launches (all in --json)\n", n - 40);
}

int run_cuda_run(run_cuda_ctx *c, char **args, int n_args, int no_counters, const char *json_path, int verbose)
{
    char ncu[4200];
    tool("ncu", ncu, sizeof ncu);
    snprintf(c->ncu_log, sizeof c->ncu_log, "%s/ncu-%d.csv", c->dir, (int)getpid());
    char mlist[2048] = "";
    for (size_t m = 0; m < NM; m++) {
        strcat(mlist, m ? "," : "");
        strcat(mlist, metrics[m]);
    }
    char logflag[4400];
    snprintf(logflag, sizeof logflag, "%s", c->ncu_log);
    char **argv = calloc((size_t)n_args + 16, sizeof *argv);
    if (!argv)
        return run_error("out of host memory");
    int k = 0;
    if (!no_counters) {
        argv[k++] = ncu;
        argv[k++] = "--csv";
        argv[k++] = "--print-units";
        argv[k++] = "base";
        argv[k++] = "--metrics";
        argv[k++] = mlist;
        argv[k++] = "--log-file";
        argv[k++] = logflag;
    }
    argv[k++] = c->bin;
    for (int i = 0; i < n_args; i++)
        argv[k++] = args[i];
    argv[k] = NULL;
    int rc = proc_run(argv, NULL, verbose, NULL);
    free(argv);
    if (rc < 0)
        return no_counters ? run_error("cannot run %s: %s", c->bin, strerror(errno))
                           : run_error("cannot run Nsight Compute (%s): %s; install it with the CUDA Toolkit, or use "
                                 "--no-counters to run without counters",
                                 ncu, strerror(errno));
    rc = proc_status(rc);
    if (no_counters)
        return rc;
    if (file_has(c->ncu_log, "ERR_NVGPUCTRPERM")) {
        run_error("the GPU's performance counters are not permitted for this user (ERR_NVGPUCTRPERM): run as root, or "
            "load the driver with NVreg_RestrictProfilingToAdminUsers=0 "
            "(https://developer.nvidia.com/ERR_NVGPUCTRPERM); --no-counters runs without them");
        return rc ? rc : 2;
    }
    gpu_launch *g;
    int n = read_ncu(c->ncu_log, &g);
    if (n <= 0 && file_has(c->ncu_log, "No kernels were profiled"))
        run_error("Nsight Compute profiled no kernel: no GPU or driver here, or the program failed before its first "
            "launch (its own messages are above)");
    if (n > 0) {
        c->profiled = 1;
        print_gpu(g, n);
    }
    json j;
    FILE *f = json_path && n >= 0 ? json_file(json_path, &j, "cuda") : NULL;
    if (f) {
        json_arr(&j, "kernels");
        for (int i = 0; i < n; i++) {
            be_kernel kk;
            to_kernel(&g[i], &kk);
            lesson_json_kernel(&j, &kk, 1);
        }
        json_end_arr(&j);
        json_close(&j);
        fclose(f);
    }
    free(g);
    return rc;
}

/* ---- compare ---------------------------------------------------------------------------------------- */
/* The sim run's TSV (cudart.c): name, grid xyz, block xyz, status, then every
 * sim_counters field in order. */
/* The simulator's launch records (cudart.c at exit, SIMTLAB_RUN_TSV); lib[i]: launch i was a
 * cuBLAS call's (its name written after '@'). */
static int read_tsv(const char *path, be_kernel **out, int **lib)
{
    *out = NULL;
    *lib = NULL;
    int *flags = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, cap = 0;
    be_kernel *ks = NULL;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            be_kernel *t = realloc(ks, (size_t)cap * sizeof *t);
            int *fl = realloc(flags, (size_t)cap * sizeof *fl);
            if (t)
                ks = t;
            if (fl)
                flags = fl;
            if (!t || !fl)
                break;
        }
        be_kernel *k = &ks[n];
        memset(k, 0, sizeof *k);
        char *save, *tok = strtok_r(line, "\t\n", &save);
        if (!tok)
            continue;
        flags[n] = tok[0] == '@';
        snprintf(k->name, sizeof k->name, "%s", tok + flags[n]);
        unsigned v[7] = {0};
        for (int i = 0; i < 7 && (tok = strtok_r(NULL, "\t\n", &save)); i++)
            v[i] = (unsigned)strtoul(tok, NULL, 10);
        k->cfg.grid = (simt_dim){v[0], v[1], v[2]};
        k->cfg.block = (simt_dim){v[3], v[4], v[5]};
        k->status = (int)v[6];
        uint64_t *c = (uint64_t *)&k->sim;
        for (size_t i = 0; i < sizeof k->sim / sizeof(uint64_t) && (tok = strtok_r(NULL, "\t\n", &save)); i++)
            c[i] = strtoull(tok, NULL, 10);
        n++;
    }
    fclose(f);
    *out = ks;
    *lib = flags;
    return n;
}

/* "matmul_tiled<TILE>" (the source's spelling) and "matmul_tiled<16>" (ncu's) are one kernel */
static int same_kernel(const char *a, const char *b)
{
    size_t la = strcspn(a, "<"), lb = strcspn(b, "<");
    const char *sa = strrchr(a, ':'), *sb = strrchr(b, ':'); /* ns::k and k */
    if (sa && (size_t)(sa - a) < la)
        la -= (size_t)(sa + 1 - a), a = sa + 1;
    if (sb && (size_t)(sb - b) < lb)
        lb -= (size_t)(sb + 1 - b), b = sb + 1;
    return la == lb && !strncmp(a, b, la);
}

static int cmp_row(const char *what, uint64_t s, uint64_t h, int have)
{
    if (!have) {
        fprintf(stderr, "    %-30s %14llu %14s\n", what, (unsigned long long)s, "-");
        return 0;
    }
    long long d = (long long)h - (long long)s;
    fprintf(stderr, "    %-30s %14llu %14llu %+12lld%s\n", what, (unsigned long long)s, (unsigned long long)h, d,
            d ? "   differs" : "");
    return d != 0;
}

/* A GPU launch is the simulator's launch k: the same kernel and the same grid and block. */
static int same_launch(const be_kernel *k, const gpu_launch *g)
{
    return same_kernel(k->name, g->name) && k->cfg.grid.x == g->grid[0] && k->cfg.grid.y == g->grid[1] &&
           k->cfg.grid.z == g->grid[2] && k->cfg.block.x == g->block[0] && k->cfg.block.y == g->block[1] &&
           k->cfg.block.z == g->block[2];
}

/* Whether a GPU launch's kernel is one of the program's (a name of a launch the simulator ran
 * that was no library call's). */
static int program_kernel(const char *gpu_name, const be_kernel *sim, const int *lib, int ns)
{
    for (int i = 0; i < ns; i++)
        if (!lib[i] && same_kernel(sim[i].name, gpu_name))
            return 1;
    return 0;
}

/* The pairs compare mode prints: a program launch beside the GPU's launch in the same place, or
 * a run of cuBLAS calls beside the run of GPU launches made for them (NVIDIA's kernels, any
 * number, or none), not compared counter by counter: the kernels are not the same. A GPU launch
 * where the simulator's next launch is the program's, of another kernel that is no kernel of the
 * program (a library call the simulator makes on the host, as cuRAND's generators), is such a
 * run with no simulator launch, so that the pairs after it stay in step. */
typedef struct cmp_seg {
    int s0, s1, g0, g1; /* sim[s0 .. s1), g[g0 .. g1) */
    int library;
} cmp_seg;

static int segments(const be_kernel *sim, const int *lib, int ns, const gpu_launch *g, int ng, cmp_seg *seg)
{
    int n = 0, i = 0, j = 0;
    while (i < ns) {
        cmp_seg *q = &seg[n];
        q->s0 = i, q->g0 = j;
        if (lib[i]) {
            while (i < ns && lib[i])
                i++;
            /* the GPU's run ends at the simulator's next launch (its kernel, grid and block) */
            while (j < ng && !(i < ns && same_launch(&sim[i], &g[j])))
                j++;
            q->library = 1;
        } else if (j >= ng) {
            break;
        } else if (!same_kernel(sim[i].name, g[j].name) && !program_kernel(g[j].name, sim, lib, ns)) {
            while (j < ng && !same_kernel(sim[i].name, g[j].name) && !program_kernel(g[j].name, sim, lib, ns))
                j++;
            q->library = 1;
        } else {
            i++, j++;
            q->library = 0;
        }
        q->s1 = i, q->g1 = j;
        n++;
    }
    return n;
}

/* The sums of a run of launches' shared counters (a library segment's two sides). */
static void seg_sums(const be_kernel *k, int n, uint64_t v[4])
{
    v[0] = v[1] = v[2] = v[3] = 0;
    for (int i = 0; i < n; i++) {
        v[0] += be_ld_sectors(&k[i]);
        v[1] += be_st_sectors(&k[i]);
        v[2] += be_wavefronts(&k[i]);
        v[3] += be_conflicts(&k[i]);
    }
}

int run_cuda_compare(const run_cuda_ctx *c, const char *tsv, const char *json_path)
{
    be_kernel *sim;
    gpu_launch *g;
    int *lib;
    int ns = read_tsv(tsv, &sim, &lib), ng = read_ncu(c->ncu_log, &g);
    if (ns < 0)
        return run_error("compare: the simulator's run left no record (%s)", tsv);
    if (ng <= 0) {
        free(sim), free(lib), free(g);
        return run_error("compare: the GPU run has no counters (see above)");
    }
    be_kernel *hw = calloc((size_t)ng, sizeof *hw);
    cmp_seg *seg = calloc((size_t)(ns + ng) + 1, sizeof *seg); /* a segment takes one launch or more */
    if (!hw || !seg || (ns && !lib)) {
        free(sim), free(lib), free(g), free(hw), free(seg);
        return run_error("compare: out of memory");
    }
    for (int i = 0; i < ng; i++)
        to_kernel(&g[i], &hw[i]);
    const int nseg = segments(sim, lib, ns, g, ng, seg);
    int diffs = 0, n = 0, failed = 0;
    for (int q = 0; q < nseg; q++)
        n += !seg[q].library;
    fprintf(stderr, "\nsimtlab run --mode compare: %d launch%s on each side\n", n, n == 1 ? "" : "es");
    if (nseg && (seg[nseg - 1].s1 != ns || seg[nseg - 1].g1 != ng))
        fprintf(stderr, "  the simulator ran %d launches, the GPU %d: compared in order, the simulator's first %d and "
                        "the GPU's first %d\n",
                ns, ng, seg[nseg - 1].s1, seg[nseg - 1].g1);
    for (int q = 0; q < nseg; q++) {
        const cmp_seg *r = &seg[q];
        if (r->library) {
            uint64_t a[4], b[4];
            seg_sums(&sim[r->s0], r->s1 - r->s0, a);
            seg_sums(&hw[r->g0], r->g1 - r->g0, b);
            char which[64];
            if (r->s1 == r->s0)
                snprintf(which, sizeof which, "before launch %d", r->s0 + 1);
            else
                snprintf(which, sizeof which, r->s1 - r->s0 == 1 ? "launch %d" : "launches %d-%d", r->s0 + 1, r->s1);
            fprintf(stderr, "  %s: %s%s beside the GPU's %d launch%s of a library's kernels (%s%s): its own kernels "
                            "there, %s here, not compared\n",
                    which, r->s1 > r->s0 ? sim[r->s0].name : "no launch", r->s1 - r->s0 > 1 ? ", ..." : "",
                    r->g1 - r->g0, r->g1 - r->g0 == 1 ? "" : "es", r->g1 > r->g0 ? g[r->g0].name : "none",
                    r->g1 - r->g0 > 1 ? ", ..." : "", r->s1 > r->s0 ? "simtlab's" : "the host's work or none");
            fprintf(stderr, "    %-30s %14s %14s\n", "", "simulator", "GPU");
            static const char *const what[4] = {"global load sectors", "global store sectors",
                                                "shared wavefronts (ld + st)", "bank conflicts"};
            for (int w = 0; w < 4; w++)
                fprintf(stderr, "    %-30s %14llu %14llu\n", what[w], (unsigned long long)a[w], (unsigned long long)b[w]);
            continue;
        }
        const be_kernel *sk = &sim[r->s0], *hkp = &hw[r->g0];
        be_kernel hk = *hkp;
        fprintf(stderr, "  launch %d: %s (%u,%u,%u) x (%u,%u,%u)%s\n", r->s0 + 1, sk->name, sk->cfg.grid.x, sk->cfg.grid.y,
                sk->cfg.grid.z, sk->cfg.block.x, sk->cfg.block.y, sk->cfg.block.z,
                same_kernel(sk->name, hk.name) ? "" : "   (the GPU's launch here is another kernel!)");
        fprintf(stderr, "    %-30s %14s %14s %12s\n", "", "simulator", "GPU", "GPU - sim");
        if (!hk.hw.valid) { /* nothing to set beside the simulator's: not a difference of counters */
            fprintf(stderr, "    the GPU's launch has no counters: it failed there (Nsight Compute reads none; the "
                            "program's error is above)\n");
            failed++;
            continue;
        }
        diffs += cmp_row("global load sectors", be_ld_sectors(sk), be_ld_sectors(&hk), 1);
        diffs += cmp_row("global store sectors", be_st_sectors(sk), be_st_sectors(&hk), 1);
        diffs += cmp_row("global atomic sectors", be_atom_sectors(sk), be_atom_sectors(&hk), hk.hw.atom_valid);
        diffs += cmp_row("shared wavefronts (ld + st)", be_wavefronts(sk), be_wavefronts(&hk), 1);
        diffs += cmp_row("shared atomic wavefronts", be_shared_atom_wavefronts(sk), be_shared_atom_wavefronts(&hk),
                         hk.hw.atom_valid);
        diffs += cmp_row("bank conflicts", be_conflicts(sk), be_conflicts(&hk), 1);
        fprintf(stderr, "    %-30s %14llu %14llu   (L1 requests; the GPU's DRAM bytes: %llu read, %llu written)\n",
                "global bytes requested / L2", (unsigned long long)(sk->sim.hbm_read_bytes + sk->sim.hbm_write_bytes),
                (unsigned long long)((hk.hw.l2_read_sectors + hk.hw.l2_write_sectors) * 32),
                (unsigned long long)hk.hw.dram_read_bytes, (unsigned long long)hk.hw.dram_write_bytes);
        fprintf(stderr, "    %-30s %14llu %14llu   (the simulator's L2 model, the kernel on an empty L2; the GPU's "
                        "counters read by replay: docs/l2-model.md)\n",
                "DRAM bytes (read + written)", (unsigned long long)(sk->sim.dram_read_bytes + sk->sim.dram_write_bytes),
                (unsigned long long)(hk.hw.dram_read_bytes + hk.hw.dram_write_bytes));
        char s1[16], s2[16];
        fprintf(stderr, "    %-30s %14s %14s   (of L1's sectors, those L2 held; a write always counts)\n",
                "L2 hit rate", lesson_hit_text(lesson_l2_hit_rate(&sk->sim), s1, sizeof s1),
                lesson_hit_text(lesson_hw_l2_hit_rate(&hk.hw), s2, sizeof s2));
        sim_time_pred tp = sim_time_model(sim_get_device(), &sk->cfg, &sk->sim, 0);
        fprintf(stderr, "    %-30s %14.2f %14.2f   (the simulator's: its time model, bound by %s)\n", "time (us)",
                tp.seconds * 1e6, hk.hw.gpu_time_ns / 1e3, tp.bound);
    }
    if (diffs)
        fprintf(stderr, "  some counters differ (docs/parity-h200.md explains the known cases)\n");
    else if (failed)
        fprintf(stderr, "  no counter differs where the GPU has them; %d launch%s failed on the GPU and %s none\n", failed,
                failed == 1 ? "" : "es", failed == 1 ? "has" : "have");
    else
        fprintf(stderr, "  every counter the two sides share agrees\n");
    json j;
    FILE *f = json_path ? json_file(json_path, &j, "compare") : NULL;
    if (f) {
        json_arr(&j, "launches");
        for (int q = 0; q < nseg; q++) {
            const cmp_seg *r = &seg[q];
            json_obj(&j, NULL);
            if (r->library) { /* the cuBLAS calls and NVIDIA's kernels for them, each side a list */
                json_bool(&j, "library", 1);
                json_arr(&j, "sim");
                for (int x = r->s0; x < r->s1; x++) {
                    json_obj(&j, NULL);
                    lesson_json_kernel_fields(&j, &sim[x], 1);
                    json_end(&j);
                }
                json_end_arr(&j);
                json_arr(&j, "cuda");
                for (int x = r->g0; x < r->g1; x++) {
                    json_obj(&j, NULL);
                    lesson_json_kernel_fields(&j, &hw[x], 1);
                    json_end(&j);
                }
                json_end_arr(&j);
            } else {
                json_obj(&j, "sim");
                lesson_json_kernel_fields(&j, &sim[r->s0], 1);
                json_end(&j);
                json_obj(&j, "cuda");
                lesson_json_kernel_fields(&j, &hw[r->g0], 1);
                json_end(&j);
            }
            json_end(&j);
        }
        json_end_arr(&j);
        json_close(&j);
        fclose(f);
    }
    free(sim);
    free(lib);
    free(g);
    free(hw);
    free(seg);
    return diffs ? 1 : 0;
}
