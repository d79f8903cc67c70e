/* lessons/common/lesson.c - see lesson.h. */
#include "lesson.h"

#include <math.h>
#include <string.h>

check_result check_close(const float *got, const double *ref, size_t n, double rtol, double atol)
{
    check_result r = {0, 0, rtol, atol, 0, 1};
    double worst_excess = -1, rel_all = 0;
    const double rel_floor = rtol > 0 ? atol / rtol : 0;
    int any_large = 0;
    for (size_t i = 0; i < n; i++) {
        double g = got[i], e = fabs(g - ref[i]);
        if (!isfinite(g) && !(isinf(g) && g == ref[i]))
            e = INFINITY;
        if (e > r.max_abs_err)
            r.max_abs_err = e;
        double a = fabs(ref[i]);
        if (a > 0 && e / a > rel_all)
            rel_all = e / a;
        if (a > rel_floor && a > 0) {
            any_large = 1;
            if (e / a > r.max_rel_err)
                r.max_rel_err = e / a;
        }
        double excess = e - (atol + rtol * a);
        if (excess > worst_excess) {
            worst_excess = excess;
            r.worst = i;
        }
        if (!(e <= atol + rtol * a))
            r.pass = 0;
    }
    if (!any_large) /* every |ref| is below atol/rtol: fall back to all nonzero elements */
        r.max_rel_err = rel_all;
    return r;
}

int lesson_usage_error(const char *prog, const lesson_opt *opts, const char *why)
{
    fprintf(stderr, "%s: %s\n", prog, why);
    cli_usage(stderr, prog, opts, 0);
    fprintf(stderr, "(%s --help lists every option)\n", prog);
    return LESSON_USAGE;
}

int lesson_start(const char *prog, int argc, char **argv, const lesson_opt *opts, lesson_common *c,
                 backend *bes, int *n_bes)
{
    char err[512];
    if (cli_parse(argc, argv, 1, opts, err, sizeof err))
        return lesson_usage_error(prog, opts, err);
    if (c->help) {
        cli_usage(stdout, prog, opts, 1);
        return LESSON_PASS;
    }
    if (c->arch && !sim_device_find(c->arch)) {
        snprintf(err, sizeof err, "--arch '%s': unknown device; choose sm_80 (A100), sm_89 (RTX 4090), sm_90 (H100) or h200",
                 c->arch);
        return lesson_usage_error(prog, opts, err);
    }
    *n_bes = 0;
    int want_sim = strcmp(c->mode, "cuda") != 0, want_cuda = strcmp(c->mode, "sim") != 0;
    if (want_sim) {
        /* compare mode sets warp-level counts beside the hardware's: detailed */
        if (be_open(&bes[*n_bes], BACKEND_SIM, c->arch, c->detail || want_cuda)) {
            fprintf(stderr, "%s: %s\n", prog, bes[*n_bes].err);
            return LESSON_USAGE;
        }
        /* the text report shows no predicted times: the bank-conflict sample the
         * time model needs in counting mode is taken only for --json */
        sim_set_sample(c->json);
        (*n_bes)++;
    }
    if (want_cuda) {
        if (be_open(&bes[*n_bes], BACKEND_CUDA, c->arch, c->detail)) {
            fprintf(stderr, "%s: --mode %s: %s\n", prog, c->mode, bes[*n_bes].err);
            for (int i = 0; i < *n_bes; i++)
                be_close(&bes[i]);
            return LESSON_USAGE;
        }
        (*n_bes)++;
    }
    return -1;
}

void lesson_json_buffers(json *j, backend *be)
{
    json_arr(j, "buffers");
    for (int i = 0; i < be->n_buffers; i++) {
        uint64_t rd = 0, wr = 0;
        int have = be->kind == BACKEND_SIM && !be_buffer_counts(be, be->buffers[i].ptr, &rd, &wr);
        json_obj(j, NULL);
        json_str(j, "name", be->buffers[i].name);
        json_uint(j, "bytes", be->buffers[i].bytes);
        if (have) {
            json_uint(j, "read_bytes", rd);
            json_uint(j, "write_bytes", wr);
        } else {
            json_null(j, "read_bytes");
            json_null(j, "write_bytes");
        }
        json_end(j);
    }
    json_end_arr(j);
}

