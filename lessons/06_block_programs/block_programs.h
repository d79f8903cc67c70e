/* lessons/06_block_programs/block_programs.h - what the lesson 6 driver calls in block_programs.cu. */
#ifndef LESSON06_BLOCK_PROGRAMS_H
#define LESSON06_BLOCK_PROGRAMS_H
#include <stddef.h>
#include <stdint.h>

#include "simt_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif
/* x, y, z are (n,): z = x + y in double. */
void add_cpu(double *z, const float *x, const float *y, int n);
/* x and y are (R, C), row-major; y is the softmax of each row (safe formula, double). */
void softmax_rows_cpu(double *y, const float *x, int R, int C);
/* The smallest power of two >= n (1 for n <= 1): the softmax's BLOCK_SIZE. */
int bp_next_pow2(int n);
/* The largest tile: TL_PER_THREAD * 1024 elements (16384). */
int bp_max_block(void);
/* 32-byte sectors of one program's masked tile access (tl.h's layout): slot s
 * of warp w covers the tile's elements s * threads + 32w .. + 31, of which the
 * first `valid` are on; the lanes on touch buffer elements base + i, and a warp
 * request touches the 8-float sectors from its first to its last. Buffers
 * start 32-byte aligned (cudaMalloc: 256 B; the simulator: 64 KiB). The closed
 * form the lesson prints and tests/test_block_programs.c checks. */
uint64_t bp_tile_sectors(long long base, long long valid, long long block, long long threads);
/* Threads for a program whose tiles have `block` elements (tl.h's contract):
 * block a power of two from 1 to TL_PER_THREAD * 1024; warps a power of two
 * from 1 to 32, or 0 for 8 elements a thread (block / 256 warps, 1 to 32,
 * as Triton's tutorials pick num_warps). Returns 32 * warps, or -1 with the
 * reason (the values given, the limit, what to use) in why. Never exits. */
int bp_threads(long long block, long long warps, char *why, size_t n);
#ifdef __cplusplus
}
#endif
/* add_kernel: grid (cdiv(n, BLOCK_SIZE)), block (bp_threads(BLOCK_SIZE, ...)). */
DECLARE_LAUNCHER(add_kernel, (const float *, x_ptr), (const float *, y_ptr), (float *, output_ptr),
                 (int, n_elements), (int, BLOCK_SIZE));
/* softmax_kernel: grid (n_rows), block (bp_threads(BLOCK_SIZE, ...)),
 * BLOCK_SIZE = bp_next_pow2(n_cols); strides in elements. */
DECLARE_LAUNCHER(softmax_kernel, (float *, output_ptr), (const float *, input_ptr), (int, input_row_stride),
                 (int, output_row_stride), (int, n_rows), (int, n_cols), (int, BLOCK_SIZE));
#endif
