/* sim/run/report.c - see run_report.h. */
#define _GNU_SOURCE
#include "run_report.h"

#include <stdlib.h>
#include <string.h>

#include "launch.h"

typedef struct run_line {
    char file[256];
    int line;
    sim_pc_kind kind;
    uint64_t requests, sectors, ideal_sectors, wavefronts, ideal_wavefronts;
} run_line;

static const char *const kind_names[SIM_PC_KINDS] = {"global load", "global store", "global atomic", "cp.async",
                                                     "shared load", "shared store", "shared atomic"};
static const char *const kind_json[SIM_PC_KINDS] = {"global_ld", "global_st", "global_atom", "async",
                                                    "shared_ld", "shared_st", "shared_atom"};

/* pc -> source, kept across launches: one addr2line per new instruction set */
static struct { uintptr_t pc; sim_pc_source src; } *pc_cache;
static size_t pc_cache_n, pc_cache_cap;

static const sim_pc_source *cached(uintptr_t pc)
{
    for (size_t i = 0; i < pc_cache_n; i++)
        if (pc_cache[i].pc == pc)
            return &pc_cache[i].src;
    return NULL;
}

static uint64_t excess(const run_line *l)
{
    return (l->sectors - l->ideal_sectors) + (l->wavefronts - l->ideal_wavefronts);
}
static int by_excess(const void *a, const void *b)
{
    const run_line *x = a, *y = b;
    uint64_t ex = excess(x), ey = excess(y);
    if (ex != ey)
        return ex < ey ? 1 : -1;
    uint64_t tx = x->sectors + x->wavefronts, ty = y->sectors + y->wavefronts;
    if (tx != ty)
        return tx < ty ? 1 : -1;
    int c = strcmp(x->file, y->file);
    return c ? c : x->line - y->line;
}

/* The text of line n of file (trimmed), or "" (the file moved, a header). */
static void source_text(const char *file, int n, char *out, size_t on)
{
    out[0] = 0;
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char buf[200];
    int ln = 0;
    while (fgets(buf, sizeof buf, f))
        if (++ln == n) {
            char *s = buf;
            while (*s == ' ' || *s == '\t')
                s++;
            s[strcspn(s, "\r\n")] = 0;
            snprintf(out, on, "%s", s);
            break;
        }
    fclose(f);
}

static unsigned kernel_reports(const char *kernel)
{
    static struct { char name[64]; unsigned n; } seen[64];
    for (unsigned i = 0; i < 64; i++) {
        if (!seen[i].name[0]) {
            snprintf(seen[i].name, sizeof seen[i].name, "%s", kernel);
            return ++seen[i].n;
        }
        if (!strcmp(seen[i].name, kernel))
            return ++seen[i].n;
    }
    return 1000;
}

