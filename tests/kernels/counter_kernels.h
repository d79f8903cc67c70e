/* tests/kernels/counter_kernels.h - what tests/test_counters.c calls in counter_kernels.cu. */
#ifndef TEST_COUNTER_KERNELS_H
#define TEST_COUNTER_KERNELS_H
#include "simt_cfg.h"

#define TILE 32     /* a transpose tile is TILE x TILE floats */
#define TILE_ROWS 8 /* threads per block: TILE x TILE_ROWS */

DECLARE_LAUNCHER(copy_strided, (float *, y), (const float *, x), (int, n), (int, stride));
DECLARE_LAUNCHER(transpose_naive, (float *, out), (const float *, in), (int, n));
DECLARE_LAUNCHER(transpose_tiled, (float *, out), (const float *, in), (int, n));
DECLARE_LAUNCHER(transpose_padded, (float *, out), (const float *, in), (int, n));
DECLARE_LAUNCHER(local_array, (int *, out), (int, n));
DECLARE_LAUNCHER(shared_doubles, (double *, out), (int, stride));
DECLARE_LAUNCHER(shared_gather, (float *, out), (int, k), (int, spread));
DECLARE_LAUNCHER(shared_probe4, (float *, out), (const int *, idx));
DECLARE_LAUNCHER(shared_probe8, (double *, out), (const int *, idx));
DECLARE_LAUNCHER(global_float4, (float *, y), (const float *, x), (int, stride));
DECLARE_LAUNCHER(scatter_words, (float *, y), (int, stride), (int, gap));
DECLARE_LAUNCHER(log_mix, (float *, out), (const float *, g), (int, n), (int, generic));
DECLARE_LAUNCHER(long_stretch, (float *, y), (const float *, x), (int, n));
DECLARE_LAUNCHER(shared_stretch, (float *, y), (int, n));
DECLARE_LAUNCHER(global_then_race, (float *, y), (const float *, x), (int, n));
DECLARE_LAUNCHER(copy_async_tile, (float *, y), (const float *, x), (int, stride), (int, misuse));
#endif
