/* sim/run/include/cuda_bf16.h - bfloat16 for `simtlab run`: __nv_bfloat16 (the upper 16 bits
 * of a float: size 2, alignment 2), __nv_bfloat162 (.x, .y: size 4, alignment 4), nv_bfloat16
 * and nv_bfloat162, the raw types; the same functions and operators as half's (cuda_fp16.h,
 * which this header includes, as CUDA's does), on simtlab_lowp.h's code. */
#ifndef SIMTLAB_CUDA_BF16_H
#define SIMTLAB_CUDA_BF16_H
#define __CUDA_BF16_H__ /* CUDA's include guard and feature macro, which programs test */
#define __CUDA_BF16_TYPES_EXIST__

#include "cuda_fp16.h"

typedef struct __attribute__((aligned(2))) {
    unsigned short x;
} __nv_bfloat16_raw;
typedef struct __attribute__((aligned(4))) {
    unsigned short x, y;
} __nv_bfloat162_raw;

#ifdef __cplusplus
struct __attribute__((aligned(2))) __nv_bfloat16
    : simtlab::lowp_types::scalar<__nv_bfloat16, simtlab::lowp::bf16, __nv_bfloat16_raw> {
    using scalar::scalar;
};
struct __attribute__((aligned(4))) __nv_bfloat162
    : simtlab::lowp_types::pair<__nv_bfloat162, __nv_bfloat16, __nv_bfloat162_raw> {
    using pair::pair;
};
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4 &&
                  alignof(__nv_bfloat162) == 4,
              "CUDA's layout");
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

SIMTLAB_LOWP_API(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)
#ifndef __CUDA_NO_BFLOAT16_OPERATORS__
SIMTLAB_LOWP_OPERATORS(__nv_bfloat16)
#endif
#ifndef __CUDA_NO_BFLOAT162_OPERATORS__
SIMTLAB_LOWP_OPERATORS2(__nv_bfloat162)
#endif

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7f80u)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7fffu)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001u)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7f7fu)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000u)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000u)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3f80u)
#endif /* __cplusplus */
#endif /* SIMTLAB_CUDA_BF16_H */
