/* lessons/common/kernel_json.c - one kernel launch as JSON: the schema the
 * lessons' --json and `simtlab run --json` share (README "JSON"). Apart from
 * lesson.c so that `simtlab run` links it without the lessons' backends. */
#include "kernel_json.h"

/* L2's hit rate for the sectors L1 sends it, as the chip counts it: a write never
 * misses (L2 allocates the sector; lts__t_sectors_srcunit_tex_op_write_lookup_miss was 0
 * in every launch measured on the H200 and the H100), so the misses are the reads' and
 * the atomics' (which fetch their sector, as reads do). */
double lesson_l2_hit_rate(const sim_counters *c)
{
    uint64_t n = c->l2_read_sectors + c->l2_write_sectors;
    return n ? 1.0 - (double)(c->l2_read_sectors - c->l2_read_hits + c->l2_atom_misses) / (double)n : -1;
}

/* L2's lookup misses of L1's sectors over L1's sectors: reads and writes as L2 counts
 * them, atomics as L1 does (global atomics all pass to L2). Without the atomic metrics
 * the sectors are not all known, so there is no rate. */
double lesson_hw_l2_hit_rate(const hw_counters *h)
{
    uint64_t n = h->l2_read_sectors + h->l2_write_sectors + h->atom_sectors + h->red_sectors;
    if (!h->valid || !h->l2_miss_valid || !h->atom_valid || !n || h->l2_miss_sectors > n)
        return -1;
    return 1.0 - (double)h->l2_miss_sectors / (double)n;
}

const char *lesson_hit_text(double h, char *buf, size_t n)
{
    if (h >= 0)
        snprintf(buf, n, "%.1f%%", 100 * h);
    else
        snprintf(buf, n, "-");
    return buf;
}