void run_lines_report(const char *kernel, size_t launch_no, void **out, int *n_out)
{
    *out = NULL;
    *n_out = 0;
    const sim_pc_stat *st;
    size_t n = sim_last_pc_stats(&st);
    if (!n)
        return;
    /* resolve the instructions not seen before, in one addr2line */
    uintptr_t *todo = malloc(n * sizeof *todo);
    size_t m = 0;
    for (size_t i = 0; todo && i < n; i++)
        if (!cached(st[i].pc)) {
            size_t j = 0;
            while (j < m && todo[j] != st[i].pc)
                j++;
            if (j == m)
                todo[m++] = st[i].pc;
        }
    if (m) {
        sim_pc_source *src = calloc(m, sizeof *src);
        if (src && pc_cache_n + m > pc_cache_cap) {
            size_t cap = (pc_cache_n + m) * 2;
            void *t = realloc(pc_cache, cap * sizeof *pc_cache);
            if (t) {
                pc_cache = t;
                pc_cache_cap = cap;
            }
        }
        if (src && pc_cache_n + m <= pc_cache_cap) {
            sim_resolve_pcs(todo, m, src);
            for (size_t i = 0; i < m; i++) {
                pc_cache[pc_cache_n].pc = todo[i];
                pc_cache[pc_cache_n++].src = src[i];
            }
        }
        free(src);
    }
    free(todo);
    /* sum per (file, line, kind) */
    run_line *rows = calloc(n, sizeof *rows);
    if (!rows)
        return;
    int nr = 0;
    for (size_t i = 0; i < n; i++) {
        const sim_pc_source *s = cached(st[i].pc);
        const char *file = s && s->file[0] ? s->file : "?";
        int line = s ? s->line : 0;
        int r = 0;
        while (r < nr && !(rows[r].line == line && rows[r].kind == st[i].kind && !strcmp(rows[r].file, file)))
            r++;
        if (r == nr) {
            snprintf(rows[r].file, sizeof rows[r].file, "%s", file);
            rows[r].line = line;
            rows[r].kind = st[i].kind;
            nr++;
        }
        rows[r].requests += st[i].requests;
        rows[r].sectors += st[i].sectors;
        rows[r].ideal_sectors += st[i].ideal_sectors;
        rows[r].wavefronts += st[i].wavefronts;
        rows[r].ideal_wavefronts += st[i].ideal_wavefronts;
    }
    qsort(rows, (size_t)nr, sizeof *rows, by_excess);
    *out = rows;
    *n_out = nr;

    unsigned seen = kernel_reports(kernel);
    if (seen > 3) {
        if (seen == 4)
            fprintf(stderr, "simtlab: --lines: later launches of %s are in --json only\n", kernel);
        return;
    }
    fprintf(stderr, "\nsimtlab --lines: launch %zu, %s: memory instructions by source line, most excess first\n", launch_no,
            kernel);
    fprintf(stderr, "  %-22s %-13s %9s %10s %10s %10s  %s\n", "line", "kind", "requests", "sectors", "ideal", "excess",
            "source");
    fprintf(stderr, "  %-22s %-13s %9s %10s %10s %10s\n", "", "", "", "wavefronts", "ideal", "conflicts");
    int shown = nr < 20 ? nr : 20;
    for (int r = 0; r < shown; r++) {
        const run_line *l = &rows[r];
        const char *base = strrchr(l->file, '/') ? strrchr(l->file, '/') + 1 : l->file;
        char where[300], text[200];
        snprintf(where, sizeof where, "%s:%d", base, l->line);
        source_text(l->file, l->line, text, sizeof text);
        int shared = l->kind >= SIM_PC_SHARED_LD;
        uint64_t a = shared ? l->wavefronts : l->sectors, b = shared ? l->ideal_wavefronts : l->ideal_sectors;
        fprintf(stderr, "  %-22s %-13s %9llu %10llu %10llu %10llu  %s\n", where, kind_names[l->kind],
                (unsigned long long)l->requests, (unsigned long long)a, (unsigned long long)b,
                (unsigned long long)(a - b), text);
    }
    if (nr > shown)
        fprintf(stderr, "  ... %d more lines (all in --json)\n", nr - shown);
    fprintf(stderr, "  (sectors: 32-byte global memory sectors; ideal: the sectors the bytes would take coalesced; shared\n"
                    "   rows count wavefronts, ideal one per 32 distinct words; excess = the bank conflicts)\n\n");
}

void run_lines_json(json *j, const void *lines, int n)
{
    const run_line *rows = lines;
    json_arr(j, "lines");
    for (int r = 0; r < n; r++) {
        const run_line *l = &rows[r];
        json_obj(j, NULL);
        json_str(j, "file", l->file);
        json_int(j, "line", l->line);
        json_str(j, "kind", kind_json[l->kind]);
        json_uint(j, "requests", l->requests);
        if (l->kind < SIM_PC_SHARED_LD) {
            json_uint(j, "sectors", l->sectors);
            json_uint(j, "ideal_sectors", l->ideal_sectors);
        }
        if (l->kind >= SIM_PC_SHARED_LD || l->kind == SIM_PC_ASYNC) {
            json_uint(j, "wavefronts", l->wavefronts);
            json_uint(j, "ideal_wavefronts", l->ideal_wavefronts);
            json_uint(j, "bank_conflicts", l->wavefronts - l->ideal_wavefronts);
        }
        json_end(j);
    }
    json_end_arr(j);
}

