/* tests/kernels/warp_kernels.h - what tests/test_warp.c calls in warp_kernels.cu. */
#ifndef TEST_WARP_KERNELS_H
#define TEST_WARP_KERNELS_H
#include "simt_cfg.h"

enum { WARP_SHFL_IDX, WARP_SHFL_UP, WARP_SHFL_DOWN, WARP_SHFL_XOR };
#define WARP_SENTINEL 0x7eadbeef /* written by lanes outside the mask */

DECLARE_LAUNCHER(shfl_int, (int *, out), (const int *, in), (int, kind), (int, arg), (int, width), (unsigned, mask));
DECLARE_LAUNCHER(shfl_float, (float *, out), (const float *, in), (int, kind), (int, arg), (int, width), (unsigned, mask));
DECLARE_LAUNCHER(shfl_double, (double *, out), (const double *, in), (int, kind), (int, arg), (int, width), (unsigned, mask));
DECLARE_LAUNCHER(votes, (unsigned *, out), (const int *, pred), (unsigned, mask));
DECLARE_LAUNCHER(warp_layout, (unsigned *, out));
DECLARE_LAUNCHER(active_after_exit, (unsigned *, out), (int, k));
DECLARE_LAUNCHER(syncwarp_swap, (int *, out), (unsigned, mask), (int, use_sync));
DECLARE_LAUNCHER(nested_masks, (int *, out));
DECLARE_LAUNCHER(shfl_after_exit, (int *, out), (int, gone), (int, src));
DECLARE_LAUNCHER(ballot_after_exit, (unsigned *, out), (int, gone));
DECLARE_LAUNCHER(two_rdv_exit, (unsigned *, out));
DECLARE_LAUNCHER(many_groups, (int *, out), (int, groups));
DECLARE_LAUNCHER(mask_mismatch, (int *, out));
DECLARE_LAUNCHER(vote_mismatch, (unsigned *, out));
DECLARE_LAUNCHER(width_mismatch, (int *, out));
DECLARE_LAUNCHER(mask_without_caller, (int *, out));
DECLARE_LAUNCHER(shfl_vs_barrier, (int *, out));
DECLARE_LAUNCHER(full_mask_partial_warp, (unsigned *, out));
DECLARE_LAUNCHER(mma_tile, (float *, D), (const float *, A), (const float *, B), (int, three));
DECLARE_LAUNCHER(tf32_round_of, (float *, out), (const float *, in), (int, n));
#endif
