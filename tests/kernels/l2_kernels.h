/* tests/kernels/l2_kernels.h - what tests/test_l2.c calls in l2_kernels.cu. */
#ifndef TEST_L2_KERNELS_H
#define TEST_L2_KERNELS_H
#include "simt_cfg.h"

DECLARE_LAUNCHER(l2_read, (float *, sink), (const float *, x), (long long, n), (int, passes), (int, stride));
DECLARE_LAUNCHER(l2_write, (float *, y), (long long, n), (float, v));
DECLARE_LAUNCHER(l2_write_strided, (float *, y), (long long, n), (int, stride), (float, v));
DECLARE_LAUNCHER(l2_read_all_blocks, (float *, sink), (const float *, x), (int, n));
DECLARE_LAUNCHER(l2_atomic_one, (int *, counter));
DECLARE_LAUNCHER(l2_turns, (int *, log), (int *, ticket), (const float *, x), (int, iters));
DECLARE_LAUNCHER(l2_read_chunks, (float *, sink), (const float *, x), (long long, n), (int, chunks));
DECLARE_LAUNCHER(l2_read_chunks_lb1, (float *, sink), (const float *, x), (long long, n), (int, chunks));
DECLARE_LAUNCHER(l2_read_chunks_lb2, (float *, sink), (const float *, x), (long long, n), (int, chunks));
DECLARE_LAUNCHER(l2_read_then_write, (float *, y), (const float *, x), (long long, n), (long long, m));
DECLARE_LAUNCHER(l2_uneven, (float *, out), (const float *, in), (int, heavy));
DECLARE_LAUNCHER(l2_write_reading, (float *, y), (long long, n), (const float *, x), (long long, m));
#endif
