/* sim/run/include/simtlab_wmma.h - what mma.h (nvcuda::wmma, C++) and sim/run/wmma.c (C) share:
 * a fragment's descriptor and the three calls that do a fragment's work on the simulator.
 *
 * A descriptor names the fragment's use (A, B or the accumulator), shape, element type and, for A
 * and B, the layout its load reads (row_major 0, col_major 1). The number of elements a lane holds
 * (fragment::num_elements) is SIMTLAB_WMMA_NE's; which element of the matrix each holds is
 * sim/run/wmma.c's (the H200's, measured: wmma.c's header). */
#ifndef SIMTLAB_WMMA_H
#define SIMTLAB_WMMA_H

#include <stdint.h>

enum { SIMTLAB_WMMA_A, SIMTLAB_WMMA_B, SIMTLAB_WMMA_C };
enum { SIMTLAB_WMMA_M16N16K16, SIMTLAB_WMMA_M32N8K16, SIMTLAB_WMMA_M8N32K16, SIMTLAB_WMMA_M16N16K8,
       SIMTLAB_WMMA_M8N8K4 };
/* element types: the multiplicands' (f16, bf16, tf32, f64, s8, u8) and the accumulators' (f16, f32, f64, s32) */
enum { SIMTLAB_WMMA_F16, SIMTLAB_WMMA_BF16, SIMTLAB_WMMA_TF32, SIMTLAB_WMMA_F64, SIMTLAB_WMMA_S8, SIMTLAB_WMMA_U8,
       SIMTLAB_WMMA_F32, SIMTLAB_WMMA_S32 };
#define SIMTLAB_WMMA_DESC(use, shape, type, col) ((unsigned)(use) | (unsigned)(shape) << 2 | (unsigned)(type) << 5 | (unsigned)(col) << 9)
#define SIMTLAB_WMMA_USE(d) ((d) & 3u)
#define SIMTLAB_WMMA_SHAPE(d) ((d) >> 2 & 7u)
#define SIMTLAB_WMMA_TYPE(d) ((d) >> 5 & 15u)
#define SIMTLAB_WMMA_COL(d) ((d) >> 9 & 1u)
/* the shape's m, n, k */
#define SIMTLAB_WMMA_M(s) ((s) == SIMTLAB_WMMA_M32N8K16 ? 32 : (s) == SIMTLAB_WMMA_M8N32K16 || (s) == SIMTLAB_WMMA_M8N8K4 ? 8 : 16)
#define SIMTLAB_WMMA_N(s) ((s) == SIMTLAB_WMMA_M32N8K16 || (s) == SIMTLAB_WMMA_M8N8K4 ? 8 : (s) == SIMTLAB_WMMA_M8N32K16 ? 32 : 16)
#define SIMTLAB_WMMA_K(s) ((s) == SIMTLAB_WMMA_M16N16K8 ? 8 : (s) == SIMTLAB_WMMA_M8N8K4 ? 4 : 16)
/* rows and columns of the fragment's matrix: A is m x k, B k x n, the accumulator m x n */
#define SIMTLAB_WMMA_ROWS(use, s) ((use) == SIMTLAB_WMMA_B ? SIMTLAB_WMMA_K(s) : SIMTLAB_WMMA_M(s))
#define SIMTLAB_WMMA_COLS(use, s) ((use) == SIMTLAB_WMMA_A ? SIMTLAB_WMMA_K(s) : SIMTLAB_WMMA_N(s))
/* elements a lane holds (CUDA's num_elements): the matrix's share of one lane, but 16 for every
 * half multiplicand (its share repeated: 2x at m16n16k16, 4x for the 8-row A of m8n32k16 and the
 * 8-column B of m32n8k16) */
#define SIMTLAB_WMMA_NE(use, s, type)                                                                                  \
    ((use) != SIMTLAB_WMMA_C && (type) == SIMTLAB_WMMA_F16 ? 16                                                        \
                                                           : SIMTLAB_WMMA_ROWS(use, s) * SIMTLAB_WMMA_COLS(use, s) / 32)
/* bytes an element takes in memory and in the fragment */
#define SIMTLAB_WMMA_ESIZE(type)                                                                                       \
    ((type) == SIMTLAB_WMMA_F64 ? 8 : (type) == SIMTLAB_WMMA_S8 || (type) == SIMTLAB_WMMA_U8 ? 1                      \
     : (type) == SIMTLAB_WMMA_F16 || (type) == SIMTLAB_WMMA_BF16 ? 2 : 4)

#ifdef __cplusplus
extern "C" {
#endif
/* load_matrix_sync: the lane's elements of the fragment x (descriptor desc) from the matrix at p,
 * leading dimension ldm elements, column-major if mem_col; store_matrix_sync the other way. Each
 * memory access is checked and counted as the chip's loads and stores of the fragment make it;
 * a pointer that is not 32-byte aligned or an ldm that is not a multiple of 16 bytes is reported
 * at the caller's line, and the block ends. */
void sim_wmma_load(void *x, unsigned desc, const void *p, unsigned ldm, int mem_col, const char *file, int line);
void sim_wmma_store(void *p, unsigned desc, const void *x, unsigned ldm, int mem_col, const char *file, int line);
/* mma_sync: d = a b + c for the warp, a rendezvous of its 32 lanes (.aligned: all of them, at the
 * same call); the last lane to arrive computes for all. satf: clamp to the type's range (s32) or
 * turn NaN to 0 and clamp infinities (floating point), as wmma's satf does. */
void sim_wmma_mma(void *d, unsigned dd, const void *a, unsigned ad, const void *b, unsigned bd, const void *c,
                  unsigned cd, int satf, const char *file, int line);
#ifdef __cplusplus
}
#endif
#endif /* SIMTLAB_WMMA_H */