static void bytes_str(char *o, size_t n, double b)
{
    if (b >= 1e9)
        snprintf(o, n, "%.2f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(o, n, "%.2f MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(o, n, "%.2f kB", b / 1e3);
    else
        snprintf(o, n, "%.0f B", b);
}

static void row(FILE *f, const char *label, const char *name, const char *grid, const char *block, const char *status,
                const sim_counters *c, double ms, unsigned long long launches, int detailed)
{
    char rd[32], wr[32], sr[32], dr[32];
    bytes_str(rd, sizeof rd, (double)c->hbm_read_bytes);
    bytes_str(wr, sizeof wr, (double)c->hbm_write_bytes);
    bytes_str(sr, sizeof sr, (double)(c->sram_read_bytes + c->sram_write_bytes));
    bytes_str(dr, sizeof dr, (double)(c->dram_read_bytes + c->dram_write_bytes));
    fprintf(f, "  %-5s %-24.24s %-14s %-12s %-7s %11s %11s %11s %11s %9.1f", label, name, grid, block, status, rd, wr,
            sr, dr, ms * 1e3);
    if (detailed)
        fprintf(f, " %10llu %10llu %8llu %10llu %9llu",
                (unsigned long long)(c->global_ld_sectors + c->async_ld_sectors),
                (unsigned long long)c->global_st_sectors, (unsigned long long)c->global_atom_sectors,
                (unsigned long long)(c->shared_ld_wavefronts + c->shared_st_wavefronts + c->shared_atom_wavefronts),
                (unsigned long long)(c->shared_ld_conflicts + c->shared_st_conflicts + c->shared_atom_conflicts));
    if (launches)
        fprintf(f, "  (%llu launches)", launches);
    fputc('\n', f);
}

void run_summary(FILE *f, const launch_rec *recs, size_t n, int detailed)
{
    const sim_device *d = sim_get_device();
    fprintf(f, "\nsimtlab run: %zu kernel launch%s on the simulator (%s preset, %s mode)%s\n", n, n == 1 ? "" : "es",
            d->name, detailed ? "detailed" : "counting", n ? "" : "");
    if (!n)
        return;
    fprintf(f, "  %-5s %-24s %-14s %-12s %-7s %11s %11s %11s %11s %9s", "#", "kernel", "grid", "block", "status",
            "HBM read", "HBM write", "shared", "DRAM (L2)", "time us");
    if (detailed)
        fprintf(f, " %10s %10s %8s %10s %9s", "ld sect", "st sect", "atom sct", "shared wf", "conflicts");
    fputc('\n', f);
    const size_t shown = n <= 40 ? n : 30;
    for (size_t i = 0; i < shown; i++) {
        const launch_rec *r = &recs[i];
        char label[16], grid[40], block[40];
        snprintf(label, sizeof label, "%zu", i + 1);
        snprintf(grid, sizeof grid, "(%u,%u,%u)", r->k.cfg.grid.x, r->k.cfg.grid.y, r->k.cfg.grid.z);
        snprintf(block, sizeof block, "(%u,%u,%u)", r->k.cfg.block.x, r->k.cfg.block.y, r->k.cfg.block.z);
        row(f, label, r->k.name, grid, block, r->k.status ? "FAILED" : "ok", &r->k.sim, r->sim_ms, 0, detailed);
    }
    if (shown < n) {
        fprintf(f, "  ... %zu more launches (all in --json); totals per kernel:\n", n - shown);
        for (size_t i = 0; i < n; i++) {
            size_t k = 0;
            while (k < i && strcmp(recs[k].k.name, recs[i].k.name))
                k++;
            if (k < i)
                continue; /* counted with its first launch */
            sim_counters t;
            memset(&t, 0, sizeof t);
            unsigned long long cnt = 0, failed = 0;
            double ms = 0;
            for (size_t j = i; j < n; j++)
                if (!strcmp(recs[j].k.name, recs[i].k.name)) {
                    ms += recs[j].sim_ms;
                    uint64_t *dst = (uint64_t *)&t;
                    const uint64_t *src = (const uint64_t *)&recs[j].k.sim;
                    for (size_t x = 0; x < sizeof t / sizeof(uint64_t); x++)
                        dst[x] += src[x];
                    cnt++;
                    failed += recs[j].k.status != 0;
                }
            row(f, "all", recs[i].k.name, "", "", failed ? "FAILED" : "ok", &t, ms, cnt, detailed);
        }
    }
    if (!detailed)
        fprintf(f, "  (bytes kernels requested from global memory; DRAM (L2): what the L2 model predicts reaches DRAM,\n"
                   "   read + written, each launch on an empty L2, its 7.5 KB of code and the chip's own reads while it\n"
                   "   runs (up to 0.35 MB) included (docs/l2-model.md); time us: the time model's prediction for the\n"
                   "   preset's chip, what cudaEventElapsedTime counts (docs/run.md says how close it comes);\n"
                   "   --detail adds sectors, wavefronts and bank conflicts, --lines the same per source line)\n");
}
