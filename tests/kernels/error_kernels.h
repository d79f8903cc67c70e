/* tests/kernels/error_kernels.h - what tests/test_errors.c calls in error_kernels.cu. */
#ifndef TEST_ERROR_KERNELS_H
#define TEST_ERROR_KERNELS_H
#include "simt_cfg.h"

#define BIG_LOCAL_MAX 20480 /* floats: 80 KiB */

DECLARE_LAUNCHER(read_at, (float *, out), (const float *, in), (long long, off), (int, bb), (int, bt));
DECLARE_LAUNCHER(write_at, (float *, out), (long long, off), (int, bb), (int, bt));
DECLARE_LAUNCHER(dyn_shared_at, (int *, out), (int, idx));
DECLARE_LAUNCHER(misaligned_at, (char *, base), (int, off));
DECLARE_LAUNCHER(misaligned_read_at, (float *, out), (const char *, base), (int, off));
DECLARE_LAUNCHER(misaligned_shared_at, (int, off));
DECLARE_LAUNCHER(misaligned_local4, (float *, out), (int, off));
DECLARE_LAUNCHER(big_local, (float *, out), (int, n));
DECLARE_LAUNCHER(deep_recursion, (int *, out), (int, depth));
DECLARE_LAUNCHER(shared_rotate, (int *, out), (int, shift), (int, use_barrier));
DECLARE_LAUNCHER(scribble_stack, (int *, out));
DECLARE_LAUNCHER(huge_local, (float *, out), (int, n));
DECLARE_LAUNCHER(byte_flags, (int *, out));
DECLARE_LAUNCHER(shared_flag, (int *, out), (int, mode));
DECLARE_LAUNCHER(shared_parts, (int *, out), (int, mode));
DECLARE_LAUNCHER(shared_flag_more, (int *, out), (int, mode));
DECLARE_LAUNCHER(shared_reread, (int *, out), (int, mode), (int, dyn));
#endif
