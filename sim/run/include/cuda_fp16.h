/* sim/run/include/cuda_fp16.h - half precision for `simtlab run`: __half (the 16 bits, an
 * unsigned short: size 2, alignment 2), __half2 (.x the low lane, .y the high one: size 4,
 * alignment 4), half and half2, __half_raw and __half2_raw; CUDA's conversions, arithmetic,
 * comparisons, math functions, operators, atomicAdd, and through cuda_runtime.h's templates the
 * shuffles and __ldg. The code is simtlab_lowp.h's, shared with bfloat16 (cuda_bf16.h). */
#ifndef SIMTLAB_CUDA_FP16_H
#define SIMTLAB_CUDA_FP16_H
#define __CUDA_FP16_H__ /* CUDA's include guard and feature macro, which programs test */
#define __CUDA_FP16_TYPES_EXIST__

typedef struct __attribute__((aligned(2))) {
    unsigned short x;
} __half_raw;
typedef struct __attribute__((aligned(4))) {
    unsigned short x, y;
} __half2_raw;

#ifdef __cplusplus /* in C, as CUDA's: the raw types alone */
#include "simtlab_lowp.h"

struct __attribute__((aligned(2))) __half : simtlab::lowp_types::scalar<__half, simtlab::lowp::f16, __half_raw> {
    using scalar::scalar;
};
struct __attribute__((aligned(4))) __half2 : simtlab::lowp_types::pair<__half2, __half, __half2_raw> {
    using pair::pair;
};
static_assert(sizeof(__half) == 2 && alignof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4,
              "CUDA's layout");
#ifndef CUDA_NO_HALF
typedef __half half;
typedef __half2 half2;
#endif

SIMTLAB_LOWP_API(__half, __half2, half, half2)
#ifndef __CUDA_NO_HALF_OPERATORS__
SIMTLAB_LOWP_OPERATORS(__half)
#endif
#ifndef __CUDA_NO_HALF2_OPERATORS__
SIMTLAB_LOWP_OPERATORS2(__half2)
#endif

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7c00u)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7fffu)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001u)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7bffu)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000u)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000u)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3c00u)
#endif /* __cplusplus */
#endif /* SIMTLAB_CUDA_FP16_H */
