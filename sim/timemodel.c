/* sim/timemodel.c - a kernel's time predicted from what it moves and computes
 * (issue 15, docs/l2-model.md "The time model").
 *
 * The lesson kernels on the H200 are mostly not bandwidth-bound: their grids
 * are small (flash v1 runs 2 blocks on 132 SMs) and a few warps an SM cannot
 * hide latency. So the model looks at the busiest SM, where the blocks would
 * run (sim/launch.c places them, in order, on the SM with the least work so
 * far), and takes the largest of these times, in SM clock cycles:
 *
 *   issue    its warp instructions over its issue rate: I / min(P, W / CPI).
 *            I = (FMAs + shared accesses + global accesses) / 32, counting
 *            FLOPs / 2 FMAs and an access a 4-byte word, plus SIM_TM_SHFL
 *            slots for each warp shuffle (the simulator counts them); W = the warps
 *            resident on that SM. A warp issues once every CPI cycles (its
 *            instructions wait on each other), the SM at most P a cycle.
 *   chain    the largest block's warp instructions one after another (x CPI):
 *            a causal grid of one wave takes as long as its longest block.
 *   shared   the L1 data pipe's wavefronts, one a cycle: its shared-memory
 *            wavefronts (detailed mode counts them, bank conflicts included;
 *            counting mode scales its shared bytes by the wavefronts a byte of
 *            its sample of the grid's first and last blocks: sim/launch.c
 *            sample_start; without a sample, 128 bytes a wavefront) and its
 *            global loads' and stores' wavefronts, one for each 128-byte line
 *            a warp request touches (counting mode: its global accesses times
 *            the sample's wavefronts an access). On the H100 a kernel of
 *            uncoalesced loads that hit the L1 runs at exactly one such
 *            wavefront a cycle (row sums, 32 lines a request:
 *            docs/gpu/s29-h100-coalescing); its bound is then "L1 (global
 *            lines)".
 *   latency  its global bytes over what its warps keep in flight (Little's
 *            law): C bytes a thread, L cycles each; C_FREE bytes in a kernel
 *            without __syncthreads (session 30: a column sum, a naive matmul).
 *   blocks   K cycles to start each block, on the SM that started the most
 *            (a grid of 65535 tiny blocks takes 55 us on the H200, whatever
 *            they do).
 *   DRAM     the launch's DRAM bytes over the chip's bandwidth.
 *   L2       its L2 sectors over the L2's bandwidth, or, where more, the L2's requests (which
 *            only bound: under another bound the L2 adds its bandwidth term, since the data
 *            the requests carry is the DRAM's or the L1's already counted there): each
 *            128-byte line of a warp request that reaches L2 (every store line: the L1 writes
 *            through; a load's lines that miss L1) at SIM_TM_L2_REQ, and each sector stored at
 *            SIM_TM_L2_WSEC, SIM_TM_L2_WPART if the request writes only part of it (measured on
 *            the H100, session 30). A naive transpose's stores, 32 partial sectors in 32 lines
 *            a request, keep the L2 busy 15x longer than the same bytes stored coalesced.
 *   atomics  the atomics on the launch's most-hit global word, one after another: floating-point
 *            ones at SIM_TM_ATOM_FP (session 31, the H100), integer ones at SIM_TM_ATOM_INT
 *            (session 32), counted as the chip issues them (one a warp where nvcc aggregates
 *            them, the rewriter's marks); the slower of the two words.
 *
 *   t = launch + (largest + BETA x (sum of the others)) / clock
 *
 * P, CPI, L, C, K and BETA (sim/launch.h) were fitted to the H200's lesson
 * kernels (the flushed sweep and a full-grid set: scripts/timemodel/fit_sm.py,
 * docs/l2-model.md); the bandwidths were measured on the chip
 * (scripts/gpu/ceilings.cu); the SM clock is the shared-memory ceiling over
 * 128 bytes a cycle an SM. Without FLOPs from the caller (simtlab run: the
 * simulator does not count arithmetic) the issue terms see memory
 * instructions only and predict low for compute-heavy kernels.
 */
#include <math.h>

#include "internal.h"

