/* lessons/06_block_programs/block_programs.cu - two Triton tutorial kernels as block programs.
 *
 * The course's Triton kernels, written line for line against tl.h (one
 * program = one CUDA block; a tile of BLOCK_SIZE elements spread over the
 * block's threads): the vector add of Triton's first tutorial and the fused
 * row softmax of its second. The tutorials' Python is quoted above each line,
 * and the kernels keep the tutorials' names (add_kernel, softmax_kernel, their
 * parameters) rather than this project's <op>_v1 so the two read side by side.
 *
 * Both kernels are declared __launch_bounds__(1024): a program may have up to
 * 1024 threads (bp_threads), and without the bound nvcc gave softmax_kernel
 * 66 registers a thread, more than an SM's 65536 hold for 1024 threads
 * (cudaErrorLaunchOutOfResources on the H200; the simulator has no register
 * file to run out of). With it: 56 and 64 registers, no spills (-Xptxas -v).
 *
 * Order (as in every kernel file): CPU references (and the host's check of
 * the tile contract), kernels, launchers. This file is compiled unchanged by
 * nvcc (--mode cuda) and by gcc as C (--mode sim).
 */
#include <math.h>
#include <stdio.h>

#include "kernel.h"
#include "tl.h"
#include "block_programs.h"

#ifndef __CUDACC__ /* host code: compiled once, in the simulator build */
/* x, y and z are (n,) arrays. */
__host__ void add_cpu(double *z, const float *x, const float *y, int n)
{
    for (int i = 0; i < n; i++)
        z[i] = (double)x[i] + (double)y[i];
}

/* x and y are (R, C), row-major. The safe formula in double precision. */
__host__ void softmax_rows_cpu(double *y, const float *x, int R, int C)
{
    for (int r = 0; r < R; r++) {
        const float *xr = x + (size_t)r * C;
        double *yr = y + (size_t)r * C;
        double m = -INFINITY, s = 0;
        for (int j = 0; j < C; j++)
            m = xr[j] > m ? xr[j] : m;
        for (int j = 0; j < C; j++)
            s += exp((double)xr[j] - m);
        for (int j = 0; j < C; j++)
            yr[j] = exp((double)xr[j] - m) / s;
    }
}

__host__ int bp_next_pow2(int n)
{
    int p = 1;
    while (p < n && p < (1 << 30))
        p <<= 1;
    return p;
}

__host__ int bp_max_block(void) { return TL_PER_THREAD * 1024; }

__host__ uint64_t bp_tile_sectors(long long base, long long valid, long long block, long long threads)
{
    uint64_t sec = 0;
    long long len = valid < block ? valid : block;
    for (long long s = 0; s * threads < len; s++)
        for (long long w = 0; w * 32 < threads; w++) {
            long long lo = s * threads + w * 32, hi = lo + 32 < len ? lo + 32 : len;
            if (lo < hi)
                sec += (uint64_t)((base + hi - 1) / 8 - (base + lo) / 8 + 1);
        }
    return sec;
}

__host__ int bp_threads(long long block, long long warps, char *why, size_t n)
{
    const long long most = (long long)TL_PER_THREAD * 1024;
    if (block < 1 || block > most || (block & (block - 1))) {
        snprintf(why, n,
                 "BLOCK_SIZE %lld must be a power of two from 1 to %lld: a tile is spread over at most 1024 threads "
                 "of %d slots each (TL_PER_THREAD); try 256, 1024 or 4096",
                 block, most, TL_PER_THREAD);
        return -1;
    }
    if (warps == 0) { /* 8 elements a thread: 4 warps at 1024, 8 at 2048, 16 at 4096 (the tutorial's) */
        warps = block / 256;
        warps = warps < 1 ? 1 : warps > 32 ? 32 : warps;
    }
    if (warps < 1 || warps > 32 || (warps & (warps - 1))) {
        snprintf(why, n, "--warps %lld is not a power of two from 1 to 32 (a block has at most 1024 threads)", warps);
        return -1;
    }
    long long threads = 32 * warps, per = (block + threads - 1) / threads;
    if (per > TL_PER_THREAD) {
        snprintf(why, n,
                 "BLOCK_SIZE %lld over %lld warps is %lld elements a thread; a tile holds at most %d a thread "
                 "(TL_PER_THREAD): use --warps %lld or more",
                 block, warps, per, TL_PER_THREAD, (block + 32LL * TL_PER_THREAD - 1) / (32LL * TL_PER_THREAD));
        return -1;
    }
    return (int)threads;
}
#endif

