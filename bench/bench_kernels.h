/* bench/bench_kernels.h */
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H
#include "simt_cfg.h"
/* floats of the window bench_shared_loads and bench_global_loads read (a power of 2);
 * bench_global_loads reads x[blockIdx.x * BENCH_WINDOW ...] */
#define BENCH_WINDOW 1024
DECLARE_LAUNCHER(bench_barriers, (int *, out), (int, iters));
DECLARE_LAUNCHER(bench_shuffles, (float *, out), (int, iters));
DECLARE_LAUNCHER(bench_shared_loads, (float *, out), (float *, x), (int, iters));
DECLARE_LAUNCHER(bench_global_loads, (float *, out), (float *, x), (int, iters));
#endif