void lesson_json_check(json *j, const check_result *r) { lesson_json_check_named(j, "check", r); }

void lesson_json_check_named(json *j, const char *name, const check_result *r)
{
    json_obj(j, name);
    json_num(j, "max_abs_err", r->max_abs_err);
    json_num(j, "max_rel_err", r->max_rel_err);
    json_num(j, "rtol", r->rtol);
    json_num(j, "atol", r->atol);
    json_bool(j, "pass", r->pass);
    json_end(j);
}

const char *const lesson_dram_note =
    "HBM (sim) is what the kernel requests, so it matches L1 sectors x 32; DRAM sees only L2 misses and "
    "write-backs: data re-read by many blocks (K, V, Q tiles) hits the L2. DRAM model: the simulator's L2 model, "
    "the kernel on an empty L2 (docs/l2-model.md); hw: the GPU's counters, read by kernel replay, which restores "
    "the buffers a kernel writes into L2 first (so they can differ: docs/parity-h200.md). L2 hit: of L1's "
    "sectors, those L2 held (a write always counts: the chip allocates it), the model's on an empty L2 and the "
    "GPU's (lts__t_sectors_srcunit_tex_lookup_miss) after the replay put the written buffers back in L2, so "
    "expect the GPU's higher for kernels that read what they write. model ms: the time "
    "model's prediction from the simulator's counters (sim/timemodel.c)";

void lesson_add_l2(sim_counters *sum, const sim_counters *k)
{
    sum->hbm_read_bytes += k->hbm_read_bytes;
    sum->hbm_write_bytes += k->hbm_write_bytes;
    sum->l2_read_sectors += k->l2_read_sectors;
    sum->l2_write_sectors += k->l2_write_sectors;
    sum->l2_read_hits += k->l2_read_hits;
    sum->l2_write_hits += k->l2_write_hits;
    sum->l2_atom_misses += k->l2_atom_misses;
    sum->dram_read_bytes += k->dram_read_bytes;
    sum->dram_write_bytes += k->dram_write_bytes;
    /* dirty bytes left in L2: after the last launch, or (cold starts) each launch's own */
    sum->l2_dirty_bytes = sim_l2_get_cold() ? sum->l2_dirty_bytes + k->l2_dirty_bytes : k->l2_dirty_bytes;
    sum->l2_incomplete |= k->l2_incomplete;
    sum->dram_background_read_bytes += k->dram_background_read_bytes;
    sum->dram_background_write_bytes += k->dram_background_write_bytes;
}

void lesson_l2_head(FILE *f, const char *indent, const sim_device *dev)
{
    char b[24];
    const int cold = sim_l2_get_cold();
    fprintf(f, "\n%swhat reaches DRAM, predicted by the simulator's L2 model (the %s L2 of %s, %s\n%s%s"
               "docs/l2-model.md): requested = the HBM bytes the kernels ask for (what L1 sees); dirty in L2 = "
               "written, not yet in DRAM\n",
            indent, human_bytes((double)dev->l2_bytes, b, sizeof b), dev->card,
            cold ? "each kernel starting on an empty L2, so DRAM read counts its code too, 7.5 KB,"
                 : "kept through the program: SIMTLAB_L2_COLD=0, inputs copied in stay there;",
            indent, cold ? "and the chip's own reads while it runs, up to 0.35 MB; " : "");
    fprintf(f, "%s%-24s %12s %8s %12s %12s %14s\n", indent, "", "requested", "L2 hit", "DRAM read", "DRAM write",
            "dirty in L2");
}

void lesson_l2_row(FILE *f, const char *indent, const char *name, const sim_counters *c)
{
    char b1[24], b2[24], b3[24], b4[24], hit[16];
    lesson_hit_text(lesson_l2_hit_rate(c), hit, sizeof hit);
    fprintf(f, "%s%-24s %12s %8s %12s %12s %14s%s\n", indent, name,
            human_bytes((double)(c->hbm_read_bytes + c->hbm_write_bytes), b1, sizeof b1), hit,
            human_bytes((double)c->dram_read_bytes, b2, sizeof b2), human_bytes((double)c->dram_write_bytes, b3, sizeof b3),
            human_bytes((double)c->l2_dirty_bytes, b4, sizeof b4),
            c->l2_incomplete ? "  (a block's trace overflowed: DRAM figures low)" : "");
}