/* add_kernel (Triton tutorial 01, "Vector addition"): z = x + y over n
 * elements, one program per BLOCK_SIZE of them. The grid is
 * cdiv(n, BLOCK_SIZE) programs, so the last one's tile reaches past n: the
 * mask turns those lanes off, and a lane that is off loads and stores
 * nothing. HBM: read 8n bytes (x and y once), write 4n (z once).
 * LESSON: the mask is the block program's `if (idx < n)` (lesson 2). */
__global__ void __launch_bounds__(1024) add_kernel(const float *x_ptr, const float *y_ptr, float *output_ptr, int n_elements, int BLOCK_SIZE)
{
    if (!tl_fits(BLOCK_SIZE)) /* the host checks this (bp_threads); z then stays unwritten */
        return;
    /* pid = tl.program_id(axis=0) */
    int pid = tl_program_id(0);
    /* block_start = pid * BLOCK_SIZE */
    int block_start = pid * BLOCK_SIZE;
    /* offsets = block_start + tl.arange(0, BLOCK_SIZE) */
    tl_itile offsets = tl_add_i(tl_arange(BLOCK_SIZE), block_start);
    /* mask = offsets < n_elements */
    tl_itile mask = tl_lt_i(offsets, n_elements);
    /* x = tl.load(x_ptr + offsets, mask=mask); y = tl.load(y_ptr + offsets, mask=mask) */
    tl_tile x = tl_load(x_ptr, offsets, mask, 0.0f);
    tl_tile y = tl_load(y_ptr, offsets, mask, 0.0f);
    /* output = x + y */
    tl_tile output = tl_add(x, y);
    /* tl.store(output_ptr + offsets, output, mask=mask) */
    tl_store(output_ptr, offsets, output, mask);
}

/* softmax_kernel (Triton tutorial 02, "Fused softmax"): one program per row;
 * the whole row is one tile of BLOCK_SIZE >= n_cols elements (the next power
 * of two), so it is read from HBM once, reduced twice (max, then the sum of
 * exponentials) in registers and shared memory, and written once: HBM read
 * 4RC bytes, write 4RC. Lesson 3's softmax_safe reads the row three times
 * (12RC) because it keeps nothing between its passes.
 * The mask turns off the BLOCK_SIZE - n_cols lanes past the row's end in every
 * program; they load other = -inf, which tl_max ignores and exp turns into 0,
 * so they add nothing to the sum, and they store nothing.
 * LESSON: "fused" = the whole row stays on chip between the passes. */
__global__ void __launch_bounds__(1024) softmax_kernel(float *output_ptr, const float *input_ptr, int input_row_stride, int output_row_stride,
                               int n_rows, int n_cols, int BLOCK_SIZE)
{
    if (!tl_fits(BLOCK_SIZE)) /* the host checks this (bp_threads); the output then stays unwritten */
        return;
    /* row_idx = tl.program_id(0) */
    int row_idx = tl_program_id(0);
    if (row_idx >= n_rows) /* the same for the whole program, so no barrier is skipped by some threads only */
        return;
    /* row_start_ptr = input_ptr + row_idx * input_row_stride */
    const float *row_start_ptr = input_ptr + (size_t)row_idx * input_row_stride;
    /* col_offsets = tl.arange(0, BLOCK_SIZE); mask = col_offsets < n_cols */
    tl_itile col_offsets = tl_arange(BLOCK_SIZE);
    tl_itile mask = tl_lt_i(col_offsets, n_cols);
    /* row = tl.load(input_ptrs, mask=mask, other=-float('inf')) */
    tl_tile row = tl_load(row_start_ptr, col_offsets, mask, -INFINITY);
    /* row_minus_max = row - tl.max(row, axis=0) */
    tl_tile row_minus_max = tl_sub_s(row, tl_max(row));
    /* numerator = tl.exp(row_minus_max) */
    tl_tile numerator = tl_exp(row_minus_max);
    /* denominator = tl.sum(numerator, axis=0) */
    float denominator = tl_sum(numerator);
    /* softmax_output = numerator / denominator */
    tl_tile softmax_output = tl_div_s(numerator, denominator);
    /* tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask) */
    float *output_row_start_ptr = output_ptr + (size_t)row_idx * output_row_stride;
    tl_store(output_row_start_ptr, col_offsets, softmax_output, mask);
}

LAUNCHER(add_kernel, (const float *, x_ptr), (const float *, y_ptr), (float *, output_ptr), (int, n_elements),
         (int, BLOCK_SIZE))
LAUNCHER(softmax_kernel, (float *, output_ptr), (const float *, input_ptr), (int, input_row_stride),
         (int, output_row_stride), (int, n_rows), (int, n_cols), (int, BLOCK_SIZE))