sim_time_pred sim_time_model(const sim_device *dev, const simt_cfg *cfg, const sim_counters *c, double flops)
{
    sim_time_pred p = {0};
    const sim_ceilings *k = &dev->ceil;
    double clock = k->smem_bytes_per_s / (128.0 * dev->sm_count);
    double blocks = (double)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    unsigned threads = cfg->block.x * cfg->block.y * cfg->block.z, wpb = (threads + 31) / 32;
    double fit = sim_blocks_per_sm(dev, cfg), nb, share, longest, starts;
    if (c->sched_work && c->sched_sm_blocks) { /* where sim/launch.c placed the blocks */
        nb = (double)c->sched_sm_blocks;
        /* block starts: on the SM that ran the most (one heavy block and many
         * empty ones: the SMs beside it start the empty ones), at least the busiest's */
        starts = c->sched_max_blocks > c->sched_sm_blocks ? (double)c->sched_max_blocks : nb;
        share = (double)c->sched_sm_work / (double)c->sched_work;
        longest = (double)c->sched_block_work / (double)c->sched_work;
    } else { /* even blocks, round the SMs */
        nb = ceil(blocks / dev->sm_count);
        share = nb / blocks;
        longest = 1.0 / blocks;
        starts = nb;
    }
    double W = (nb < fit ? nb : fit) * wpb, wmax = dev->max_threads_per_sm / 32.0;
    W = W < wmax ? W : wmax;
    double sram = (double)(c->sram_read_bytes + c->sram_write_bytes);
    double hbm = (double)(c->hbm_read_bytes + c->hbm_write_bytes);
    double instr = (flops / 2 + sram / 4 + hbm / 4) / 32 + SIM_TM_SHFL * (double)c->warp_shuffles;
    double rate = W / SIM_TM_CPI < SIM_TM_P ? W / SIM_TM_CPI : SIM_TM_P;
    double issue = share * instr / rate, chain = longest * instr / wpb * SIM_TM_CPI;
    p.t_issue = (issue > chain ? issue : chain) / clock;
    double wf = (double)(c->shared_ld_wavefronts + c->shared_st_wavefronts + c->shared_atom_wavefronts +
                         c->async_st_wavefronts);
    if (wf <= 0 && c->sample_sram_bytes) /* counting mode: its sample's wavefronts a byte */
        wf = sram * (double)c->sample_wavefronts / (double)c->sample_sram_bytes;
    double gwf = (double)c->global_wavefronts;
    if (gwf <= 0 && c->sample_global_accesses) /* counting mode: its sample's wavefronts an access */
        gwf = (double)c->global_accesses * (double)c->sample_global_wavefronts / (double)c->sample_global_accesses;
    else if (gwf <= 0 && !(c->global_ld_requests + c->global_st_requests + c->global_atom_requests +
                           c->async_requests)) /* counting mode without a sample: coalesced, 128 bytes a line */
        gwf = hbm / 128;
    p.wavefronts = wf > 0 ? wf : sram / 128;
    p.global_wavefronts = gwf;
    p.t_smem = share * (p.wavefronts + gwf) / clock;
    /* a kernel without barriers keeps more of its loads in flight: its loops' loads wait for no
     * barrier, and nvcc issues the next iterations' ahead (SIM_TM_C_FREE) */
    const double inflight = c->barriers ? SIM_TM_C : SIM_TM_C_FREE;
    p.t_latency = share * hbm * SIM_TM_L / (W * 32 * inflight) / clock;
    p.t_blocks = starts * SIM_TM_K / clock;
    p.t_dram = (double)(c->dram_read_bytes + c->dram_write_bytes) / k->dram_bytes_per_s;
    /* the L2's requests and the sectors they write: stores' lines, counted (detailed mode) or
     * from the sample (counting mode), or without either taken as coalesced (a line a 128 bytes,
     * whole sectors); loads' lines in the share of their sectors that reach L2 */
    double st_lines, st_sectors, st_partial, ld_sectors;
    if (c->global_ld_requests + c->global_st_requests + c->global_atom_requests + c->async_requests) {
        st_lines = (double)c->global_st_lines;
        st_sectors = (double)c->global_st_sectors;
        st_partial = (double)c->global_st_partial;
        ld_sectors = (double)c->global_ld_sectors;
    } else if (c->sample_global_accesses) {
        const double f = (double)c->global_accesses / (double)c->sample_global_accesses;
        st_lines = f * (double)c->sample_global_st_lines;
        st_sectors = f * (double)c->sample_global_st_sectors;
        st_partial = f * (double)c->sample_global_st_partial;
        ld_sectors = f * (double)c->sample_global_ld_sectors;
    } else { /* atomics' bytes are in hbm_write_bytes too: taken as stores here */
        st_lines = (double)c->hbm_write_bytes / 128;
        st_sectors = (double)c->hbm_write_bytes / 32;
        st_partial = 0;
        ld_sectors = (double)c->hbm_read_bytes / 32;
    }
    /* the loads' lines in the share of their sectors that reach L2 (the rest hit L1) */
    const double ld_lines = gwf > st_lines ? gwf - st_lines : 0;
    const double past = ld_sectors > 0 && (double)c->l2_read_sectors < ld_sectors ? (double)c->l2_read_sectors / ld_sectors
                                                                                     : 1.0;
    const double rd_req = ld_lines * past;
    p.l2_requests = rd_req + st_lines;
    const double t_req = k->l2_req_scale * (p.l2_requests * SIM_TM_L2_REQ + (st_sectors - st_partial) * SIM_TM_L2_WSEC +
                                     st_partial * SIM_TM_L2_WPART);
    p.t_l2 = 32.0 * (double)(c->l2_read_sectors + c->l2_write_sectors) / k->l2_bytes_per_s;
    const double t_l2_bw = p.t_l2;
    if (t_req > p.t_l2)
        p.t_l2 = t_req;
    /* atomics on one global word wait for each other at the L2 (a naive float sum into one word:
     * 8 M of them 14.7 ms on the H100; integer ones 2.4x faster): the slower of the two kinds'
     * most-hit words (two words are served side by side) */
    p.t_atom = k->l2_req_scale * fmax((double)c->atom_fp_one_word * SIM_TM_ATOM_FP,
                                      (double)c->atom_int_one_word * SIM_TM_ATOM_INT);
    p.warps = W;
    p.bound = "issue";
    double m = p.t_issue;
    if (p.t_smem > m)
        m = p.t_smem, p.bound = gwf > p.wavefronts ? "L1 (global lines)" : "shared memory";
    if (p.t_latency > m)
        m = p.t_latency, p.bound = "memory latency";
    if (p.t_blocks > m)
        m = p.t_blocks, p.bound = "block starts";
    if (p.t_dram > m)
        m = p.t_dram, p.bound = "DRAM";
    if (p.t_l2 > m)
        m = p.t_l2, p.bound = "L2";
    if (p.t_atom > m)
        m = p.t_atom, p.bound = "atomics on one word";
    /* the L2's requests bound, or add nothing but the bandwidth term (session 30: added to a DRAM
     * bound they put strided copies 3-12 points further over the H100) */
    double sum = p.t_issue + p.t_smem + p.t_latency + p.t_blocks + p.t_dram + (m == p.t_l2 ? p.t_l2 : t_l2_bw) + p.t_atom,
           t = m + SIM_TM_BETA * (sum - m);
    if (t < k->launch_s)
        p.bound = "launch";
    p.seconds = k->launch_s + t;
    return p;
}