static const char *mark(uint64_t a, uint64_t b) { return a == b ? "=" : "!"; }

void lesson_compare_table(FILE *f, const backend *sim, int sim_first, const backend *gpu, int gpu_first, int n)
{
    fprintf(f, "\n  compare: simulator (detailed) vs %s hardware counters\n", be_device_name(gpu));
    fprintf(f, "    %-20s %25s %25s %23s %23s %12s %23s %15s %9s %9s %9s\n", "kernel", "global ld sectors sim/hw",
            "global st sectors sim/hw", "shared wavefronts", "bank conflicts", "HBM (sim)", "DRAM model / hw",
            "L2 hit model/hw", "sim ms", "model ms", "gpu ms");
    for (int i = 0; i < n; i++) {
        const be_kernel *a = &sim->kernels[sim_first + i], *b = &gpu->kernels[gpu_first + i];
        char c1[48], c2[48], c3[48], c4[48], c5[64], c6[32], h1[12], h2[12], x[24], y[24], z[24];
        uint64_t swf = be_wavefronts(a), hwf = be_wavefronts(b), sbc = be_conflicts(a), hbc = be_conflicts(b);
        uint64_t sld = be_ld_sectors(a), hld = be_ld_sectors(b);
        if (!b->hw.valid) {
            fprintf(f, "    %-20s (no hardware counters for this launch)\n", a->name);
            continue;
        }
        snprintf(c1, sizeof c1, "%llu %s %llu", (unsigned long long)sld, mark(sld, hld), (unsigned long long)hld);
        snprintf(c2, sizeof c2, "%llu %s %llu", (unsigned long long)be_st_sectors(a),
                 mark(be_st_sectors(a), be_st_sectors(b)), (unsigned long long)be_st_sectors(b));
        snprintf(c3, sizeof c3, "%llu %s %llu", (unsigned long long)swf, mark(swf, hwf), (unsigned long long)hwf);
        snprintf(c4, sizeof c4, "%llu %s %llu", (unsigned long long)sbc, mark(sbc, hbc), (unsigned long long)hbc);
        human_bytes((double)(a->sim.hbm_read_bytes + a->sim.hbm_write_bytes), z, sizeof z);
        snprintf(c5, sizeof c5, "%s / %s", human_bytes((double)(a->sim.dram_read_bytes + a->sim.dram_write_bytes), x, sizeof x),
                 human_bytes((double)(b->hw.dram_read_bytes + b->hw.dram_write_bytes), y, sizeof y));
        snprintf(c6, sizeof c6, "%s / %s", lesson_hit_text(lesson_l2_hit_rate(&a->sim), h1, sizeof h1),
                 lesson_hit_text(lesson_hw_l2_hit_rate(&b->hw), h2, sizeof h2));
        sim_time_pred tp = sim_time_model(sim->dev, &a->cfg, &a->sim, a->flops);
        fprintf(f, "    %-20s %25s %25s %23s %23s %12s %23s %15s %9.2f %9.4f %9.4f\n", a->name, c1, c2, c3, c4, z, c5,
                c6, a->time_ms, tp.seconds * 1e3, b->time_ms);
        if (a->sim.async_requests)
            fprintf(f,
                    "    %-20s   of which cp.async (LDGSTS): ld sectors %llu %s %llu, bank conflicts %llu %s %llu; shared "
                    "wavefronts %llu in the simulator (the range profiler counts none for LDGSTS), not in the column "
                    "above\n",
                    "", (unsigned long long)a->sim.async_ld_sectors, mark(a->sim.async_ld_sectors, b->hw.ldgsts_sectors),
                    (unsigned long long)b->hw.ldgsts_sectors, (unsigned long long)a->sim.async_st_conflicts,
                    mark(a->sim.async_st_conflicts, b->hw.ldgsts_conflicts), (unsigned long long)b->hw.ldgsts_conflicts,
                    (unsigned long long)a->sim.async_st_wavefronts);
        if (a->sim.global_atom_requests || a->sim.shared_atom_requests || be_atom_sectors(b) ||
            be_shared_atom_wavefronts(b))
            fprintf(f, "    %-20s   atomics (not in the columns above): global sectors %llu %s %llu (RED + ATOM), "
                       "shared atom wavefronts %llu %s %llu\n",
                    "", (unsigned long long)a->sim.global_atom_sectors, mark(a->sim.global_atom_sectors, be_atom_sectors(b)),
                    (unsigned long long)be_atom_sectors(b), (unsigned long long)a->sim.shared_atom_wavefronts,
                    mark(a->sim.shared_atom_wavefronts, be_shared_atom_wavefronts(b)),
                    (unsigned long long)be_shared_atom_wavefronts(b));
    }
    fprintf(f, "    (= equal, ! differs) %s\n", lesson_dram_note);
}

