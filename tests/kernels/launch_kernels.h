/* tests/kernels/launch_kernels.h - what tests/test_launch.c calls in launch_kernels.cu. */
#ifndef TEST_LAUNCH_KERNELS_H
#define TEST_LAUNCH_KERNELS_H
#include "simt_cfg.h"

#define IDS_FIELDS 12 /* blockIdx xyz, threadIdx xyz, blockDim xyz, gridDim xyz */

DECLARE_LAUNCHER(ids, (unsigned *, rec));
DECLARE_LAUNCHER(touch_dyn_shared, (int *, out), (int, nwords));
DECLARE_LAUNCHER(nothing, (int *, out));
#endif
