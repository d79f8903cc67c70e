/* tests/kernels/barrier_kernels.h - what tests/test_barrier.c calls in barrier_kernels.cu. */
#ifndef TEST_BARRIER_KERNELS_H
#define TEST_BARRIER_KERNELS_H
#include "simt_cfg.h"

DECLARE_LAUNCHER(reverse_block, (int *, out), (const int *, in));
DECLARE_LAUNCHER(reduce_tree, (int *, out), (const int *, in));
DECLARE_LAUNCHER(sync_ops, (int *, res), (const int *, pred));
DECLARE_LAUNCHER(skip_block0, (int *, out));
DECLARE_LAUNCHER(exit_then_wait, (int *, out), (int, k));
DECLARE_LAUNCHER(two_barriers, (int *, out), (int, k));
DECLARE_LAUNCHER(mixed_reduce, (int *, out));
DECLARE_LAUNCHER(diverge_in_block, (int *, out), (int, bad));
#endif