int lesson_print_detail(FILE *f, const char *indent, const backend *be, const be_kernel *k)
{
    typedef unsigned long long ull;
    if (k->hw.valid) {
        fprintf(f, "%sL1 sectors (hardware counters): %llu loaded, %llu stored; shared wavefronts %llu, bank conflicts %llu\n",
                indent, (ull)be_ld_sectors(k), (ull)be_st_sectors(k), (ull)be_wavefronts(k), (ull)be_conflicts(k));
        if (k->hw.ldgsts_sectors || k->hw.ldgsts_conflicts) {
            fprintf(f, "%s  of which cp.async (LDGSTS): %llu sectors, %llu bank conflicts\n", indent,
                    (ull)k->hw.ldgsts_sectors, (ull)k->hw.ldgsts_conflicts);
            return 2;
        }
        return 1;
    }
    if (be->kind != BACKEND_SIM || !be->detailed)
        return 0;
    const sim_counters *c = &k->sim;
    char per[96] = "";
    if (c->global_ld_requests)
        snprintf(per, sizeof per, " (%.2f sectors a load request; coalesced: 4 for 4-byte loads, 16 for 16-byte)",
                 (double)c->global_ld_sectors / (double)c->global_ld_requests);
    fprintf(f, "%s32-byte sectors: %llu loaded, %llu stored in %llu + %llu warp requests%s; shared wavefronts %llu, bank "
               "conflicts %llu\n",
            indent, (ull)be_ld_sectors(k), (ull)be_st_sectors(k), (ull)c->global_ld_requests, (ull)c->global_st_requests,
            per, (ull)be_wavefronts(k), (ull)be_conflicts(k));
    int lines = 1;
    if (c->async_requests) {
        fprintf(f,
                "%s  of which cp.async (LDGSTS): %llu requests, %llu sectors, %llu bank conflicts; and their own %llu "
                "shared wavefronts (not in the figure above)\n",
                indent, (ull)c->async_requests, (ull)c->async_ld_sectors, (ull)c->async_st_conflicts,
                (ull)c->async_st_wavefronts);
        lines++;
    }
    if (c->global_atom_requests || c->shared_atom_requests) {
        fprintf(f, "%s  atomics (apart from the loads and stores): %llu global requests, %llu sectors; %llu shared "
                   "requests, %llu wavefronts\n",
                indent, (ull)c->global_atom_requests, (ull)c->global_atom_sectors, (ull)c->shared_atom_requests,
                (ull)c->shared_atom_wavefronts);
        lines++;
    }
    return lines;
}

const char *human_bytes(double b, char *buf, size_t n)
{
    const char *u[] = {"B", "KB", "MB", "GB", "TB"};
    int i = 0;
    while (fabs(b) >= 1000 && i < 4) {
        b /= 1000;
        i++;
    }
    snprintf(buf, n, i ? "%.2f %s" : "%.0f %s", b, u[i]);
    return buf;
}

