/* sim/timemodel.c - a kernel's time predicted from what it moves and computes
 * (issue 15): a roofline over the preset's ceilings.
 *
 *   terms = DRAM bytes / DRAM rate, L2 bytes / L2 rate,
 *           shared bytes / shared rate, FLOPs / FP32 rate
 *   t = launch + (max(terms) + 1/4 (sum(terms) - max(terms))) / busy / warps
 *
 * DRAM bytes are the L2 model's (sim/l2.c), L2 bytes the sectors that reached
 * L2, shared bytes what the kernel read and wrote in shared memory; FLOPs
 * come from the caller (the simulator does not count arithmetic). busy: the
 * fraction of the chip a grid can use, min(1, blocks / SMs): a grid of 2
 * blocks runs on 2 SMs. warps: the resident warps of an SM over 64 (a full
 * SM; fewer warps hide less latency), at most 1. The other terms overlap the
 * largest only in part (a quarter of them adds). Both constants were fitted
 * to the H200's lesson kernels (docs/l2-model.md, where the fit and its
 * misses are). The largest term names what bounds the kernel. The
 * ceilings of the h200 preset were measured on the chip
 * (scripts/gpu/ceilings.cu, docs/gpu/l2-run3/ceilings.txt); the others are
 * scaled from their datasheets (docs/l2-model.md).
 */
#include <math.h>

#include "internal.h"

sim_time_pred sim_time_model(const sim_device *dev, const simt_cfg *cfg, const sim_counters *c, double flops)
{
    sim_time_pred p = {0};
    const sim_ceilings *k = &dev->ceil;
    double blocks = (double)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    double busy = blocks < dev->sm_count ? blocks / dev->sm_count : 1.0;
    unsigned warps = (cfg->block.x * cfg->block.y * cfg->block.z + 31) / 32;
    double per_sm = ceil(blocks / dev->sm_count), fit = sim_blocks_per_sm(dev, cfg);
    double resident = (per_sm < fit ? per_sm : fit) * warps, occ = resident < 64 ? resident / 64 : 1.0;
    p.t_dram = (double)(c->dram_read_bytes + c->dram_write_bytes) / k->dram_bytes_per_s / busy;
    p.t_l2 = 32.0 * (double)(c->l2_read_sectors + c->l2_write_sectors) / k->l2_bytes_per_s / busy;
    p.t_smem = (double)(c->sram_read_bytes + c->sram_write_bytes) / k->smem_bytes_per_s / busy;
    p.t_fp32 = flops / k->fp32_flops_per_s / busy;
    p.occupancy = occ;
    p.bound = "DRAM";
    double m = p.t_dram;
    if (p.t_l2 > m)
        m = p.t_l2, p.bound = "L2";
    if (p.t_smem > m)
        m = p.t_smem, p.bound = "shared memory";
    if (p.t_fp32 > m)
        m = p.t_fp32, p.bound = "FP32";
    double sum = p.t_dram + p.t_l2 + p.t_smem + p.t_fp32, t = (m + 0.25 * (sum - m)) / occ;
    if (t < k->launch_s)
        p.bound = "launch";
    p.seconds = k->launch_s + t;
    return p;
}