/* The session-9 roofline, kept for one use: sim/l2.c's background cleaning,
 * whose rate (18.7 MB/s of dirty lines) was fitted with these times. */
double sim_time_roofline(const sim_device *dev, const simt_cfg *cfg, const sim_counters *c)
{
    const sim_ceilings *k = &dev->ceil;
    double blocks = (double)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    double busy = blocks < dev->sm_count ? blocks / dev->sm_count : 1.0;
    unsigned warps = (cfg->block.x * cfg->block.y * cfg->block.z + 31) / 32;
    double per_sm = ceil(blocks / dev->sm_count), fit = sim_blocks_per_sm(dev, cfg);
    double resident = (per_sm < fit ? per_sm : fit) * warps, occ = resident < 64 ? resident / 64 : 1.0;
    double t[3] = {(double)(c->dram_read_bytes + c->dram_write_bytes) / k->dram_bytes_per_s / busy,
                   32.0 * (double)(c->l2_read_sectors + c->l2_write_sectors) / k->l2_bytes_per_s / busy,
                   (double)(c->sram_read_bytes + c->sram_write_bytes) / k->smem_bytes_per_s / busy};
    double m = t[0] > t[1] ? t[0] : t[1];
    m = m > t[2] ? m : t[2];
    return k->launch_s + (m + 0.25 * (t[0] + t[1] + t[2] - m)) / occ;
}