void lesson_json_kernel_fields(json *j, const be_kernel *k, int detailed)
{
    json_str(j, "name", k->name);
    json_arr(j, "grid");
    json_uint(j, NULL, k->cfg.grid.x);
    json_uint(j, NULL, k->cfg.grid.y);
    json_uint(j, NULL, k->cfg.grid.z);
    json_end_arr(j);
    json_arr(j, "block");
    json_uint(j, NULL, k->cfg.block.x);
    json_uint(j, NULL, k->cfg.block.y);
    json_uint(j, NULL, k->cfg.block.z);
    json_end_arr(j);
    json_uint(j, "shared_bytes", k->cfg.shared_bytes);
    if (k->on_gpu && !k->hw.valid) { /* a GPU launch without counters: nothing was measured */
        static const char *const hbm[] = {"read_bytes", "write_bytes", "read_sectors", "write_sectors", "async_read_sectors", "atom_sectors"};
        static const char *const sram[] = {"read_bytes", "write_bytes", "wavefronts", "async_wavefronts", "atom_wavefronts", "bank_conflicts"};
        json_obj(j, "hbm");
        for (size_t i = 0; i < sizeof hbm / sizeof hbm[0]; i++)
            json_null(j, hbm[i]);
        json_end(j);
        json_obj(j, "sram");
        for (size_t i = 0; i < sizeof sram / sizeof sram[0]; i++)
            json_null(j, sram[i]);
        json_end(j);
        json_obj(j, "l2");
        json_null(j, "read_sectors");
        json_null(j, "write_sectors");
        json_null(j, "hit_rate");
        json_end(j);
        json_obj(j, "dram");
        json_null(j, "read_bytes");
        json_null(j, "write_bytes");
        json_null(j, "dirty_after_bytes");
        json_null(j, "background_read_bytes");
        json_null(j, "background_write_bytes");
        json_null(j, "complete");
        json_end(j);
        json_num(j, "flops", k->flops);
        json_num(j, "time_ms", k->time_ms);
        json_int(j, "status", k->status);
        return;
    }
    int sim = !k->hw.valid;
    json_obj(j, "hbm");
    if (sim) {
        json_uint(j, "read_bytes", k->sim.hbm_read_bytes);
        json_uint(j, "write_bytes", k->sim.hbm_write_bytes);
    } else {
        json_uint(j, "read_bytes", k->hw.dram_read_bytes);
        json_uint(j, "write_bytes", k->hw.dram_write_bytes);
    }
    if (sim && !detailed) {
        json_null(j, "read_sectors");
        json_null(j, "write_sectors");
        json_null(j, "async_read_sectors");
        json_null(j, "atom_sectors");
    } else {
        json_uint(j, "read_sectors", be_ld_sectors(k));
        json_uint(j, "write_sectors", be_st_sectors(k));
        json_uint(j, "async_read_sectors", be_async_ld_sectors(k));
        if (sim || k->hw.atom_valid) /* atomics: global RED + ATOM sectors, apart from reads and writes */
            json_uint(j, "atom_sectors", be_atom_sectors(k));
        else
            json_null(j, "atom_sectors");
    }
    json_end(j);
    json_obj(j, "sram");
    if (sim) {
        json_uint(j, "read_bytes", k->sim.sram_read_bytes);
        json_uint(j, "write_bytes", k->sim.sram_write_bytes);
    } else {
        json_null(j, "read_bytes");
        json_null(j, "write_bytes");
    }
    if (sim && !detailed) {
        json_null(j, "wavefronts");
        json_null(j, "async_wavefronts");
        json_null(j, "atom_wavefronts");
        json_null(j, "bank_conflicts");
    } else {
        if (sim || k->hw.atom_valid)
            json_uint(j, "atom_wavefronts", be_shared_atom_wavefronts(k));
        else
            json_null(j, "atom_wavefronts");
        json_uint(j, "wavefronts", be_wavefronts(k));
        if (sim)
            json_uint(j, "async_wavefronts", k->sim.async_st_wavefronts);
        else
            json_null(j, "async_wavefronts"); /* no such counter in the range profiler */
        json_uint(j, "bank_conflicts", be_conflicts(k));
    }
    json_end(j);
    /* what reaches L2 and DRAM: the GPU's counters, or the simulator's L2 model (sim/l2.c) */
    json_obj(j, "l2");
    if (sim) {
        double h = lesson_l2_hit_rate(&k->sim);
        json_uint(j, "read_sectors", k->sim.l2_read_sectors);
        json_uint(j, "write_sectors", k->sim.l2_write_sectors);
        if (h >= 0)
            json_num(j, "hit_rate", h);
        else
            json_null(j, "hit_rate");
    } else {
        double h = lesson_hw_l2_hit_rate(&k->hw);
        json_uint(j, "read_sectors", k->hw.l2_read_sectors);
        json_uint(j, "write_sectors", k->hw.l2_write_sectors);
        if (h >= 0)
            json_num(j, "hit_rate", h);
        else
            json_null(j, "hit_rate"); /* not measured (the profiler lacks a metric), or not a rate */
    }
    json_end(j);
    json_obj(j, "dram");
    if (sim) {
        json_uint(j, "read_bytes", k->sim.dram_read_bytes);
        json_uint(j, "write_bytes", k->sim.dram_write_bytes);
        json_uint(j, "dirty_after_bytes", k->sim.l2_dirty_bytes);
        json_uint(j, "background_read_bytes", k->sim.dram_background_read_bytes);
        json_uint(j, "background_write_bytes", k->sim.dram_background_write_bytes);
        json_bool(j, "complete", !k->sim.l2_incomplete);
    } else {
        json_uint(j, "read_bytes", k->hw.dram_read_bytes);
        json_uint(j, "write_bytes", k->hw.dram_write_bytes);
        json_null(j, "dirty_after_bytes");
        json_null(j, "background_read_bytes");
        json_null(j, "background_write_bytes");
        json_bool(j, "complete", 1);
    }
    json_end(j);
    /* the time model (sim/timemodel.c): the simulator's counters over the preset's ceilings */
    json_obj(j, "time_model");
    if (sim) {
        sim_time_pred p = sim_time_model(sim_get_device(), &k->cfg, &k->sim, k->flops);
        json_num(j, "predicted_ms", p.seconds * 1e3);
        json_str(j, "bound", p.bound);
        json_num(j, "issue_ms", p.t_issue * 1e3);
        json_num(j, "shared_ms", p.t_smem * 1e3);
        json_num(j, "latency_ms", p.t_latency * 1e3);
        json_num(j, "blocks_ms", p.t_blocks * 1e3);
        json_num(j, "dram_ms", p.t_dram * 1e3);
        json_num(j, "l2_ms", p.t_l2 * 1e3);
        json_num(j, "warps", p.warps);
        json_num(j, "shared_wavefronts", p.wavefronts); /* counted (--detail) or estimated from a sample */
        json_num(j, "global_wavefronts", p.global_wavefronts); /* the same; on the L1 data pipe with shared_ms's */
        json_num(j, "l2_requests", p.l2_requests); /* store lines and the load lines missing L1: l2_ms's */
        json_num(j, "atomics_ms", p.t_atom * 1e3); /* the float atomics on the most-hit global word */
        json_uint(j, "atomics_one_word", k->sim.atom_fp_one_word);
        json_uint(j, "int_atomics_one_word", k->sim.atom_int_one_word);
        /* where the blocks ran (sim/launch.c): the busiest SM's work and blocks, the largest block's,
         * the most blocks an SM ran */
        json_uint(j, "work", k->sim.sched_work);
        json_uint(j, "sm_work", k->sim.sched_sm_work);
        json_uint(j, "sm_blocks", k->sim.sched_sm_blocks);
        json_uint(j, "block_work", k->sim.sched_block_work);
        json_uint(j, "max_sm_blocks", k->sim.sched_max_blocks);
        /* the blocks an SM holds (threads, shared memory, __launch_bounds__: sim/kernel.h), and the
         * warp instructions of shuffles and votes, which the model does not count yet */
        json_uint(j, "blocks_per_sm", sim_blocks_per_sm(sim_get_device(), &k->cfg));
        json_uint(j, "warp_shuffles", k->sim.warp_shuffles);
        json_uint(j, "warp_votes", k->sim.warp_votes);
        json_uint(j, "barriers", k->sim.barriers); /* __syncthreads a block, summed: none, more loads in flight */
    } else { /* the same keys, null: a JSON's shape does not depend on the backend */
        static const char *const keys[] = {"predicted_ms", "bound", "issue_ms", "shared_ms", "latency_ms",
                                           "blocks_ms", "dram_ms", "l2_ms", "warps", "shared_wavefronts", "global_wavefronts", "l2_requests",
                                           "atomics_ms", "atomics_one_word", "int_atomics_one_word",
                                           "work", "sm_work", "sm_blocks", "block_work", "max_sm_blocks",
                                           "blocks_per_sm", "warp_shuffles", "warp_votes", "barriers"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            json_null(j, keys[i]);
    }
    json_end(j);
    json_num(j, "flops", k->flops);
    json_num(j, "time_ms", k->time_ms);
    json_int(j, "status", k->status);
}

void lesson_json_kernel(json *j, const be_kernel *k, int detailed)
{
    json_obj(j, NULL);
    lesson_json_kernel_fields(j, k, detailed);
    json_end(j);
}