float lesson_rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (float)((double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

int lesson_bytes_measured(const backend *be, const be_kernel *k) { return be->kind == BACKEND_SIM || k->hw.valid; }

int lesson_kernels_measured(const backend *be, int first, int n)
{
    for (int i = first; i < first + n; i++)
        if (!lesson_bytes_measured(be, &be->kernels[i]))
            return 0;
    return 1;
}

const char *lesson_no_counters_why(const backend *be)
{
    const char *n = be_counters_note(be);
    return !be->counters ? "--no-counters" : n && n[0] ? n : "the counters were not read";
}

const char *lesson_time_head(const backend *be) { return be->kind == BACKEND_SIM ? "CPU ms" : "GPU ms"; }

const char *lesson_time_note(const backend *be)
{
    return be->kind == BACKEND_SIM ? "CPU ms: the simulator's wall time on this CPU, not a GPU time"
                                   : "GPU ms: CUDA events (--repeats: median, L2 flushed between runs)";
}

void lesson_kernel_rows(FILE *f, const backend *be, const char *version, int first, int n)
{
    char b1[24], b2[24], b3[24], b4[24];
    const int sim = be->kind == BACKEND_SIM;
    for (int i = first; i < first + n; i++) {
        const be_kernel *k = &be->kernels[i];
        const int hw = k->hw.valid, got = lesson_bytes_measured(be, k);
        fprintf(f, "    %-9s %-20s %12s %12s %12s %12s %10.3f\n", version, k->name,
                !got ? "-" : human_bytes(hw ? (double)k->hw.dram_read_bytes : (double)k->sim.hbm_read_bytes, b1, 24),
                !got ? "-" : human_bytes(hw ? (double)k->hw.dram_write_bytes : (double)k->sim.hbm_write_bytes, b2, 24),
                !sim ? "-" : human_bytes((double)k->sim.sram_read_bytes, b3, 24),
                !sim ? "-" : human_bytes((double)k->sim.sram_write_bytes, b4, 24), k->time_ms);
        lesson_print_detail(f, "      ", be, k);
    }
    if (be->kind == BACKEND_CUDA && !lesson_kernels_measured(be, first, n))
        fprintf(f, "    %-9s (no hardware counters: %s)\n", "", lesson_no_counters_why(be));
}

void lesson_tensor_cells(FILE *f, int nt, int width, const uint64_t *rd, const uint64_t *wr, const uint64_t *erd,
                         const uint64_t *ewr)
{
    char b1[24], b2[24], cell[56];
    for (int t = 0; t < nt; t++) {
        if (!rd[t] && !wr[t])
            snprintf(cell, sizeof cell, "-");
        else
            snprintf(cell, sizeof cell, "%s/%s", human_bytes((double)rd[t], b1, 24), human_bytes((double)wr[t], b2, 24));
        fprintf(f, " %*s", width, cell);
        if (rd[t] != erd[t] || wr[t] != ewr[t])
            fprintf(f, "[%s/%s]", human_bytes((double)erd[t], b1, 24), human_bytes((double)ewr[t], b2, 24));
    }
    fprintf(f, "\n");
}

void lesson_json_kernels(json *j, const backend *be, int first, int n)
{
    json_arr(j, "kernels");
    for (int i = first; i < first + n; i++)
        lesson_json_kernel(j, &be->kernels[i], be->detailed || be->kind == BACKEND_CUDA);
    json_end_arr(j);
}

void lesson_json_tensors(json *j, int nt, const char *const *names, const uint64_t *rd, const uint64_t *wr,
                         const uint64_t *erd, const uint64_t *ewr)
{
    json_obj(j, "tensors");
    for (int t = 0; t < nt; t++) {
        json_obj(j, names[t]);
        json_uint(j, "read_bytes", rd[t]);
        json_uint(j, "write_bytes", wr[t]);
        json_uint(j, "expected_read_bytes", erd[t]);
        json_uint(j, "expected_write_bytes", ewr[t]);
        json_end(j);
    }
    json_end(j);
}

int lesson_parse_versions(const char *v, const char *const *names, int n)
{
    if (!strcmp(v, "all"))
        return (1 << n) - 1;
    int mask = 0;
    while (*v) {
        size_t len = strcspn(v, ",");
        int bit = 0;
        for (int i = 0; i < n; i++)
            if (len == strlen(names[i]) && !strncmp(v, names[i], len))
                bit = 1 << i;
        if (!bit)
            return 0;
        mask |= bit;
        v += len;
        if (*v == ',' && !*++v)
            return 0; /* a trailing comma */
    }
    return mask;
}
