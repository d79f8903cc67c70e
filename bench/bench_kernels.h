/* bench/bench_kernels.h */
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H
#include "simt_cfg.h"
DECLARE_LAUNCHER(bench_barriers, (int *, out), (int, iters));
DECLARE_LAUNCHER(bench_loads, (float *, out), (const float *, x), (int, iters), (int, window));
#endif
