/* tests/kernels/fault_kernels.h - what tests/test_faults.c calls in fault_kernels.cu. */
#ifndef TEST_FAULT_KERNELS_H
#define TEST_FAULT_KERNELS_H
#include "simt_cfg.h"

DECLARE_LAUNCHER(divide_at, (int *, out), (int, num), (int, den), (int, bb), (int, bt));
DECLARE_LAUNCHER(store_through, (int *, out), (int *, p), (int, bt));
DECLARE_LAUNCHER(memset_through, (int *, out), (int *, p), (int, n), (int, bt));
DECLARE_LAUNCHER(write_constant, (int *, out), (int, bt));
DECLARE_LAUNCHER(device_counter, (int *, out));
DECLARE_LAUNCHER(spin_forever, (int *, out), (int, bb), (int, bt), (int, others_wait));
DECLARE_LAUNCHER(spin_after_barrier, (int *, out), (int, bt));
DECLARE_LAUNCHER(spin_after_shuffle, (int *, out));
DECLARE_LAUNCHER(loop_forever_loads, (float *, out), (const float *, in), (int, bt));
DECLARE_LAUNCHER(wait_for_last, (int *, out));
DECLARE_LAUNCHER(wait_for_global_flag, (int *, out), (int *, flag), (int, pollers));
DECLARE_LAUNCHER(spin_lock_sum, (int *, out), (int *, lock));
#endif
